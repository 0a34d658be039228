import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PG_MIGRATIONS_DIR, postgresDb } from '../server/db/client';
import { freshPostgresDatabase } from '../server/db/engine/postgresDatabases';
import { authToken, company, pkg, user, zone } from '../server/db/schema/index';
import { hashPasswordSync } from '../server/services/auth/passwords';
import { newToken } from '../server/services/auth/tokens';
import { freePort } from '../test/helpers/server';
import { availableParallelism } from 'node:os';
import { cpuOf, load, machineCpu, processTree, type LoadResult } from './load';

/**
 * PostgreSQL: the remaining list and the inbound scan served by `server/main.ts` with WORKERS=1 and
 * WORKERS=2 on this machine, and the scan's SQL alone behind a bare Hono route
 * (bench/pg-bare-server.ts) at as many processes: what a second process gains when the app costs
 * nothing, i.e. what the machine allows. Needs a PostgreSQL server: BENCH_DATABASE_URL (an admin URL), else a
 * throwaway cluster is made by scripts/with-postgres.sh. Besides req/s it reports CPU per request of
 * the server processes, of PostgreSQL (the postmaster and its backends, when it runs on this machine)
 * and of the load generator: on a 2-core machine the three share the cores, and CPU per request says
 * what a second process can buy. PG_BENCH_CONFIGS="workers:pool:connections[:pipelining],..." picks
 * the configurations (default 1:10:16,2:10:16).
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

async function seed(url: string, drivers: number, perDriver: number) {
  const db = postgresDb(url, { poolSize: 2 });
  const now = Date.now();
  const hash = hashPasswordSync('bench-password', 1024);
  const companyId = (
    await db
      .insert(company)
      .values({ name: 'Bench Co', code: 'BENCH', email: 'b@bench.test', created_at: now, updated_at: now })
      .returning()
      .get()
  ).id;
  const zoneId = (await db.insert(zone).values({ name: 'Bench zone', created_at: now, updated_at: now }).returning().get()).id;
  const out: { id: number; token: string; barcodes: string[] }[] = [];
  let n = 0;
  for (let d = 0; d < drivers; d++) {
    const driver = await db
      .insert(user)
      .values({
        name: `Driver ${d}`,
        email: `driver${d}@bench.test`,
        role: 'driver',
        password_hash: hash,
        created_at: now,
        updated_at: now,
      })
      .returning()
      .get();
    const t = newToken();
    await db
      .insert(authToken)
      .values({ user_id: driver.id, token_hash: t.hash, kind: 'mobile', expires_at: now + 86_400_000, created_at: now })
      .run();
    const rows = Array.from({ length: perDriver }, (_, i) => ({
      hawb: `PG${String(n + i).padStart(8, '0')}`,
      company_id: companyId,
      zone_id: zoneId,
      status: 'assigned',
      assigned_to_id: driver.id,
      customer_name: `Receiver ${n + i}`,
      customer_address: `${n + i} Bench Street`,
      postcode: 2000,
      weight: 1,
      sequence_no: i + 1,
      created_at: now,
      updated_at: now,
    }));
    await db.insert(pkg).values(rows).run();
    out.push({ id: driver.id, token: t.token, barcodes: rows.map((r) => r.hawb) });
    n += perDriver;
  }
  await db.$engine.close();
  return out;
}

/** `server/main.ts` (or bench/pg-bare-server.ts) on PostgreSQL with WORKERS processes (each with a pool of `pool` connections) on a free port, once every worker listens. */
export async function startPostgresServer(
  url: string,
  workers: number,
  pool = 10,
  script = 'server/main.ts',
): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  // BENCH_CPU_PROF=<dir>: each server process writes a V8 CPU profile there (where a request's time goes).
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', script], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: url,
      DATABASE_POOL_SIZE: String(pool),
      WORKERS: String(workers),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_REQUESTS: '0',
      STATIC_DIR: '/nonexistent',
      FILES_DIR: mkdtempSync(join(tmpdir(), 'bench-pg-')),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let seen = 0;
  await new Promise<void>((ok, ko) => {
    child.stdout?.on('data', (b: Buffer) => {
      seen += (b.toString().match(/listening on/g) ?? []).length;
      if (seen >= workers) ok();
    });
    child.on('exit', (code) => ko(new Error(`server exited ${code}`)));
  });
  return { base: `http://127.0.0.1:${port}`, child };
}

/** The postmaster's pid, when the server runs on this machine and its data directory is readable. */
export async function postmasterOf(url: string): Promise<number | undefined> {
  const db = postgresDb(url, { poolSize: 1 });
  try {
    const rows = await db.$engine.execute("select setting from pg_settings where name = 'data_directory'", [], 'all');
    const dir = (rows.rows as string[][])[0]?.[0];
    return dir ? Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]) : undefined;
  } catch {
    return undefined;
  } finally {
    await db.$engine.close();
  }
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((ok) => {
    child.once('exit', () => ok());
    child.kill('SIGTERM');
  });
}

interface Config {
  workers: number;
  pool: number;
  connections: number;
  pipelining: number;
}

function configs(): Config[] {
  return (process.env.PG_BENCH_CONFIGS ?? '1:10:16,2:10:16').split(',').map((c) => {
    const [workers, pool, connections, pipelining] = c.split(':').map(Number);
    return { workers: workers ?? 1, pool: pool ?? 10, connections: connections ?? 16, pipelining: pipelining ?? 1 };
  });
}

