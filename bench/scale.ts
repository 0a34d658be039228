/**
 * Cost as work grows: the same day's requests against 100k, 1M and 10M parcels (200 → 10,000 drivers),
 * on SQLite and on PostgreSQL. Per size and engine: the data set is generated inside the database
 * (bench/scale/seed.ts), the server started (SQLite: bench/server.ts; PostgreSQL: server/main.ts,
 * WORKERS=1), and autocannon at 50 connections drives the inbound scan, the deliver, the driver's
 * remaining list, the staff list with filters and search, and the head-of-feed poll. The figure
 * that matters is server CPU per request (the server's processes, and PostgreSQL's cluster
 * separately), compared with the 100k figure; req/s beside it. Then a few devices drain a queued
 * outbox (exactly-once check), and the database's size, backup and restore are timed.
 *
 *   npx tsx bench/scale.ts                                    100k on SQLite and PostgreSQL (npm run bench)
 *   SCALE_SIZES=100k,1M,10M SCALE_ENGINES=sqlite,postgres npx tsx bench/scale.ts
 *
 * SCALE_STEPS: what follows the seed, default `load,backup,restore` (e.g. `load` alone to compare server
 * settings, `backup,restore` alone for the 10M restore). SCALE_ENGINES: sqlite, postgres (default both; PostgreSQL uses BENCH_DATABASE_URL/TEST_DATABASE_URL,
 * an admin URL, else a throwaway cluster from scripts/with-postgres.sh). SCALE_DIR: where the
 * SQLite files and dumps go (default the temp directory; 10M needs ~25 GB). Figures go in notes,
 * never in tests.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ENDPOINTS } from './scale/measure';
import { SCALE_DEFAULTS, sizeOptions, type ScaleOptions } from './scale/plan';
import { runPostgres, runSqlite, type ScaleResult } from './scale/run';
import { seedSqlite } from './scale/seed-sqlite';

export { SCALE_DEFAULTS, type ScaleOptions };
export type { ScaleData } from './scale/seed';
/** The 100k SQLite data set (bench/profile.ts). */
export const seedScaleDatabase = (path: string, o: ScaleOptions = SCALE_DEFAULTS) => seedSqlite(path, o);

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const list = (v: string | undefined, fallback: string) =>
  (v ?? fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

async function postgresResults(sizes: string[], over: Partial<ScaleOptions>): Promise<ScaleResult[]> {
  const admin = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const out: ScaleResult[] = [];
  if (admin) {
    for (const size of sizes) {
      out.push(await runPostgres(admin, size, sizeOptions(size, over)));
      printScaleTables(out);
    }
    return out;
  }
  // A throwaway cluster for this run: this file again under scripts/with-postgres.sh, answering in a file.
  // Set up as a database server is (docs/operations.md): shared_buffers a quarter of the memory, not
  // initdb's 128 MB, which at 10M left each list reading a tenth of its pages from outside PostgreSQL.
  const dir = mkdtempSync(join(tmpdir(), 'courier-scale-results-'));
  const file = join(dir, 'postgres.json');
  const given = process.env.PG_SERVER_OPTIONS ?? '';
  const options = given.includes('shared_buffers')
    ? given
    : `${given} -c shared_buffers=${Math.floor(totalmem() / 4 / 1024 ** 2)}MB`.trim();
  console.log(`[pg] server options: ${options}`);
  await new Promise<void>((ok) => {
    spawn('bash', ['scripts/with-postgres.sh', process.execPath, '--import', 'tsx', 'bench/scale.ts'], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, PG_SERVER_OPTIONS: options, SCALE_ENGINES: 'postgres', SCALE_RESULTS: file, SCALE_QUIET: '1' },
    }).on('exit', () => ok());
  });
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ScaleResult[];
  } catch {
    return [];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const fmt = (n: number, d = 2) => n.toFixed(d);
const mb = (b: number) => `${(b / 1_048_576).toFixed(0)} MB`;

export function printScaleTables(results: ScaleResult[]): void {
  for (const engine of ['sqlite', 'postgres'] as const) {
    const runs = results.filter((r) => r.engine === engine && r.endpoints.length);
    if (!runs.length) continue;
    const pgRun = engine === 'postgres';
    console.log(
      `\n${engine}: per-request CPU in ms (server${pgRun ? ' + PostgreSQL cluster' : ''}), ×100k = total against the 100k figure; req/s at 50 connections`,
    );
    console.log(`| endpoint | ${runs.map((r) => `${r.size}: req/s | server ms${pgRun ? ' | pg ms' : ''} | ×100k`).join(' | ')} |`);
    console.log(`|---|${runs.map(() => `---:|---:|${pgRun ? '---:|' : ''}---:`).join('|')}|`);
    const base = runs.find((r) => r.size === '100k');
    for (const name of ENDPOINTS) {
      const cells = runs.map((r) => {
        const e = r.endpoints.find((x) => x.endpoint === name);
        if (!e) return pgRun ? '- | - | - | -' : '- | - | -';
        const b = base?.endpoints.find((x) => x.endpoint === name);
        const ratio = b ? fmt((e.serverMs + e.dbMs) / (b.serverMs + b.dbMs)) : '-';
        const bad = e.non2xx ? ` (${e.non2xx} non-2xx!)` : '';
        return `${e.rps}${bad} | ${fmt(e.serverMs)}${pgRun ? ` | ${fmt(e.dbMs)}` : ''} | ${ratio}`;
      });
      console.log(`| ${name} | ${cells.join(' | ')} |`);
    }
  }
  console.log('\n| engine | size | drivers | companies | history days | seed | database | per parcel | backup | backup file | restore |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const secs = (ms: number | undefined) => (ms === undefined ? 'not run' : `${fmt(ms / 1000, 1)} s`);
  for (const r of results) {
    console.log(
      `| ${r.engine} | ${r.size} | ${r.drivers} | ${r.companies} | ${r.historyDays} | ${secs(r.seedMs)} | ${mb(r.bytes)} | ${Math.round(r.bytes / r.packages)} B | ${secs(r.backupMs)} | ${r.backupBytes === undefined ? '-' : mb(r.backupBytes)} | ${secs(r.restoreMs)} |`,
    );
  }
  for (const r of results) console.log(`device drain ${r.engine} ${r.size}: ${r.drain}`);
}

export async function runScaleBench(over: Partial<ScaleOptions> = {}): Promise<ScaleResult[]> {
  const sizes = list(process.env.SCALE_SIZES, '100k');
  const engines = list(process.env.SCALE_ENGINES, 'sqlite,postgres');
  const results: ScaleResult[] = [];
  // Each run's tables as soon as it ends: a 10M run takes a while.
  if (engines.includes('sqlite'))
    for (const size of sizes) {
      results.push(await runSqlite(size, sizeOptions(size, over)));
      printScaleTables(results);
    }
  if (engines.includes('postgres')) results.push(...(await postgresResults(sizes, over)));
  if (process.env.SCALE_RESULTS) writeFileSync(process.env.SCALE_RESULTS, JSON.stringify(results));
  if (!process.env.SCALE_QUIET) {
    console.log('\n## scale: all runs');
    printScaleTables(results);
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runScaleBench();
