/**
 * Issue 36: failed-delivery reasons were not seeded, so a new courier's first failed delivery could
 * not be recorded. The first admin's creation (the README's first command) seeds a default list once.
 */
import { describe, expect, it } from 'vitest';
import { makeApp } from '../helpers/app';
import { bootstrapSuperAdmin } from '../../server/services/auth/bootstrap';
import { DEFAULT_FAILURE_REASONS, seedFailureReasons } from '../../server/services/packages/failureReasons';

type List = { count: number; results: { id: number; name: string; is_active: boolean }[] };

describe('default failed-delivery reasons (issue 36)', () => {
  it('a new courier starts with them; the office can empty its list and it stays empty', async () => {
    const t = await makeApp();
    expect(await bootstrapSuperAdmin(t.db, t.clock, 'boss@example.test', 'boss-password-1')).toMatchObject({ kind: 'created' });
    const admin = await t.login('admin');
    const list = await t.json<List>('GET', '/api/failed-delivery-status/?page_size=50', admin.token);
    expect(list.status).toBe(200);
    expect(list.body.results.map((r) => r.name).sort()).toEqual([...DEFAULT_FAILURE_REASONS].sort());
    expect(list.body.results.every((r) => r.is_active)).toBe(true);

    // Seeding again adds nothing; the office empties its list and a later start (users exist) leaves it empty.
    expect(await t.db.$engine.units().run(() => seedFailureReasons(t.db, t.clock.now()))).toBe(0);
    for (const r of list.body.results)
      expect((await t.json('DELETE', `/api/failed-delivery-status/${r.id}/`, admin.token)).status).toBeLessThan(300);
    expect((await bootstrapSuperAdmin(t.db, t.clock, 'other@example.test', 'other-password-1')).kind).toBe('ignored');
    expect((await t.json<List>('GET', '/api/failed-delivery-status/', admin.token)).body.count).toBe(0);
  });
});
