import { describe, expect, it } from 'vitest';
import { makeApp } from '../helpers/app';
import { firstMorning } from '../helpers/firstMorning';

/**
 * A courier's first morning on a brand-new database: many drivers scan and deliver at the same moment
 * while the tables they write are still empty. On PostgreSQL every unit is SERIALIZABLE, and on empty
 * and one-page indexes predicate locks are coarse (a read through an empty index locks all of it), so
 * unrelated units look like they conflict (the scale bench saw 503s that way at 50 connections).
 * Retries must absorb them: every request is answered 200. How many retries: bench/retries.ts.
 */
describe('concurrent first deliveries on a fresh database', () => {
  it('thirty drivers scan and deliver at once: every request succeeds, each applied once', async () => {
    const t = await makeApp();
    const morning = await firstMorning(t, 30);
    const ok = (status: number) => morning.parcels.map(() => status);
    expect(morning.created).toEqual(ok(201));
    expect(morning.assigned).toEqual(ok(200));
    expect(morning.scans).toEqual(ok(200));
    expect(morning.delivers).toEqual(ok(200));
    const admin = await t.login('admin');
    for (const p of morning.parcels) {
      const got = await t.json<{ status: string }>('GET', `/api/package/${p.id}/`, admin.token);
      expect(got.body.status).toBe('delivered');
    }
    await t.db.$engine.close();
  }, 120_000);
});
