import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createApp } from '../server/app';
import { manualClock } from '../server/clock';
import { openDatabase, sqliteOf, type Db } from '../server/db/client';
import { authToken, company, user, zone } from '../server/db/schema/index';
import { diskFileStore } from '../server/files';
import { newToken } from '../server/services/auth/tokens';
import { DAY_MS, moveToHistory } from '../server/services/history/move';

/**
 * Cold storage: the staff list and search with COLD parcels moved to history beside HOT live ones,
 * against the same requests before the move (all parcels hot). SQLite file database, in-process
 * `app.request`; `npx tsx bench/history.ts` (HISTORY_BENCH_COLD / HISTORY_BENCH_HOT to resize).
 */
const COLD = Number(process.env.HISTORY_BENCH_COLD ?? 100_000);
const HOT = Number(process.env.HISTORY_BENCH_HOT ?? 20_000);
const RUNS = 40;

async function seed(db: Db, now: number): Promise<{ token: string; driver: number }> {
  const companyId = (
    await db
      .insert(company)
      .values({ name: 'History Co', code: 'HIS', email: 'h@bench.test', created_at: now, updated_at: now })
      .returning()
      .get()
  ).id;
  const zones: number[] = [];
  for (let i = 0; i < 10; i++)
    zones.push(
      (
        await db
          .insert(zone)
          .values({ name: `Zone ${i}`, created_at: now, updated_at: now })
          .returning()
          .get()
      ).id,
    );
  const admin = await db
    .insert(user)
    .values({ name: 'Bench Admin', email: 'admin@history.test', role: 'super_admin', created_at: now, updated_at: now })
    .returning()
    .get();
  const driver = await db
    .insert(user)
    .values({ name: 'Bench Driver', email: 'driver@history.test', role: 'driver', created_at: now, updated_at: now })
    .returning()
    .get();
  const t = newToken();
  await db
    .insert(authToken)
    .values({ user_id: admin.id, token_hash: t.hash, kind: 'web', expires_at: now + 400 * DAY_MS, created_at: now })
    .run();
  const sqlite = sqliteOf(db)!;
  const insert = sqlite.prepare(`INSERT INTO package (hawb, company_id, zone_id, status, customer_name, customer_address, customer_phone,
    weight, delivered_at, created_at, updated_at, assigned_to_id) VALUES (?, ?, ?, ?, ?, ?, '0400 000 000', 2, ?, ?, ?, ?)`);
  // Every old parcel was delivered by the one driver (their history list is as long as history), with a tracking link.
  const event = sqlite.prepare(
    `INSERT INTO package_event (package_id, action, from_status, to_status, actor_id, occurred_at, received_at) VALUES (?, 'deliver', 'out_for_delivery', 'delivered', ?, ?, ?)`,
  );
  const record = sqlite.prepare(
    'INSERT INTO delivery_record (package_id, driver_id, recipient_name, occurred_at, received_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const link = sqlite.prepare('INSERT INTO package_recipient (package_id, token, created_at, updated_at) VALUES (?, ?, ?, ?)');
  sqlite.transaction(() => {
    // Old parcels: delivered 120 to 480 days ago. Then today's live ones.
    for (let i = 0; i < COLD; i++) {
      const at = now - (120 + (i % 360)) * DAY_MS;
      const id = insert.run(
        `OLD${String(i).padStart(8, '0')}`,
        companyId,
        zones[i % 10],
        'delivered',
        `Receiver ${i}`,
        `${i} Old Street`,
        at,
        at - DAY_MS,
        at,
        driver.id,
      ).lastInsertRowid;
      event.run(id, driver.id, at, at);
      record.run(id, driver.id, `Receiver ${i}`, at, at, at);
      link.run(id, trackToken(i), at, at);
    }
    for (let i = 0; i < HOT; i++) {
      insert.run(
        `NEW${String(i).padStart(8, '0')}`,
        companyId,
        zones[i % 10],
        i % 3 ? 'received' : 'out_for_delivery',
        `Receiver N${i}`,
        `${i} New Street`,
        null,
        now - i * 1000,
        now,
        null,
      );
    }
  })();
  return { token: t.token, driver: driver.id };
}

/** A tracking token of the shape the server makes (32 base64url characters), one per old parcel. */
const trackToken = (i: number) => `T${String(i).padStart(31, '0')}`;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const DRIVER = 2; // the seed's second user
/** [name, path, what to compare before and after: the list's count, or a total the answer holds] */
const QUERIES: [string, string, ((body: Record<string, unknown>) => unknown)?][] = [
  ['list, default order, page 1', '/api/package/?page_size=20'],
  ['list, page 50', '/api/package/?page_size=20&page=50'],
  ['search one old hawb', `/api/package/?search=OLD${String(Math.floor(COLD / 2)).padStart(8, '0')}`],
  ['search one live hawb', '/api/package/?search=NEW00000042'],
  ['status=delivered, by hawb', '/api/package/?status=delivered&ordering=hawb&page_size=20'],
  ['status=received (no cold match)', '/api/package/?status=received&page_size=20'],
  ['zone filter', '/api/package/?zone=3&page_size=20'],
  // The reads served by the mover's lookups (services/history/lookups.ts) and the lists across parcels.
  ['dashboard count (all-time total)', '/api/dashboard/count/', (b) => (b.packages as { total: number }).total],
  ['assign dashboard-count', '/api/assign-package/dashboard-count/', (b) => b.total],
  ["driver's history, page 1", `/api/dashboard/driver-history/?driver=${DRIVER}&page_size=20`],
  ["driver's history, page 50", `/api/dashboard/driver-history/?driver=${DRIVER}&page_size=20&page=50`],
  ['tracking page by token (old parcel)', `/api/public/track/${trackToken(Math.floor(COLD / 2))}/`, (b) => b.hawb],
  ['delivered list with proof', '/api/package-delivered/?page_size=20'],
  ['proof list', '/api/photo-upload/?page_size=20'],
];

async function measure(app: ReturnType<typeof createApp>, token: string): Promise<Map<string, { ms: number; count: unknown }>> {
  const out = new Map<string, { ms: number; count: unknown }>();
  for (const [name, path, pick] of QUERIES) {
    const times: number[] = [];
    let count: unknown = 0;
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const res = await app.request(path, { headers: { authorization: `Bearer ${token}` } });
      const body = (await res.json()) as Record<string, unknown>;
      times.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
      count = pick ? pick(body) : body.count;
    }
    out.set(name, { ms: median(times), count });
  }
  return out;
}

