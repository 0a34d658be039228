/**
 * Issue 19 item 7: a trigger that must send at once (signal back, page visible, the driver asked)
 * arriving while a failing pass is in flight is not swallowed by the back-off that pass schedules.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { makeApp, PASSWORD } from '../helpers/app';
import { engineOn, network, seedAssigned, uniqueDbName } from './support';

describe('send-now triggers', () => {
  it('a forced trigger during a failing pass sends right after it, not at the retry timer', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const driver = await t.login('driver');
    await seedAssigned(t, admin.token, driver.id, ['TRG-1']);
    const net = network(t);
    // The first request after `hang` is set waits, then fails like a dropped connection.
    let hang: Promise<void> | null = null;
    let release = () => undefined as void;
    let waiting = false;
    const fetch: typeof net.fetch = async (url, init) => {
      if (hang) {
        const h = hang;
        hang = null;
        waiting = true;
        await h;
        throw new TypeError('fetch failed: connection reset');
      }
      return net.fetch(url, init);
    };
    // A long back-off: without the fix the queued scan would wait a minute.
    const engine = engineOn(net, uniqueDbName(), { fetch, backoff: { baseMs: 60_000, maxMs: 60_000 } });
    await engine.login(driver.email, PASSWORD);
    await engine.syncNow();
    hang = new Promise<void>((ok) => {
      release = ok;
    });
    await engine.enqueue(engine.actions.inboundScan('TRG-1'));
    const first = engine.syncNow();
    while (!waiting) await new Promise((ok) => setTimeout(ok, 5));
    const second = engine.syncNow();
    release();
    await Promise.all([first, second]);
    expect(engine.status()).toMatchObject({ queued: 0, sending: 0, rejected: 0, nextRetryAt: null });
    expect(net.sent.filter((r) => r.path.endsWith('/inbound-scan/') && r.status === 200)).toHaveLength(1);
    await engine.stop();
  });
});
