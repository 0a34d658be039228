import type { RestoreResend } from './journal';
import { META } from './metaKeys';
import type { MetaRow, Notice, OutboxRow, SessionInfo, StoredPackage } from './types';

/** What the first frame of a day draws from: the session, the server copies, the outbox (in seq order) and the top bar's figures. */
export interface FirstRows {
  token: string | undefined;
  user: SessionInfo | undefined;
  copies: StoredPackage[];
  outbox: OutboxRow[];
  lastSyncedAt: number | undefined;
  resend: RestoreResend | undefined;
  notices: Notice[] | undefined;
}

/** The stores FirstRows come from (db.ts declares them; the outbox's `seq` index gives the order). */
export const FIRST_STORES = ['meta', 'packages', 'outbox'] as const;

/**
 * Reads FirstRows with IndexedDB itself, in one read-only transaction, without Dexie: a warm start
 * (client/driver/index.tsx) begins it while the day's chunk, Dexie and the engine included, is still
 * being loaded and evaluated (each about 100 ms on a slow phone), so the phone's disk and the
 * page's scripts work at the same time instead of one after the other. Answers null, and the
 * engine reads with Dexie, whenever the database is not exactly what db.ts declares. Never creates
 * the database: an open that would is aborted, so Dexie later creates it with its own versions.
 * The connection is closed as soon as the rows are read, and at once if Dexie needs to upgrade.
 */
export function readFirstRows(name: string, factory: IDBFactory | undefined = globalThis.indexedDB): Promise<FirstRows | null> {
  return new Promise((resolve) => {
    let open: IDBOpenDBRequest;
    try {
      if (!factory) {
        resolve(null);
        return;
      }
      open = factory.open(name);
    } catch {
      resolve(null);
      return;
    }
    // No version asked: this fires only if the database does not exist yet.
    open.onupgradeneeded = () => open.transaction?.abort();
    open.onerror = () => resolve(null);
    open.onblocked = () => resolve(null);
    open.onsuccess = () => {
      const db = open.result;
      db.onversionchange = () => db.close();
      const finish = (rows: FirstRows | null) => {
        db.close();
        resolve(rows);
      };
      try {
        if (!FIRST_STORES.every((s) => db.objectStoreNames.contains(s))) {
          finish(null);
          return;
        }
        const tx = db.transaction([...FIRST_STORES], 'readonly');
        const outboxStore = tx.objectStore('outbox');
        if (!outboxStore.indexNames.contains('seq')) {
          tx.abort();
          finish(null);
          return;
        }
        const meta = tx.objectStore('meta');
        const metaValue = <T>(key: string) => {
          const req = meta.get(key);
          return () => (req.result as MetaRow | undefined)?.value as T | undefined;
        };
        const token = metaValue<string>(META.token);
        const user = metaValue<SessionInfo>(META.user);
        const lastSyncedAt = metaValue<number>(META.lastSyncedAt);
        const resend = metaValue<RestoreResend>(META.restoreResend);
        const notices = metaValue<Notice[]>(META.notices);
        const copies = tx.objectStore('packages').getAll();
        const outbox = outboxStore.index('seq').getAll();
        tx.oncomplete = () =>
          finish({
            token: token(),
            user: user(),
            copies: copies.result as StoredPackage[],
            outbox: outbox.result as OutboxRow[],
            lastSyncedAt: lastSyncedAt(),
            resend: resend(),
            notices: notices(),
          });
        tx.onabort = () => finish(null);
      } catch {
        finish(null);
      }
    };
  });
}
