import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SyncPackage, type SyncChanges } from '../../shared/schemas/sync';
import { changeLog, device, idempotencyKey } from '../../server/db/schema/index';
import { runSyncMaintenance } from '../../server/services/sync/maintenance';
import { makeApp, PASSWORD, type TestApp } from '../helpers/app';

const DAY = 24 * 3600_000;

async function seed(t: TestApp) {
  const admin = await t.login('admin');
  const companyId = await t.company();
  const a = await t.login('driver');
  const b = await t.login('driver');
  const make = async (hawb: string, company = companyId) => {
    const res = await t.json<{ id: number }>('POST', '/api/package/', s.admin.token, { hawb, company, customer_name: `Receiver ${hawb}` });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const assign = async (driver: number, packages: number[]) => {
    const res = await t.json('POST', '/api/assign-package/assign-driver/', s.admin.token, { driver, packages });
    expect(res.status).toBe(200);
  };
  const s = { admin, companyId, a, b, make, assign };
  return s;
}

const changes = (t: TestApp, token: string, cursor: number, limit?: number) =>
  t.json<SyncChanges>('GET', `/api/sync/changes/?cursor=${cursor}${limit ? `&limit=${limit}` : ''}`, token);

/** Reads the feed to the end the way a device does, folding pages into a copy. */
async function pullAll(t: TestApp, token: string, from: number, copy = new Map<number, string>(), limit?: number) {
  let cursor = from;
  let pages = 0;
  for (;;) {
    const res = await changes(t, token, cursor, limit);
    expect(res.status).toBe(200);
    expect(res.body.reset).toBe(false);
    if (cursor === 0 && pages === 0) copy.clear();
    for (const p of res.body.upserts.packages) copy.set(p.id, p.status);
    for (const id of res.body.removes.packages) copy.delete(id);
    cursor = res.body.cursor;
    pages += 1;
    if (!res.body.has_more) return { cursor, copy, pages };
  }
}

describe('GET sync/changes/', () => {
  it('gives a driver a snapshot of their parcels and the shared statuses, then only what changed', async () => {
    const t = await makeApp();
    const s = await seed(t);
    const mine = [await s.make('SY1'), await s.make('SY2'), await s.make('SY3')];
    const theirs = await s.make('SY4');
    await s.make('SY5');
    await s.assign(s.a.id, mine);
    await s.assign(s.b.id, [theirs]);
    const status = await t.json<{ id: number }>('POST', '/api/failed-delivery-status/', s.admin.token, { name: 'Nobody home' });
    expect(status.status).toBe(201);

    const snap = await changes(t, s.a.token, 0);
    expect(snap.status).toBe(200);
    expect(snap.body.has_more).toBe(false);
    expect(snap.body.reset).toBe(false);
    expect(snap.body.upserts.packages.map((p) => p.id).sort()).toEqual([...mine].sort());
    // The synced copy: the Package answer plus `attempts` (issue 31: the phone's must-return rule reads it).
    for (const p of snap.body.upserts.packages) expect(SyncPackage.strict().safeParse(p).success).toBe(true);
    for (const p of snap.body.upserts.packages) expect(p).toMatchObject({ attempts: 0 });
    expect(snap.body.upserts.failed_delivery_statuses).toEqual([
      expect.objectContaining({ id: status.body.id, name: 'Nobody home', is_active: true }),
    ]);
    const maxSeq = (await t.db.select({ n: count() }).from(changeLog).get())?.n ?? 0;
    expect(snap.body.cursor).toBe(maxSeq);

    const quiet = await changes(t, s.a.token, snap.body.cursor);
    expect(quiet.body).toMatchObject({ reset: false, has_more: false, cursor: snap.body.cursor });
    expect(quiet.body.upserts.packages).toEqual([]);
    expect(quiet.body.removes.packages).toEqual([]);

    // The driver loads one parcel; it is taken from them and given to B; a status is renamed.
    const scan = await t.json('POST', '/api/scan-package-api/inbound-scan/', s.a.token, { barcode: 'SY1' });
    expect(scan.status).toBe(200);
    await s.assign(s.b.id, [mine[1]]);
    expect((await t.json('PATCH', `/api/failed-delivery-status/${status.body.id}/`, s.admin.token, { name: 'No answer' })).status).toBe(
      200,
    );

    const next = await changes(t, s.a.token, snap.body.cursor);
    expect(next.body.upserts.packages.map((p) => [p.id, p.status])).toEqual([[mine[0], 'out_for_delivery']]);
    expect(next.body.removes.packages).toEqual([mine[1]]);
    expect(next.body.upserts.failed_delivery_statuses.map((x) => x.name)).toEqual(['No answer']);

    const bSnap = await pullAll(t, s.b.token, 0);
    expect([...bSnap.copy.keys()].sort()).toEqual([theirs, mine[1]].sort());

    // Deleting a status removes it from every device.
    expect((await t.json('DELETE', `/api/failed-delivery-status/${status.body.id}/`, s.admin.token)).status).toBe(200);
    const gone = await changes(t, s.b.token, bSnap.cursor);
    expect(gone.body.removes.failed_delivery_statuses).toEqual([status.body.id]);
  });

  it('pages a snapshot and the feed so that a copy folded from pages equals the server', async () => {
    const t = await makeApp();
    const s = await seed(t);
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push(await s.make(`PG${i}`));
    await s.assign(s.a.id, ids);
    const first = await changes(t, s.a.token, 0, 3);
    expect(first.body.upserts.packages).toHaveLength(3);
    expect(first.body.has_more).toBe(true);
    const all = await pullAll(t, s.a.token, 0, new Map(), 3);
    expect([...all.copy.keys()].sort()).toEqual([...ids].sort());
    expect(all.pages).toBe(3);

    // Changes in between pages are never lost: reassign two, load one, assign a new one.
    await s.assign(s.b.id, [ids[0], ids[6]]);
    await t.json('POST', '/api/scan-package-api/inbound-scan/', s.a.token, { barcode: 'PG3' });
    const extra = await s.make('PG7');
    await s.assign(s.a.id, [extra]);
    const after = await pullAll(t, s.a.token, all.cursor, all.copy, 2);
    const server = await t.json<{ results: { id: number; status: string }[] }>('GET', '/api/package/?page_size=500', s.a.token);
    expect(Object.fromEntries(after.copy)).toEqual(Object.fromEntries(server.body.results.map((p) => [p.id, p.status])));
  });

  it('tells a device to start again when its cursor cannot be served, and prunes old feed rows and keys', async () => {
    const t = await makeApp();
    const s = await seed(t);
    const id = await s.make('RS1');
    await s.assign(s.a.id, [id]);
    const snap = await changes(t, s.a.token, 0);
    const ahead = await changes(t, s.a.token, snap.body.cursor + 100);
    expect(ahead.body).toMatchObject({ reset: true, cursor: 0 });

    await t.json(
      'POST',
      '/api/scan-package-api/inbound-scan/',
      s.a.token,
      { barcode: 'RS1' },
      { 'idempotency-key': 'prune-key-0001', 'x-device-id': 'dev-prune', 'x-device-seq': '7' },
    );
    t.clock.advance(91 * DAY);
    // Tokens expired meanwhile: log in again.
    s.admin.token = (await t.login('admin')).token;
    const again = await t.json<{ token: string }>('POST', '/api/auth/login/', null, { email: s.a.email, password: PASSWORD });
    s.a.token = again.body.token;
    const id2 = await s.make('RS2');
    await s.assign(s.a.id, [id2]);
    const result = await runSyncMaintenance(t.app.deps);
    expect(result.answersPruned).toBe(1);
    expect(result.changesPruned).toBeGreaterThan(0);
    expect(await t.db.select().from(idempotencyKey).all()).toEqual([]);
    expect((await t.db.select().from(device).where(eq(device.device_id, 'dev-prune')).get())?.last_seq).toBe(7);

    const stale = await changes(t, s.a.token, snap.body.cursor);
    expect(stale.body.reset).toBe(true);
    const fresh = await pullAll(t, s.a.token, 0);
    expect([...fresh.copy.keys()].sort()).toEqual([id, id2].sort());
  });

  it('scopes companies to their parcels and staff to the shared records; refuses bad queries', async () => {
    const t = await makeApp();
    const s = await seed(t);
    const own = await s.make('CO1');
    const other = await s.make('CO2', await t.company());
    await s.assign(s.a.id, [own, other]);
    const co = await t.login('company', { companyId: s.companyId });
    const coSnap = await pullAll(t, co.token, 0);
    expect([...coSnap.copy.keys()]).toEqual([own]);
    await s.assign(s.b.id, [own, other]);
    const coNext = await changes(t, co.token, coSnap.cursor);
    expect(coNext.body.upserts.packages.map((p) => p.id)).toEqual([own]);

    const staff = await changes(t, s.admin.token, 0);
    expect(staff.status).toBe(200);
    expect(staff.body.upserts.packages).toEqual([]);

    expect((await t.json('GET', '/api/sync/changes/?cursor=0', null)).status).toBe(401);
    for (const q of ['cursor=-1', 'cursor=abc', 'limit=0', 'limit=1001', 'cursor=1.5']) {
      const bad = await t.json<{ code: string }>('GET', `/api/sync/changes/?${q}`, s.a.token);
      expect(bad.status, q).toBe(400);
      expect(bad.body.code).toBe('validation_error');
    }
  });
});
