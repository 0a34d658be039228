import { ApiError } from '../errors';

/**
 * Throttles held by the app instance (never module globals). Keys are `<scope>:<subject>`. In one
 * process (SQLite) they live in memory: each scope (`login-ip`, `reset`, `track`...) has its own
 * bounded table, so flooding one kind of key (e-mails) cannot push out another (addresses). When
 * several processes serve the API (PostgreSQL, WORKERS=N) they are rows of a table every process
 * counts in (server/http/sharedRateLimit.ts). Call before a unit of work starts.
 */
export interface RateLimiter {
  /** Counts a hit; rejects with 429 when `key` exceeded `limit` within `windowMs`. */
  hit(key: string, limit: number, windowMs: number, now: number): Promise<void>;
  /** How many hits `key` has in its current window. */
  count(key: string, now: number): Promise<number>;
  /** Takes back one hit (a login that turned out right). */
  refund(key: string, now: number): Promise<void>;
  reset(key: string): Promise<void>;
}

interface Window {
  start: number;
  windowMs: number;
  n: number;
  limit: number;
}

export const tooMany = (retryMs: number, what = 'Too many attempts'): ApiError => {
  const retry = Math.max(1, Math.ceil(retryMs / 1000));
  return new ApiError(429, 'rate_limited', `${what}; try again in ${retry} s`, [], { retry_after: retry });
};

/**
 * A Map kept in "least recently touched first" order, bounded per scope. When full, it first drops
 * entries that no longer matter (`expired`), oldest first, then the oldest entry that holds no lock;
 * an entry that currently refuses someone (`locked`) is never dropped. If every entry is a live
 * lock, the new key is refused rather than a lock forgotten.
 */
export class BoundedTable<V> {
  private readonly tables = new Map<string, Map<string, V>>();
  constructor(
    private readonly capacity: number,
    private readonly expired: (v: V, now: number) => boolean,
    private readonly locked: (v: V, now: number) => boolean,
  ) {}

  private table(key: string): Map<string, V> {
    const scope = key.slice(0, Math.max(0, key.indexOf(':')));
    let t = this.tables.get(scope);
    if (!t) this.tables.set(scope, (t = new Map()));
    return t;
  }

  get(key: string, now: number): V | undefined {
    const t = this.table(key);
    const v = t.get(key);
    if (v !== undefined && this.expired(v, now)) {
      t.delete(key);
      return undefined;
    }
    return v;
  }

  /** Stores `v` as the most recently touched entry; throws 429 when the table is full of live locks. */
  set(key: string, v: V, now: number): void {
    const t = this.table(key);
    if (t.has(key)) {
      t.delete(key);
      t.set(key, v);
      return;
    }
    if (t.size >= this.capacity) this.makeRoom(t, now);
    t.set(key, v);
  }

  delete(key: string): void {
    this.table(key).delete(key);
  }

  size(scope: string): number {
    return this.tables.get(scope)?.size ?? 0;
  }

  private makeRoom(t: Map<string, V>, now: number): void {
    // Least recently touched first: expired entries gather at the front, so this stops early.
    for (const [k, v] of t) {
      if (t.size < this.capacity) return;
      if (this.expired(v, now)) t.delete(k);
      else break;
    }
    if (t.size < this.capacity) return;
    for (const [k, v] of t) {
      if (!this.locked(v, now)) {
        t.delete(k);
        return;
      }
    }
    throw tooMany(60_000, 'Too many clients are being throttled right now');
  }
}

export const LIMITER_CAPACITY = 50_000;

export function memoryRateLimiter(capacity = LIMITER_CAPACITY): RateLimiter {
  const windows = new BoundedTable<Window>(
    capacity,
    (w, now) => now - w.start >= w.windowMs,
    (w) => w.n >= w.limit,
  );
  return {
    async hit(key, limit, windowMs, now) {
      const w = windows.get(key, now) ?? { start: now, windowMs, n: 0, limit };
      w.n += 1;
      w.limit = limit;
      windows.set(key, w, now);
      if (w.n > limit) throw tooMany(w.start + windowMs - now);
    },
    async count(key, now) {
      return windows.get(key, now)?.n ?? 0;
    },
    async refund(key, now) {
      const w = windows.get(key, now);
      if (w && w.n > 0) w.n -= 1;
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}
