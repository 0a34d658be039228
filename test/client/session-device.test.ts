import 'fake-indexeddb/auto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { authToken } from '../../server/db/schema/index';
import { makeApp, PASSWORD } from '../helpers/app';
import { engineOn, network, uniqueDbName } from './support';

describe('driver app login names its device (issue 15: per-device sign-out)', () => {
  it('the session carries the engine device id, and an admin signs out exactly that session', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const driver = await t.login('driver');
    const engine = engineOn(network(t), uniqueDbName());
    await engine.login(driver.email, PASSWORD);
    const deviceId = await engine.deviceId;
    const row = await t.db.select().from(authToken).where(eq(authToken.device_id, deviceId)).get();
    expect(row?.user_id).toBe(driver.id);
    const gone = await t.json<{ revoked: number }>('DELETE', `/api/employee/${driver.id}/sessions/${row!.id}/`, admin.token);
    expect(gone.body.revoked).toBe(1);
    // The login of the test helper (no device) still works.
    expect((await t.json('GET', '/api/profile/', driver.token)).status).toBe(200);
    const revoked = await t.db.select().from(authToken).where(eq(authToken.id, row!.id)).get();
    expect(revoked?.revoked_at).not.toBeNull();
    await engine.stop();
  });
});
