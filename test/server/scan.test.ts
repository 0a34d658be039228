import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { country, packageEvent, pkg, state, suburb, zone } from '../../server/db/schema/index';
import { makeApp } from '../helpers/app';

type Json = Record<string, unknown> & { package?: Record<string, unknown>; details?: Record<string, unknown> };

async function world() {
  const t = await makeApp();
  const admin = await t.login('admin');
  const superAdmin = await t.login('super_admin');
  const depot = await t.login('depot_manager');
  const supervisor = await t.login('supervisor');
  const d1 = await t.login('driver');
  const d2 = await t.login('driver');
  const shipper = await t.login('company');
  const now = t.clock.now();
  const countryId = (await t.db.insert(country).values({ name: 'Australia', created_at: now, updated_at: now }).returning().get()).id;
  const stateId = (
    await t.db.insert(state).values({ name: 'VIC', country_id: countryId, created_at: now, updated_at: now }).returning().get()
  ).id;
  const zoneId = (await t.db.insert(zone).values({ name: 'North', created_at: now, updated_at: now }).returning().get()).id;
  await t.db
    .insert(suburb)
    .values({ name: 'Coburg', state_id: stateId, zone_id: zoneId, postcode: '3058', created_at: now, updated_at: now })
    .run();
  const parcel = async (hawb: string, extra: Record<string, unknown> = {}) => {
    const res = await t.json<{ id: number }>('POST', '/api/package/', shipper.token, { hawb, postcode: 3058, ...extra });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const assign = async (driver: number, ids: number[]) => {
    expect((await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver, packages: ids })).status).toBe(200);
  };
  const post = (path: string, token: string, body: unknown) => t.json<Json>('POST', `/api/scan-package-api/${path}`, token, body);
  const events = (id: number) => t.db.select().from(packageEvent).where(eq(packageEvent.package_id, id)).all();
  return { t, admin, superAdmin, depot, supervisor, d1, d2, shipper, zoneId, parcel, assign, post, events };
}

