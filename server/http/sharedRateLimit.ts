import { and, eq, gt, lte, sql } from 'drizzle-orm';
import { changedRows, type Db } from '../db/client';
import type { Outside } from '../db/engine/types';
import { throttle } from '../db/schema/index';
import { tooMany, type RateLimiter } from './rateLimit';

/**
 * Throttle state that every server process shares (PostgreSQL, WORKERS=N): rows of the `throttle`
 * table (server/db/schema/throttle.ts). Each count is ONE statement (an upsert whose SET decides,
 * from the row as it stands, whether the window restarted), so parallel requests in any number of
 * processes are each counted once: PostgreSQL serializes the upserts of one key on its row lock.
 * A read-modify-write in JavaScript would let a burst read the same count and undercount it.
 */

/**
 * Runs throttle statements outside any unit of work, on the pool (`Engine.detached`): a refused
 * request's rollback never takes its count back, a retried unit cannot collide with a hot counter
 * row, and a count never waits for anyone's commit. Must be made outside a unit (when the app is
 * built). Call the limiter before a unit starts (a transactional route counts in `prepare`): a unit
 * holds a pooled connection, and units that all wait for a count would wait for the pool for good.
 * On SQLite (one process, one connection) statements run where they are called.
 */
export function outsideUnits(db: Db): Outside {
  return db.$engine.detached();
}

/** Epoch milliseconds as a bound parameter PostgreSQL types as bigint even in arithmetic. */
export const epochMs = (ms: number) => sql`cast(${ms} as bigint)`;

export function databaseRateLimiter(db: Db): RateLimiter {
  const outside = outsideUnits(db);
  return {
    async hit(key, limit, windowMs, now) {
      const end = now + windowMs;
      // The window restarts when the stored one ended; SET reads the row as it was before this statement.
      const ended = sql`${throttle.until_at} <= ${now}`;
      const row = await outside(() =>
        db
          .insert(throttle)
          .values({ key, n: 1, until_at: end, expires_at: end })
          .onConflictDoUpdate({
            target: throttle.key,
            set: {
              n: sql`case when ${ended} then 1 else ${throttle.n} + 1 end`,
              until_at: sql`case when ${ended} then ${epochMs(end)} else ${throttle.until_at} end`,
              expires_at: sql`case when ${ended} then ${epochMs(end)} else ${throttle.expires_at} end`,
            },
          })
          .returning({ n: throttle.n, until: throttle.until_at })
          .get(),
      );
      if (row && row.n > limit) throw tooMany(row.until - now);
    },
    async count(key, now) {
      const row = await outside(() =>
        db
          .select({ n: throttle.n })
          .from(throttle)
          .where(and(eq(throttle.key, key), gt(throttle.until_at, now)))
          .get(),
      );
      return row?.n ?? 0;
    },
    async refund(key, now) {
      await outside(() =>
        db
          .update(throttle)
          .set({ n: sql`${throttle.n} - 1` })
          .where(and(eq(throttle.key, key), gt(throttle.n, 0), gt(throttle.until_at, now)))
          .run(),
      );
    },
    async reset(key) {
      await outside(() => db.delete(throttle).where(eq(throttle.key, key)).run());
    },
  };
}

/**
 * Forgets throttle rows that no longer refuse or remember anything (server maintenance). Memory
 * throttles (SQLite) leave the table to the upload allowances (services/files/allowance.ts).
 */
export async function pruneThrottle(db: Db, now: number): Promise<number> {
  return changedRows(await db.delete(throttle).where(lte(throttle.expires_at, now)).run());
}
