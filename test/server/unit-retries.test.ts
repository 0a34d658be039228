import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { PostgresEngine } from '../../server/db/engine/postgres';
import { zone } from '../../server/db/schema/index';
import { makeApp } from '../helpers/app';

/**
 * Write skew, the anomaly SERIALIZABLE exists to refuse: two units each check that both zones are
 * open, then close their own. Run one after the other, the second sees one zone left and closes
 * nothing. On PostgreSQL both read before either writes (each waits for the other's read), so one is
 * refused with 40001, runs again and then sees the other's write; the engine counts that retry
 * (`retried`, what benches and notes report). SQLite runs units one at a time: same outcome, no retry.
 */
describe('units that conflict are run again, and counted', () => {
  it('two units closing the last two zones: exactly one closes, the loser is retried', async () => {
    const { db, app } = await makeApp();
    const now = Date.now();
    await db
      .insert(zone)
      .values([
        { name: 'north', created_at: now, updated_at: now },
        { name: 'south', created_at: now, updated_at: now },
      ])
      .run();
    const postgres = db.$engine.kind === 'postgres';
    let arrived = 0;
    let release!: () => void;
    const bothRead = new Promise<void>((ok) => {
      release = ok;
    });
    const attempts = { north: 0, south: 0 };
    const close = (mine: 'north' | 'south') =>
      app.deps.writes.run(async () => {
        attempts[mine] += 1;
        const open = await db
          .select({ id: zone.id })
          .from(zone)
          .where(inArray(zone.name, ['north', 'south']))
          .all();
        // PostgreSQL: the first tries overlap (both have read before either writes). SQLite would wait forever here.
        if (postgres) {
          arrived += 1;
          if (arrived === 2) release();
          await bothRead;
        }
        if (open.length === 2)
          await db
            .update(zone)
            .set({ name: `${mine} (closed)` })
            .where(eq(zone.name, mine))
            .run();
      });
    await Promise.all([close('north'), close('south')]);

    const names = (await db.select({ name: zone.name }).from(zone).orderBy(zone.id).all()).map((r) => r.name);
    expect(names.filter((n) => n.endsWith('(closed)'))).toHaveLength(1);
    expect(names.filter((n) => !n.endsWith('(closed)'))).toHaveLength(1);
    if (postgres) {
      // At least the loser's retry. Under load the retry can start before the winner's COMMIT, read
      // both zones open again and be refused a second time: every retry is one more attempt.
      const { retried } = db.$engine as PostgresEngine;
      expect(retried.serialization).toBeGreaterThanOrEqual(1);
      expect(retried).toMatchObject({ deadlock: 0, unique: 0 });
      expect(attempts.north + attempts.south).toBe(2 + retried.serialization);
    } else {
      expect(attempts).toEqual({ north: 1, south: 1 });
    }
    await db.$engine.close();
  });
});