export async function runPostgresBench(opts = { drivers: 100, perDriver: 100 }): Promise<void> {
  const admin = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!admin) {
    // A throwaway cluster for this run only.
    await new Promise<void>((ok) => {
      spawn('bash', ['scripts/with-postgres.sh', process.execPath, '--import', 'tsx', 'bench/postgres.ts'], {
        cwd: ROOT,
        stdio: 'inherit',
      }).on('exit', () => ok());
    });
    return;
  }
  const postmaster = await postmasterOf(admin);
  const rows: (LoadResult & { config: Config })[] = [];
  for (const config of configs()) {
    const url = await freshPostgresDatabase(admin, PG_MIGRATIONS_DIR);
    const drivers = await seed(url, opts.drivers, opts.perDriver);
    const own = () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1e6;
    };
    const metersOf = (server: ChildProcess): Record<string, () => number> => ({
      node: cpuOf(() => processTree(server.pid!)),
      generator: own,
      ...(postmaster ? { postgres: cpuOf(() => processTree(postmaster)) } : {}),
      machine: machineCpu,
    });
    const label = `${config.workers} process${config.workers > 1 ? 'es' : ''}, pool ${config.pool}, ${config.connections} conn${config.pipelining > 1 ? `, pipelining ${config.pipelining}` : ''}`;
    // Each scan moves a parcel of its own: the real scan, the bare one and the bare one without the feed lock take a third each.
    const scans: { token: string; barcode: string }[] = [];
    for (let k = 0; k < opts.perDriver; k++) for (const d of drivers) scans.push({ token: d.token, barcode: d.barcodes[k]! });
    const third = Math.min(Math.floor(scans.length / 3), 5000);
    const scanRequest = (path: string, sc: { token: string; barcode: string }) => ({
      method: 'POST',
      path,
      headers: { authorization: `Bearer ${sc.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ barcode: sc.barcode }),
    });
    let { base, child } = await startPostgresServer(url, config.workers, config.pool);
    let c = { connections: config.connections, pipelining: config.pipelining, meters: metersOf(child) };
    try {
      let i = 0;
      const list = () => {
        const d = drivers[i++ % drivers.length]!;
        return { path: `/api/scan-package-api/${d.id}/remaining-packages-list/`, headers: { authorization: `Bearer ${d.token}` } };
      };
      await load('warm-up', base, list, { ...c, duration: 1 });
      rows.push({
        ...(await load(`GET remaining-packages-list (${opts.perDriver} pkgs), ${label}`, base, list, { ...c, duration: 8 })),
        config,
      });
      let s = 0;
      rows.push({
        ...(await load(`POST inbound-scan, ${label}`, base, () => scanRequest('/api/scan-package-api/inbound-scan/', scans[s++ % third]!), {
          ...c,
          amount: third,
        })),
        config,
      });
      await stopServer(child);
      // The same SQL with nothing of the app around it (bench/pg-bare-server.ts), on as many processes.
      ({ base, child } = await startPostgresServer(url, config.workers, config.pool, 'bench/pg-bare-server.ts'));
      c = { ...c, meters: metersOf(child) };
      let b = 0;
      rows.push({
        ...(await load(`bare scan (the scan's SQL), ${label}`, base, () => scanRequest('/bare/scan', scans[third + (b++ % third)]!), {
          ...c,
          amount: third,
        })),
        config,
      });
      // What the change feed's one lock (server/db/engine/dialect.ts feedOrder) costs: the same without it.
      let u = 0;
      rows.push({
        ...(await load(
          `bare scan without the feed lock, ${label}`,
          base,
          () => scanRequest('/bare/scan?feed_lock=0', scans[2 * third + (u++ % third)]!),
          { ...c, amount: third },
        )),
        config,
      });
    } finally {
      await stopServer(child);
    }
  }
  const ms = (r: LoadResult, k: string) => r.cpu?.[k]?.toFixed(2) ?? '-';
  const cores = availableParallelism();
  // "others": what the rest of the machine spent per request meanwhile; "machine busy": the share of
  // all cores in use during the run. Near 100% a second process has no core to run on.
  console.log(
    `| endpoint, configuration | req/s | p50 ms | p99 ms | non-2xx | CPU ms/req: node | postgres | load generator | all ours | others | machine busy (${cores} cores) |`,
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const ours = r.cpu ? (r.cpu.node ?? 0) + (r.cpu.postgres ?? 0) + (r.cpu.generator ?? 0) : undefined;
    const known = r.cpu?.machine !== undefined && Number.isFinite(r.cpu.machine);
    const others = known && ours !== undefined ? (r.cpu!.machine! - ours).toFixed(2) : '-';
    const busy =
      known && r.cpu?.machine !== undefined && r.seconds
        ? `${Math.round(((r.cpu.machine * r.requests) / 1000 / (r.seconds * cores)) * 100)}%`
        : '-';
    console.log(
      `| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.non2xx + r.errors} | ${ms(r, 'node')} | ${ms(r, 'postgres')} | ${ms(r, 'generator')} | ${ours?.toFixed(2) ?? '-'} | ${others} | ${busy} |`,
    );
  }
  for (const name of ['GET remaining', 'POST inbound-scan', 'bare scan (the', 'bare scan without']) {
    const one = rows.find((r) => r.name.startsWith(name) && r.config.workers === 1);
    for (const two of rows.filter((r) => r.name.startsWith(name) && r.config.workers === 2)) {
      const how = `pool ${two.config.pool}, ${two.config.connections} connections${two.config.pipelining > 1 ? `, pipelining ${two.config.pipelining}` : ''}`;
      if (one) console.log(`${one.name.split(',')[0]}: 2 processes (${how}) / 1 process = ${(two.rps / one.rps).toFixed(2)}x req/s`);
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runPostgresBench();
