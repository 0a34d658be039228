/**
 * The parts createSyncEngine wires (client/sync/), each on its own, on fake-indexeddb: the status,
 * the session, the scheduler, the undo windows, the page's triggers and one pass. The engine as a
 * whole is tested against the real app in engine.test.ts and its neighbours.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { actionBuilders } from '../../client/sync/actions';
import { getMeta, META, setMeta, SyncDb } from '../../client/sync/db';
import type { FetchLike, Transport } from '../../client/sync/http';
import { createHolds } from '../../client/sync/holds';
import { addToOutbox, newId } from '../../client/sync/outbox';
import { outboxLock } from '../../client/sync/lock';
import { runPass } from '../../client/sync/pass';
import { createScheduler, type SchedulerOptions } from '../../client/sync/scheduler';
import { createSessionStore } from '../../client/sync/session';
import { createStatusBoard } from '../../client/sync/status';
import { listenForTriggers } from '../../client/sync/triggers';
import type { SessionInfo, SyncStatus } from '../../client/sync/types';
import { uniqueDbName } from './support';

const now = () => Date.now();
const actions = actionBuilders(now, newId);
const driver = (id: number): SessionInfo => ({ id, name: `Driver ${id}`, email: `d${id}@example.com`, role: 'driver', company: null });
const transportOf = (fetch: FetchLike): Transport => ({ baseUrl: 'http://courier.test/api/', timeoutMs: 5000, fetch });
const noNetwork: FetchLike = () => Promise.reject(new TypeError('fetch failed: network is down'));

function parts(extra: Partial<SchedulerOptions> = {}) {
  const db = new SyncDb(uniqueDbName('parts'));
  let closed = false;
  const status = createStatusBoard(db, () => closed);
  let passes = 0;
  const scheduler = createScheduler({
    now,
    random: () => 1,
    backoff: { baseMs: 100, maxMs: 300 },
    pollMs: 60_000,
    status,
    probe: null,
    pass: async () => {
      passes += 1;
    },
    ...extra,
  });
  return { db, status, scheduler, passes: () => passes, close: () => (closed = true) };
}

describe('sync part: status', () => {
  it('tells subscribers at once and on each change, counts the outbox by state, and reads nothing once closed', async () => {
    const { db, status, close } = parts();
    const seen: SyncStatus[] = [];
    const stop = status.subscribe((s) => seen.push(s));
    expect(seen).toHaveLength(1);
    await addToOutbox(db, actions.inboundScan('ST-1'), 7, now());
    await addToOutbox(db, actions.inboundScan('ST-2'), 7, now(), now() + 60_000);
    await setMeta(db, META.notices, [{ id: 'n1' }]);
    await status.refreshCounts();
    expect(status.state).toMatchObject({ queued: 1, held: 1, sending: 0, rejected: 0, notices: 1 });
    expect(seen.at(-1)).toBe(status.state);

    status.showRows({ outbox: await db.outbox.toArray(), lastSyncedAt: 5, resend: undefined, notices: undefined });
    expect(status.state).toMatchObject({ queued: 1, held: 1, lastSyncedAt: 5, notices: 0 });

    // A burst of changes is counted, and comes out right, without one count per change.
    const before = seen.length;
    for (let i = 0; i < 20; i++) status.changed();
    while (status.state.notices !== 1) await new Promise((ok) => setTimeout(ok, 5));
    expect(seen.length - before).toBeLessThan(20);

    stop();
    status.publish({ syncing: true });
    expect(seen.at(-1)?.syncing).toBe(false);
    close();
    await db.outbox.clear();
    await status.refreshCounts();
    expect(status.state.queued).toBe(1);
  });
});

describe('sync part: session', () => {
  it('keeps one device id, forgets copies only when another person logs in, and keeps the user after logout', async () => {
    const db = new SyncDb(uniqueDbName('session'));
    const asked: { path: string; headers: Headers }[] = [];
    const fetch: FetchLike = async (url, init) => {
      asked.push({ path: new URL(url).pathname, headers: new Headers(init?.headers) });
      if (url.endsWith('auth/login/') && !String(init?.body).includes('right')) {
        return Response.json({ success: false, code: 'not_authenticated', message: 'Wrong email or password' }, { status: 401 });
      }
      return Response.json({ token: 'tok-1', user: driver(1) });
    };
    const sessions = createSessionStore(db, transportOf(fetch));
    const id = await sessions.deviceId();
    expect(await sessions.deviceId()).toBe(id);
    expect(await createSessionStore(db, transportOf(fetch)).deviceId()).toBe(id);
    expect(await sessions.current()).toBeNull();

    await expect(sessions.login('d1@example.com', 'wrong')).rejects.toThrow(/Wrong email or password/);
    const session = await sessions.login('d1@example.com', 'right');
    expect(session).toEqual({ token: 'tok-1', user: driver(1) });
    expect(asked.at(-1)?.headers.get('x-device-id')).toBe(id);

    await sessions.store(session.token, session.user);
    await setMeta(db, META.cursor, 55);
    await sessions.store('tok-2', driver(1));
    expect(await getMeta(db, META.cursor)).toBe(55);
    await sessions.store('tok-3', driver(2));
    expect(await getMeta(db, META.cursor)).toBe(0);
    expect(await sessions.current()).toEqual({ token: 'tok-3', user: driver(2) });

    await sessions.logout();
    expect(asked.at(-1)).toMatchObject({ path: '/api/auth/logout/' });
    expect(asked.at(-1)?.headers.get('authorization')).toBe('Bearer tok-3');
    expect(await sessions.current()).toBeNull();
    expect(await sessions.lastUser()).toEqual(driver(2));
    db.close();
  });
});

describe('sync part: scheduler', () => {
  it('never runs two passes at once, loses no trigger, and backs off with growing, capped delays', async () => {
    let open = () => undefined as void;
    let gate: Promise<void> | null = new Promise<void>((ok) => (open = ok));
    let inFlight = 0;
    let most = 0;
    const p = parts({
      pass: async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        const g = gate;
        gate = null;
        await g;
        inFlight -= 1;
      },
    });
    const first = p.scheduler.kick(false);
    const more = [p.scheduler.kick(false), p.scheduler.kick(false), p.scheduler.kick(true)];
    open();
    await Promise.all([first, ...more]);
    expect(most).toBe(1);
    expect(p.status.state.syncing).toBe(false);

    // random() = 1: no jitter taken off; doubling from 100 up to the 300 cap; Retry-After wins when longer.
    const reach = 'server_error' as const;
    expect([1, 2, 3, 4].map(() => p.scheduler.backOff(null, reach))).toEqual([100, 200, 300, 300]);
    expect(p.scheduler.deviceCheckDue).toBe(true);
    p.scheduler.succeeded();
    expect(p.scheduler.backOff(5000, reach)).toBe(5000);
    p.scheduler.resetFailures();
    expect(p.scheduler.backOff(null, reach)).toBe(100);
  });

  it('waits out a back-off unless forced; a forced trigger during a pass that backed off runs right after it', async () => {
    const gates: (() => void)[] = [];
    let calls = 0;
    const p = parts({
      // Every pass fails and backs off for a minute, once the test lets it end.
      pass: async () => {
        calls += 1;
        p.status.publish({ nextRetryAt: now() + 60_000 });
        await new Promise<void>((ok) => gates.push(ok));
      },
    });
    const nextGate = async () => {
      while (!gates.length) await new Promise((ok) => setTimeout(ok, 1));
      return gates.shift() as () => void;
    };
    const first = p.scheduler.kick(false);
    let release = await nextGate();
    void p.scheduler.kick(false);
    release();
    await first;
    await p.scheduler.kick(false);
    expect(calls).toBe(1);

    const second = p.scheduler.kick(true);
    release = await nextGate();
    void p.scheduler.kick(true);
    release();
    release = await nextGate();
    expect(calls).toBe(3);
    release();
    await second;

    await p.scheduler.stop();
    await p.scheduler.kick(true, true);
    expect(calls).toBe(3);
  });
});

describe('sync part: holds', () => {
  it('saves a held row at once, takes it back on undo, and sends it (kicks) when released', async () => {
    const p = parts();
    p.scheduler.markStarted();
    const holds = createHolds({ db: p.db, now, status: p.status, scheduler: p.scheduler });
    const kept = await holds.hold(actions.inboundScan('HD-1'), 3, 60_000);
    const undone = await holds.hold(actions.inboundScan('HD-2'), 3, 60_000);
    expect(p.status.state.held).toBe(2);
    expect(await holds.undo(undone.id as number)).toBe(true);
    expect(await p.db.outbox.get(undone.id as number)).toBeUndefined();
    await holds.release({ ids: [kept.id as number] });
    expect((await p.db.outbox.get(kept.id as number))?.status).toBe('queued');
    expect(await holds.undo(kept.id as number)).toBe(false);
    expect(p.status.state).toMatchObject({ held: 0, queued: 1 });
    while (p.passes() === 0) await new Promise((ok) => setTimeout(ok, 5));
    holds.clear();
    await p.scheduler.stop();
  });
});

describe('sync part: triggers', () => {
  it('turns the page events into the engine triggers, and stops listening when asked', () => {
    const page = new EventTarget();
    const doc = Object.assign(new EventTarget(), { visibilityState: 'hidden' as DocumentVisibilityState });
    const heard: string[] = [];
    const stop = listenForTriggers(
      { online: () => heard.push('online'), offline: () => heard.push('offline'), visible: () => heard.push('visible') },
      Object.assign(page, { document: doc }),
    );
    page.dispatchEvent(new Event('offline'));
    doc.dispatchEvent(new Event('visibilitychange'));
    doc.visibilityState = 'visible';
    doc.dispatchEvent(new Event('visibilitychange'));
    page.dispatchEvent(new Event('online'));
    stop();
    page.dispatchEvent(new Event('online'));
    expect(heard).toEqual(['offline', 'visible', 'online']);
  });
});

describe('sync part: pass', () => {
  it('without a session asks for login and sends nothing; with one and no answer it backs off and checks the server next time', async () => {
    const p = parts();
    let requests = 0;
    const transport = transportOf((url, init) => {
      requests += 1;
      return noNetwork(url, init);
    });
    const sessions = createSessionStore(p.db, transport);
    const ctx = { db: p.db, transport, now, pageSize: 100, lock: outboxLock(p.db, newId(), now, 'lease'), sessions, status: p.status };
    await runPass({ ...ctx, scheduler: p.scheduler });
    expect(p.status.state.loginNeeded).toBe(true);
    expect(requests).toBe(0);

    await sessions.store('tok-9', driver(9));
    p.status.publish({ loginNeeded: false });
    await runPass({ ...ctx, scheduler: p.scheduler });
    expect(requests).toBeGreaterThan(0);
    expect(p.status.state).toMatchObject({ reach: 'no_answer', online: false });
    expect(p.status.state.nextRetryAt).not.toBeNull();
    expect(p.scheduler.deviceCheckDue).toBe(true);
    await p.scheduler.stop();
  });
});
