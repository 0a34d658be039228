/**
 * Issue 31: after the last allowed attempt, made offline, the phone must not offer delivery. It used
 * to decide from a queued action's display label ("Failed ..."), which became "Could not deliver ...",
 * so it still offered delivery and the server then refused it. It now counts attempts with the rule
 * the server decides with (shared/driverActions.ts), from the feed's `attempts` and the queued failure.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { makeApp, PASSWORD } from '../helpers/app';
import { canDeliver, canFail } from '../../client/driver/usePackage';
import { countDay, failures, mustReturn, nextStop, toLoad } from '../../client/driver/day';
import { engineOn, network, seedAssigned, syncUntil, uniqueDbName } from './support';

const MAX = 3;

describe('must return, offline (issue 31)', () => {
  it('after the last allowed failed attempt made offline, the phone offers no delivery and no reload; the server agrees', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const driver = await t.login('driver', { name: 'Dana Driver' });
    const reason = (await t.json<{ id: number }>('POST', '/api/failed-delivery-status/', admin.token, { name: 'Closed' })).body.id;
    const [id] = await seedAssigned(t, admin.token, driver.id, ['MR-1']);
    const net = network(t);
    const e = engineOn(net, uniqueDbName());
    await e.login(driver.email, PASSWORD);
    await e.syncNow();
    const view = async () => (await e.pendingView()).find((p) => p.id === id)!;
    const settled = () => syncUntil([e], async () => (await e.outbox()).length === 0);

    // Two attempts with signal: load, fail, load, fail.
    for (let i = 0; i < MAX - 1; i++) {
      await e.enqueue(e.actions.inboundScan('MR-1'));
      await e.enqueue(e.actions.fail(id!, { failed_delivery_status: reason, parcel: { hawb: 'MR-1' } }));
      await settled();
    }
    await e.syncNow();
    expect(await view()).toMatchObject({ status: 'failed', attempts: MAX - 1 });
    expect(canDeliver(await view(), MAX)).toBe(true);

    // The last attempt with no signal.
    await e.enqueue(e.actions.inboundScan('MR-1'));
    await settled();
    net.online = false;
    const last = e.actions.fail(id!, { failed_delivery_status: reason, parcel: { hawb: 'MR-1', customer_name: 'Receiver MR-1' } });
    expect(last.label).toBe('Could not deliver MR-1 · Receiver MR-1');
    await e.enqueue(last);
    await e.syncNow();
    const p = await view();
    expect(p).toMatchObject({ status: 'failed', attempts: MAX, pending: { status: 'queued' } });
    // The copy from the server still lists two reasons: the count comes from the rule, not from them or the label.
    expect(p.package_failed_delivery_status).toHaveLength(MAX - 1);
    expect(failures(p)).toBe(MAX);
    expect(mustReturn(p, MAX)).toBe(true);
    expect(canDeliver(p, MAX)).toBe(false);
    expect(canFail(p, MAX)).toBe(false);
    expect(toLoad(p, MAX)).toBe(false);
    expect(nextStop([p], new Set(), MAX)).toBeNull();
    expect(countDay([p], MAX)).toMatchObject({ back: 1, toLoad: 0, failed: 1 });
    // Scanning it again offline is refused on the phone too: the Scan screen applies the limit to the engine's check.
    const check = await e.localCheck('MR-1');
    expect(check.result === 'loadable' && mustReturn(check.package!, MAX)).toBe(true);

    // With signal: the failure lands, the copy says so, and the server refuses a delivery as the phone predicted.
    net.online = true;
    await settled();
    await e.syncNow();
    expect(await view()).toMatchObject({ status: 'failed', attempts: MAX, pending: null });
    expect(canDeliver(await view(), MAX)).toBe(false);
    const refused = await t.json<{ details: { reason: string } }>('POST', `/api/package-delivered/${id}/deliver/`, driver.token, {
      photos: [],
    });
    expect(refused.status).toBe(409);
    expect(refused.body.details.reason).toBe('must_return');
    await e.stop();
  });

  it('a redelivery starts a new cycle: the phone offers delivery again although the old reasons stay listed', async () => {
    const t = await makeApp({ config: { maxAttempts: 1 } });
    const admin = await t.login('admin');
    const driver = await t.login('driver');
    const reason = (await t.json<{ id: number }>('POST', '/api/failed-delivery-status/', admin.token, { name: 'Closed' })).body.id;
    const [id] = await seedAssigned(t, admin.token, driver.id, ['MR-2']);
    expect((await t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, { barcode: 'MR-2' })).status).toBe(200);
    expect((await t.json('POST', `/api/package-delivered/${id}/fail/`, driver.token, { failed_delivery_status: reason })).status).toBe(200);
    const back = await t.json('POST', '/api/return-parcel/depot-manager/', admin.token, {
      barcode: 'MR-2',
      outcome: 'redeliver',
      driver: driver.id,
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    const e = engineOn(network(t), uniqueDbName());
    await e.login(driver.email, PASSWORD);
    await e.syncNow();
    const p = (await e.pendingView()).find((x) => x.id === id)!;
    expect(p.package_failed_delivery_status).toHaveLength(1);
    expect(p).toMatchObject({ status: 'assigned', attempts: 0 });
    expect(canDeliver(p, 1)).toBe(true);
    await e.stop();
  });
});
