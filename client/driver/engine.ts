import { createSyncEngine, type SyncEngine } from '../sync/index';
import { DB_NAME, LOCAL_KEYS } from './localKeys';

export { LOCAL_KEYS };

let current: SyncEngine | null = null;

/** One engine per tab: two would race for the same outbox rows (the lock makes it safe, not cheap). */
export function engine(): SyncEngine {
  current ??= createSyncEngine({ baseUrl: `${window.location.origin}/api/`, dbName: DB_NAME });
  return current;
}

/**
 * Logout with an empty outbox (or the driver's explicit consent): the token is revoked where
 * possible, then every trace of the driver's day leaves the phone, the next driver starts clean.
 */
export async function wipeDevice(): Promise<void> {
  const e = engine();
  await e.logout();
  await e.stop();
  current = null;
  await new Promise<void>((resolve) => {
    const req = indexedDB.deleteDatabase(DB_NAME);
    req.onsuccess = () => resolve();
    req.onerror = () => resolve();
    // Another tab holding the database open: it closes on its own 'versionchange'; do not hang.
    req.onblocked = () => resolve();
  });
  for (const key of Object.values(LOCAL_KEYS)) localStorage.removeItem(key);
}
