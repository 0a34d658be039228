/**
 * The undo window on the device: a held action is in IndexedDB the moment it is confirmed (counted,
 * not sent), undo removes it with its files, and an engine that dies inside the window leaves it
 * for the next start, which sends it exactly once. A refused delivery's proof is discarded from the
 * phone only once the server holds it; an accepted-but-flagged delivery becomes a notice.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { makeApp, PASSWORD, type TestApp } from '../helpers/app';
import { engineOn, network, seedAssigned, uniqueDbName } from './support';

const PNG = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
);
const count = async (t: TestApp, query: SQL) => Number((await t.db.values<[number]>(query))[0]![0]);

async function world(hawbs: string[]) {
  const t = await makeApp();
  const admin = await t.login('admin');
  const driver = await t.login('driver', { name: 'Dana Driver' });
  const other = await t.login('driver', { name: 'Eli Driver' });
  const ids = await seedAssigned(t, admin.token, driver.id, hawbs);
  return { t, admin, driver, other, ids };
}

describe('held actions (undo window)', () => {
  it('is saved and counted at once, not sent, survives the engine dying, and is sent once by the next start', async () => {
    const w = await world(['HLD-1', 'HLD-2']);
    const net = network(w.t);
    const name = uniqueDbName();
    const first = engineOn(net, name);
    await first.login(w.driver.email, PASSWORD);
    await first.syncNow();
    const action = first.actions.deliver(w.ids[0]!, {
      photos: [{ bytes: PNG, mime: 'image/png' }],
      parcel: { hawb: 'HLD-1', customer_name: 'Receiver HLD-1' },
    });
    expect(action.label).toBe('Deliver HLD-1 · Receiver HLD-1');
    const row = await first.hold(action, 60_000);
    expect(first.status()).toMatchObject({ held: 1, queued: 0 });
    expect((await first.pendingView()).find((p) => p.id === w.ids[0])).toMatchObject({ status: 'delivered', pending: { status: 'held' } });
    // A pass inside the window sends nothing of it.
    await first.syncNow();
    expect(net.sent.filter((r) => r.path.includes('/deliver/'))).toEqual([]);
    expect(row.seq).toBeLessThan(0);

    // The page dies inside the window (no release, no pagehide): a new engine on the same database starts.
    await first.stop();
    const second = engineOn(net, name);
    await second.start();
    for (let i = 0; i < 50 && (await second.db.outbox.count()) > 0; i++) await second.syncNow();
    expect(await second.db.outbox.count()).toBe(0);
    expect(await count(w.t, sql`select count(*) n from package_event where package_id = ${w.ids[0]} and to_status = 'delivered'`)).toBe(1);
    expect(await count(w.t, sql`select count(*) n from package_photo where package_id = ${w.ids[0]}`)).toBe(1);
    const sent = net.sent.filter((r) => r.path.includes('/deliver/'));
    expect(sent).toHaveLength(1);
    // It took a real seq when released.
    expect((await second.db.journal.toArray()).map((j) => j.seq).every((s) => s > 0)).toBe(true);
    await second.stop();
  });

  it('undo inside the window removes the action and its files; after release undo says no', async () => {
    const w = await world(['UND-1']);
    const net = network(w.t);
    const engine = engineOn(net, uniqueDbName());
    await engine.login(w.driver.email, PASSWORD);
    await engine.syncNow();
    const row = await engine.hold(engine.actions.deliver(w.ids[0]!, { photos: [{ bytes: PNG, mime: 'image/png' }] }), 60_000);
    expect(await engine.db.blobs.count()).toBe(1);
    expect(await engine.undo(row.id as number)).toBe(true);
    expect(await engine.db.outbox.count()).toBe(0);
    expect(await engine.db.blobs.count()).toBe(0);
    expect(engine.status()).toMatchObject({ held: 0, queued: 0 });

    const again = await engine.hold(engine.actions.deliver(w.ids[0]!, { note: 'porch' }), 60_000);
    await engine.release(again.id as number);
    expect(await engine.undo(again.id as number)).toBe(false);
    await engine.syncNow();
    expect(await count(w.t, sql`select count(*) n from package_event where package_id = ${w.ids[0]} and to_status = 'delivered'`)).toBe(1);
    await engine.stop();
  });

  it('a delivery refused because the office cancelled it: the phone keeps the reason, and discards its proof only once the server holds it', async () => {
    const w = await world(['CAN-1', 'CAN-2']);
    const net = network(w.t);
    const engine = engineOn(net, uniqueDbName());
    await engine.login(w.driver.email, PASSWORD);
    await engine.syncNow();
    expect((await w.t.json('POST', `/api/package/${w.ids[0]}/cancel/`, w.admin.token, {})).status).toBe(200);
    await engine.enqueue(
      engine.actions.deliver(w.ids[0]!, { photos: [{ bytes: PNG, mime: 'image/png' }], signature: { bytes: PNG, mime: 'image/png' } }),
    );
    await engine.syncNow();
    const [refused] = await engine.outbox();
    expect(refused).toMatchObject({
      status: 'rejected',
      rejection: { status: 409, code: 'invalid_transition', details: { status: 'cancelled', reason: 'final' } },
    });
    expect(await count(w.t, sql`select count(*) n from refused_delivery_file`)).toBe(2);
    expect(await engine.unsentFiles(refused!.id as number)).toBe(0);
    expect(await engine.discardRejected(refused!.id as number)).toBe(true);
    expect(await engine.db.blobs.count()).toBe(0);

    // A refusal whose files never reached the server (the upload itself was refused) is kept unless forced.
    await engine.enqueue(
      engine.actions.deliver(w.ids[1]!, { photos: [{ bytes: new TextEncoder().encode('not an image at all'), mime: 'image/png' }] }),
    );
    await engine.syncNow();
    const [bad] = await engine.outbox();
    expect(bad?.status).toBe('rejected');
    expect(await engine.unsentFiles(bad!.id as number)).toBe(1);
    expect(await engine.discardRejected(bad!.id as number)).toBe(false);
    expect(await engine.db.blobs.count()).toBe(1);
    expect(await engine.discardRejected(bad!.id as number, true)).toBe(true);
    expect(await engine.db.blobs.count()).toBe(0);
    await engine.stop();
  });

  it('a delivery accepted but flagged (the parcel had been reassigned) becomes a notice for the driver', async () => {
    const w = await world(['RSG-1']);
    const net = network(w.t);
    const engine = engineOn(net, uniqueDbName());
    await engine.login(w.driver.email, PASSWORD);
    await engine.enqueue(engine.actions.inboundScan('RSG-1'));
    await engine.syncNow();
    net.online = false;
    await engine.enqueue(engine.actions.deliver(w.ids[0]!, { note: 'front door' }));
    // The office reassigns it while the phone is offline.
    expect(
      (await w.t.json('POST', '/api/assign-package/assign-driver/', w.admin.token, { driver: w.other.id, packages: [w.ids[0]] })).status,
    ).toBe(200);
    net.online = true;
    const status = await engine.syncNow();
    expect(status).toMatchObject({ queued: 0, rejected: 0, notices: 1 });
    const [notice] = await engine.notices();
    expect(notice?.message).toMatch(/flagged for a supervisor/);
    expect(notice?.packageId).toBe(w.ids[0]);
    await engine.dismissNotice(notice!.id);
    expect(engine.status().notices).toBe(0);
    await engine.stop();
  });
});
