/**
 * A realistic day at scale: 100,000 packages, 200 drivers, 20 companies, and autocannon at 50
 * connections on loopback against the real endpoints, each beside the bare SQLite route of its
 * kind (writes beside one fsync'd insert, reads beside one indexed read) in the same run. Then 200
 * simulated devices drain 100 queued actions each at once, every action possibly sent twice.
 * Run directly: `npx tsx bench/scale.ts`. Figures go in notes, never in tests.
 */
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openDatabase, sqliteOf, type Db } from '../server/db/client';
import { authToken, changeLog, company, pkg, user, zone } from '../server/db/schema/index';
import { hashPasswordSync } from '../server/services/auth/passwords';
import { newToken } from '../server/services/auth/tokens';
import { load, paced as pacedLoad, printTable, startBenchServer, stopBenchServer, type LoadResult } from './load';

export interface ScaleOptions {
  companies: number;
  drivers: number;
  zones: number;
  /** Per driver: parcels assigned for the inbound-scan run. */
  toScan: number;
  /** Per driver: parcels assigned for the device drain (each scanned, then delivered). */
  toDrain: number;
  /** Per driver: parcels already on the van for the deliver run. */
  onVan: number;
  /** Total packages, the rest being last week's delivered parcels. */
  packages: number;
  connections: number;
  /** Seconds per read run. */
  duration: number;
}

export const SCALE_DEFAULTS: ScaleOptions = {
  companies: 20, drivers: 200, zones: 10, toScan: 50, toDrain: 50, onVan: 50, packages: 100_000, connections: 50, duration: 5,
};

interface ScaleDriver { id: number; token: string; toScan: string[]; drain: { id: number; hawb: string }[]; onVan: number[] }
export interface ScaleData { path: string; adminToken: string; zoneIds: number[]; drivers: ScaleDriver[]; packages: number; feedLast: number }

const DAY = 86_400_000;

/**
 * Written straight into SQLite like bench/seed.ts (the API would take many minutes), in batches,
 * with the change-feed rows the server would have written so sync reads meet a realistic feed.
 */
