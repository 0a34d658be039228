import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pkg } from '../../server/db/schema/index';
import { makeApp, type TestApp } from '../helpers/app';
import { companyWithKey, webhookCall } from './webhooks-helpers';

type Json = Record<string, unknown>;
type PointAnswer = { pending: Json[]; collected: Json[]; pickup_point: Json };

async function pickupPoint(t: TestApp, token: string, name: string): Promise<number> {
  const res = await t.json<{ id: number }>('POST', '/api/pickup-point/', token, {
    person_name: name,
    email: 'dock@example.com',
    phone: '0400 000 000',
    address: '1 Dock Rd',
    suburb: 'Botany',
    state: 'NSW',
    pincode: '2019',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

const statusOf = async (t: TestApp, id: number) => (await t.db.select().from(pkg).where(eq(pkg.id, id)).get())?.status;

/** Security issue 30, section 6: listing and collecting at a pickup point need its QR code (or an assignment). */
describe("round three: pickups need the point's signed QR code or an assignment", () => {
  it("a driver walking point ids reads nobody's pickups and collects nothing without the QR code", async () => {
    const t = await makeApp();
    const co = await companyWithKey(t, 'Acme Widgets');
    const admin = await t.login('admin');
    const driver = await t.login('driver');
    const point = await pickupPoint(t, co.login.token, 'Back dock');
    const other = await pickupPoint(t, co.login.token, 'Front desk');
    const waiting = (
      await webhookCall(t, 'POST', co, {
        hawb: 'W-1',
        customer_name: 'Carla',
        customer_phone: '0411 111 111',
        customer_address: '9 Secret St',
        pickup_point: point,
      })
    ).body.package.id as number;
    const elsewhere = (await webhookCall(t, 'POST', co, { hawb: 'W-2', customer_name: 'Dora', pickup_point: other })).body.package
      .id as number;

    // The walk: every point id answers 404 (no person, phone or address), the QR code is not handed out.
    for (const id of [point, other, point + 100]) {
      expect((await t.json('GET', `/api/pickup-point-scan/${id}/packages/`, driver.token)).status).toBe(404);
    }
    expect((await t.call('GET', `/api/pickup-point/${point}/qr-code/`, driver.token)).status).toBe(403);
    const points = await t.json<{ count: number }>('GET', '/api/pickup-point/', driver.token);
    expect(points.body.count).toBe(0);
    expect((await t.json('GET', `/api/pickup-point/${point}/`, driver.token)).status).toBe(404);

    // Collecting by id (status-change) or by hawb (package-scan) without the code: refused, nothing moves.
    expect(
      (
        await t.json('POST', '/api/pickup-point-scan/status-change/', driver.token, {
          packages: [waiting],
          status: 'picked_up',
          pickup_point: point,
        })
      ).status,
    ).toBe(404);
    expect(
      (await t.json('POST', '/api/pickup-point-scan/status-change/', driver.token, { packages: [waiting], status: 'picked_up' })).status,
    ).toBe(404);
    const byHawb = await t.json<Json>('POST', '/api/pickup-point-scan/package-scan/', driver.token, {
      barcode: 'W-1',
      pickup_point: point,
    });
    expect(byHawb.status).toBe(409);
    expect(JSON.stringify(byHawb.body)).not.toContain('Carla');
    // A forged code, or one point's code used for another, opens nothing either.
    const code = (await t.call('GET', `/api/pickup-point/${point}/qr-code/`, co.login.token)).headers.get('x-qr-text') ?? '';
    const otherCode = (await t.call('GET', `/api/pickup-point/${other}/qr-code/`, co.login.token)).headers.get('x-qr-text') ?? '';
    const forged = code.replace(/:[0-9a-f]{8}$/, ':00000000');
    expect((await t.json('GET', `/api/pickup-point-scan/${point}/packages/?code=${encodeURIComponent(forged)}`, driver.token)).status).toBe(
      404,
    );
    expect(
      (await t.json('GET', `/api/pickup-point-scan/${point}/packages/?code=${encodeURIComponent(otherCode)}`, driver.token)).status,
    ).toBe(400);
    expect(
      (
        await t.json('POST', '/api/pickup-point-scan/status-change/', driver.token, {
          packages: [waiting],
          status: 'picked_up',
          code: otherCode,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.json('POST', '/api/pickup-point-scan/status-change/', driver.token, {
          packages: [waiting],
          status: 'picked_up',
          pickup_point: point,
          code: otherCode,
        })
      ).status,
    ).toBe(400);
    expect((await t.json('POST', '/api/pickup-point-scan/package-scan/', driver.token, { barcode: 'W-1', code: forged })).status).toBe(404);
    expect([await statusOf(t, waiting), await statusOf(t, elsewhere)]).toEqual(['pickup_requested', 'pickup_requested']);

    // With the point's code, as scanned there: the driver lists and collects what waits at that point only.
    const listed = await t.json<PointAnswer>(
      'GET',
      `/api/pickup-point-scan/${point}/packages/?code=${encodeURIComponent(code)}`,
      driver.token,
    );
    expect(listed.status).toBe(200);
    expect(listed.body.pending.map((p) => p.hawb)).toEqual(['W-1']);
    expect(
      (await t.json('POST', '/api/pickup-point-scan/status-change/', driver.token, { packages: [elsewhere], status: 'picked_up', code }))
        .status,
    ).toBe(404);
    const collected = await t.json<{ count: number }>('POST', '/api/pickup-point-scan/status-change/', driver.token, {
      packages: [waiting],
      status: 'picked_up',
      pickup_point: point,
      code,
    });
    expect(collected.status).toBe(200);
    expect(await statusOf(t, waiting)).toBe('picked_up');
    // Collected by this driver, the point is now theirs to see without the code: what they collected, nothing unassigned.
    const mine = await t.json<PointAnswer>('GET', `/api/pickup-point-scan/${point}/packages/`, driver.token);
    expect(mine.status).toBe(200);
    expect(mine.body.collected.map((p) => p.hawb)).toEqual(['W-1']);

    // An assignment opens its point without the code, showing only the driver's own pickups.
    const assigned = await t.login('driver');
    const third = (await webhookCall(t, 'POST', co, { hawb: 'W-3', pickup_point: other })).body.package.id as number;
    expect(
      (await t.json('POST', '/api/pickup-package/assign-driver/', admin.token, { driver: assigned.id, packages: [third] })).status,
    ).toBe(200);
    const theirs = await t.json<PointAnswer>('GET', `/api/pickup-point-scan/${other}/packages/`, assigned.token);
    expect(theirs.status).toBe(200);
    expect(theirs.body.pending.map((p) => p.hawb)).toEqual(['W-3']);
    expect((await t.json('GET', `/api/pickup-point/${other}/`, assigned.token)).status).toBe(200);
    expect((await t.json('POST', '/api/pickup-point-scan/package-scan/', assigned.token, { barcode: 'W-3' })).status).toBe(200);
    // The unassigned W-2 at that same point still needs the code.
    expect(
      (await t.json('POST', '/api/pickup-point-scan/package-scan/', assigned.token, { barcode: 'W-2', pickup_point: other })).status,
    ).toBe(409);
    expect(
      (
        await t.json('POST', '/api/pickup-point-scan/package-scan/', assigned.token, {
          barcode: 'W-2',
          pickup_point: other,
          code: otherCode,
        })
      ).status,
    ).toBe(200);
  });
});
