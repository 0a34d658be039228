/**
 * Issue 36: with no failed-delivery reasons the phone said "open Sync" even after a sync; the list
 * was simply empty. A new courier now has default reasons (the first admin's creation seeds them), the
 * phone receives them through its feed, and when there are none it says who can add them.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { makeApp, PASSWORD } from '../helpers/app';
import { bootstrapSuperAdmin } from '../../server/services/auth/bootstrap';
import { DEFAULT_FAILURE_REASONS } from '../../server/services/packages/failureReasons';
import { noReasonsNote } from '../../client/driver/failReasons';
import { engineOn, network, uniqueDbName } from './support';

describe('failed-delivery reasons on the phone (issue 36)', () => {
  it("a new courier's phone gets the default reasons at its first sync", async () => {
    const t = await makeApp();
    await bootstrapSuperAdmin(t.db, t.clock, 'boss@example.test', 'boss-password-1');
    const driver = await t.login('driver');
    const e = engineOn(network(t), uniqueDbName());
    await e.login(driver.email, PASSWORD);
    await e.syncNow();
    const reasons = await e.failedStatuses();
    expect(reasons.map((r) => r.name).sort()).toEqual([...DEFAULT_FAILURE_REASONS].sort());
    expect(noReasonsNote(reasons.length, e.status().lastSyncedAt)).toBeNull();
    await e.stop();
  });

  it('with none on the server, after a sync the phone says the office has listed none, not to sync', async () => {
    const t = await makeApp();
    const driver = await t.login('driver');
    const e = engineOn(network(t), uniqueDbName());
    expect(noReasonsNote(0, e.status().lastSyncedAt)).toMatch(/open Sync/);
    await e.login(driver.email, PASSWORD);
    await e.syncNow();
    expect(await e.failedStatuses()).toEqual([]);
    const note = noReasonsNote(0, e.status().lastSyncedAt);
    expect(note).toMatch(/office has not listed any reasons/);
    expect(note).not.toMatch(/open Sync/);
    await e.stop();
  });
});