describe('scan API', () => {
  it('scan and assign zone finds the zone by postcode and refuses what cannot land', async () => {
    const w = await world();
    const id = await w.parcel('Z-1');
    const res = await w.post('scan-assign-zone/', w.depot.token, { barcode: ' Z-1 ', latitude: -37.7, longitude: 144.96 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      zone: { id: w.zoneId, name: 'North' },
      package: { status: 'received', landed: true, zone: w.zoneId, zone_name: 'North' },
    });
    expect(res.body.message).toContain('North');
    expect((await w.events(id)).at(-1)).toMatchObject({
      action: 'depot_scan',
      from_status: 'created',
      to_status: 'received',
      actor_id: w.depot.id,
      latitude: -37.7,
    });

    // Assigned before it landed: the scan only lands it.
    const direct = await w.parcel('Z-2', { postcode: 9999 });
    await w.assign(w.d1.id, [direct]);
    const landed = await w.post('scan-assign-zone/', w.depot.token, { barcode: 'Z-2' });
    expect(landed.body).toMatchObject({ zone: null, package: { status: 'assigned', landed: true } });

    expect((await w.post('scan-assign-zone/', w.d1.token, { barcode: 'Z-1' })).status).toBe(403);
    expect((await w.post('scan-assign-zone/', w.depot.token, { barcode: '' })).status).toBe(400);
    expect((await w.post('scan-assign-zone/', null as unknown as string, { barcode: 'Z-1' })).status).toBe(401);
    const unknown = await w.post('scan-assign-zone/', w.depot.token, { barcode: 'Z-404' });
    expect(unknown.status).toBe(404);

    await w.post('inbound-scan/', w.d1.token, { barcode: 'Z-2' });
    const loaded = await w.post('scan-assign-zone/', w.depot.token, { barcode: 'Z-2' });
    expect(loaded.status).toBe(409);
    expect(loaded.body.message).toContain('Z-2 is out for delivery');
    expect((await w.events(direct)).map((e) => e.action)).toContain('depot_scan_rejected');
  });

  it('inbound scan, scanned list, reset and remaining list for the driver', async () => {
    const w = await world();
    const a = await w.parcel('S-1');
    const b = await w.parcel('S-2');
    await w.assign(w.d1.id, [a, b]);
    expect((await w.post('inbound-scan/', w.d1.token, { barcode: 'S-1' })).body).toMatchObject({ already_scanned: false });
    expect((await w.post('inbound-scan/', w.d1.token, { barcode: 'S-1' })).body).toMatchObject({ already_scanned: true });

    const scanned = await w.t.json<{ scanned_packages: { hawb: string }[] }>(
      'GET',
      `/api/scan-package-api/${w.d1.id}/scanned-packages-list/`,
      w.d1.token,
    );
    expect(scanned.status).toBe(200);
    expect(scanned.body.scanned_packages.map((p) => p.hawb)).toEqual(['S-1']);
    const remaining = await w.t.json<{ pending_packages: { hawb: string }[] }>(
      'GET',
      `/api/scan-package-api/${w.d1.id}/remaining-packages-list/`,
      w.d1.token,
    );
    expect(remaining.body.pending_packages.map((p) => p.hawb)).toEqual(['S-2']);
    expect((await w.t.json('GET', `/api/scan-package-api/${w.d1.id}/scanned-packages-list/`, w.d2.token)).status).toBe(403);
    expect((await w.t.json('GET', `/api/scan-package-api/${w.d1.id}/scanned-packages-list/`, w.supervisor.token)).status).toBe(200);

    const reset = await w.post('reset-scanned/', w.d1.token, { barcode: 'S-1' });
    expect(reset.status).toBe(200);
    expect(reset.body.package).toMatchObject({ status: 'assigned', is_scanned: false });
    const again = await w.post('reset-scanned/', w.d1.token, { barcode: 'S-1' });
    expect(again.status).toBe(409);
    expect(again.body.details).toMatchObject({ status: 'assigned' });
    expect((await w.post('reset-scanned/', w.d2.token, { barcode: 'S-2' })).status).toBe(409);
    expect((await w.post('reset-scanned/', w.depot.token, { barcode: 'S-2' })).status).toBe(403);
  });

  it('supervisor and super admin checks are recorded and listed; the state is unchanged', async () => {
    const w = await world();
    const id = await w.parcel('C-1');
    const check = await w.post('supervisor-scan/', w.supervisor.token, { barcode: 'C-1', note: 'shelf 4' });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({
      status: 'created',
      status_label: 'Shipment created',
      allowed: ['received', 'assigned', 'cancelled'],
      last_event: { action: 'create' },
    });
    const admin = await w.post('super-admin-scan/', w.superAdmin.token, { barcode: 'C-1' });
    expect(admin.status).toBe(200);
    expect(admin.body.last_event).toMatchObject({ action: 'supervisor_check', note: 'shelf 4' });
    expect((await w.post('super-admin-scan/', w.supervisor.token, { barcode: 'C-1' })).status).toBe(403);
    expect((await w.post('supervisor-scan/', w.d1.token, { barcode: 'C-1' })).status).toBe(403);
    expect((await w.t.db.select().from(pkg).where(eq(pkg.id, id)).get())?.status).toBe('created');

    const list = await w.t.json<{
      count: number;
      results: { event: { action: string; actor: { id: number } }; package: { hawb: string } }[];
    }>('GET', '/api/scan-package-api/supervisor-scan/', w.supervisor.token);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(1);
    expect(list.body.results[0]).toMatchObject({
      event: { action: 'supervisor_check', actor: { id: w.supervisor.id } },
      package: { hawb: 'C-1' },
    });
    const otherDay = await w.t.json<{ count: number }>('GET', '/api/scan-package-api/supervisor-scan/?date=2025-12-31', w.supervisor.token);
    expect(otherDay.body.count).toBe(0);
    expect((await w.t.json('GET', '/api/scan-package-api/supervisor-scan/?date=yesterday', w.supervisor.token)).status).toBe(400);
  });

  it('no-parcel reports and unknown codes wait for staff, who resolve them', async () => {
    const w = await world();
    await w.parcel('N-1');
    const report = await w.post('no-parcel/', w.d1.token, { code: 'LOOSE-77', note: 'on the van floor', latitude: -37.8, longitude: 145 });
    expect(report.status).toBe(201);
    expect(report.body).toMatchObject({
      exception: { code: 'LOOSE-77', action: 'no_parcel', resolved: false, latitude: -37.8 },
      package: null,
    });
    const known = await w.post('no-parcel/', w.d1.token, { code: 'N-1' });
    expect(known.body.message).toContain('N-1');
    expect(known.body.package).toBeNull();
    await w.post('supervisor-scan/', w.supervisor.token, { barcode: 'GHOST-1' });

    const open = await w.t.json<{ count: number; results: { id: number; code: string }[] }>(
      'GET',
      '/api/scan-package-api/no-parcel/?resolved=false',
      w.depot.token,
    );
    expect(open.body.results.map((r) => r.code)).toEqual(['GHOST-1', 'N-1', 'LOOSE-77']);
    expect((await w.t.json('GET', '/api/scan-package-api/no-parcel/', w.d1.token)).status).toBe(403);
    const first = open.body.results[2]?.id ?? 0;
    const resolved = await w.t.json('POST', `/api/scan-package-api/no-parcel/${first}/resolve/`, w.depot.token, {
      note: 'label torn, relabelled',
    });
    expect(resolved.body).toMatchObject({ resolved: true, resolution_note: 'label torn, relabelled' });
    expect((await w.t.json<{ count: number }>('GET', '/api/scan-package-api/no-parcel/?resolved=false', w.depot.token)).body.count).toBe(2);
    expect((await w.t.json('POST', '/api/scan-package-api/no-parcel/999/resolve/', w.depot.token, {})).status).toBe(404);
  });

  it('scan-and-deliver and deliver-by-tracking-number in one step', async () => {
    const w = await world();
    const a = await w.parcel('D-1');
    const b = await w.parcel('D-2');
    const c = await w.parcel('D-3');
    await w.assign(w.d1.id, [a, b]);
    await w.assign(w.d2.id, [c]);
    const one = await w.post('scan-deliver/', w.d1.token, { barcode: 'D-1', recipient_name: 'Sam' });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ package: { status: 'delivered' }, proof: { recipient_name: 'Sam' } });
    expect((await w.events(a)).map((e) => e.to_status).filter(Boolean)).toEqual(['created', 'assigned', 'out_for_delivery', 'delivered']);
    const typed = await w.post('deliver-by-tracking/', w.d1.token, { tracking_no: 'D-2' });
    expect(typed.status).toBe(200);
    expect((await w.post('deliver-by-tracking/', w.d1.token, { tracking_no: 'D-2' })).status).toBe(409);

    const foreign = await w.post('scan-deliver/', w.d1.token, { barcode: 'D-3' });
    expect(foreign.status).toBe(409);
    expect(foreign.body.message).toContain('D-3');
    expect(foreign.body.details).toEqual({ hawb: 'D-3', reason: 'not_yours' });
    expect((await w.post('scan-deliver/', w.d1.token, { barcode: 'D-404' })).status).toBe(404);
    expect((await w.post('scan-deliver/', w.admin.token, { barcode: 'D-3' })).status).toBe(403);
    expect((await w.post('scan-deliver/', w.d1.token, { barcode: 'D-3', photos: [1, 2, 3, 4, 5, 6] })).status).toBe(400);
  });
});
