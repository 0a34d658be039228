import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, statfsSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { openDatabase, PG_MIGRATIONS_DIR, postgresDb } from '../../server/db/client';
import { freshPostgresDatabase } from '../../server/db/engine/postgresDatabases';
import { backupDatabase, backupPostgres } from '../../scripts/backup';
import { cpuOf, processTree, startBenchServer, stopBenchServer } from '../load';
import { postmasterOf, startPostgresServer } from '../postgres';
import { checkDrain, drainDevices } from './drain';
import { measureEndpoints, type EndpointFigures } from './measure';
import type { ScaleOptions } from './plan';
import type { ScaleData } from './seed';
import { seedPostgres } from './seed-postgres';
import { printStatements, statementProbe } from './statements';
import { seedSqlite } from './seed-sqlite';

export interface ScaleResult {
  engine: 'sqlite' | 'postgres';
  size: string;
  packages: number;
  drivers: number;
  companies: number;
  historyDays: number;
  seedMs: number;
  bytes: number;
  /** Absent when the step was not run (SCALE_STEPS). */
  backupMs?: number;
  backupBytes?: number;
  restoreMs?: number;
  endpoints: EndpointFigures[];
  drain: string;
}

const log = (line: string) => console.log(line);
/** The load figures as soon as they are measured: at 10M the backup that follows takes a while. */
const show = (engine: string, size: string, rows: EndpointFigures[]) => {
  // CPU per request still moves with what else runs on the machine: say how busy it was.
  log(
    `[${engine} ${size}] load average after the load runs: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} (1, 5, 15 min)`,
  );
  for (const e of rows)
    log(
      `[${engine} ${size}] ${e.endpoint}: ${e.rps} req/s, server ${e.serverMs.toFixed(2)} ms/req, database ${e.dbMs.toFixed(2)} ms/req, non-2xx ${e.non2xx}`,
    );
};
const since = (t: number) => Math.round(performance.now() - t);

/**
 * A 10M restore needs as much disk again as the database (18 GB on PostgreSQL): when another run
 * shares the disk, wait until it has room (plus 2 GB) rather than fill it. The wait is not timed.
 */
async function roomFor(bytes: number, dir: string, label: string): Promise<void> {
  const free = () => {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  };
  const need = bytes + 2 * 1024 ** 3;
  for (let said = false; free() < need; said = true) {
    if (!said) log(`${label} waits for ${(need / 1024 ** 3).toFixed(1)} GB of free disk (${(free() / 1024 ** 3).toFixed(1)} GB now)`);
    await new Promise((ok) => setTimeout(ok, 10_000));
  }
}

/** SQLite: seed a file, serve it with bench/server.ts, back it up with scripts/backup.ts, restore it as docs/operations.md says. */
export async function runSqlite(size: string, o: ScaleOptions): Promise<ScaleResult> {
  const dir = mkdtempSync(join(process.env.SCALE_DIR ?? tmpdir(), 'courier-scale-'));
  try {
    const path = join(dir, 'scale.db');
    log(`[sqlite ${size}] seeding ${o.packages} parcels, ${o.drivers} drivers`);
    const data = await seedSqlite(path, o, log);
    log(`[sqlite ${size}] seeded in ${data.seedMs} ms`);
    const bytes = statSync(path).size;
    let endpoints: EndpointFigures[] = [];
    let drainLine = 'not run';
    if (o.steps.includes('load')) {
      const { url, child } = await startBenchServer(path);
      const cpu = { server: cpuOf(() => processTree(child.pid!)) };
      let drain;
      try {
        endpoints = await measureEndpoints(url, data, o, cpu);
        show('sqlite', size, endpoints);
        drain = await drainDevices(url, data.drivers.slice(0, o.drainDevices));
      } finally {
        await stopBenchServer(child);
      }
      const db = await openDatabase(path);
      drainLine = `${drain.requests} requests in ${Math.round(drain.ms)} ms; ${await checkDrain(db, data.drivers.slice(0, o.drainDevices))}; rejected ${drain.failures.length}`;
      await db.$engine.close();
    }
    const result: ScaleResult = {
      engine: 'sqlite',
      size,
      packages: data.packages,
      drivers: o.drivers,
      companies: o.companies,
      historyDays: data.historyDays,
      seedMs: data.seedMs,
      bytes,
      endpoints,
      drain: drainLine,
    };
    if (!o.steps.includes('backup')) return result;
    log(`[sqlite ${size}] backup`);
    let t = performance.now();
    const backup = join(dir, 'backup.db');
    const { copyMs, checkMs } = await backupDatabase(path, backup);
    result.backupMs = since(t);
    result.backupBytes = statSync(backup).size;
    log(
      `[sqlite ${size}] backup in ${result.backupMs} ms (copy ${Math.round(copyMs)}, integrity check ${Math.round(checkMs)}), ${result.backupBytes} bytes`,
    );
    if (!o.steps.includes('restore')) return result;
    rmSync(path);
    rmSync(`${path}-wal`, { force: true });
    rmSync(`${path}-shm`, { force: true });
    await roomFor(result.backupBytes, dir, `[sqlite ${size}] restore`);
    // Restore (docs/operations.md): copy the backup over DATABASE_PATH, start; the start opens and migrates.
    t = performance.now();
    copyFileSync(backup, path);
    await (await openDatabase(path)).$engine.close();
    result.restoreMs = since(t);
    log(`[sqlite ${size}] restore in ${result.restoreMs} ms`);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function pgBin(tool: string): string {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  return join('/usr/lib/postgresql', versions[0]!, 'bin', tool);
}

async function adminValue(url: string, sql: string): Promise<unknown> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return Object.values((await c.query(sql)).rows[0] ?? {})[0];
  } finally {
    await c.end();
  }
}

