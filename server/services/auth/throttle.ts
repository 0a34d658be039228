import { and, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { greatest } from '../../db/engine/dialect';
import { throttle } from '../../db/schema/index';
import { BoundedTable, LIMITER_CAPACITY, tooMany, type RateLimiter } from '../../http/rateLimit';
import { epochMs, outsideUnits } from '../../http/sharedRateLimit';

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
 * One process (SQLite) keeps all this in memory; several (PostgreSQL, WORKERS=N) share it in the
 * `throttle` table, each count one atomic statement (databaseLoginThrottle).
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

interface Failures {
  fails: number;
  nextAt: number;
  lastAt: number;
}

export interface LoginAttempt {
  /** The password was right: the account's failures are forgotten, the address gets its attempt back. */
  succeeded(): Promise<void>;
}

export interface LoginThrottle {
  /**
   * Counts an attempt on `account` from `ip` (scope names the path: `login`, `pwchange`...), or throws
   * rejects with 429 and `retry_after`. Call before any password work, and before a unit of work starts.
   */
  begin(scope: string, account: string, ip: string, now: number): Promise<LoginAttempt>;
}

export function delayAfter(fails: number, free: number, max: number): number {
  if (fails <= free) return 0;
  return Math.min(max, 1000 * 2 ** Math.min(30, fails - free - 1));
}

export function memoryLoginThrottle(limiter: RateLimiter, capacity = LIMITER_CAPACITY): LoginThrottle {
  const failures = new BoundedTable<Failures>(
    capacity,
    (f, now) => f.nextAt <= now && now - f.lastAt >= FAILURE_MEMORY,
    (f, now) => f.nextAt > now,
  );

  const known = new BoundedTable<number>(
    capacity,
    (at, now) => now - at >= KNOWN_FOR,
    () => false,
  );
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
    async begin(scope, account, ip, now) {
      const { ipKey, pairKey, accountKey, knownKey } = keysOf(scope, account, ip);
      // The address first: a client over its limit adds nothing to any account's table.
      await limiter.hit(ipKey, IP_LIMIT, IP_WINDOW, now);
      // From here to the counts nothing awaits: no other attempt slips between a check and its count.
      check(pairKey, now);
      const familiar = known.get(knownKey, now) !== undefined;
      if (!familiar) check(accountKey, now);
      count(pairKey, PAIR_FREE, PAIR_MAX_DELAY, now);
      if (!familiar) count(accountKey, ACCOUNT_FREE, ACCOUNT_MAX_DELAY, now);
      return {
        async succeeded() {
          failures.delete(pairKey);
          failures.delete(accountKey);
          known.set(knownKey, now, now);
          await limiter.refund(ipKey, now);
        },
      };
    },
  };
}

/**
 * `sep` ends the account in a pair key: no address holds it, so a key names one pair. PostgreSQL
 * text cannot hold NUL, so the table's keys use `|`.
 */
function keysOf(scope: string, account: string, ip: string, sep = '\u0000') {
  return {
    ipKey: `${scope}-ip:${ip}`,
    pairKey: `${scope}-pair:${account}${sep}${ip}`,
    accountKey: `${scope}-account:${account}`,
    knownKey: `${scope}-known:${account}${sep}${ip}`,
  };
}

/**
 * `delayAfter(fails, free, max)` in SQL, for `fails` an SQL expression: a CASE over the few counts
 * where the delay still grows (both engines; no power function in SQLite).
 */
function delaySql(fails: SQL, free: number, max: number): SQL {
  const steps: SQL[] = [];
  for (let f = free + 1; delayAfter(f, free, max) < max; f += 1) steps.push(sql.raw(` when ${f} then ${delayAfter(f, free, max)}`));
  const rest = sql`case when ${fails} <= ${sql.raw(String(free))} then 0 else ${sql.raw(String(max))} end`;
  return steps.length ? sql`case ${fails}${sql.join(steps)} else ${rest} end` : rest;
}

