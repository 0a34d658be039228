import { actionBuilders, type ActionBuilders } from './actions';
import { getMeta, META, setMeta, SyncDb } from './db';
import type { FirstRows } from './firstRead';
import { request, type FetchLike, type Transport } from './http';
import { checkServerSeq, pruneJournal, requeueJournal, type RestoreResend } from './journal';
import { outboxLock } from './lock';
import { addToOutbox, discardRejectedRow, newId, releaseHeld, requeueRejected, undoHeld, unsentFiles } from './outbox';
import { createProbe } from './probe';
import { forgetCopies, pullChanges } from './puller';
import { drainOutbox } from './sender';
import { checkBarcode, pendingView, viewOf } from './view';
import type { ActionInput, FailedStatus, LocalCheck, Notice, OutboxRow, Reach, SessionInfo, SyncStatus, ViewPackage } from './types';

export type * from './types';
export { SyncStorageError } from './outbox';
export { SyncDb } from './db';
export type { FirstRows } from './firstRead';

export interface SyncEngineOptions {
  /** `https://host/api/` */
  baseUrl: string;
  fetch?: FetchLike;
  dbName?: string;
  /** The device clock: stamps `occurred_at`, back-off and leases; never used to read the server feed. */
  now?: () => number;
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
  /** `lease` forces the IndexedDB lease even where Web Locks exist (tests). */
  lock?: 'auto' | 'lease';
  backoff?: { baseMs: number; maxMs: number };
  /** How often a started engine tries on its own. */
  pollMs?: number;
  pageSize?: number;
  timeoutMs?: number;
  random?: () => number;
  /**
   * While a back-off runs because the server did not answer (or answered 5xx), ask `GET reach/`
   * this often (doubling from firstMs to maxMs) and send at once when it answers (probe.ts).
   */
  probe?: { firstMs: number; maxMs: number } | false;
}

export interface SyncEngine {
  /** Saves the action on the device (throws SyncStorageError when it cannot), then tries to send. */
  enqueue(action: ActionInput): Promise<OutboxRow>;
  /**
   * Saves the action on the device as held (durable at once, counted, not sent) for the undo
   * window of `ms`; it is released (takes its seq and is sent) when the window closes, at
   * `release()`, or at the next start() if the page died meanwhile.
   */
  hold(action: ActionInput, ms: number): Promise<OutboxRow>;
  /** Ends the window now: one held row, or all of them. */
  release(id?: number): Promise<void>;
  /** Takes a held row back (and its files); false once it was released. */
  undo(id: number): Promise<boolean>;
  /** What the server said about accepted actions that the driver should read. */
  notices(): Promise<Notice[]>;
  dismissNotice(id: string): Promise<void>;
  /** Files of a row the server does not hold yet. */
  unsentFiles(id: number): Promise<number>;
  actions: ActionBuilders;
  pendingView(): Promise<ViewPackage[]>;
  failedStatuses(): Promise<FailedStatus[]>;
  outbox(): Promise<OutboxRow[]>;
  localCheck(barcode: string): Promise<LocalCheck>;
  status(): SyncStatus;
  /**
   * What a first screen needs, read from the device in one transaction that reads each store once
   * (no network): the session's user, pendingView(), outbox() and the status with its counts.
   * `preread`: those rows, read already (firstRead.ts, before the engine's code had loaded); without
   * them (or null) the engine reads them itself.
   */
  firstView(
    preread?: FirstRows | null,
  ): Promise<{ user: SessionInfo | null; view: ViewPackage[]; outbox: OutboxRow[]; status: SyncStatus }>;
  /** Called at once and on every change; returns the unsubscribe function. */
  subscribe(cb: (s: SyncStatus) => void): () => void;
  retryRejected(id: number): Promise<boolean>;
  /** Refuses (false) while the row's files have not reached the server, unless `force`. */
  discardRejected(id: number, force?: boolean): Promise<boolean>;
  /** Push, then pull; ignores any back-off (the user asked). */
  syncNow(): Promise<SyncStatus>;
  start(): Promise<void>;
  stop(): Promise<void>;
  login(email: string, password: string): Promise<SessionInfo>;
  /** Adopts a session obtained elsewhere (web login screen). */
  setSession(token: string, user: SessionInfo): Promise<void>;
  logout(): Promise<void>;
  session(): Promise<SessionInfo | null>;
  readonly deviceId: Promise<string>;
  readonly db: SyncDb;
}