/** PostgreSQL: seed a fresh database, serve it with server/main.ts (WORKERS=1), pg_dump it as scripts/backup.ts does, pg_restore it. */
export async function runPostgres(adminUrl: string, size: string, o: ScaleOptions): Promise<ScaleResult> {
  const url = await freshPostgresDatabase(adminUrl, PG_MIGRATIONS_DIR);
  const name = new URL(url).pathname.slice(1);
  const restored = `${name}_restored`;
  const dir = mkdtempSync(join(process.env.SCALE_DIR ?? tmpdir(), 'courier-scale-pg-'));
  try {
    log(`[postgres ${size}] seeding ${o.packages} parcels, ${o.drivers} drivers`);
    const data: ScaleData = await seedPostgres(url, o, log);
    log(`[postgres ${size}] seeded in ${data.seedMs} ms`);
    const bytes = Number(await adminValue(url, 'select pg_database_size(current_database())'));
    let endpoints: EndpointFigures[] = [];
    let drainLine = 'not run';
    if (o.steps.includes('load')) {
      const postmaster = await postmasterOf(url);
      const { base, child } = await startPostgresServer(url, 1);
      const cpu = {
        server: cpuOf(() => processTree(child.pid!)),
        ...(postmaster ? { database: cpuOf(() => processTree(postmaster)) } : {}),
      };
      let drain;
      const probe = process.env.SCALE_PG_STATEMENTS ? await statementProbe(url) : undefined;
      if (process.env.SCALE_PG_STATEMENTS && !probe)
        log(`[postgres ${size}] pg_stat_statements is not loaded (PG_SERVER_OPTIONS="-c shared_preload_libraries=pg_stat_statements")`);
      const hooks = probe && {
        before: async () => {
          await probe.reset();
        },
        after: async (endpoint: string, requests: number) => {
          printStatements(`[postgres ${size}] ${endpoint}`, requests, await probe.read(requests));
        },
      };
      try {
        endpoints = await measureEndpoints(base, data, o, cpu, Date.now(), hooks);
        show('postgres', size, endpoints);
        drain = await drainDevices(base, data.drivers.slice(0, o.drainDevices));
      } finally {
        await probe?.close();
        await new Promise<void>((ok) => {
          child.once('exit', () => ok());
          child.kill('SIGTERM');
        });
      }
      const db = postgresDb(url, { poolSize: 2 });
      drainLine = `${drain.requests} requests in ${Math.round(drain.ms)} ms; ${await checkDrain(db, data.drivers.slice(0, o.drainDevices))}; rejected ${drain.failures.length}`;
      await db.$engine.close();
    }
    const result: ScaleResult = {
      engine: 'postgres',
      size,
      packages: data.packages,
      drivers: o.drivers,
      companies: o.companies,
      historyDays: data.historyDays,
      seedMs: data.seedMs,
      bytes,
      endpoints,
      drain: drainLine,
    };
    if (!o.steps.includes('backup')) return result;
    log(`[postgres ${size}] backup`);
    const file = join(dir, 'backup.pgdump');
    let t = performance.now();
    result.backupBytes = (await backupPostgres(url, file, pgBin('pg_dump'))).bytes;
    result.backupMs = since(t);
    log(`[postgres ${size}] backup in ${result.backupMs} ms, ${result.backupBytes} bytes`);
    if (!o.steps.includes('restore')) return result;
    await roomFor(bytes, dir, `[postgres ${size}] restore`);
    // Restore as docs/operations.md says: pg_restore into an empty database, one job per core
    // (SCALE_RESTORE_JOBS): tables load and indexes build side by side.
    const jobs = Number(process.env.SCALE_RESTORE_JOBS ?? availableParallelism());
    t = performance.now();
    await adminValue(adminUrl, `create database "${restored}"`);
    const target = new URL(url);
    target.pathname = `/${restored}`;
    await promisify(execFile)(pgBin('pg_restore'), ['--no-owner', `--jobs=${jobs}`, `--dbname=${target.toString()}`, file], {
      maxBuffer: 16 * 1024 * 1024,
    });
    result.restoreMs = since(t);
    log(`[postgres ${size}] restore in ${result.restoreMs} ms (${jobs} jobs)`);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await adminValue(adminUrl, `drop database if exists "${restored}"`).catch(() => {});
    await adminValue(adminUrl, `drop database if exists "${name}" with (force)`).catch(() => {});
  }
}