/**
 * The login throttle shared by every process (PostgreSQL): the same layers as memoryLoginThrottle,
 * with its rows in the `throttle` table. Counting a failure is one upsert that refuses to count
 * while the key is delayed (the row stays as it was and no row comes back): so parallel attempts in
 * any number of processes each see the count and delay the ones before them left, and never more
 * than the free attempts get through. A read first refuses what is already delayed, so an attempt
 * the account refuses adds nothing to its address pair (as in memory); the upserts decide in a race.
 * Statements run outside any unit of work (`outsideUnits`).
 */
export function databaseLoginThrottle(db: Db, limiter: RateLimiter): LoginThrottle {
  const outside = outsideUnits(db);

  const refuse = async (key: string, now: number, until?: number): Promise<never> => {
    // Refused by the upsert: the delay it saw (gone by now, maybe; then the shortest retry).
    const at =
      until ??
      (await outside(() => db.select({ until: throttle.until_at }).from(throttle).where(eq(throttle.key, key)).get()))?.until ??
      now;
    throw tooMany(at - now, 'Too many failed logins for this account');
  };

  // Pessimistic: the attempt counts as a failure until the password proves right. A row past
  // `expires_at` is forgotten (its count starts again), as memory forgets it.
  const count = async (key: string, free: number, max: number, now: number): Promise<void> => {
    const fails = sql`case when ${throttle.expires_at} <= ${now} then 1 else ${throttle.n} + 1 end`;
    const until = sql`${epochMs(now)} + ${delaySql(fails, free, max)}`;
    const first = now + delayAfter(1, free, max);
    const row = await outside(() =>
      db
        .insert(throttle)
        .values({ key, n: 1, until_at: first, expires_at: Math.max(first, now + FAILURE_MEMORY) })
        .onConflictDoUpdate({
          target: throttle.key,
          set: { n: fails, until_at: until, expires_at: greatest(db, until, epochMs(now + FAILURE_MEMORY)) },
          // Delayed: nothing changes, nothing is returned.
          setWhere: sql`${throttle.until_at} <= ${now}`,
        })
        .returning({ n: throttle.n })
        .get(),
    );
    if (!row) await refuse(key, now);
  };

  return {
    async begin(scope, account, ip, now) {
      const { ipKey, pairKey, accountKey, knownKey } = keysOf(scope, account, ip, '|');
      // The address first: a client over its limit adds nothing to any account's rows.
      await limiter.hit(ipKey, IP_LIMIT, IP_WINDOW, now);
      const rows = await outside(() =>
        db
          .select()
          .from(throttle)
          .where(and(inArray(throttle.key, [pairKey, accountKey, knownKey]), gt(throttle.expires_at, now)))
          .all(),
      );
      const row = (key: string) => rows.find((r) => r.key === key);
      const delayed = (key: string) => {
        const r = row(key);
        return r && r.until_at > now ? r.until_at : undefined;
      };
      const pairUntil = delayed(pairKey);
      if (pairUntil !== undefined) await refuse(pairKey, now, pairUntil);
      const familiar = row(knownKey) !== undefined;
      const accountUntil = familiar ? undefined : delayed(accountKey);
      if (accountUntil !== undefined) await refuse(accountKey, now, accountUntil);
      await count(pairKey, PAIR_FREE, PAIR_MAX_DELAY, now);
      if (!familiar) await count(accountKey, ACCOUNT_FREE, ACCOUNT_MAX_DELAY, now);
      return {
        async succeeded() {
          await outside(() =>
            db
              .delete(throttle)
              .where(inArray(throttle.key, [pairKey, accountKey]))
              .run(),
          );
          const knownUntil = now + KNOWN_FOR;
          await outside(() =>
            db
              .insert(throttle)
              .values({ key: knownKey, n: 0, until_at: now, expires_at: knownUntil })
              .onConflictDoUpdate({ target: throttle.key, set: { n: 0, until_at: now, expires_at: knownUntil } })
              .run(),
          );
          await limiter.refund(ipKey, now);
        },
      };
    },
  };
}
