import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { packageEvent, pkg, scanException, webhookDelivery, webhookNonce } from '../../server/db/schema/index';
import { makeApp, type TestApp } from '../helpers/app';
import { companyWithKey, packageCount, signed, webhookCall } from './webhooks-helpers';

type Json = Record<string, unknown>;
const statusOf = (t: TestApp, id: number) => t.db.select().from(pkg).where(eq(pkg.id, id)).get();

async function pickupPoint(t: TestApp, token: string, name = 'Back dock') {
  const res = await t.json<{ id: number }>('POST', '/api/pickup-point/', token, {
    person_name: name,
    email: 'dock@example.com',
    phone: '0400 111 222',
    address: '1 Dock Rd',
    suburb: 'Botany',
    state: 'NSW',
    pincode: '2019',
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

describe('pickups', () => {
  it('webhook request -> driver scans the pickup point QR -> scans the parcel -> picked up -> depot receives', async () => {
    const t = await makeApp();
    const co = await companyWithKey(t, 'Acme Widgets');
    const admin = await t.login('admin');
    const depot = await t.login('depot_manager');
    const driver = await t.login('driver', { name: 'Pat Pickup' });
    const other = await t.login('driver');
    const point = await pickupPoint(t, co.login.token);

    const created = await webhookCall(t, 'POST', co, { hawb: 'PU-1', customer_name: 'Carla', pickup_point: point, weight: 2 });
    expect(created.status).toBe(201);
    const id = created.body.package.id as number;
    expect(created.body.package).toMatchObject({ hawb: 'PU-1', status: 'pickup_requested', company: co.id });
    expect((await statusOf(t, id))?.pickup_point_id).toBe(point);
    await webhookCall(t, 'POST', co, { hawb: 'PU-2', pickup_point: point });
    await webhookCall(t, 'POST', co, { hawb: 'PU-ELSEWHERE' });

    // The company sees its pickups, staff the pickup list, other companies nothing.
    const mine = await t.json<{ count: number; results: Json[] }>('GET', '/api/pickup-package/company/', co.login.token);
    expect(mine.body.count).toBe(3);
    const stranger = await t.login('company');
    expect((await t.json<{ count: number }>('GET', '/api/pickup-package/company/', stranger.token)).body.count).toBe(0);
    expect((await t.json('GET', '/api/pickup-package/company/', admin.token)).status).toBe(403);
    expect((await t.json<{ count: number }>('GET', `/api/pickup-package/?pickup_point=${point}`, admin.token)).body.count).toBe(2);

    // Dispatch: PU-1 to our driver, PU-2 to another one.
    expect((await t.json('POST', '/api/pickup-package/assign-driver/', admin.token, { driver: driver.id, packages: [id] })).status).toBe(
      200,
    );
    const pu2 = mine.body.results.find((p) => p.hawb === 'PU-2')?.id as number;
    const single = await t.json<Json>('POST', `/api/pickup-package/${pu2}/assign-driver/`, admin.token, { driver: other.id });
    expect(single.body).toMatchObject({ status: 'pickup_requested', assigned_to_id: other.id });
    expect((await t.json('POST', `/api/pickup-package/${pu2}/unassign/`, admin.token)).status).toBe(200);
    expect((await statusOf(t, pu2))?.assigned_to_id).toBeNull();
    await t.json('POST', '/api/pickup-package/assign-driver/', admin.token, { driver: other.id, packages: [pu2] });
    expect((await t.json('POST', '/api/pickup-package/unassign-package/', admin.token, { packages: [pu2, 999999] })).status).toBe(400);

    const qr = await t.call('GET', `/api/pickup-point/${point}/qr-code/`, co.login.token);
    const code = qr.headers.get('x-qr-text') ?? '';
    const scanned = await t.json<{ pending: Json[]; collected: Json[]; pickup_point: Json }>(
      'POST',
      '/api/pickup-point-scan/qr-scan/',
      driver.token,
      { code },
    );
    expect(scanned.status).toBe(200);
    expect(scanned.body.pickup_point).toMatchObject({ id: point, person_name: 'Back dock' });
    expect(scanned.body.pending.map((p) => p.hawb)).toEqual(['PU-1']);
    const forged = await t.json('POST', '/api/pickup-point-scan/qr-scan/', driver.token, {
      code: code.replace(/:[0-9a-f]{8}$/, ':00000000'),
    });
    expect(forged.status).toBe(404);
    expect(await t.db.select().from(scanException).where(eq(scanException.action, 'pickup_point')).all()).toHaveLength(1);

    // Someone else's parcel is refused (and recorded); ours becomes picked up, exactly once.
    const notMine = await t.json<Json>('POST', '/api/pickup-point-scan/package-scan/', driver.token, {
      barcode: 'PU-2',
      pickup_point: point,
    });
    expect(notMine.status).toBe(409);
    expect((await statusOf(t, pu2))?.status).toBe('pickup_requested');
    const headers = { 'Idempotency-Key': 'pickup-scan-0001', 'X-Device-Id': 'phone-1', 'X-Device-Seq': '1' };
    const picked = await t.json<Json & { package: Json }>(
      'POST',
      '/api/pickup-point-scan/package-scan/',
      driver.token,
      { barcode: 'PU-1', pickup_point: point },
      headers,
    );
    expect(picked.status).toBe(200);
    expect(picked.body).toMatchObject({ already_scanned: false, package: { status: 'picked_up', assigned_to_id: driver.id } });
    const replayed = await t.json<Json>(
      'POST',
      '/api/pickup-point-scan/package-scan/',
      driver.token,
      { barcode: 'PU-1', pickup_point: point },
      headers,
    );
    expect(replayed.res.headers.get('idempotent-replayed')).toBe('true');
    const again = await t.json<Json>('POST', '/api/pickup-point-scan/package-scan/', driver.token, { barcode: 'PU-1' });
    expect(again.body.already_scanned).toBe(true);
    expect(
      (await t.db.select().from(packageEvent).where(eq(packageEvent.package_id, id)).all()).filter((e) => e.to_status === 'picked_up'),
    ).toHaveLength(1);

    const atPoint = await t.json<{ pending: Json[]; collected: Json[] }>('GET', `/api/pickup-point-scan/${point}/packages/`, driver.token);
    expect(atPoint.body.collected.map((p) => p.hawb)).toEqual(['PU-1']);
    expect(atPoint.body.pending).toEqual([]);
    expect((await t.json('GET', `/api/pickup-point-scan/${point}/packages/`, stranger.token)).status).toBe(404);

    // Too late to change details now; the depot receives it.
    expect((await webhookCall(t, 'PATCH', co, { hawb: 'PU-1', customer_name: 'Changed' })).status).toBe(409);
    const received = await t.json<Json & { package: Json }>('POST', '/api/scan-package-api/scan-assign-zone/', depot.token, {
      barcode: 'PU-1',
    });
    expect(received.status).toBe(200);
    expect(await statusOf(t, id)).toMatchObject({ status: 'received', landed: true });
    expect(
      (await t.db.select().from(packageEvent).where(eq(packageEvent.package_id, id)).all()).map((e) => e.to_status).filter(Boolean),
    ).toEqual(['pickup_requested', 'picked_up', 'received']);
  });

  it('status change by hand, wrong pickup point, and cancel by webhook', async () => {
    const t = await makeApp();
    const co = await companyWithKey(t, 'Beta');
    const admin = await t.login('admin');
    const driver = await t.login('driver');
    const p1 = await pickupPoint(t, co.login.token, 'Gate 1');
    const p2 = await pickupPoint(t, co.login.token, 'Gate 2');
    const a = (await webhookCall(t, 'POST', co, { hawb: 'B-1', pickup_point: p1 })).body.package.id as number;
    const b = (await webhookCall(t, 'POST', co, { hawb: 'B-2', pickup_point: p2 })).body.package.id as number;
    const c = (await webhookCall(t, 'POST', co, { hawb: 'B-3', pickup_point: p1 })).body.package.id as number;

    expect((await t.json('POST', '/api/pickup-point-scan/package-scan/', driver.token, { barcode: 'B-2', pickup_point: p1 })).status).toBe(
      409,
    );
    // Unassigned parcels may be named at the point the driver stands at (its QR code scanned), not elsewhere.
    const code1 = (await t.call('GET', `/api/pickup-point/${p1}/qr-code/`, co.login.token)).headers.get('x-qr-text') ?? '';
    expect(
      (
        await t.json('POST', '/api/pickup-point-scan/status-change/', driver.token, {
          packages: [b],
          status: 'picked_up',
          pickup_point: p1,
          code: code1,
        })
      ).status,
    ).toBe(404);
    const manual = await t.json<{ count: number }>('POST', '/api/pickup-point-scan/status-change/', driver.token, {
      packages: [a],
      status: 'picked_up',
      pickup_point: p1,
      code: code1,
    });
    expect(manual.status).toBe(200);
    expect(await statusOf(t, a)).toMatchObject({ status: 'picked_up', assigned_to_id: driver.id });
    expect(
      (await t.json('POST', '/api/pickup-point-scan/status-change/', driver.token, { packages: [a], status: 'delivered' })).status,
    ).toBe(400);
    expect((await t.json('POST', '/api/pickup-package/assign-driver/', admin.token, { driver: driver.id, packages: [a] })).status).toBe(
      409,
    );

    const changed = await webhookCall(t, 'PATCH', co, { hawb: 'B-3', customer_phone: '0400 999 999', pickup_point: p2 });
    expect(changed.status).toBe(200);
    expect(await statusOf(t, c)).toMatchObject({ customer_phone: '+61400999999', pickup_point_id: p2 });
    const cancelled = await webhookCall(t, 'PATCH', co, { hawb: 'B-3', status: 'cancelled', note: 'customer changed mind' });
    expect(cancelled.body.package).toMatchObject({ status: 'cancelled' });
    expect((await webhookCall(t, 'PATCH', co, { hawb: 'B-3' })).status).toBe(400);

    const other = await companyWithKey(t, 'Gamma');
    expect((await webhookCall(t, 'PATCH', other, { hawb: 'B-1', customer_name: 'Mallory' })).status).toBe(404);
    expect((await webhookCall(t, 'POST', other, { hawb: 'G-1', pickup_point: p1 })).status).toBe(400);
  });

  it('signed calls: bad signature, old timestamp, replay and unknown company are 401 and change nothing', async () => {
    const t = await makeApp();
    const co = await companyWithKey(t, 'Delta');
    const before = await packageCount(t);
    const body = JSON.stringify({ hawb: 'D-1' });
    const now = Math.floor(t.clock.now() / 1000);
    const send = (headers: Record<string, string>, payload = body) =>
      t.json('POST', '/api/pickup-package/webhook/', null, payload, headers);

    expect((await send(signed('0'.repeat(64), body, now, co.code))).status).toBe(401);
    expect((await send(signed(co.secret, body, now, co.code), JSON.stringify({ hawb: 'D-2' }))).status).toBe(401);
    expect((await send(signed(co.secret, body, now - 301, co.code))).status).toBe(401);
    expect((await send(signed(co.secret, body, now + 301, co.code))).status).toBe(401);
    expect((await send(signed(co.secret, body, now, 'NO-SUCH-CODE'))).status).toBe(401);
    const { 'x-courier-signature': _sig, ...unsigned } = signed(co.secret, body, now, co.code);
    expect((await send(unsigned)).status).toBe(401);
    expect(await packageCount(t)).toBe(before);

    // The company id is not a sender name (issue 15 item 7: X-Courier-Company is the code only).
    expect((await send(signed(co.secret, body, now, String(co.id)))).status).toBe(401);
    const good = signed(co.secret, body, now - 60, co.code);
    const first = await send(good);
    expect(first.status).toBe(201);
    const replay = await send(good);
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({ success: false, code: 'not_authenticated' });
    expect(await packageCount(t)).toBe(before + 1);
    expect(await t.db.select().from(webhookNonce).all()).toHaveLength(1);

    // A regenerated key makes the old one useless at once.
    await t.json('POST', '/api/webhook-secret-key/generate-key/', co.login.token, {});
    expect((await send(signed(co.secret, JSON.stringify({ hawb: 'D-3' }), now, co.code), JSON.stringify({ hawb: 'D-3' }))).status).toBe(
      401,
    );
    expect(await packageCount(t)).toBe(before + 1);
  });

  it('pickup uploads (csv and excel, staff and company) start as pickup_requested and raise package.created', async () => {
    const t = await makeApp();
    const co = await companyWithKey(t, 'Epsilon');
    const admin = await t.login('admin');
    const point = await pickupPoint(t, co.login.token);
    const hook = await t.json('POST', '/api/webhook-endpoint/', co.login.token, {
      url: 'https://hooks.example.com/courier',
      events: ['package.created'],
    });
    expect(hook.status).toBe(201);

    const csv = (rows: string) => {
      const f = new FormData();
      f.set('file', new File([`hawb,customer_name\n${rows}`], 'p.csv'));
      f.set('pickup_point', String(point));
      return f;
    };
    const up = await t.json<{ created: number }>(
      'POST',
      '/api/pickup-package/company/bulk-upload/',
      co.login.token,
      csv('U-1,Ann\nU-2,Ben\n'),
    );
    expect(up.status).toBe(200);
    expect(up.body.created).toBe(2);
    const rows = await t.db.select().from(pkg).where(eq(pkg.pickup_point_id, point)).all();
    expect(rows.map((r) => [r.hawb, r.status])).toEqual([
      ['U-1', 'pickup_requested'],
      ['U-2', 'pickup_requested'],
    ]);
    expect(
      await t.db
        .select()
        .from(packageEvent)
        .where(eq(packageEvent.package_id, rows[0]?.id ?? 0))
        .get(),
    ).toMatchObject({ action: 'pickup_upload', to_status: 'pickup_requested' });
    expect((await t.db.select().from(webhookDelivery).all()).map((d) => d.event)).toEqual(['package.created', 'package.created']);

    expect((await t.json('POST', '/api/pickup-package/company/bulk-upload/', admin.token, csv('U-3,Cy\n'))).status).toBe(403);
    const staffForm = csv('U-3,Cy\n');
    staffForm.set('company', String(co.id));
    expect((await t.json<{ created: number }>('POST', '/api/pickup-package/bulk-upload/', admin.token, staffForm)).body.created).toBe(1);
    expect((await t.json('POST', '/api/pickup-package/bulk-upload/', admin.token, csv('U-1,Dup\n'))).status).toBe(400);

    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('p');
    ws.addRow(['hawb', 'customer_name']);
    ws.addRow(['X-1', 'Xena']);
    for (const [path, token] of [
      ['/api/pickup-package/excel-upload/', admin.token],
      ['/api/pickup-package/company/excel-upload/', co.login.token],
    ] as const) {
      ws.getCell('A2').value = `X-${path.length}`;
      const form = new FormData();
      form.set('file', new File([new Uint8Array(await wb.xlsx.writeBuffer())], 'p.xlsx'));
      if (token === admin.token) form.set('company', String(co.id));
      const res = await t.json<{ created: number }>('POST', path, token, form);
      expect(res.status).toBe(200);
      expect(res.body.created).toBe(1);
    }
    const list = await t.json<{ count: number }>('GET', '/api/pickup-package/?status=pickup_requested', admin.token);
    expect(list.body.count).toBe(5);
  });
});
