/**
 * Build steps of the PWA (vite.config.ts): precompressed copies of every text file, and the list
 * of files a driver's phone precaches (the driver app, not the admin and depot screens).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|webmanifest|json|txt|map)$/;
/** Below this a compressed copy saves less than the headers it costs. */
const MIN_BYTES = 512;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? (e.name === '.vite' ? [] : walk(p)) : [p];
  });
}

/** Writes `file.br` (quality 11) and `file.gz` (level 9) beside each text file of the build; the server sends them as they are. */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'courier-precompress',
    apply: 'build',
    configResolved(config) { outDir = resolve(config.root, config.build.outDir); },
    // After the service worker is generated (vite-plugin-pwa, also sequential) so sw.js is compressed too.
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        for (const file of walk(outDir)) {
          if (!COMPRESSIBLE.test(file) || statSync(file).size < MIN_BYTES) continue;
          const bytes = readFileSync(file);
          writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
          writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
        }
      },
    },
  };
}

interface ChunkLike { type: 'chunk'; fileName: string; isEntry: boolean; facadeModuleId: string | null; imports: string[]; dynamicImports: string[]; viteMetadata?: { importedCss: Set<string>; importedAssets: Set<string> } }

/**
 * The files the driver's phone needs offline: the entry chunk and its static imports, and the
 * driver app with everything it imports, statically or on first use (screens, scanner, optimiser).
 * Admin and depot chunks are left to the network. Filled at generateBundle, read by workbox's
 * manifestTransforms when the service worker is written.
 */
export function driverPrecache(driverModule = '/client/driver/index.tsx'): { plugin: Plugin; keep: (url: string) => boolean } {
  const files = new Set<string>();
  const plugin: Plugin = {
    name: 'courier-driver-precache',
    apply: 'build',
    generateBundle(_options, bundle) {
      files.clear();
      const chunks = new Map(Object.values(bundle).filter((c): c is typeof c & ChunkLike => c.type === 'chunk').map((c) => [c.fileName, c as unknown as ChunkLike]));
      const add = (name: string, dynamic: boolean) => {
        const stack = [name];
        while (stack.length) {
          const f = stack.pop() as string;
          if (files.has(f)) continue;
          files.add(f);
          const c = chunks.get(f);
          if (!c) continue;
          for (const css of c.viteMetadata?.importedCss ?? []) files.add(css);
          for (const asset of c.viteMetadata?.importedAssets ?? []) files.add(asset);
          stack.push(...c.imports, ...(dynamic ? c.dynamicImports : []));
        }
      };
      const driver = [...chunks.values()].find((c) => c.facadeModuleId?.replace(/\\/g, '/').endsWith(driverModule));
      if (!driver) throw new Error(`${driverModule} is not a chunk of its own: the precache list cannot be built`);
      for (const c of chunks.values()) if (c.isEntry) add(c.fileName, false);
      add(driver.fileName, true);
    },
  };
  /**
   * The driver app's chunks are fetched together with the entry instead of one round trip after it:
   * on a 3G link that round trip is over half a second. Plain <link> tags, not a script choosing by
   * route: the CSP allows no inline script (docs/security.md), and a separate script file would cost
   * the very round trip this saves. Other screens pay a one-off ~60 KB download on a desktop link.
   */
  plugin.transformIndexHtml = {
    order: 'post',
    handler(html, ctx) {
      // The app's page only: the recipients' tracking page stays free of app code.
      if (!ctx.bundle || !ctx.path.endsWith('/index.html')) return html;
      const chunks = new Map(Object.values(ctx.bundle).filter((c) => c.type === 'chunk').map((c) => [c.fileName, c as unknown as ChunkLike]));
      const driver = [...chunks.values()].find((c) => c.facadeModuleId?.replace(/\\/g, '/').endsWith(driverModule));
      if (!driver) return html;
      const list = new Set<string>();
      const stack = [driver.fileName];
      while (stack.length) {
        const f = stack.pop() as string;
        if (list.has(f)) continue;
        list.add(f);
        const c = chunks.get(f);
        for (const css of c?.viteMetadata?.importedCss ?? []) list.add(css);
        stack.push(...(c?.imports ?? []));
      }
      const links = [...list].filter((f) => !html.includes(`/${f}"`))
        .map((f) => (f.endsWith('.css') ? `<link rel="preload" as="style" href="/${f}">` : `<link rel="modulepreload" href="/${f}">`));
      return html.replace('</head>', `${links.join('\n')}\n</head>`);
    },
  };
  // Files outside assets/ (index.html, icons, the web manifest) are always kept.
  return { plugin, keep: (url) => !url.replace(/^\//, '').startsWith('assets/') || files.has(url.replace(/^\//, '').split('?')[0]!) };
}
