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
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    // After the service worker is generated (vite-plugin-pwa, also sequential) so sw.js is compressed too.
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        for (const file of walk(outDir)) {
          if (!COMPRESSIBLE.test(file) || statSync(file).size < MIN_BYTES) continue;
          const bytes = readFileSync(file);
          writeFileSync(
            `${file}.br`,
            brotliCompressSync(bytes, {
              params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
            }),
          );
          writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
        }
      },
    },
  };
}

interface ChunkLike {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  moduleIds: string[];
  imports: string[];
  dynamicImports: string[];
  viteMetadata?: { importedCss: Set<string>; importedAssets: Set<string> };
}

type Bundle = Record<string, { type: string }>;

function chunksOf(bundle: Bundle): Map<string, ChunkLike> {
  return new Map(
    Object.values(bundle)
      .filter((c) => c.type === 'chunk')
      .map((c) => [(c as unknown as ChunkLike).fileName, c as unknown as ChunkLike]),
  );
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
        .map((f) => `/${f}`)
        .filter((f) => !precached(f))
        .sort();
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
        const strangers = [...chunks.values()]
          .filter((c) => !driverApp.has(c.fileName) && c.imports.includes(day.fileName))
          .map((c) => c.fileName);
        if (strangers.length)
          throw new Error(
            `${strangers.join(', ')} import(s) the driver's day chunk ${day.fileName} (and its CSS): move the shared modules out of its chunk group (vite.config.ts)`,
          );
      }
    },
  };
  /**
   * index.html names the entry and its static imports only. The driver's day (driver-core and its
   * CSS) is not preloaded there: every page would fetch it, the admin's and the depot's included,
   * while a warm start gets it from the service worker as fast through its dynamic import (measured,
   * bench/firstLoad.ts) and a phone's first visit loads it after the login is drawn. The build fails
   * if a page's HTML names the day's files.
   */
  plugin.transformIndexHtml = {
    order: 'post',
    handler(html, ctx) {
      if (!ctx.bundle) return html;
      const chunks = chunksOf(ctx.bundle as Bundle);
      const day = chunkOfModule(chunks, '/client/driver/Workday.tsx');
      if (!day) return html;
      const named = [day.fileName, ...(day.viteMetadata?.importedCss ?? [])].filter((f) => html.includes(`/${f}"`));
      if (named.length) throw new Error(`${ctx.path} names the driver's day (${named.join(', ')}): every page would fetch it`);
      return html;
    },
  };

  // Files outside assets/ (index.html, icons, the web manifest) are always kept.
  return { plugin, keep: (url) => !url.replace(/^\//, '').startsWith('assets/') || files.has(url.replace(/^\//, '').split('?')[0]!) };
}
