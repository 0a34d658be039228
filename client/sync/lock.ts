import type { SyncDb } from './db';

export const LOCK_NAME = 'courier-outbox';
/** Longer than any one request may take (requests are aborted well before). */
export const LEASE_MS = 60_000;

/** Runs `fn` while no other tab of this device does; answers null at once when another tab holds it. */
export type OutboxLock = <T>(fn: (stillMine: () => Promise<boolean>) => Promise<T>) => Promise<T | null>;

interface LockManagerLike {
  request<T>(name: string, options: { ifAvailable: boolean }, cb: (lock: unknown) => Promise<T>): Promise<T>;
}

function webLocks(): LockManagerLike | null {
  const nav = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator;
  return nav?.locks ?? null;
}

/** The Web Lock where the browser has one: released by the browser even when a tab dies. */
export function webLock(locks: LockManagerLike): OutboxLock {
  return (fn) => locks.request(LOCK_NAME, { ifAvailable: true }, async (lock) => (lock ? fn(async () => true) : null));
}

/**
 * Without Web Locks (older browsers, Node): a lease row in the shared database, taken and renewed
 * in IndexedDB transactions, so two engines on one database never send at the same time. A tab
 * that dies holding it loses it when it expires.
 */
export function leaseLock(db: SyncDb, owner: string, now: () => number): OutboxLock {
  const take = () =>
    db.transaction('rw', db.leases, async () => {
      const row = await db.leases.get(LOCK_NAME);
      if (row && row.owner !== owner && row.expires > now()) return false;
      await db.leases.put({ name: LOCK_NAME, owner, expires: now() + LEASE_MS });
      return true;
    });
  return async (fn) => {
    if (!(await take())) return null;
    let renewedAt = now();
    // Until half the lease has run, nobody else can have taken it: no need to ask the database.
    const renew = async () => {
      if (now() - renewedAt < LEASE_MS / 2) return true;
      const ok = await take();
      if (ok) renewedAt = now();
      return ok;
    };
    try {
      return await fn(renew);
    } finally {
      await db.transaction('rw', db.leases, async () => {
        const row = await db.leases.get(LOCK_NAME);
        if (row?.owner === owner) await db.leases.delete(LOCK_NAME);
      });
    }
  };
}

export function outboxLock(db: SyncDb, owner: string, now: () => number, prefer: 'auto' | 'lease'): OutboxLock {
  const locks = prefer === 'auto' ? webLocks() : null;
  return locks ? webLock(locks) : leaseLock(db, owner, now);
}
