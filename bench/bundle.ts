/**
 * Size of what a phone downloads before the driver app can show the day: the entry chunk, the
 * `#/driver` module, the day's module and everything they import statically, gzipped. The barcode scanner
 * (@zxing) and the route optimiser must stay out of it (loaded only when used).
 * Builds into a temporary directory with a Vite manifest (never touches dist/).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BUDGET_KIB = 150;
const DRIVER_MODULE = 'driver/index.tsx';
/** The day (sync engine, Today): its own chunk, which the login does not wait for, but Today does. */
const DAY_MODULE = 'driver/Workday.tsx';
const TRACK_ENTRY = 'track.html';
/** Source folders the tracking page must never load: the app shell, the staff screens, the driver app and its sync engine. */
const APP_ONLY = /^(admin|app|depot|driver|sync|api)\//;

interface Chunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  src?: string;
}
type Manifest = Record<string, Chunk>;

export interface BundleReport {
  initialJsGzipKiB: number;
  initialCssGzipKiB: number;
  chunks: { file: string; gzipKiB: number }[];
  lazy: { what: string; file: string; gzipKiB: number }[];
  withinBudget: boolean;
  /** The recipients' tracking page (track.html): its own entry, none of the app's code. */
  trackingPage: { jsGzipKiB: number; cssGzipKiB: number; chunks: string[] };
}

const kib = (n: number) => Math.round((n / 1024) * 10) / 10;

/** The chunk keys a key pulls in before it runs: itself and its static imports, transitively. */
function closure(manifest: Manifest, start: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...start];
  while (stack.length) {
    const key = stack.pop() as string;
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    stack.push(...(manifest[key]?.imports ?? []));
  }
  return seen;
}

export function measure(outDir: string): BundleReport {
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  // Two HTML entries since the tracking page has its own: the app's is index.html.
  const entry = manifest['index.html']?.isEntry
    ? 'index.html'
    : Object.keys(manifest).find((k) => manifest[k]?.isEntry && k !== TRACK_ENTRY);
  if (!entry) throw new Error('no entry chunk in the Vite manifest');
  // A module merged into a named chunk group (vite.config.ts) is listed under the group's chunk.
  const keyOf = (module: string, group: string) =>
    manifest[module] ? module : Object.keys(manifest).find((k) => new RegExp(`^_${group}-[\\w-]{8}\\.js$`).test(k));
  const driverKey = keyOf(DRIVER_MODULE, 'app');
  const dayKey = keyOf(DAY_MODULE, 'driver-core');
  if (!driverKey || !dayKey) throw new Error(`${DRIVER_MODULE} or ${DAY_MODULE} is not in the Vite manifest`);
  // The driver's login rides with the app's shared chunk (vite.config.ts `app`); its day must not.
  if (closure(manifest, [entry]).has(dayKey))
    throw new Error("the entry imports the driver's day (sync engine) statically: it must be loaded lazily");
  const keys = closure(manifest, [entry, driverKey, dayKey]);
  const gz = (file: string) => gzipSync(readFileSync(join(outDir, file)), { level: 9 }).length;
  const chunks = [...keys].map((k) => manifest[k] as Chunk).map((c) => ({ file: c.file, gzipKiB: kib(gz(c.file)) }));
  const css = [...new Set([...keys].flatMap((k) => manifest[k]?.css ?? []))];
  const js = [...keys].reduce((sum, k) => sum + gz((manifest[k] as Chunk).file), 0);
  const lazyOf = (what: string, test: (key: string) => boolean) =>
    Object.entries(manifest)
      .filter(([k]) => test(k) && !keys.has(k))
      .map(([, c]) => ({ what, file: c.file, gzipKiB: kib(gz(c.file)) }));
  const lazy = [
    ...lazyOf('barcode scanner (@zxing)', (k) => k.includes('@zxing')),
    ...lazyOf('route optimiser', (k) => k.endsWith('driver/reorder.ts')),
  ];
  const leaked = [...keys].filter((k) => k.includes('@zxing') || k.includes('shared/routing') || k.endsWith('driver/reorder.ts'));
  if (leaked.length) throw new Error(`loaded eagerly but must be lazy: ${leaked.join(', ')}`);
  if (!manifest[TRACK_ENTRY]) throw new Error(`${TRACK_ENTRY} is not an entry of the build`);
  const trackKeys = closure(manifest, [TRACK_ENTRY]);
  const appCode = [...trackKeys].filter((k) => APP_ONLY.test(k));
  if (appCode.length) throw new Error(`the tracking page loads app code: ${appCode.join(', ')}`);
  const trackCss = [...new Set([...trackKeys].flatMap((k) => manifest[k]?.css ?? []))];
  const trackingPage = {
    jsGzipKiB: kib([...trackKeys].reduce((sum, k) => sum + gz((manifest[k] as Chunk).file), 0)),
    cssGzipKiB: kib(trackCss.reduce((sum, f) => sum + gz(f), 0)),
    chunks: [...trackKeys].map((k) => (manifest[k] as Chunk).file),
  };
  return {
    trackingPage,
    initialJsGzipKiB: kib(js),
    initialCssGzipKiB: kib(css.reduce((s, f) => s + gz(f), 0)),
    chunks: chunks.sort((a, b) => b.gzipKiB - a.gzipKiB),
    lazy,
    withinBudget: kib(js) <= BUDGET_KIB,
  };
}

export async function runBundleBench(): Promise<BundleReport> {
  const out = mkdtempSync(join(tmpdir(), 'courier-bundle-'));
  try {
    await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', out, '--emptyOutDir', '--manifest', '--logLevel', 'warn'],
      {
        cwd: ROOT,
        maxBuffer: 32 * 1024 * 1024,
        timeout: 300_000,
      },
    );
    const report = measure(out);
    console.log(
      `driver app initial JavaScript: ${report.initialJsGzipKiB} KiB gzip (budget ${BUDGET_KIB} KiB: ${report.withinBudget ? 'within' : 'OVER'}), CSS ${report.initialCssGzipKiB} KiB gzip`,
    );
    for (const c of report.chunks) console.log(`  ${c.file.padEnd(48)} ${String(c.gzipKiB).padStart(7)} KiB`);
    console.log(
      `recipients' tracking page: ${report.trackingPage.jsGzipKiB} KiB JavaScript + ${report.trackingPage.cssGzipKiB} KiB CSS gzip (${report.trackingPage.chunks.join(', ')}); the map library only with a driver position`,
    );
    console.log('loaded only when used:');
    for (const l of report.lazy) console.log(`  ${l.what.padEnd(28)} ${l.file.padEnd(40)} ${String(l.gzipKiB).padStart(7)} KiB`);
    return report;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (process.argv[1] && existsSync(process.argv[1]) && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runBundleBench();
}