export async function seedScaleDatabase(path: string, o: ScaleOptions): Promise<ScaleData> {
  const db: Db = await openDatabase(path);
  const sqlite = sqliteOf(db)!;
  const now = Date.now();
  const hash = hashPasswordSync('bench-password', 1024);
  const out: ScaleData = { path, adminToken: '', zoneIds: [], drivers: [], packages: 0, feedLast: 0 };
  let n = 0;
  const pending: (typeof pkg.$inferInsert)[] = [];
  const feed: (typeof changeLog.$inferInsert)[] = [];
  const flush = async () => {
    for (let i = 0; i < pending.length; i += 400) {
      const ids = await db.insert(pkg).values(pending.slice(i, i + 400)).returning({ id: pkg.id, assigned: pkg.assigned_to_id, company: pkg.company_id, status: pkg.status }).all();
      for (const r of ids) {
        if (r.status !== 'delivered') feed.push({ entity: 'package', entity_id: r.id, op: 'upsert', driver_id: r.assigned, company_id: r.company, created_at: now });
      }
    }
    pending.length = 0;
    for (let i = 0; i < feed.length; i += 500) await db.insert(changeLog).values(feed.slice(i, i + 500)).run();
    feed.length = 0;
  };
  await db.transaction(async () => {
    const companyIds: number[] = [];
    for (let i = 0; i < o.companies; i++) {
      companyIds.push((await db.insert(company).values({ name: `Company ${i}`, code: `CO${i}`, email: `co${i}@bench.test`, created_at: now, updated_at: now }).returning().get()).id);
    }
    for (let i = 0; i < o.zones; i++) out.zoneIds.push((await db.insert(zone).values({ name: `Zone ${i}`, created_at: now, updated_at: now }).returning().get()).id);
    const admin = await db.insert(user).values({ name: 'Bench Admin', email: 'admin@bench.test', role: 'super_admin', password_hash: hash, created_at: now, updated_at: now }).returning().get();
    const t = newToken();
    await db.insert(authToken).values({ user_id: admin.id, token_hash: t.hash, kind: 'web', expires_at: now + DAY, created_at: now }).run();
    out.adminToken = t.token;
    const row = (hawb: string, driverId: number, status: string, seqNo: number, extra: Partial<typeof pkg.$inferInsert> = {}): typeof pkg.$inferInsert => {
      n += 1;
      return {
        hawb, company_id: companyIds[n % companyIds.length], zone_id: out.zoneIds[n % out.zoneIds.length], status, assigned_to_id: driverId,
        customer_name: `Receiver ${n}`, customer_address: `${n} Bench Street`, customer_phone: `0400${String(n).padStart(6, '0')}`, postcode: 2000 + (n % 100),
        weight: 1 + (n % 7), latitude: -33.8 + (n % 100) / 1000, longitude: 151.1 + (n % 100) / 1000, sequence_no: seqNo,
        created_at: now, updated_at: now, ...extra,
      };
    };
    const activePerDriver = o.toScan + o.toDrain + o.onVan;
    const historyPerDriver = Math.max(0, Math.floor((o.packages - activePerDriver * o.drivers) / o.drivers));
    for (let d = 0; d < o.drivers; d++) {
      const driver = await db.insert(user).values({ name: `Driver ${d}`, email: `driver${d}@bench.test`, role: 'driver', password_hash: hash, created_at: now, updated_at: now }).returning().get();
      const dt = newToken();
      await db.insert(authToken).values({ user_id: driver.id, token_hash: dt.hash, kind: 'mobile', expires_at: now + DAY, created_at: now }).run();
      const entry: ScaleDriver = { id: driver.id, token: dt.token, toScan: [], drain: [], onVan: [] };
      // Last week's deliveries: out of the device scope (final, older than 3 days) but in every list and count.
      for (let i = 0; i < historyPerDriver; i++) {
        const old = now - (4 + (i % 3)) * DAY;
        pending.push(row(`BH${String(n).padStart(8, '0')}`, driver.id, 'delivered', i + 1, { is_scanned: true, landed: true, delivered_at: old, created_at: old, updated_at: old }));
      }
      for (let i = 0; i < o.toScan; i++) { const h = `BS${String(n).padStart(8, '0')}`; entry.toScan.push(h); pending.push(row(h, driver.id, 'assigned', i + 1, { landed: true })); }
      const drainFrom = n;
      for (let i = 0; i < o.toDrain; i++) pending.push(row(`BD${String(n).padStart(8, '0')}`, driver.id, 'assigned', o.toScan + i + 1, { landed: true }));
      for (let i = 0; i < o.onVan; i++) pending.push(row(`BV${String(n).padStart(8, '0')}`, driver.id, 'out_for_delivery', activePerDriver + i + 1, { landed: true, is_scanned: true }));
      const firstId = (sqlite.prepare('select coalesce(max(id), 0) as m from package').get() as { m: number }).m + 1;
      const historyCount = historyPerDriver;
      await flush();
      // Ids are assigned in insertion order inside this one transaction.
      const base = firstId + historyCount;
      for (let i = 0; i < o.toDrain; i++) entry.drain.push({ id: base + o.toScan + i, hawb: `BD${String(drainFrom + i).padStart(8, '0')}` });
      for (let i = 0; i < o.onVan; i++) entry.onVan.push(base + o.toScan + o.toDrain + i);
      out.drivers.push(entry);
    }
    out.packages = n;
    out.feedLast = (sqlite.prepare('select coalesce(max(seq), 0) as m from change_log').get() as { m: number }).m;
  });
  sqlite.pragma('optimize');
  await db.$engine.close();
  return out;
}

