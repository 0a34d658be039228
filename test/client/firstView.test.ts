/**
 * firstView(): what the driver's first frame draws (client/driver/hooks.ts primeDeviceReads), read in
 * one transaction, must be exactly what the separate reads say: the session's user, pendingView(),
 * outbox() and the counts of the top bar. Real server (makeApp), fake-indexeddb.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { makeApp, PASSWORD } from '../helpers/app';
import { readFirstRows } from '../../client/sync/firstRead';
import { engineOn, network, seedAssigned, uniqueDbName } from './support';

describe('engine.firstView', () => {
  it('matches pendingView, outbox and the counts, held and queued rows included; null user once logged out', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const driver = await t.login('driver', { name: 'Dana Driver' });
    const ids = await seedAssigned(t, admin.token, driver.id, ['FV-1', 'FV-2', 'FV-3']);
    const net = network(t);
    const name = uniqueDbName();
    const engine = engineOn(net, name);

    const empty = await engine.firstView();
    expect(empty).toMatchObject({ user: null, view: [], outbox: [] });

    await engine.login(driver.email, PASSWORD);
    await engine.syncNow();
    // One held (undo window), one queued while the server is unreachable.
    await engine.hold(engine.actions.deliver(ids[0]!, { note: 'At the door', parcel: { hawb: 'FV-1', customer_name: 'R1' } }), 60_000);
    net.online = false;
    await engine.enqueue(engine.actions.inboundScan('FV-2'));

    // A fresh engine on the same database, as a page starting again reads it.
    const again = engineOn(net, name);
    const first = await again.firstView();
    expect(first.user?.id).toBe(driver.id);
    expect(first.view).toEqual(await again.pendingView());
    expect(first.outbox).toEqual(await again.outbox());
    expect(first.view.find((p) => p.id === ids[0])).toMatchObject({ status: 'delivered', pending: { status: 'held' } });
    expect(first.status).toMatchObject({ held: 1, queued: 1, sending: 0, rejected: 0 });
    expect(again.status()).toMatchObject({ held: 1, queued: 1 });

    // The same rows read with IndexedDB itself, as a warm start reads them before Dexie has loaded;
    // a second held row makes seq order (held rows first) differ from insertion order.
    await again.hold(again.actions.deliver(ids[2]!, { note: 'Neighbour', parcel: { hawb: 'FV-3', customer_name: 'R3' } }), 60_000);
    const rows = await readFirstRows(name);
    expect(rows).not.toBeNull();
    const third = engineOn(net, name);
    const fromRows = await third.firstView(rows);
    expect(fromRows).toEqual(await engineOn(net, name).firstView());
    expect(fromRows.outbox.map((r) => r.status)).toEqual(['held', 'held', 'queued']);
    expect(third.status()).toMatchObject({ held: 2, queued: 1 });
    await third.stop();

    await again.logout();
    expect((await again.firstView()).user).toBeNull();
    await again.stop();
    await engine.stop();
  });

  it('reads nothing from a database that does not exist, and does not create it (Dexie creates it later)', async () => {
    const t = await makeApp();
    const driver = await t.login('driver');
    const name = uniqueDbName('courier-absent');
    expect(await readFirstRows(name)).toBeNull();
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(name);
    const engine = engineOn(network(t), name);
    await engine.login(driver.email, PASSWORD);
    expect((await engine.firstView()).user?.id).toBe(driver.id);
    expect((await readFirstRows(name))?.user?.id).toBe(driver.id);
    await engine.stop();
  });

  it('reads nothing from a database that lacks the stores it names (an older or foreign database)', async () => {
    const name = uniqueDbName('courier-foreign');
    await new Promise<void>((resolve, reject) => {
      const open = indexedDB.open(name, 1);
      open.onupgradeneeded = () => {
        open.result.createObjectStore('meta', { keyPath: 'key' });
      };
      open.onsuccess = () => {
        open.result.close();
        resolve();
      };
      open.onerror = () => reject(open.error);
    });
    expect(await readFirstRows(name)).toBeNull();
  });
});
