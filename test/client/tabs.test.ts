import 'fake-indexeddb/auto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { device, idempotencyKey, packageEvent } from '../../server/db/schema/index';
import { makeApp, PASSWORD } from '../helpers/app';
import { engineOn, network, seedAssigned, syncUntil, uniqueDbName } from './support';

describe('two tabs on one device database', () => {
  it('share one seq sequence with no gaps and never send the same row twice', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const driver = await t.login('driver');
    const hawbs = Array.from({ length: 60 }, (_, i) => `TB${String(i).padStart(3, '0')}`);
    const ids = await seedAssigned(t, admin.token, driver.id, hawbs);
    const net = network(t);
    const name = uniqueDbName();
    const tab1 = engineOn(net, name);
    const tab2 = engineOn(net, name);
    await tab1.login(driver.email, PASSWORD);
    await tab1.syncNow();
    expect(await tab1.deviceId).toBe(await tab2.deviceId);

    // Both tabs enqueue at once while both try to send.
    const tabOf = (i: number) => (i % 2 ? tab1 : tab2);
    const enqueued = Promise.all(hawbs.map((h, i) => tabOf(i).enqueue(tabOf(i).actions.inboundScan(h))));
    await Promise.all([enqueued, tab1.syncNow(), tab2.syncNow()]);
    const seqs = (await enqueued).map((r) => r.seq).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    const keyOfSeq = new Map((await enqueued).map((r) => [r.key, r.seq]));

    await syncUntil([tab1, tab2], async () => (await tab1.outbox()).length === 0);
    const sends = net.sent.filter((r) => r.key != null);
    expect(sends).toHaveLength(60);
    expect(new Set(sends.map((r) => r.key)).size).toBe(60);
    expect(sends.some((r) => r.replayed)).toBe(false);
    // Sent in seq order, and applied in that order.
    expect(sends.map((r) => keyOfSeq.get(r.key ?? ''))).toEqual(seqs);
    const events = await t.db
      .select()
      .from(packageEvent)
      .where(and(inArray(packageEvent.package_id, ids), eq(packageEvent.action, 'inbound_scan')))
      .orderBy(asc(packageEvent.id))
      .all();
    expect(events).toHaveLength(60);
    const seqOfPackage = new Map((await enqueued).map((r, i) => [ids[i], r.seq]));
    expect(events.map((e) => seqOfPackage.get(e.package_id))).toEqual(seqs);

    const deviceId = await tab1.deviceId;
    expect((await t.db.select().from(device).where(eq(device.device_id, deviceId)).get())?.last_seq).toBe(60);
    const stored = (await t.db.select().from(idempotencyKey).where(eq(idempotencyKey.device_id, deviceId)).all())
      .map((r) => r.device_seq)
      .sort((a, b) => (a ?? 0) - (b ?? 0));
    expect(stored).toEqual(seqs);
    const [v1, v2] = [await tab1.pendingView(), await tab2.pendingView()];
    expect(v1).toEqual(v2);
    expect(v1.every((p) => p.status === 'out_for_delivery' && p.pending === null)).toBe(true);
    await tab1.stop();
    await tab2.stop();
  });
});