/** What the device drain left behind, read from the database after the server stopped. */
function checkDrain(path: string, data: ScaleData): { delivered: number; expected: number; scanEvents: number; deliverEvents: number; keys: number; devicesAtLast: number } {
  const db = new Database(path, { readonly: true });
  try {
    const ids = data.drivers.flatMap((d) => d.drain.map((p) => p.id));
    const placeholders = (k: number) => Array.from({ length: k }, () => '?').join(',');
    let delivered = 0; let scanEvents = 0; let deliverEvents = 0;
    for (let i = 0; i < ids.length; i += 500) {
      const part = ids.slice(i, i + 500);
      delivered += (db.prepare(`select count(*) as n from package where status = 'delivered' and id in (${placeholders(part.length)})`).get(...part) as { n: number }).n;
      scanEvents += (db.prepare(`select count(*) as n from package_event where action = 'inbound_scan' and package_id in (${placeholders(part.length)})`).get(...part) as { n: number }).n;
      deliverEvents += (db.prepare(`select count(*) as n from package_event where action = 'deliver' and package_id in (${placeholders(part.length)})`).get(...part) as { n: number }).n;
    }
    const keys = (db.prepare("select count(*) as n from idempotency_key where device_id like 'scale-dev-%'").get() as { n: number }).n;
    const devicesAtLast = (db.prepare("select count(*) as n from device where device_id like 'scale-dev-%' and last_seq = ?").get(data.drivers[0]!.drain.length * 2) as { n: number }).n;
    return { delivered, expected: ids.length, scanEvents, deliverEvents, keys, devicesAtLast };
  } finally {
    db.close();
  }
}

/**
 * 200 devices at once, each replaying its outbox in order like client/sync does (one request at
 * a time), with Idempotency-Key, X-Device-Id and X-Device-Seq. A third of the actions are sent
 * twice: half of those as a retry racing the first copy (a timeout fired), half after the answer
 * was lost.
 */
async function drainDevices(url: string, data: ScaleData): Promise<{ ms: number; requests: number; failures: string[] }> {
  let requests = 0;
  const failures: string[] = [];
  const send = async (token: string, dev: string, seq: number, key: string, path: string, body: unknown): Promise<number> => {
    requests += 1;
    try {
      const res = await fetch(`${url}/api/${path}`, {
        method: 'POST', body: JSON.stringify(body),
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key, 'x-device-id': dev, 'x-device-seq': String(seq) },
      });
      await res.arrayBuffer();
      return res.status;
    } catch {
      // A reset connection (keep-alive race under load) is a network error: the outbox retries it.
      return 0;
    }
  };
  const t0 = performance.now();
  await Promise.all(data.drivers.map(async (d, di) => {
    const dev = `scale-dev-${di}`;
    const actions: { path: string; body: unknown }[] = [
      ...d.drain.map((p) => ({ path: 'scan-package-api/inbound-scan/', body: { barcode: p.hawb, occurred_at: new Date().toISOString() } })),
      ...d.drain.map((p) => ({ path: `package-delivered/${p.id}/deliver/`, body: { recipient_name: 'Front desk', occurred_at: new Date().toISOString() } })),
    ];
    for (let i = 0; i < actions.length; i++) {
      const a = actions[i]!;
      const seq = i + 1;
      const key = `scale-${di}-${seq}-${process.pid}`;
      for (;;) {
        const twice = (di + i) % 3 === 0;
        const racing = twice && (di + i) % 2 === 0;
        const statuses = racing
          ? await Promise.all([send(d.token, dev, seq, key, a.path, a.body), send(d.token, dev, seq, key, a.path, a.body)])
          : [await send(d.token, dev, seq, key, a.path, a.body)];
        if (twice && !racing) statuses.push(await send(d.token, dev, seq, key, a.path, a.body));
        // A busy server is retried, as the outbox does; anything else must be a success.
        if (statuses.some((s) => s === 0 || s === 429 || s >= 500)) { await new Promise((r) => setTimeout(r, 50)); continue; }
        if (statuses.some((s) => s >= 300)) failures.push(`${dev} #${seq} ${a.path}: ${statuses.join(',')}`);
        break;
      }
    }
  }));
  return { ms: performance.now() - t0, requests, failures };
}

