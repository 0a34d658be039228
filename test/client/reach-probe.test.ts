import 'fake-indexeddb/auto';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { packageEvent } from '../../server/db/schema/index';
import { createProbe } from '../../client/sync/probe';
import type { SyncStatus } from '../../client/sync/types';
import { makeApp, PASSWORD } from '../helpers/app';
import { engineOn, network, seedAssigned, uniqueDbName } from './support';

const MINUTES = 60_000;

/** Resolves when the engine's status first satisfies `ok`. */
const statusWhere = (engine: { subscribe(cb: (s: SyncStatus) => void): () => void }, ok: (s: SyncStatus) => boolean) =>
  new Promise<SyncStatus>((resolve) => {
    let off: (() => void) | null = null;
    off = engine.subscribe((s) => {
      if (ok(s)) {
        resolve(s);
        queueMicrotask(() => off?.());
      }
    });
  });

describe('the office answers again: the queue goes at once, not at the back-off timer (issue 35)', () => {
  it('a scan queued while the server did not answer is sent as soon as `reach/` answers, once', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const driver = await t.login('driver');
    const [id] = await seedAssigned(t, admin.token, driver.id, ['REACH-1']);
    const net = network(t);
    // A back-off of ten minutes: only the probe can send this within the test's time.
    const engine = engineOn(net, uniqueDbName(), {
      backoff: { baseMs: 10 * MINUTES, maxMs: 10 * MINUTES },
      probe: { firstMs: 20, maxMs: 80 },
    });
    await engine.login(driver.email, PASSWORD);
    await engine.start();
    await statusWhere(engine, (s) => !s.syncing && s.lastSyncedAt !== null);

    net.online = false;
    await engine.enqueue(engine.actions.inboundScan('REACH-1'));
    const waiting = await statusWhere(engine, (s) => s.reach === 'no_answer' && s.nextRetryAt !== null);
    expect(waiting.nextRetryAt! - Date.now()).toBeGreaterThan(MINUTES);
    expect(waiting.queued).toBe(1);

    net.online = true;
    await statusWhere(engine, (s) => s.queued === 0 && s.sending === 0 && s.reach === 'ok');
    expect(net.sent.filter((r) => r.path === '/api/reach/' && r.status === 204).length).toBe(1);
    const landed = await t.db
      .select()
      .from(packageEvent)
      .where(and(inArray(packageEvent.package_id, [id!]), eq(packageEvent.action, 'inbound_scan')))
      .all();
    expect(landed).toHaveLength(1);
    await engine.stop();
  }, 30_000);

  it('the probe backs off while unanswered, honours Retry-After, and a stopped probe never calls back', async () => {
    const asked: number[] = [];
    let answer: () => Response = () => new Response(null, { status: 503 });
    const started = Date.now();
    let calls = 0;
    const probe = createProbe({
      transport: {
        baseUrl: 'http://courier.test/api/',
        timeoutMs: 1000,
        fetch: async (url) => {
          expect(url).toBe('http://courier.test/api/reach/');
          asked.push(Date.now() - started);
          return answer();
        },
      },
      firstMs: 10,
      maxMs: 40,
      random: () => 1,
      onAnswer: () => {
        calls += 1;
      },
    });
    probe.start();
    while (asked.length < 4) await new Promise((ok) => setTimeout(ok, 5));
    const gaps = asked.slice(1).map((a, i) => a - asked[i]!);
    // 20, 40, 40: doubling to the cap (timers fire late, never early).
    expect(gaps[0]).toBeGreaterThanOrEqual(19);
    expect(gaps[2]).toBeGreaterThanOrEqual(39);
    expect(calls).toBe(0);

    // The server says "not before 1 s": the next question waits for it.
    answer = () => new Response(null, { status: 503, headers: { 'retry-after': '1' } });
    const n = asked.length;
    while (asked.length < n + 1) await new Promise((ok) => setTimeout(ok, 5));
    const saidAt = asked[asked.length - 1]!;
    answer = () => new Response(null, { status: 204 });
    while (asked.length < n + 2) await new Promise((ok) => setTimeout(ok, 20));
    expect(asked[asked.length - 1]! - saidAt).toBeGreaterThanOrEqual(990);
    expect(calls).toBe(1);
    expect(probe.active).toBe(false);

    // Stopped while a question is in flight: its answer is ignored.
    let release: (r: Response) => void = () => undefined;
    const slow = createProbe({
      transport: {
        baseUrl: 'http://courier.test/api/',
        timeoutMs: 1000,
        fetch: () =>
          new Promise<Response>((ok) => {
            release = ok;
          }),
      },
      firstMs: 1,
      maxMs: 1,
      onAnswer: () => {
        calls += 1;
      },
    });
    slow.start();
    await new Promise((ok) => setTimeout(ok, 30));
    slow.stop();
    release(new Response(null, { status: 204 }));
    await new Promise((ok) => setTimeout(ok, 10));
    expect(calls).toBe(1);
  }, 15_000);
});
