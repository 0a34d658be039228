import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { zone } from '../../server/db/schema/index';
import { makeApp } from '../helpers/app';

/**
 * A savepoint inside a unit undoes only its own work, whether it is the unit's first work (SQLite
 * then reuses the unit's own savepoint, PostgreSQL sends it with the next statement) or comes after
 * other writes, and whatever the unit writes after it commits. This is what a refused action relies
 * on: its effect rolled back, its trace kept (server/http/route.ts).
 */
describe('savepoints inside a unit of work', () => {
  it('undo exactly their own writes, first or later in the unit, nested or not', async () => {
    const { db, app } = await makeApp();
    const { writes } = app.deps;
    const engine = db.$engine;
    const now = Date.now();
    const add = (name: string) => db.insert(zone).values({ name, created_at: now, updated_at: now }).run();
    const refused = new Error('refused');
    const fails = (work: () => Promise<unknown>) =>
      engine
        .savepoint(async () => {
          await work();
          throw refused;
        })
        .catch((err: unknown) => {
          expect(err).toBe(refused);
        });
    await writes.run(async () => {
      await fails(() => add('first-undone'));
      await add('kept-1');
      await fails(async () => {
        await add('later-undone');
        await engine.savepoint(() => add('inner-undone-with-outer'));
      });
      await engine.savepoint(async () => {
        await add('kept-2');
        await fails(() => add('inner-undone'));
      });
      // A savepoint that did nothing and failed leaves the unit as it was.
      await fails(async () => undefined);
      await add('kept-3');
    });
    await writes.run(async () => {
      // Nothing but a failed savepoint: the unit commits nothing and still succeeds.
      await fails(() => add('alone-undone'));
    });
    const names = (await db.select({ name: zone.name }).from(zone).orderBy(zone.id).all()).map((r) => r.name);
    expect(names).toEqual(['kept-1', 'kept-2', 'kept-3']);
    expect(await db.select().from(zone).where(eq(zone.name, 'first-undone')).all()).toEqual([]);
  });
});
