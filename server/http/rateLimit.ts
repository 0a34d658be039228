import { ApiError } from '../errors';

/**
 * Fixed-window counters per key, held by the app instance. Good enough for one process; a cluster
 * would move this into the database.
 */
export interface RateLimiter {
  /** Counts a hit; throws 429 when `key` exceeded `limit` within `windowMs`. */
  hit(key: string, limit: number, windowMs: number, now: number): void;
  /** How many hits `key` has in its current window. */
  count(key: string, now: number): number;
  reset(key: string): void;
}

export function memoryRateLimiter(): RateLimiter {
  const windows = new Map<string, { start: number; windowMs: number; n: number }>();
  const live = (key: string, now: number) => {
    const w = windows.get(key);
    if (w && now - w.start >= w.windowMs) { windows.delete(key); return undefined; }
    return w;
  };
  return {
    hit(key, limit, windowMs, now) {
      if (windows.size > 100_000) windows.clear();
      const w = live(key, now) ?? { start: now, windowMs, n: 0 };
      w.n += 1;
      windows.set(key, w);
      if (w.n > limit) {
        const retry = Math.ceil((w.start + windowMs - now) / 1000);
        throw new ApiError(429, 'rate_limited', `Too many attempts; try again in ${retry} s`, [], { retry_after: retry });
      }
    },
    count(key, now) { return live(key, now)?.n ?? 0; },
    reset(key) { windows.delete(key); },
  };
}
