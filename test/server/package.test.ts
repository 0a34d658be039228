import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveryRate, packageEvent, pkg } from '../../server/db/schema/index';
import type { Package } from '../../shared/schemas/package';
import { makeApp } from '../helpers/app';
import { forceStatus, seedGeo } from './package-fixtures';

type Page = { count: number; results: Package[] };

async function setup() {
  const t = await makeApp();
  const geo = await seedGeo(t.db);
  const admin = await t.login('admin');
  const shipper = await t.login('company');
  const shipperCompany = (await t.db.query.user.findFirst({ where: (u, { eq: e }) => e(u.id, shipper.id) }))?.company_id ?? 0;
  const rival = await t.login('company');
  const driver = await t.login('driver');
  return { t, geo, admin, shipper, shipperCompany, rival, driver };
}

describe('package model: a company, an admin and the whole path', () => {
  it('creates, lists with filters and zones, updates, changes status, deletes and refuses what it must', async () => {
    const { t, geo, admin, shipper, shipperCompany, rival, driver } = await setup();

    // A company creates its own parcel; the company it names is forced to its own.
    const made = await t.json<Package>('POST', '/api/package/', shipper.token, {
      hawb: 'HAWB-1',
      customer_name: 'Ada',
      customer_address: '1 George St',
      suburb: geo.sydney,
      weight: 2,
      length: 50,
      width: 40,
      height: 30,
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      hawb: 'HAWB-1',
      company: shipperCompany,
      status: 'created',
      zone: geo.north,
      zone_name: 'North',
      volume_weighted: 12,
    });
    const id = made.body.id;

    const naming = await t.json('POST', '/api/package/', shipper.token, { hawb: 'HAWB-X', company: shipperCompany + 99 });
    expect(naming.status).toBe(403);
    expect((await t.json('POST', '/api/package/', driver.token, { hawb: 'HAWB-D' })).status).toBe(403);
    expect((await t.json('POST', '/api/package/', admin.token, { hawb: 'HAWB-1' })).status).toBe(409);
    expect((await t.json('POST', '/api/package/', admin.token, { hawb: 'has space' })).body).toMatchObject({ code: 'validation_error' });

    const second = await t.json<Package>('POST', '/api/package/', admin.token, {
      hawb: 'HAWB-2',
      company: shipperCompany,
      zone: geo.south,
      customer_name: 'Bob',
    });
    const third = await t.json<Package>('POST', '/api/package/', admin.token, { hawb: 'HAWB-3', zone: geo.east });
    expect(second.status).toBe(201);
    expect(third.status).toBe(201);

    // Multiple zone filter, status filter, search; another company sees nothing of these.
    const zones = await t.json<Page>('GET', `/api/package/?zone=${geo.north},${geo.south}&ordering=hawb`, admin.token);
    expect(zones.body.results.map((p) => p.hawb)).toEqual(['HAWB-1', 'HAWB-2']);
    expect((await t.json<Page>('GET', `/api/package/?zone=${geo.east}`, admin.token)).body.count).toBe(1);
    expect((await t.json<Page>('GET', '/api/package/?search=bob', admin.token)).body.results.map((p) => p.hawb)).toEqual(['HAWB-2']);
    expect((await t.json<Page>('GET', '/api/package/?status=created&page_size=2', admin.token)).body).toMatchObject({ count: 3 });
    expect((await t.json('GET', '/api/package/?zone=north', admin.token)).status).toBe(400);
    expect((await t.json<Page>('GET', '/api/package/', shipper.token)).body.count).toBe(2);
    expect((await t.json<Page>('GET', '/api/package/', rival.token)).body.count).toBe(0);
    expect((await t.json('GET', `/api/package/${id}/`, rival.token)).status).toBe(404);
    expect((await t.json('GET', `/api/package/${id}/`, shipper.token)).status).toBe(200);

    // Update by company (its own only), PUT by admin; status and driver are not editable here.
    const patched = await t.json<Package>('PATCH', `/api/package/${id}/`, shipper.token, { customer_phone: '0400 000 000', width: 80 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      customer_phone: '+61400000000' /* international form, issue 36 */,
      customer_name: 'Ada',
      volume_weighted: 24,
    });
    expect((await t.json('PATCH', `/api/package/${id}/`, rival.token, { customer_phone: '1' })).status).toBe(404);
    expect((await t.json('PATCH', `/api/package/${id}/`, shipper.token, { company: shipperCompany + 1 })).status).toBe(403);
    const sneaky = await t.json<{ errors: { path: string }[] }>('PATCH', `/api/package/${id}/`, admin.token, { status: 'delivered' });
    expect(sneaky.status).toBe(400);
    expect(sneaky.body.errors[0].path).toBe('status');
    expect((await t.json('PATCH', `/api/package/${id}/`, admin.token, { assigned_to_id: driver.id })).status).toBe(400);
    expect((await t.json('PUT', `/api/package/${id}/`, admin.token, { customer_name: 'Ada L.' })).body).toMatchObject({
      customer_name: 'Ada L.',
    });
    expect((await t.json('PATCH', `/api/package/${id}/`, admin.token, { hawb: 'HAWB-2' })).status).toBe(409);
    expect((await t.json('PATCH', `/api/package/${id}/`, admin.token, { zone: 99_999 })).status).toBe(400);
    expect((await t.json('PATCH', `/api/package/${id}/`, driver.token, { customer_name: 'x' })).status).toBe(403);

    // Status change: admins and supervisors, through the lifecycle table.
    const supervisor = await t.login('supervisor');
    const depot = await t.login('depot_manager');
    expect((await t.json('POST', `/api/package/${id}/status-change/`, depot.token, { status: 'received' })).status).toBe(403);
    expect((await t.json('POST', `/api/package/${id}/status-change/`, shipper.token, { status: 'received' })).status).toBe(403);
    const received = await t.json<Package>('POST', `/api/package/${id}/status-change/`, supervisor.token, {
      status: 'received',
      note: 'shelf 4',
    });
    expect(received.status).toBe(200);
    expect(received.body).toMatchObject({ status: 'received', landed: true });
    const event = (await t.db.select().from(packageEvent).where(eq(packageEvent.package_id, id)).all()).at(-1);
    expect(event).toMatchObject({
      action: 'status_change',
      from_status: 'created',
      to_status: 'received',
      note: 'shelf 4',
      actor_id: supervisor.id,
    });
    const backwards = await t.json('PATCH', `/api/package/${id}/status-change/`, admin.token, { status: 'picked_up' });
    expect(backwards.status).toBe(409);
    expect(backwards.body).toMatchObject({ code: 'invalid_transition' });
    expect((await t.json('POST', `/api/package/${id}/status-change/`, admin.token, { status: 'delivered' })).status).toBe(400);
    expect((await t.json('POST', '/api/package/999999/status-change/', admin.token, { status: 'received' })).status).toBe(404);

    // Handled parcels keep their label and cannot be deleted.
    expect((await t.json('PATCH', `/api/package/${id}/`, admin.token, { hawb: 'HAWB-1B' })).status).toBe(409);
    expect((await t.json('DELETE', `/api/package/${id}/`, admin.token)).status).toBe(409);

    // A fresh one can be renamed and deleted; it is gone, events included.
    const fresh = second.body.id;
    expect((await t.json('PATCH', `/api/package/${fresh}/`, shipper.token, { hawb: 'HAWB-2B' })).body).toMatchObject({ hawb: 'HAWB-2B' });
    expect((await t.json('DELETE', `/api/package/${fresh}/`, rival.token)).status).toBe(404);
    expect((await t.json('DELETE', `/api/package/${fresh}/`, shipper.token)).status).toBe(200);
    expect((await t.json('GET', `/api/package/${fresh}/`, admin.token)).status).toBe(404);
    expect(await t.db.select().from(packageEvent).where(eq(packageEvent.package_id, fresh)).all()).toEqual([]);

    // Final parcels are history: no edits.
    expect((await t.json('POST', `/api/package/${third.body.id}/status-change/`, admin.token, { status: 'cancelled' })).status).toBe(200);
    const late = await t.json('PATCH', `/api/package/${third.body.id}/`, admin.token, { customer_name: 'late' });
    expect(late.status).toBe(409);
    await forceStatus(t.db, id, 'delivered');
    expect((await t.json('PATCH', `/api/package/${id}/`, shipper.token, { customer_phone: '1' })).status).toBe(409);
    expect((await t.json('DELETE', `/api/package/${id}/`, admin.token)).status).toBe(409);
  });

  it('a parcel scanned but still created cannot be deleted', async () => {
    const { t, admin } = await setup();
    const made = await t.json<Package>('POST', '/api/package/', admin.token, { hawb: 'SCANNED-1' });
    await t.db
      .insert(packageEvent)
      .values({ package_id: made.body.id, action: 'scan_rejected_state', from_status: 'created', occurred_at: 1, received_at: 1 })
      .run();
    expect((await t.json('DELETE', `/api/package/${made.body.id}/`, admin.token)).status).toBe(409);
    expect(await t.db.select().from(pkg).where(eq(pkg.id, made.body.id)).get()).toBeTruthy();
  });

  it('archives and restores with the spec 4.6 envelope, scoped to the caller', async () => {
    const { t, admin, shipper, rival, driver } = await setup();
    const a = (await t.json<Package>('POST', '/api/package/', shipper.token, { hawb: 'ARC-1' })).body.id;
    const b = (await t.json<Package>('POST', '/api/package/', shipper.token, { hawb: 'ARC-2' })).body.id;

    expect((await t.json('POST', '/api/package/archive-package/', rival.token, { deleted: [a] })).status).toBe(400);
    expect((await t.json('POST', '/api/package/archive-package/', driver.token, { deleted: [a] })).status).toBe(403);
    const unknown = await t.json<{ message: string }>('POST', '/api/package/archive-package/', shipper.token, { deleted: [a, 424242] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('424242');

    const archived = await t.json<{ count: number; results: { data: Package[] } }>('POST', '/api/package/archive-package/', shipper.token, {
      deleted: [a, b],
    });
    expect(archived.status).toBe(200);
    expect(archived.body.count).toBe(2);
    expect((await t.json<Page>('GET', '/api/package/', shipper.token)).body.count).toBe(0);
    expect((await t.json('GET', `/api/package/${a}/`, shipper.token)).status).toBe(404);
    const list = await t.json<Page>('GET', '/api/package/archive-package-list/', shipper.token);
    expect(list.body.results.map((p) => p.hawb).sort()).toEqual(['ARC-1', 'ARC-2']);
    expect((await t.json<Page>('GET', '/api/package/archive-package-list/', rival.token)).body.count).toBe(0);

    const restored = await t.json<{ count: number; next: null; previous: null; results: { success: boolean; data: Package[] } }>(
      'PATCH',
      '/api/package/restore-package/',
      admin.token,
      { deleted: [a] },
    );
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ count: 1, next: null, previous: null, results: { success: true } });
    expect(restored.body.results.data[0]).toMatchObject({ id: a, hawb: 'ARC-1' });
    // Restoring what is already live changes nothing and says so.
    expect((await t.json<{ count: number }>('POST', '/api/package/restore-package/', admin.token, { deleted: [a] })).body.count).toBe(0);
    expect((await t.json('POST', '/api/package/restore-package/', admin.token, { deleted: [] })).status).toBe(400);

    // A parcel with a driver cannot disappear from the driver's run.
    await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: [a] });
    const busy = await t.json('POST', '/api/package/archive-package/', admin.token, { deleted: [a] });
    expect(busy.status).toBe(409);
  });

  it('prices parcels and quotes, and finds areas by postcode', async () => {
    const { t, geo, admin, shipper, shipperCompany, rival } = await setup();
    // Created before any rate card exists, so its (prepaid) company is not charged.
    const made = await t.json<Package>('POST', '/api/package/', shipper.token, { hawb: 'PRICE-1', weight: 3.5 });
    expect(made.status).toBe(201);
    const noCard = await t.json<{ code: string }>('POST', '/api/package/price/', shipper.token, { weight: 1 });
    expect(noCard.status).toBe(404);
    // The default rate card: 800 cents, then 150 per started kilogram.
    await t.db.insert(deliveryRate).values({ base_cents: 800, per_unit_cents: 150, currency: 'AUD', created_at: 1, updated_at: 1 }).run();
    const quote = await t.json('POST', '/api/package/price/', shipper.token, { weight: 2.2, length: 50, width: 40, height: 30 });
    expect(quote.status).toBe(200);
    // Volumetric 12 kg beats 2.2 kg: base 800 + 12 x 150 cents.
    expect(quote.body).toMatchObject({
      success: true,
      package: null,
      currency: 'AUD',
      amount: 2600,
      price: 26,
      chargeable_weight: 12,
      volumetric_weight: 12,
    });
    expect((quote.body as { method: string }).method).toContain('rate_card');
    expect((await t.json('POST', '/api/package/price/', shipper.token, { weight: 1, company: shipperCompany + 1 })).status).toBe(403);
    expect((await t.json('POST', '/api/package/price/', admin.token, { weight: -1 })).status).toBe(400);

    const priced = await t.json('GET', `/api/package/${made.body.id}/price/`, shipper.token);
    expect(priced.body).toMatchObject({ package: made.body.id, amount: 800 + 4 * 150, chargeable_weight: 3.5, volumetric_weight: null });
    expect((await t.json('GET', `/api/package/${made.body.id}/price/`, rival.token)).status).toBe(404);

    const areas = await t.json<{ suburbs: { name: string; zone_name: string | null }[]; areas: { name: string }[] }>(
      'GET',
      '/api/package/area-by-postcode/?postcode=2000',
      shipper.token,
    );
    expect(areas.body).toMatchObject({ success: true });
    expect(areas.status).toBe(200);
    expect(areas.body.suburbs.map((s) => [s.name, s.zone_name])).toEqual([
      ['Haymarket', 'South'],
      ['Sydney', 'North'],
    ]);
    expect(areas.body.areas.map((a) => a.name)).toEqual(['The Rocks']);
    expect((await t.json<{ suburbs: unknown[] }>('GET', '/api/package/area-by-postcode/?postcode=9999', admin.token)).body.suburbs).toEqual(
      [],
    );
    expect((await t.json('GET', '/api/package/area-by-postcode/?postcode=%27%3B--', admin.token)).status).toBe(400);
    expect(geo.rocks).toBeGreaterThan(0);
  });

  it("lists a driver's packages: staff name the driver, a driver sees only theirs", async () => {
    const { t, admin, shipper, driver } = await setup();
    const other = await t.login('driver');
    const ids: number[] = [];
    for (const hawb of ['DRV-1', 'DRV-2', 'DRV-3'])
      ids.push((await t.json<Package>('POST', '/api/package/', admin.token, { hawb })).body.id);
    await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: [ids[0], ids[1]] });
    await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: other.id, packages: [ids[2]] });

    const staff = await t.json<Page>('GET', `/api/package/by-driver/?driver=${driver.id}&ordering=hawb`, admin.token);
    expect(staff.body.results.map((p) => p.hawb)).toEqual(['DRV-1', 'DRV-2']);
    expect((await t.json('GET', '/api/package/by-driver/', admin.token)).status).toBe(400);
    const own = await t.json<Page>('GET', '/api/package/by-driver/', driver.token);
    expect(own.body.count).toBe(2);
    expect((await t.json('GET', `/api/package/by-driver/?driver=${other.id}`, driver.token)).status).toBe(403);
    expect((await t.json('GET', `/api/package/by-driver/?driver=${driver.id}`, shipper.token)).status).toBe(403);
    expect((await t.json<Page>('GET', '/api/package/', driver.token)).body.count).toBe(2);
  });
});
