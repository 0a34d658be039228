import { BoundedTable, LIMITER_CAPACITY, tooMany, type RateLimiter } from '../../http/rateLimit';

/**
 * Password guessing is throttled in three layers, all counted BEFORE the password hash is computed
 * (a burst of parallel attempts is counted as it arrives, not after ~50 ms of scrypt each):
 * - per client address: at most IP_LIMIT attempts per IP_WINDOW (a right password gives its one back,
 *   so an office behind one address is not locked out by its own logins);
 * - per account and address: growing delays after PAIR_FREE failures, up to PAIR_MAX_DELAY; this is
 *   what stops one attacker, and it does not touch the real user on their own address;
 * - per account from everywhere: growing delays after ACCOUNT_FREE failures, capped at a minute, so a
 *   distributed guesser gets about one guess a minute. An address this account signed in from
 *   before (KNOWN_FOR) skips this layer: a botnet keeping the account busy cannot keep its owner out.
 * No hard lock: there is nothing an attacker elsewhere can do to keep the real user out.
 */
export const IP_LIMIT = 30;
export const IP_WINDOW = 15 * 60_000;
export const PAIR_FREE = 5;
export const PAIR_MAX_DELAY = 15 * 60_000;
export const ACCOUNT_FREE = 20;
export const ACCOUNT_MAX_DELAY = 60_000;
/** Failures older than this (with no attempt since) are forgotten. */
export const FAILURE_MEMORY = 60 * 60_000;
/** How long an address that signed in to an account stays known to it. */
export const KNOWN_FOR = 30 * 24 * 3600_000;

interface Failures { fails: number; nextAt: number; lastAt: number }

export interface LoginAttempt {
  /** The password was right: the account's failures are forgotten, the address gets its attempt back. */
  succeeded(): void;
}

export interface LoginThrottle {
  /**
   * Counts an attempt on `account` from `ip` (scope names the path: `login`, `pwchange`...), or throws
   * 429 with `retry_after`. Call before any password work.
   */
  begin(scope: string, account: string, ip: string, now: number): LoginAttempt;
}

export function delayAfter(fails: number, free: number, max: number): number {
  if (fails <= free) return 0;
  return Math.min(max, 1000 * 2 ** Math.min(30, fails - free - 1));
}

export function memoryLoginThrottle(limiter: RateLimiter, capacity = LIMITER_CAPACITY): LoginThrottle {
  const failures = new BoundedTable<Failures>(capacity,
    (f, now) => f.nextAt <= now && now - f.lastAt >= FAILURE_MEMORY,
    (f, now) => f.nextAt > now);

  const known = new BoundedTable<number>(capacity, (at, now) => now - at >= KNOWN_FOR, () => false);
  const check = (key: string, now: number) => {
    const f = failures.get(key, now);
    if (f && f.nextAt > now) throw tooMany(f.nextAt - now, 'Too many failed logins for this account');
  };
  // Pessimistic: the attempt counts as a failure until the password proves right.
  const count = (key: string, free: number, max: number, now: number) => {
    const f = failures.get(key, now) ?? { fails: 0, nextAt: 0, lastAt: now };
    f.fails += 1;
    f.lastAt = now;
    f.nextAt = now + delayAfter(f.fails, free, max);
    failures.set(key, f, now);
  };

  return {
    begin(scope, account, ip, now) {
      const ipKey = `${scope}-ip:${ip}`;
      const pairKey = `${scope}-pair:${account}\u0000${ip}`;
      const accountKey = `${scope}-account:${account}`;
      const knownKey = `${scope}-known:${account}\u0000${ip}`;
      // The address first: a client over its limit adds nothing to any account's table.
      limiter.hit(ipKey, IP_LIMIT, IP_WINDOW, now);
      check(pairKey, now);
      const familiar = known.get(knownKey, now) !== undefined;
      if (!familiar) check(accountKey, now);
      count(pairKey, PAIR_FREE, PAIR_MAX_DELAY, now);
      if (!familiar) count(accountKey, ACCOUNT_FREE, ACCOUNT_MAX_DELAY, now);
      return {
        succeeded() {
          failures.delete(pairKey);
          failures.delete(accountKey);
          known.set(knownKey, now, now);
          limiter.refund(ipKey, now);
        },
      };
    },
  };
}
