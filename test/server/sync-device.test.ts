import { describe, expect, it } from 'vitest';
import type { SyncDevice } from '../../shared/schemas/sync';
import { makeApp, type TestApp } from '../helpers/app';

async function world() {
  const t = await makeApp();
  const admin = await t.login('admin');
  const driver = await t.login('driver');
  const other = await t.login('driver');
  const company = await t.company();
  const made = await t.json<{ id: number; hawb: string }>('POST', '/api/package/', admin.token, {
    hawb: 'DV1',
    company,
    customer_name: 'Receiver DV1',
  });
  expect(made.status).toBe(201);
  expect(
    (await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: [made.body.id] })).status,
  ).toBe(200);
  return { t, driver, other };
}

const lastSeq = (t: TestApp, token: string, deviceId: string) =>
  t.json<SyncDevice>('GET', `/api/sync/device/?device_id=${encodeURIComponent(deviceId)}`, token);

const send = (t: TestApp, token: string, deviceId: string, seq: number, key: string, barcode: string) =>
  t.json(
    'POST',
    '/api/scan-package-api/inbound-scan/',
    token,
    { barcode },
    { 'idempotency-key': key, 'x-device-id': deviceId, 'x-device-seq': String(seq) },
  );

describe('GET sync/device/', () => {
  it('answers 0 for a device the server never saw, then the highest seq it recorded (rejections included)', async () => {
    const { t, driver } = await world();
    expect(await lastSeq(t, driver.token, 'phone-1')).toMatchObject({ status: 200, body: { device_id: 'phone-1', last_seq: 0 } });

    expect((await send(t, driver.token, 'phone-1', 1, 'device-key-0001', 'DV1')).status).toBe(200);
    // A business refusal is processed too: its seq counts.
    expect((await send(t, driver.token, 'phone-1', 2, 'device-key-0002', 'NO-SUCH-PARCEL')).status).toBe(404);
    expect((await lastSeq(t, driver.token, 'phone-1')).body).toEqual({ device_id: 'phone-1', last_seq: 2 });

    // A replay of an older seq never lowers it.
    const replay = await send(t, driver.token, 'phone-1', 1, 'device-key-0001', 'DV1');
    expect(replay.res.headers.get('idempotent-replayed')).toBe('true');
    expect((await lastSeq(t, driver.token, 'phone-1')).body.last_seq).toBe(2);
  });

  it("hides another user's device (404), and refuses a missing or malformed id (400) and no token (401)", async () => {
    const { t, driver, other } = await world();
    expect((await send(t, driver.token, 'phone-2', 1, 'device-key-0003', 'DV1')).status).toBe(200);
    expect((await lastSeq(t, other.token, 'phone-2')).status).toBe(404);
    expect((await lastSeq(t, driver.token, 'phone-2')).body.last_seq).toBe(1);
    expect((await t.json('GET', '/api/sync/device/', driver.token)).status).toBe(400);
    expect((await lastSeq(t, driver.token, 'not a valid id!')).status).toBe(400);
    expect((await lastSeq(t, '', 'phone-2')).status).toBe(401);
  });
});