export async function runHistoryBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'courier-history-bench-'));
  try {
    const clock = manualClock(Date.UTC(2026, 5, 1));
    const db = await openDatabase({ path: join(dir, 'bench.db') });
    const { token, driver } = await seed(db, clock.now());
    if (driver !== DRIVER) throw new Error(`the driver is user ${driver}, not ${DRIVER}`);
    const app = createApp({ db, files: diskFileStore(join(dir, 'files')), clock });
    const before = await measure(app, token);
    const t0 = performance.now();
    const run = await moveToHistory(app.deps, { afterDays: 90 });
    const moveMs = performance.now() - t0;
    console.log(
      `moved ${run.moved} parcels in ${run.batches} batches: ${Math.round(moveMs)} ms (${Math.round(run.moved / (moveMs / 1000))} parcels/s, ${(moveMs / run.batches).toFixed(1)} ms per batch unit)`,
    );
    // The tracking page counts calls per address and minute: the second round starts a new minute.
    clock.advance(61_000);
    const after = await measure(app, token);
    console.log(
      `| request (${COLD} old delivered + ${HOT} live parcels) | all hot: median ms | ${COLD} moved to history: median ms | count |`,
    );
    console.log('|---|---|---|---|');
    for (const [name] of QUERIES) {
      const b = before.get(name)!;
      const a = after.get(name)!;
      if (a.count !== b.count) throw new Error(`${name}: count ${b.count} before, ${a.count} after`);
      console.log(`| ${name} | ${b.ms.toFixed(2)} | ${a.ms.toFixed(2)} | ${String(a.count)} |`);
    }
    await db.$engine.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runHistoryBench();