const DEFAULTS = {
  backoff: { baseMs: 1000, maxMs: 5 * 60_000 },
  pollMs: 60_000,
  pageSize: 500,
  timeoutMs: 30_000,
  probe: { firstMs: 1500, maxMs: 4000 },
};
/** When another tab holds the outbox, look again this soon (for this tab's status). */
const LOCK_RECHECK_MS = 2000;

type Listener = (s: SyncStatus) => void;

function onlineNow(): boolean {
  const nav = (globalThis as { navigator?: { onLine?: boolean } }).navigator;
  return nav?.onLine ?? true;
}

export function createSyncEngine(options: SyncEngineOptions): SyncEngine {
  const now = options.now ?? (() => Date.now());
  const random = options.random ?? Math.random;
  const backoff = options.backoff ?? DEFAULTS.backoff;
  const pollMs = options.pollMs ?? DEFAULTS.pollMs;
  const db = new SyncDb(options.dbName ?? 'courier', { indexedDB: options.indexedDB, IDBKeyRange: options.IDBKeyRange });
  const transport: Transport = {
    baseUrl: options.baseUrl,
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  };
  const probeEvery = options.probe === undefined ? DEFAULTS.probe : options.probe;
  // The office answers again: the queue goes now, not at the back-off timer (kick is hoisted).
  const probe = probeEvery
    ? createProbe({
        transport,
        ...probeEvery,
        random,
        onAnswer: () => {
          deviceCheckDue = true;
          void kick(true);
        },
      })
    : null;
  const owner = newId();
  const lock = outboxLock(db, owner, now, options.lock ?? 'auto');
  const actions = actionBuilders(now, newId);

  // Read (or made) on first use, not here: creating the engine must not open the database, so a
  // warm start's first frame, drawn from rows read without Dexie (firstRead.ts), does not wait for it.
  let deviceIdRead: Promise<string> | null = null;
  const deviceId = () =>
    (deviceIdRead ??= db.transaction('rw', db.meta, async () => {
      const existing = await getMeta<string>(db, META.deviceId);
      if (existing) return existing;
      const id = newId();
      await setMeta(db, META.deviceId, id);
      return id;
    }));

  let state: SyncStatus = {
    held: 0,
    queued: 0,
    sending: 0,
    rejected: 0,
    online: onlineNow(),
    loginNeeded: false,
    syncing: false,
    lastSyncedAt: null,
    lastError: null,
    nextRetryAt: null,
    resentAfterRestore: 0,
    reach: onlineNow() ? 'ok' : 'no_signal',
    notices: 0,
  };
  const listeners = new Set<Listener>();
  let failures = 0;
  let started = false;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let poll: ReturnType<typeof setInterval> | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  // A forced trigger (signal back, page visible, the driver asked) that arrived during a pass: the
  // next round runs even if that pass just scheduled a back-off.
  let urgent = false;
  const holdTimers = new Map<number, ReturnType<typeof setTimeout>>();
  // Whether the next pass asks the server for its last seq first: at start, when signal returns and
  // after a failed pass (the server may have been down for a restore).
  let deviceCheckDue = true;
  const cleanups: (() => void)[] = [];

  function publish(patch: Partial<SyncStatus>): void {
    state = { ...state, ...patch };
    for (const l of listeners) l(state);
  }

  async function refreshCounts(): Promise<void> {
    if (closed) return;
    const [held, queued, sending, rejected, lastSyncedAt, resend, notices] = await Promise.all([
      db.outbox.where('status').equals('held').count(),
      db.outbox.where('status').equals('queued').count(),
      db.outbox.where('status').equals('sending').count(),
      db.outbox.where('status').equals('rejected').count(),
      getMeta<number>(db, META.lastSyncedAt),
      getMeta<RestoreResend>(db, META.restoreResend),
      getMeta<Notice[]>(db, META.notices),
    ]);
    publish({
      held,
      queued,
      sending,
      rejected,
      lastSyncedAt: lastSyncedAt ?? null,
      resentAfterRestore: resend?.count ?? 0,
      notices: notices?.length ?? 0,
    });
  }
  // Coalesced: a burst of row changes costs one count, not one per row.
  let counting = false;
  let recount = false;
  const changed = () => {
    if (counting) {
      recount = true;
      return;
    }
    counting = true;
    void (async () => {
      try {
        do {
          recount = false;
          await refreshCounts();
        } while (recount);
      } catch {
        /* the database closed under us: nothing to show */
      } finally {
        counting = false;
      }
    })();
  };

  function schedule(delayMs: number): void {
    if (!started || closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(
      () => {
        timer = null;
        void kick(true);
      },
      Math.max(0, delayMs),
    );
  }

  function delayFor(retryAfterMs: number | null): number {
    failures += 1;
    const exp = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(failures - 1, 20));
    // Jitter spreads a fleet of phones that regain signal together.
    return Math.max(retryAfterMs ?? 0, Math.round(exp * (0.5 + random() * 0.5)));
  }

  async function currentSession(): Promise<{ token: string; user: SessionInfo } | null> {
    const [token, user] = await Promise.all([getMeta<string>(db, META.token), getMeta<SessionInfo>(db, META.user)]);
    return token && user ? { token, user } : null;
  }

  /** One pass: everything this user queued, then the server's changes; push before pull. */
  async function pass(): Promise<void> {
    const session = await currentSession();
    if (!session) {
      publish({ loginNeeded: true });
      return;
    }
    if (state.loginNeeded) return;
    const id = await deviceId();
    // Undo windows that closed while no timer ran (page frozen, timers throttled) end here.
    if ((await releaseHeld(db, { closedBy: now() })).length) changed();
    let checked = false;
    const outcome = await lock(async (stillMine) => {
      // Rows left "sending" by a tab that died: we hold the lock, nobody else is sending them.
      await db.outbox.where('status').equals('sending').modify({ status: 'queued' });
      if (deviceCheckDue) {
        const check = await checkServerSeq(db, transport, session.token, id, now());
        if (check.kind === 'auth' || check.kind === 'retry') return check;
        deviceCheckDue = false;
        checked = check.kind === 'checked';
        if (check.kind === 'checked' && check.resent) changed();
      }
      // A stopping engine finishes the row in flight and sends no more.
      const mayGoOn = async () => !closed && (await stillMine());
      const drained = await drainOutbox(
        { db, transport, now, deviceId: id, token: session.token, userId: session.user.id, changed },
        mayGoOn,
      );
      if (drained.kind !== 'empty' || closed) return drained;
      const pulled = await pullChanges({
        db,
        transport,
        now,
        token: session.token,
        userId: session.user.id,
        pageSize: options.pageSize ?? DEFAULTS.pageSize,
      });
      // A reset feed means a restored server. Unchecked this pass, rows sent before the pull may have
      // raised its last_seq above the gap, so the whole journal goes again: what the server kept replays.
      if (pulled.kind === 'done' && pulled.resets > 0 && !checked && (await requeueJournal(db, 0, now(), null))) {
        changed();
        again = true;
      }
      return pulled;
    });
    if (outcome === null) {
      schedule(LOCK_RECHECK_MS);
      return;
    }
    switch (outcome.kind) {
      case 'done':
        probe?.stop();
        failures = 0;
        await setMeta(db, META.lastSyncedAt, now());
        // A pass that finished just after the browser went offline must not mark it online again.
        publish({ online: onlineNow(), lastError: null, nextRetryAt: null, reach: onlineNow() ? 'ok' : 'no_signal' });
        break;
      case 'auth':
        publish({ loginNeeded: true, lastError: outcome.message, online: onlineNow(), reach: onlineNow() ? 'ok' : 'no_signal' });
        break;
      case 'retry': {
        deviceCheckDue = true;
        const delay = delayFor(outcome.retryAfterMs);
        const reach: Reach = !onlineNow() ? 'no_signal' : outcome.offline ? 'no_answer' : 'server_error';
        publish({ online: !outcome.offline && onlineNow(), lastError: outcome.message, nextRetryAt: now() + delay, reach });
        schedule(delay);
        // Without signal the browser's 'online' event is the cue; with it, the probe asks meanwhile.
        if (probe && probeEvery && reach !== 'no_signal' && delay > probeEvery.firstMs) probe.start(outcome.retryAfterMs);
        break;
      }
      case 'lost_lock':
        schedule(LOCK_RECHECK_MS);
        break;
    }
  }

  /**
   * Runs a pass, or asks the running one to go again: triggers never overlap or get lost. Without
   * signal only the driver's own "Sync now" (`asked`) tries: every other attempt would be a failed
   * request and a console error (issue 35); the browser's 'online' event starts the next one.
   */
  function kick(force: boolean, asked = false): Promise<void> {
    if (closed) return Promise.resolve();
    if (!asked && !onlineNow()) {
      if (state.online || state.reach !== 'no_signal') publish({ online: false, reach: 'no_signal' });
      return running ?? Promise.resolve();
    }
    if (!force && state.nextRetryAt != null && state.nextRetryAt > now()) return running ?? Promise.resolve();
    if (running) {
      again = true;
      if (force) urgent = true;
      return running;
    }
    running = (async () => {
      publish({ syncing: true });
      try {
        do {
          again = false;
          if (urgent) {
            // The pass that just ended may have scheduled a back-off; this trigger goes now.
            urgent = false;
            failures = 0;
            if (timer) {
              clearTimeout(timer);
              timer = null;
            }
            publish({ nextRetryAt: null });
          }
          await pass();
        } while (again && !closed && (urgent || !(state.nextRetryAt != null && state.nextRetryAt > now())));
      } finally {
        running = null;
        if (!closed) {
          publish({ syncing: false });
          await refreshCounts();
        }
      }
    })();
    return running;
  }

  async function storeSession(token: string, user: SessionInfo): Promise<void> {
    const previous = await getMeta<SessionInfo>(db, META.user);
    // Another person's copies never show on this phone; their queued actions stay, unsendable until they log in.
    if (previous && previous.id !== user.id) await forgetCopies(db);
    await db.transaction('rw', db.meta, async () => {
      await setMeta(db, META.token, token);
      await setMeta(db, META.user, user);
    });
    failures = 0;
    publish({ loginNeeded: false, lastError: null, nextRetryAt: null });
  }

  async function releaseNow(which: { ids?: number[]; closedBy?: number }): Promise<void> {
    const ids = await releaseHeld(db, which);
    for (const id of ids) {
      clearTimeout(holdTimers.get(id));
      holdTimers.delete(id);
    }
    if (!ids.length || closed) return;
    await refreshCounts();
    if (started) void kick(false);
  }

  const engine: SyncEngine = {
    db,
    get deviceId() {
      return deviceId();
    },
    actions,
    async hold(action, ms) {
      const user = (await currentSession())?.user ?? (await getMeta<SessionInfo>(db, META.user));
      if (!user) throw new Error('Log in once with signal before working offline');
      await deviceId();
      const row = await addToOutbox(db, action, user.id, now(), now() + ms);
      const id = row.id as number;
      holdTimers.set(
        id,
        setTimeout(() => {
          holdTimers.delete(id);
          void releaseNow({ ids: [id] }).catch(() => undefined);
        }, ms),
      );
      await refreshCounts();
      return row;
    },
    release: (id) => releaseNow(id != null ? { ids: [id] } : {}),
    async undo(id) {
      clearTimeout(holdTimers.get(id));
      holdTimers.delete(id);
      const ok = await undoHeld(db, id);
      await refreshCounts();
      return ok;
    },
    async notices() {
      return (await getMeta<Notice[]>(db, META.notices)) ?? [];
    },
    async dismissNotice(id) {
      await db.transaction('rw', db.meta, async () => {
        const list = (await getMeta<Notice[]>(db, META.notices)) ?? [];
        await setMeta(
          db,
          META.notices,
          list.filter((n) => n.id !== id),
        );
      });
      await refreshCounts();
    },
    async unsentFiles(id) {
      const row = await db.outbox.get(id);
      return row ? unsentFiles(db, row) : 0;
    },
    async enqueue(action) {
      const session = await currentSession();
      const user = session?.user ?? (await getMeta<SessionInfo>(db, META.user));
      if (!user) throw new Error('Log in once with signal before working offline');
      await deviceId();
      const row = await addToOutbox(db, action, user.id, now());
      await refreshCounts();
      if (started) {
        void kick(false);
        registerBackgroundSync();
      }
      return row;
    },
    async pendingView() {
      return pendingView(db, (await getMeta<SessionInfo>(db, META.user))?.id ?? null);
    },
    async failedStatuses() {
      return (await db.failedStatuses.toArray()).map(({ syncedAt: _s, ...s }) => s).sort((a, b) => a.name.localeCompare(b.name));
    },
    outbox: () => db.outbox.orderBy('seq').toArray(),
    async localCheck(barcode) {
      return checkBarcode(db, (await getMeta<SessionInfo>(db, META.user))?.id ?? null, barcode);
    },
    status: () => state,
    async firstView(preread) {
      const read =
        preread ??
        (await db.transaction('r', [db.meta, db.packages, db.outbox], async (): Promise<FirstRows> => {
          const [token, user, copies, outbox, lastSyncedAt, resend, notices] = await Promise.all([
            getMeta<string>(db, META.token),
            getMeta<SessionInfo>(db, META.user),
            db.packages.toArray(),
            db.outbox.orderBy('seq').toArray(),
            getMeta<number>(db, META.lastSyncedAt),
            getMeta<RestoreResend>(db, META.restoreResend),
            getMeta<Notice[]>(db, META.notices),
          ]);
          return { token, user, copies, outbox, lastSyncedAt, resend, notices };
        }));
      const { token, user, copies, outbox: rows, lastSyncedAt, resend, notices } = read;
      // The figures refreshCounts publishes, from the rows read here (held rows carry a placeholder seq).
      const count = (status: OutboxRow['status']) => rows.filter((r) => r.status === status).length;
      publish({
        held: count('held'),
        queued: count('queued'),
        sending: count('sending'),
        rejected: count('rejected'),
        lastSyncedAt: lastSyncedAt ?? null,
        resentAfterRestore: resend?.count ?? 0,
        notices: notices?.length ?? 0,
      });
      return { user: token && user ? user : null, view: viewOf(copies, rows, user?.id ?? null), outbox: rows, status: state };
    },
    subscribe(cb) {
      listeners.add(cb);
      cb(state);
      return () => {
        listeners.delete(cb);
      };
    },
    async retryRejected(id) {
      const ok = await requeueRejected(db, id);
      await refreshCounts();
      if (ok && started) void kick(true);
      return ok;
    },
    async discardRejected(id, force = false) {
      const ok = await discardRejectedRow(db, id, force);
      await refreshCounts();
      return ok;
    },
    async syncNow() {
      await kick(true, true);
      return state;
    },
    async start() {
      if (started || closed) return;
      started = true;
      await deviceId();
      await requestPersistence();
      await pruneJournal(db, now());
      // Held rows left by a page that died inside its undo window: the window ended with it.
      await releaseHeld(db, {});
      deviceCheckDue = true;
      listen();
      poll = setInterval(() => {
        void kick(false);
      }, pollMs);
      await refreshCounts();
      void kick(true);
    },
    async stop() {
      started = false;
      closed = true;
      if (timer) clearTimeout(timer);
      if (poll) clearInterval(poll);
      probe?.stop();
      for (const t of holdTimers.values()) clearTimeout(t);
      holdTimers.clear();
      cleanups.splice(0).forEach((f) => f());
      await running;
      listeners.clear();
      db.close();
    },
    async login(email, password) {
      // The device id names this phone's session, so an admin can sign out this phone alone.
      const outcome = await request(
        transport,
        'POST',
        'auth/login/',
        { 'content-type': 'application/json', 'x-device-id': await deviceId() },
        JSON.stringify({ email, password }),
      );
      if (outcome.kind !== 'ok') throw new Error('message' in outcome ? outcome.message : 'Login failed');
      const body = outcome.body as { token: string; user: SessionInfo };
      await storeSession(body.token, body.user);
      if (started) void kick(true);
      return body.user;
    },
    async setSession(token, user) {
      await storeSession(token, user);
      if (started) void kick(true);
    },
    async logout() {
      const session = await currentSession();
      if (session) {
        // Best effort: offline, the token simply expires on the server.
        await request(transport, 'POST', 'auth/logout/', { authorization: `Bearer ${session.token}` }).catch(() => undefined);
      }
      await db.meta.delete(META.token);
      publish({ loginNeeded: true });
    },
    async session() {
      return (await currentSession())?.user ?? null;
    },
  };

  function listen(): void {
    const g = globalThis as {
      addEventListener?: (t: string, f: () => void) => void;
      removeEventListener?: (t: string, f: () => void) => void;
      document?: Document;
    };
    const onOnline = () => {
      deviceCheckDue = true;
      failures = 0;
      publish({ online: true, nextRetryAt: null, reach: 'ok' });
      void kick(true);
    };
    const onOffline = () => publish({ online: false, reach: 'no_signal' });
    if (g.addEventListener && g.removeEventListener) {
      const add = g.addEventListener.bind(g);
      const remove = g.removeEventListener.bind(g);
      add('online', onOnline);
      add('offline', onOffline);
      cleanups.push(() => {
        remove('online', onOnline);
        remove('offline', onOffline);
      });
    }
    const doc = g.document;
    if (doc) {
      // Back in front of the driver: send now rather than at the back-off timer.
      const onVisible = () => {
        if (doc.visibilityState === 'visible') void kick(true);
      };
      doc.addEventListener('visibilitychange', onVisible);
      cleanups.push(() => doc.removeEventListener('visibilitychange', onVisible));
    }
  }

  return engine;
}

/** Asks the browser not to evict the outbox under storage pressure; refusal is not an error. */
async function requestPersistence(): Promise<void> {
  const storage = (globalThis as { navigator?: { storage?: { persist?: () => Promise<boolean> } } }).navigator?.storage;
  try {
    await storage?.persist?.();
  } catch {
    /* the browser said no; nothing to do */
  }
}

/** A nudge for the service worker to wake us when signal returns; the timers never rely on it. */
function registerBackgroundSync(): void {
  const sw = (globalThis as { navigator?: { serviceWorker?: { ready: Promise<unknown> } } }).navigator?.serviceWorker;
  if (!sw) return;
  void sw.ready
    .then((reg) => (reg as { sync?: { register(tag: string): Promise<void> } }).sync?.register('courier-outbox'))
    .catch(() => undefined);
}
