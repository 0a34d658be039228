import 'fake-indexeddb/auto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { packageEvent, pkg, storedFile } from '../../server/db/schema/index';
import { SyncStorageError } from '../../client/sync/index';
import { makeApp, PASSWORD, type TestApp } from '../helpers/app';
import { engineOn, network, seedAssigned, syncUntil, uniqueDbName } from './support';

const DAY = 24 * 3600_000;
const PNG = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
);

async function world(n: number, prefix: string) {
  const t = await makeApp();
  const admin = await t.login('admin');
  const driver = await t.login('driver');
  const hawbs = Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);
  const ids = await seedAssigned(t, admin.token, driver.id, hawbs);
  return { t, admin, driver, hawbs, ids };
}

const scans = (t: TestApp, ids: number[]) =>
  t.db
    .select()
    .from(packageEvent)
    .where(and(inArray(packageEvent.package_id, ids), eq(packageEvent.action, 'inbound_scan')))
    .orderBy(asc(packageEvent.id))
    .all();

describe('sync engine against the app', () => {
  it('saves actions offline, shows them pending, then sends each once, in order, and pulls the result', async () => {
    const w = await world(5, 'EN');
    const net = network(w.t);
    const engine = engineOn(net, uniqueDbName());
    await engine.login(w.driver.email, PASSWORD);
    await engine.syncNow();
    expect((await engine.pendingView()).map((p) => [p.hawb, p.status, p.pending])).toEqual(w.hawbs.map((h) => [h, 'assigned', null]));
    expect(await engine.localCheck(w.hawbs[0])).toMatchObject({ result: 'loadable' });
    expect(await engine.localCheck('NOT-A-PARCEL')).toMatchObject({ result: 'unknown' });

    net.online = false;
    const order = [3, 0, 4, 1, 2];
    for (const i of order) await engine.enqueue(engine.actions.inboundScan(w.hawbs[i]));
    const view = await engine.pendingView();
    expect(view.every((p) => p.status === 'out_for_delivery' && p.is_scanned && p.pending?.status === 'queued')).toBe(true);
    expect(await engine.localCheck(w.hawbs[3])).toMatchObject({ result: 'already_loaded' });
    expect(engine.status()).toMatchObject({ queued: 5, rejected: 0 });

    const offline = await engine.syncNow();
    expect(offline).toMatchObject({ online: false, queued: 5 });
    expect(offline.lastError).toMatch(/No answer/);
    expect(await scans(w.t, w.ids)).toEqual([]);

    net.online = true;
    const done = await engine.syncNow();
    expect(done).toMatchObject({ online: true, queued: 0, sending: 0, rejected: 0, lastError: null });
    expect(done.lastSyncedAt).not.toBeNull();
    expect((await scans(w.t, w.ids)).map((e) => e.package_id)).toEqual(order.map((i) => w.ids[i]));
    const sentKeys = net.sent.filter((r) => r.key).map((r) => r.key);
    expect(new Set(sentKeys).size).toBe(5);
    const copies = await engine.pendingView();
    const server = await w.t.json<{ results: { id: number; status: string; is_scanned: boolean }[] }>(
      'GET',
      '/api/package/?page_size=500',
      w.driver.token,
    );
    expect(copies.map((p) => [p.id, p.status, p.is_scanned, p.pending])).toEqual(
      server.body.results.sort((a, b) => a.id - b.id).map((p) => [p.id, p.status, p.is_scanned, null]),
    );
    await engine.stop();
  });

  it('keeps a rejected action aside without blocking the ones after it; retry and discard', async () => {
    const w = await world(2, 'RJ');
    const net = network(w.t);
    const engine = engineOn(net, uniqueDbName());
    await engine.login(w.driver.email, PASSWORD);
    await engine.syncNow();
    const bad = await engine.enqueue(engine.actions.inboundScan('NO-SUCH-PARCEL'));
    await engine.enqueue(engine.actions.inboundScan(w.hawbs[0]));
    const status = await engine.syncNow();
    expect(status).toMatchObject({ queued: 0, rejected: 1 });
    expect((await scans(w.t, w.ids)).map((e) => e.package_id)).toEqual([w.ids[0]]);
    const [kept] = await engine.outbox();
    expect(kept).toMatchObject({ id: bad.id, status: 'rejected', rejection: { status: 404, code: 'not_found' } });
    expect(kept.rejection?.message).toMatch(/NO-SUCH-PARCEL/);

    // Retried, it is a new request (a new key and seq): the same refusal, not a replay of the old one.
    await engine.enqueue(engine.actions.inboundScan(w.hawbs[1]));
    expect(await engine.retryRejected(bad.id as number)).toBe(true);
    const [retried] = (await engine.outbox()).filter((r) => r.id === bad.id);
    expect(retried.seq).toBeGreaterThan(bad.seq);
    expect(retried.key).not.toBe(bad.key);
    await engine.syncNow();
    expect(await scans(w.t, w.ids)).toHaveLength(2);
    expect(await engine.outbox()).toEqual([expect.objectContaining({ id: bad.id, status: 'rejected' })]);
    expect(await engine.discardRejected(bad.id as number)).toBe(true);
    expect(await engine.outbox()).toEqual([]);
    expect(engine.status()).toMatchObject({ queued: 0, rejected: 0 });
    await engine.stop();
  });

  it('a parcel reassigned while the driver is offline: the scan is refused, a delivery is accepted and flagged; copies follow', async () => {
    const w = await world(2, 'RA');
    const other = await w.t.login('driver');
    const net = network(w.t);
    const a = engineOn(net, uniqueDbName());
    const b = engineOn(network(w.t), uniqueDbName());
    await a.login(w.driver.email, PASSWORD);
    await b.login(other.email, PASSWORD);
    await a.syncNow();
    await b.syncNow();

    net.online = false;
    await a.enqueue(a.actions.inboundScan(w.hawbs[0]));
    await a.enqueue(
      a.actions.deliver(w.ids[1], { photos: [{ bytes: PNG, mime: 'image/png' }], signature: { bytes: PNG, mime: 'image/png' } }),
    );
    expect((await a.pendingView()).map((p) => p.status)).toEqual(['out_for_delivery', 'delivered']);
    const moved = await w.t.json('POST', '/api/assign-package/assign-driver/', w.admin.token, { driver: other.id, packages: w.ids });
    expect(moved.status).toBe(200);
    await b.syncNow();
    expect((await b.pendingView()).map((p) => p.id)).toEqual(w.ids);

    net.online = true;
    const status = await a.syncNow();
    expect(status).toMatchObject({ queued: 0, rejected: 1 });
    const [refused] = await a.outbox();
    expect(refused.rejection).toMatchObject({ status: 409 });
    const delivered = await w.t.db.select().from(pkg).where(eq(pkg.id, w.ids[1])).get();
    expect(delivered).toMatchObject({ status: 'delivered', flagged: true });
    expect((await w.t.db.select().from(storedFile).all()).map((f) => f.kind).sort()).toEqual(['photo', 'signature']);

    // The refused parcel left A's device and says so at the next scan; B keeps it and loses the delivered one.
    expect((await a.pendingView()).map((p) => p.id)).not.toContain(w.ids[0]);
    expect(await a.localCheck(w.hawbs[0])).toMatchObject({ result: 'not_yours' });
    await b.syncNow();
    expect((await b.pendingView()).map((p) => p.id)).toEqual([w.ids[0]]);
    await a.stop();
    await b.stop();
  });

  it('uploads photos again when the server says it lacks them', async () => {
    const w = await world(1, 'FM');
    const net = network(w.t);
    const engine = engineOn(net, uniqueDbName());
    await engine.login(w.driver.email, PASSWORD);
    await engine.syncNow();
    const row = await engine.enqueue(engine.actions.deliver(w.ids[0], { photos: [{ bytes: PNG, mime: 'image/png' }] }));
    // The device believes the photo went up already (say, the server's disk was restored from a backup).
    await engine.db.blobs.where('clientId').anyOf(row.blobRefs).modify({ uploaded: true });
    const status = await engine.syncNow();
    expect(status).toMatchObject({ queued: 0, rejected: 0 });
    const calls = net.sent.filter((r) => r.method === 'POST' && !r.path.startsWith('/api/auth/')).map((r) => [r.path, r.status]);
    expect(calls).toEqual([
      ['/api/package-delivered/' + w.ids[0] + '/deliver/', 409],
      ['/api/file/', 201],
      ['/api/package-delivered/' + w.ids[0] + '/deliver/', 200],
    ]);
    // The photo stays while the acknowledged delivery is journaled (re-sent if the server is restored).
    expect(await engine.db.journal.count()).toBe(1);
    expect(await engine.db.blobs.count()).toBe(1);
    await engine.stop();
  });

  it('pauses on 401 without losing anything and resumes after login', async () => {
    const w = await world(1, 'AU');
    const net = network(w.t);
    const engine = engineOn(net, uniqueDbName());
    const user = await engine.login(w.driver.email, PASSWORD);
    await engine.enqueue(engine.actions.inboundScan(w.hawbs[0]));
    await engine.setSession('expired-token-0000000000000000', user);
    expect(await engine.syncNow()).toMatchObject({ loginNeeded: true, queued: 1 });
    expect(await engine.syncNow()).toMatchObject({ loginNeeded: true, queued: 1 });
    await engine.login(w.driver.email, PASSWORD);
    expect(await engine.syncNow()).toMatchObject({ loginNeeded: false, queued: 0 });
    expect(await scans(w.t, w.ids)).toHaveLength(1);
    await engine.stop();
  });

  it('changes nothing when the device clock is three days off: device time is kept beside server time', async () => {
    const w = await world(3, 'CK');
    const net = network(w.t);
    const skew = -3 * DAY;
    const engine = engineOn(net, uniqueDbName(), { now: () => w.t.clock.now() + skew });
    await engine.login(w.driver.email, PASSWORD);
    await engine.syncNow();
    for (const h of w.hawbs) await engine.enqueue(engine.actions.inboundScan(h));
    w.t.clock.advance(60_000);
    await syncUntil([engine], async () => (await engine.outbox()).length === 0);
    const events = await scans(w.t, w.ids);
    expect(events.map((e) => e.package_id)).toEqual(w.ids);
    for (const e of events) {
      expect(e.received_at).toBe(w.t.clock.now());
      expect(e.occurred_at).toBe(w.t.clock.now() - 60_000 + skew);
    }
    expect((await engine.pendingView()).every((p) => p.status === 'out_for_delivery' && p.pending === null)).toBe(true);
    await engine.stop();
  });

  it('starts over from a snapshot when the server cannot serve its cursor', async () => {
    const w = await world(3, 'RE');
    const engine = engineOn(network(w.t), uniqueDbName());
    await engine.login(w.driver.email, PASSWORD);
    await engine.syncNow();
    // A copy the server no longer vouches for, and a cursor from a future the server never reached (restored backup).
    await engine.db.packages.update(w.ids[0], { status: 'delivered' });
    await engine.db.meta.put({ key: 'cursor', value: 1_000_000 });
    await engine.syncNow();
    expect((await engine.pendingView()).map((p) => [p.id, p.status])).toEqual(w.ids.map((id) => [id, 'assigned']));
    expect((await engine.db.meta.get('cursor'))?.value).toBeLessThan(1_000_000);
    await engine.stop();
  });

  it('says so when an action cannot be saved on the device, and saves nothing of it', async () => {
    const w = await world(1, 'QU');
    const engine = engineOn(network(w.t), uniqueDbName());
    await engine.login(w.driver.email, PASSWORD);
    const before = (await engine.db.meta.get('nextSeq'))?.value;
    // A value IndexedDB cannot store stands in for a full disk: the transaction fails as a whole.
    const unstorable = { ...engine.actions.inboundScan(w.hawbs[0]), body: { barcode: w.hawbs[0], bad: () => 1 } };
    const err = await engine.enqueue(unstorable).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SyncStorageError);
    expect(await engine.db.outbox.count()).toBe(0);
    expect((await engine.db.meta.get('nextSeq'))?.value).toBe(before);
    await engine.stop();
  });
});
