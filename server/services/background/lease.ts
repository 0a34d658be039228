import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { throttle } from '../../db/schema/index';

/**
 * Who runs a background job kind (the geocoder, sync maintenance, the file sweep, the history
 * mover) when several machines share one PostgreSQL database: each machine's first worker runs the
 * loops, and only the holder of the kind's lease does the work. The lease is a `throttle` row
 * (`job:<kind>`, the table every process shares): `n` the holder's random id, `until_at` when it
 * lapses. ONE upsert takes it when it is free or lapsed and renews it when it is ours, so two
 * machines asking at once get one answer each from the row lock, never two holders. A holder that
 * dies stops renewing and another takes over once `until_at` passed.
 *
 * On SQLite one process serves the database (`Engine.shared` false): it always holds every lease and
 * no row is written.
 */
export interface JobLease {
  /** Takes or renews the lease; true when this runner holds it until `now + leaseMs`. */
  hold(): Promise<boolean>;
  /** Gives the lease up (a stopping runner), so another takes over at its next pass. */
  release(): Promise<void>;
}

export function jobLease(db: Db, clock: { now(): number }, kind: string, leaseMs: number): JobLease {
  if (!db.$engine.shared) return { hold: () => Promise.resolve(true), release: () => Promise.resolve() };
  // Made here, outside any unit (the runner is built with the app): a lease is never part of a unit's work.
  const outside = db.$engine.detached();
  const key = `job:${kind}`;
  const me = randomInt(1, 2 ** 47);
  return {
    async hold() {
      const now = clock.now();
      const until = now + leaseMs;
      // SET reads the row as it stands under its lock: ours or lapsed, it becomes ours; else unchanged.
      const free = sql`(${throttle.n} = ${me} or ${throttle.until_at} <= ${now})`;
      const row = await outside(() =>
        db
          .insert(throttle)
          .values({ key, n: me, until_at: until, expires_at: until })
          .onConflictDoUpdate({
            target: throttle.key,
            set: {
              n: sql`case when ${free} then ${me} else ${throttle.n} end`,
              until_at: sql`case when ${free} then cast(${until} as bigint) else ${throttle.until_at} end`,
              expires_at: sql`case when ${free} then cast(${until} as bigint) else ${throttle.expires_at} end`,
            },
          })
          .returning({ n: throttle.n })
          .get(),
      );
      return row?.n === me;
    },
    async release() {
      await outside(() =>
        db
          .update(throttle)
          .set({ until_at: 0 })
          .where(sql`${throttle.key} = ${key} and ${throttle.n} = ${me}`)
          .run(),
      );
    },
  };
}