export async function runScaleBench(opts: Partial<ScaleOptions> = {}): Promise<{ rows: LoadResult[]; drainMs: number }> {
  const o = { ...SCALE_DEFAULTS, ...opts };
  const dir = mkdtempSync(join(tmpdir(), 'courier-scale-'));
  const t0 = performance.now();
  const data = await seedScaleDatabase(join(dir, 'scale.db'), o);
  console.log(`seeded ${data.packages} packages, ${data.drivers.length} drivers, ${o.companies} companies in ${Math.round(performance.now() - t0)} ms`);
  const { url, child } = await startBenchServer(data.path);
  const rows: LoadResult[] = [];
  const writes: LoadResult[] = [];
  let drain: Awaited<ReturnType<typeof drainDevices>> | undefined;
  try {
    const c = { connections: o.connections, pid: child.pid };
    const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
    let i = 0;
    // Warm-up: JIT and SQLite page cache, so the first measured run is not penalised.
    await load('warm-up', url, () => ({ path: `/bare/read/${1 + (i++ % data.packages)}` }), { connections: 10, duration: 1 });
    await load('warm-up', url, () => { const d = data.drivers[i++ % data.drivers.length]!; return { path: `/api/scan-package-api/${d.id}/remaining-packages-list/`, headers: auth(d.token) }; }, { connections: 10, duration: 1 });

    rows.push(await load('bare read (1 indexed read)', url, () => ({ path: `/bare/read/${1 + (i++ % data.packages)}` }), { ...c, duration: o.duration }));
    rows.push(await load(`GET remaining-packages-list (${o.toScan + o.toDrain} pkgs)`, url, () => {
      const d = data.drivers[i++ % data.drivers.length]!;
      return { path: `/api/scan-package-api/${d.id}/remaining-packages-list/`, headers: auth(d.token) };
    }, { ...c, duration: o.duration }));
    rows.push(await load('GET package/?status=assigned&zone=…&page_size=50 (staff)', url, () => {
      const z = data.zoneIds[i++ % data.zoneIds.length]!;
      return { path: `/api/package/?status=assigned&zone=${z}&page_size=50`, headers: auth(data.adminToken) };
    }, { ...c, duration: o.duration }));
    rows.push(await load('GET sync/changes/?cursor=0 (driver snapshot)', url, () => {
      const d = data.drivers[i++ % data.drivers.length]!;
      return { path: '/api/sync/changes/?cursor=0', headers: auth(d.token) };
    }, { ...c, duration: o.duration }));

    writes.push(await load('bare insert (1 SQLite write)', url, () => ({ method: 'POST', path: '/bare/insert', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ v: `x${i++}` }) }), { ...c, duration: o.duration }));
    const scans = Array.from({ length: o.toScan }, (_, k) => data.drivers.map((d) => ({ token: d.token, barcode: d.toScan[k]! }))).flat();
    let s = 0;
    writes.push(await load('POST inbound-scan', url, () => {
      const sc = scans[s++ % scans.length]!;
      return { method: 'POST', path: '/api/scan-package-api/inbound-scan/', headers: auth(sc.token), body: JSON.stringify({ barcode: sc.barcode }) };
    }, { ...c, duration: o.duration }));
    const delivers = Array.from({ length: o.onVan }, (_, k) => data.drivers.map((d) => ({ token: d.token, id: d.onVan[k]! }))).flat();
    let v = 0;
    writes.push(await load('POST package-delivered/{id}/deliver/', url, () => {
      const dv = delivers[v++ % delivers.length]!;
      return { method: 'POST', path: `/api/package-delivered/${dv.id}/deliver/`, headers: auth(dv.token), body: JSON.stringify({ recipient_name: 'Front desk' }) };
    }, { ...c, duration: o.duration }));

    // After the writes each driver's feed has ~100 new rows past the seeded cursor.
    rows.push(await load('GET sync/changes/?cursor=N (driver, incremental)', url, () => {
      const d = data.drivers[i++ % data.drivers.length]!;
      return { path: `/api/sync/changes/?cursor=${data.feedLast}`, headers: auth(d.token) };
    }, { ...c, duration: o.duration }));

    // The request a device makes most: a poll at the head of the feed, nothing new.
    const head = await (await fetch(`${url}/api/sync/changes/?cursor=${data.feedLast}&limit=500`, { headers: auth(data.drivers[0]!.token) })).json() as { cursor: number; has_more: boolean };
    let headCursor = head.cursor;
    for (let more = head.has_more; more;) {
      const next = await (await fetch(`${url}/api/sync/changes/?cursor=${headCursor}&limit=500`, { headers: auth(data.drivers[0]!.token) })).json() as { cursor: number; has_more: boolean };
      headCursor = next.cursor; more = next.has_more;
    }
    rows.push(await load('GET sync/changes/?cursor=head (driver poll, nothing new)', url, () => {
      const d = data.drivers[i++ % data.drivers.length]!;
      return { path: `/api/sync/changes/?cursor=${headCursor}`, headers: auth(d.token) };
    }, { ...c, duration: o.duration }));

    // Closed-loop runs saturate the one server thread, and a saturated Node server starves new
    // connections (their first answer waits seconds), which is what p99 shows above. The same
    // endpoints at a steady half of the throughput they reached show the latency with headroom.
    const paced: LoadResult[] = [];
    const pace = async (row: LoadResult, next: () => { method?: string; path: string; headers?: Record<string, string>; body?: string }) => {
      const rate = Math.max(1, Math.round(row.rps / 2));
      paced.push(await pacedLoad(`${row.name} @ ${rate} req/s`, url, next, { ...c, duration: o.duration, rate }));
    };
    const [remainingRow, listRow, snapshotRow] = [rows[1]!, rows[2]!, rows[3]!];
    const [scanRow, deliverRow] = [writes[1]!, writes[2]!];
    await pace(scanRow, () => { const sc = scans[s++ % scans.length]!; return { method: 'POST', path: '/api/scan-package-api/inbound-scan/', headers: auth(sc.token), body: JSON.stringify({ barcode: sc.barcode }) }; });
    await pace(deliverRow, () => { const dv = delivers[v++ % delivers.length]!; return { method: 'POST', path: `/api/package-delivered/${dv.id}/deliver/`, headers: auth(dv.token), body: JSON.stringify({ recipient_name: 'Front desk' }) }; });
    await pace(remainingRow, () => { const d = data.drivers[i++ % data.drivers.length]!; return { path: `/api/scan-package-api/${d.id}/remaining-packages-list/`, headers: auth(d.token) }; });
    await pace(listRow, () => ({ path: `/api/package/?status=assigned&zone=${data.zoneIds[i++ % data.zoneIds.length]!}&page_size=50`, headers: auth(data.adminToken) }));
    await pace(snapshotRow, () => { const d = data.drivers[i++ % data.drivers.length]!; return { path: '/api/sync/changes/?cursor=0', headers: auth(d.token) }; });

    console.log(`\nreads at ${o.connections} connections (compare with bare read):`);
    printTable(rows, 'bare read (1 indexed read)');
    console.log(`\nwrites at ${o.connections} connections (compare with bare insert, fsync-bound):`);
    printTable(writes, 'bare insert (1 SQLite write)');
    console.log(`\nthe same at ${o.connections} connections, paced at half the throughput each reached:`);
    printTable(paced, '');
    drain = await drainDevices(url, data);
  } finally {
    await stopBenchServer(child);
  }
  const check = checkDrain(data.path, data);
  const perDevice = data.drivers[0]!.drain.length * 2;
  console.log(`\ndevice drain: ${data.drivers.length} devices x ${perDevice} queued actions (a third sent twice): ${drain.requests} requests in ${Math.round(drain.ms)} ms (${Math.round((data.drivers.length * perDevice * 1000) / drain.ms)} actions/s)`);
  console.log(`  delivered ${check.delivered}/${check.expected}, inbound_scan events ${check.scanEvents}, deliver events ${check.deliverEvents} (each must equal ${check.expected}), stored keys ${check.keys} (expect ${check.expected * 2}), devices at last seq ${check.devicesAtLast}/${data.drivers.length}, rejected ${drain.failures.length}`);
  for (const f of drain.failures.slice(0, 10)) console.log(`  rejected: ${f}`);
  return { rows: [...rows, ...writes], drainMs: drain.ms };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runScaleBench();
