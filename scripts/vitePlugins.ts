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

interface ChunkLike { type: 'chunk'; fileName: string; isEntry: boolean; facadeModuleId: string | null; moduleIds: string[]; imports: string[]; dynamicImports: string[]; viteMetadata?: { importedCss: Set<string>; importedAssets: Set<string> } }

type Bundle = Record<string, { type: string }>;

function chunksOf(bundle: Bundle): Map<string, ChunkLike> {
  return new Map(Object.values(bundle).filter((c) => c.type === 'chunk').map((c) => [(c as unknown as ChunkLike).fileName, c as unknown as ChunkLike]));
}

/** The chunk a module starts (its facade), else the chunk that holds it (a merged group). */
function chunkOfModule(chunks: Map<string, ChunkLike>, module: string): ChunkLike | undefined {
  const is = (id: string | null) => id?.replace(/\\/g, '/').endsWith(module) ?? false;
  return [...chunks.values()].find((c) => is(c.facadeModuleId)) ?? [...chunks.values()].find((c) => c.moduleIds.some(is));
}

/** A chunk's files: itself, its CSS and assets, and the chunks it imports (and, with `dynamic`, those it loads on use). */
function closureOf(chunks: Map<string, ChunkLike>, start: string, dynamic: boolean): Set<string> {
  const files = new Set<string>();
  const stack = [start];
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
  return files;
}

/**
 * The files one screen needs offline, listed in `fileName` (e.g. `depot-precache.json`): the screen's
 * chunk and everything it imports, statically or on first use. The screen itself caches them once
 * it has loaded with signal (client/app/offlineCache.ts), so they cost nothing to a phone that
 * never opens it, unlike the service worker's precache. `precached` names the files that precache
 * holds already (driverPrecache's keep, whose list is filled by then: plugins run in order).
 */
export function screenPrecacheList(module: string, fileName: string, precached: (url: string) => boolean = () => false): Plugin {
  return {
    name: `courier-precache-list-${fileName}`,
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = chunksOf(bundle as Bundle);
      const screen = chunkOfModule(chunks, module);
      if (!screen) throw new Error(`${module} is not a chunk of its own: ${fileName} cannot be built`);
      // Not through the entry chunks: following their dynamic imports would list every screen of
      // the app. Nor what the service worker's precache has already (`precached`, run after it).
      const files = [...closureOf(new Map([...chunks].filter(([, c]) => !c.isEntry)), screen.fileName, true)]
        .map((f) => `/${f}`).filter((f) => !precached(f)).sort();
      this.emitFile({ type: 'asset', fileName, source: `${JSON.stringify({ files })}\n` });
    },
  };
}

/**
 * The files the driver's phone needs offline: the entry chunk and its static imports, and the
 * driver app with everything it imports, statically or on first use (screens, scanner, optimiser).
 * Admin and depot chunks are left to the network (the depot caches its own, screenPrecacheList).
 * Filled at generateBundle, read by workbox's manifestTransforms when the service worker is written.
 */
export function driverPrecache(driverModule = '/client/driver/index.tsx'): { plugin: Plugin; keep: (url: string) => boolean } {
  const files = new Set<string>();
  const plugin: Plugin = {
    name: 'courier-driver-precache',
    apply: 'build',
    generateBundle(_options, bundle) {
      files.clear();
      const chunks = chunksOf(bundle as Bundle);
      const driver = chunkOfModule(chunks, driverModule);
      if (!driver) throw new Error(`${driverModule} is not a chunk of its own: the precache list cannot be built`);
      const driverApp = closureOf(chunks, driver.fileName, true);
      const lists = [...[...chunks.values()].filter((c) => c.isEntry).map((c) => closureOf(chunks, c.fileName, false)), driverApp];
      for (const list of lists) for (const f of list) files.add(f);
      // The driver's day chunk carries driver.css: a screen of another app importing it (say through a
      // shared helper a chunk group took into the day) gets the driver's styles over its own.
      const day = chunkOfModule(chunks, '/client/driver/Workday.tsx');
      if (day) {
        const strangers = [...chunks.values()].filter((c) => !driverApp.has(c.fileName) && c.imports.includes(day.fileName)).map((c) => c.fileName);
        if (strangers.length) throw new Error(`${strangers.join(', ')} import(s) the driver's day chunk ${day.fileName} (and its CSS): move the shared modules out of its chunk group (vite.config.ts)`);
      }
    },
  };
  /**
   * The driver app's chunks are fetched together with the entry instead of one round trip after it:
   * on a 3G link that round trip is over half a second. Its first chunk (the login, in the `app`
   * chunk since the chunk groups of vite.config.ts) comes first; the day (driver-core, with the sync
   * engine, and its CSS) is listed last, so on a phone's first visit it queues behind the first
   * screen's requests (six connections per host) instead of delaying it, and on a warm start it is
   * fetched alongside the entry. Plain <link> tags, not a script choosing by route: the CSP allows no
   * inline script (docs/security.md), and a separate script file would cost the very round trip this
   * saves. Other screens pay a one-off ~50 KB download on a desktop link.
   */
  plugin.transformIndexHtml = {
    order: 'post',
    handler(html, ctx) {
      // The app's page only: the recipients' tracking page stays free of app code.
      if (!ctx.bundle || !ctx.path.endsWith('/index.html')) return html;
      const chunks = chunksOf(ctx.bundle as Bundle);
      const driver = chunkOfModule(chunks, driverModule);
      if (!driver) return html;
      const day = chunkOfModule(chunks, '/client/driver/Workday.tsx');
      const files = [...closureOf(chunks, driver.fileName, false), ...(day ? closureOf(chunks, day.fileName, false) : [])];
      const links = [...new Set(files)].filter((f) => /\.(?:js|css)$/.test(f) && !html.includes(`/${f}"`))
        .map((f) => (f.endsWith('.css') ? `<link rel="preload" as="style" href="/${f}">` : `<link rel="modulepreload" href="/${f}">`));
      return html.replace('</head>', `${links.join('\n')}\n</head>`);
    },
  };
  // Files outside assets/ (index.html, icons, the web manifest) are always kept.
  return { plugin, keep: (url) => !url.replace(/^\//, '').startsWith('assets/') || files.has(url.replace(/^\//, '').split('?')[0]!) };
}
