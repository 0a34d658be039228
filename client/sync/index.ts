import { actionBuilders, type ActionBuilders } from './actions';
import { getMeta, META, setMeta, SyncDb } from './db';
import type { FirstRows } from './firstRead';
import type { FetchLike, Transport } from './http';
import { createHolds } from './holds';
import { pruneJournal, type RestoreResend } from './journal';
import { outboxLock } from './lock';
import { addToOutbox, discardRejectedRow, newId, releaseHeld, requeueRejected, unsentFiles } from './outbox';
import { runPass } from './pass';
import { createScheduler } from './scheduler';
import { createSessionStore } from './session';
import { createStatusBoard } from './status';
import { listenForTriggers } from './triggers';
import { checkBarcode, pendingView, viewOf } from './view';
import type { ActionInput, FailedStatus, LocalCheck, Notice, OutboxRow, SessionInfo, SyncStatus, ViewPackage } from './types';

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

/**
 * The facade: wires the parts and answers the SyncEngine interface. The parts are the session
 * (session.ts), the status (status.ts), when passes run (scheduler.ts), what a pass does (pass.ts,
 * sending with sender.ts and pulling with puller.ts) and the undo windows (holds.ts).
 */
export function createSyncEngine(options: SyncEngineOptions): SyncEngine {
  const now = options.now ?? (() => Date.now());
  const db = new SyncDb(options.dbName ?? 'courier', { indexedDB: options.indexedDB, IDBKeyRange: options.IDBKeyRange });
  const transport: Transport = {
    baseUrl: options.baseUrl,
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  };
  const probe = options.probe === undefined ? DEFAULTS.probe : options.probe;
  const sessions = createSessionStore(db, transport);
  // The status asks the scheduler (made next) whether the engine stopped.
  const status = createStatusBoard(db, () => scheduler.closed);
  const scheduler = createScheduler({
    now,
    random: options.random ?? Math.random,
    backoff: options.backoff ?? DEFAULTS.backoff,
    pollMs: options.pollMs ?? DEFAULTS.pollMs,
    status,
    probe: probe ? { transport, ...probe } : null,
    pass: () => runPass(passContext),
  });
  const passContext = {
    db,
    transport,
    now,
    pageSize: options.pageSize ?? DEFAULTS.pageSize,
    lock: outboxLock(db, newId(), now, options.lock ?? 'auto'),
    sessions,
    status,
    scheduler,
  };
  const holds = createHolds({ db, now, status, scheduler });
  let stopListening = () => {};

  /** Whose actions are saved: the last user to log in, who may work offline with an expired token. */
  const worker = async (): Promise<SessionInfo> => {
    const user = await sessions.lastUser();
    if (!user) throw new Error('Log in once with signal before working offline');
    await sessions.deviceId();
    return user;
  };
  const adopt = async (token: string, user: SessionInfo): Promise<void> => {
    await sessions.store(token, user);
    scheduler.resetFailures();
    status.publish({ loginNeeded: false, lastError: null, nextRetryAt: null });
    if (scheduler.started) void scheduler.kick(true);
  };
  const lastUserId = async () => (await sessions.lastUser())?.id ?? null;

  return {
    db,
    get deviceId() {
      return sessions.deviceId();
    },
    actions: actionBuilders(now, newId),
    async hold(action, ms) {
      return holds.hold(action, (await worker()).id, ms);
    },
    release: (id) => holds.release(id != null ? { ids: [id] } : {}),
    undo: (id) => holds.undo(id),
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
      await status.refreshCounts();
    },
    async unsentFiles(id) {
      const row = await db.outbox.get(id);
      return row ? unsentFiles(db, row) : 0;
    },
    async enqueue(action) {
      const row = await addToOutbox(db, action, (await worker()).id, now());
      await status.refreshCounts();
      if (scheduler.started) {
        void scheduler.kick(false);
        registerBackgroundSync();
      }
      return row;
    },
    async pendingView() {
      return pendingView(db, await lastUserId());
    },
    async failedStatuses() {
      return (await db.failedStatuses.toArray()).map(({ syncedAt: _s, ...s }) => s).sort((a, b) => a.name.localeCompare(b.name));
    },
    outbox: () => db.outbox.orderBy('seq').toArray(),
    async localCheck(barcode) {
      return checkBarcode(db, await lastUserId(), barcode);
    },
    status: () => status.state,
    async firstView(preread) {
      const read = preread ?? (await readFirstView(db));
      status.showRows(read);
      const { token, user, copies, outbox } = read;
      return { user: token && user ? user : null, view: viewOf(copies, outbox, user?.id ?? null), outbox, status: status.state };
    },
    subscribe: (cb) => status.subscribe(cb),
    async retryRejected(id) {
      const ok = await requeueRejected(db, id);
      await status.refreshCounts();
      if (ok && scheduler.started) void scheduler.kick(true);
      return ok;
    },
    async discardRejected(id, force = false) {
      const ok = await discardRejectedRow(db, id, force);
      await status.refreshCounts();
      return ok;
    },
    async syncNow() {
      await scheduler.kick(true, true);
      return status.state;
    },
    async start() {
      if (scheduler.started || scheduler.closed) return;
      scheduler.markStarted();
      await sessions.deviceId();
      await requestPersistence();
      await pruneJournal(db, now());
      // Held rows left by a page that died inside its undo window: the window ended with it.
      await releaseHeld(db, {});
      stopListening = listenForTriggers({
        online: () => scheduler.signalBack(),
        offline: () => status.publish({ online: false, reach: 'no_signal' }),
        visible: () => void scheduler.kick(true),
      });
      scheduler.begin();
      await status.refreshCounts();
      void scheduler.kick(true);
    },
    async stop() {
      const stopped = scheduler.stop();
      holds.clear();
      stopListening();
      await stopped;
      status.clear();
      db.close();
    },
    async login(email, password) {
      const { token, user } = await sessions.login(email, password);
      await adopt(token, user);
      return user;
    },
    setSession: adopt,
    async logout() {
      await sessions.logout();
      status.publish({ loginNeeded: true });
    },
    async session() {
      return (await sessions.current())?.user ?? null;
    },
  };
}

/** FirstRows read with Dexie, in one transaction that reads each store once. */
function readFirstView(db: SyncDb): Promise<FirstRows> {
  return db.transaction('r', [db.meta, db.packages, db.outbox], async (): Promise<FirstRows> => {
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
  });
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
