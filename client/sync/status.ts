import { getMeta, META, type SyncDb } from './db';
import type { FirstRows } from './firstRead';
import type { RestoreResend } from './journal';
import type { Notice, Reach, SyncStatus } from './types';

/** The browser's own idea of signal; where there is no browser (Node tests) there is signal. */
export function onlineNow(): boolean {
  const nav = (globalThis as { navigator?: { onLine?: boolean } }).navigator;
  return nav?.onLine ?? true;
}

/** What a pass that ended without a network failure shows: signal as the browser sees it now. */
export function reachNow(): Reach {
  return onlineNow() ? 'ok' : 'no_signal';
}

/**
 * The engine's SyncStatus: the one value the screens draw the top bar from, the listeners told of
 * every change, and the outbox counts read back from the device.
 */
export interface StatusBoard {
  readonly state: SyncStatus;
  publish(patch: Partial<SyncStatus>): void;
  /** Called at once and on every change; returns the unsubscribe function. */
  subscribe(cb: (s: SyncStatus) => void): () => void;
  /** Reads the counts from the database and publishes them. */
  refreshCounts(): Promise<void>;
  /** A row changed state: the counts are read again, once for a burst of changes. */
  changed(): void;
  /** Publishes the counts of rows read already (a first screen's one transaction). */
  showRows(rows: Pick<FirstRows, 'outbox' | 'lastSyncedAt' | 'resend' | 'notices'>): void;
  /** Forgets every listener (the engine stopped). */
  clear(): void;
}

/** `closed`: the engine stopped and its database is closing, so counts are no longer read. */
export function createStatusBoard(db: SyncDb, closed: () => boolean): StatusBoard {
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
    reach: reachNow(),
    notices: 0,
  };
  const listeners = new Set<(s: SyncStatus) => void>();

  const publish = (patch: Partial<SyncStatus>): void => {
    state = { ...state, ...patch };
    for (const l of listeners) l(state);
  };

  const refreshCounts = async (): Promise<void> => {
    if (closed()) return;
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
  };

  // Coalesced: a burst of row changes costs one count, not one per row.
  let counting = false;
  let recount = false;
  const changed = (): void => {
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

  return {
    get state() {
      return state;
    },
    publish,
    subscribe(cb) {
      listeners.add(cb);
      cb(state);
      return () => {
        listeners.delete(cb);
      };
    },
    refreshCounts,
    changed,
    showRows({ outbox: rows, lastSyncedAt, resend, notices }) {
      // The figures refreshCounts publishes, from rows read already (held rows carry a placeholder seq).
      const count = (status: (typeof rows)[number]['status']) => rows.filter((r) => r.status === status).length;
      publish({
        held: count('held'),
        queued: count('queued'),
        sending: count('sending'),
        rejected: count('rejected'),
        lastSyncedAt: lastSyncedAt ?? null,
        resentAfterRestore: resend?.count ?? 0,
        notices: notices?.length ?? 0,
      });
    },
    clear: () => listeners.clear(),
  };
}
