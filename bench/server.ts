import { serve } from '@hono/node-server';
import type Database from 'better-sqlite3';
import { Hono } from 'hono';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../server/app';
import { systemClock } from '../server/clock';
import { startCheckpointer } from '../server/db/checkpointer';
import { openDatabase, sqliteOf } from '../server/db/client';
import { diskFileStore } from '../server/files';
import { packageJsonSelect } from '../server/services/packages/json';
import { UNIT_SAVEPOINT } from '../server/db/engine/sqliteUnits';
import { pkg } from '../server/db/schema/index';
import { isNotNull } from 'drizzle-orm';

/**
 * The real app on the bench database, plus bare Hono routes on the same connection: one SQLite
 * insert, one indexed read, a scan's UPDATE + INSERT in one transaction (one fsync each), and a
 * driver's list joined from ready-made JSON rows. The ratio real/bare is the figure the bench reports.
 */
const db = await openDatabase(process.env.DATABASE_PATH ?? '');
// As server/main.ts does: WAL checkpoints off the event loop.
const sqlite = sqliteOf(db)!;
const checkpoints = startCheckpointer(sqlite);
const app = createApp({ db, files: diskFileStore(mkdtempSync(join(tmpdir(), 'bench-files-'))), clock: systemClock });
sqlite.exec('create table if not exists bare_write (id integer primary key, v text not null, at integer not null)');
const insert = sqlite.prepare('insert into bare_write (v, at) values (?, ?)');
const read = sqlite.prepare('select id, hawb, status from package where id = ?');
// What a scan writes, with nothing around it: the parcel's row and its event, one COMMIT (one fsync).
// The UPDATE sets the columns the inbound scan sets (is_scanned, status, updated_at), so the same
// index entries move; it flips them back and forth on parcels of its own (bench/api.ts seeds them
// unassigned), leaving the real scan's parcels alone.
const scanUpdate = sqlite.prepare(`update package set is_scanned = 1 - is_scanned,
  status = case status when 'out_for_delivery' then 'created' else 'out_for_delivery' end, updated_at = ?
  where hawb = ? returning id, status`);
// The first bare scan (before 2026-11-26): updated_at only, no index entry moved.
const touchUpdate = sqlite.prepare('update package set updated_at = ? where hawb = ? returning id, status');
const scanEvent = sqlite.prepare(
  'insert into package_event (package_id, action, from_status, to_status, actor_id, occurred_at, received_at) values (?, ?, ?, ?, ?, ?, ?)',
);
const bareWrite = (update: Database.Statement) =>
  sqlite.transaction((barcode: string, now: number) => {
    const row = update.get(now, barcode) as { id: number; status: string } | undefined;
    if (row) scanEvent.run(row.id, 'bare_scan', row.status, row.status, null, now, now);
    return row;
  });
const bareScan = bareWrite(scanUpdate);
const bareTouch = bareWrite(touchUpdate);
// Every parcel's answer JSON, made once by the app's own query: the list route only joins them.
// Only when asked (bench/api.ts): the scale bench's millions of parcels would take long to copy.
if (process.env.BENCH_BARE_LISTS)
  sqlite.exec(
    'create table if not exists bare_json (driver_id integer not null, sequence_no integer, id integer not null, json text not null)',
  );
if (process.env.BENCH_BARE_LISTS) sqlite.exec('create index if not exists bare_json_driver on bare_json (driver_id, sequence_no, id)');
if (process.env.BENCH_BARE_LISTS && !sqlite.prepare('select 1 from bare_json limit 1').get()) {
  const rows = await packageJsonSelect(db).where(isNotNull(pkg.assigned_to_id)).all();
  const drivers = new Map(
    (await db.select({ id: pkg.id, driver: pkg.assigned_to_id, seq: pkg.sequence_no }).from(pkg).all()).map((r) => [r.id, r]),
  );
  const put = sqlite.prepare('insert into bare_json (driver_id, sequence_no, id, json) values (?, ?, ?, ?)');
  sqlite.transaction(() => {
    for (const r of rows) put.run(drivers.get(r.id)!.driver, drivers.get(r.id)!.seq, r.id, r.json);
  })();
}
const readyJson = process.env.BENCH_BARE_LISTS
  ? sqlite.prepare('select json from bare_json where driver_id = ? order by sequence_no, id').pluck()
  : null;
const outer = new Hono();
outer.post('/bare/insert', async (c) => {
  const body = await c.req.json<{ v: string }>();
  const r = insert.run(body.v, Date.now());
  return c.json({ id: Number(r.lastInsertRowid) });
});
outer.post('/bare/scan', async (c) => {
  const body = await c.req.json<{ barcode: string }>();
  const row = bareScan(body.barcode, Date.now());
  return c.json({ success: true, package: row ?? null });
});
outer.post('/bare/touch', async (c) => {
  const body = await c.req.json<{ barcode: string }>();
  const row = bareTouch(body.barcode, Date.now());
  return c.json({ success: true, package: row ?? null });
});
outer.get('/bare/remaining/:driver', (c) => {
  if (!readyJson) return c.json({ message: 'start the bench server with BENCH_BARE_LISTS=1' }, 404);
  const list = readyJson.all(Number(c.req.param('driver'))) as string[];
  return c.body(`{"success":true,"message":"${list.length} package(s) remaining","pending_packages":[${list.join(',')}]}`, 200, {
    'content-type': 'application/json',
  });
});
outer.get('/bare/read/:id', (c) => c.json(read.get(Number(c.req.param('id'))) ?? {}));
outer.route('/', app);
const server = serve({ fetch: outer.fetch, port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1' }, (info) => {
  process.send?.({ port: info.port });
});
// BENCH_COUNT_COMMITS=1: how many units of work shared each group commit, said on stderr at the end.
if (process.env.BENCH_COUNT_COMMITS) {
  let commits = 0;
  let units = 0;
  db.$engine.onStatement = (text) => {
    if (text === 'COMMIT') commits++;
    else if (text === `SAVEPOINT ${UNIT_SAVEPOINT}`) units++;
  };
  process.on('SIGTERM', () => console.error(`[bench server] ${units} units of work in ${commits} commits`));
}
process.on('SIGTERM', () =>
  server.close(() => {
    void checkpoints.stop().finally(async () => {
      await db.$engine.close();
      process.exit(0);
    });
  }),
);
