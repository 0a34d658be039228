import { describe, expect, it } from 'vitest';
import { Package } from '../../shared/schemas/package';
import { makeApp, type TestApp } from '../helpers/app';

/** The endpoints of interface-spec sections 4.1 to 4.5, exactly as the specification shows them. */

const SPEC_PACKAGE_FIELDS = [
  'id',
  'hawb',
  'customer_code',
  'customer_name',
  'customer_address',
  'customer_phone',
  'postcode',
  'postcode_name',
  'description_of_goods',
  'count',
  'landed',
  'company',
  'company_name',
  'weight',
  'price',
  'shipper_code',
  'shipper_name',
  'shipper_address',
  'shipper_city',
  'shipper_state',
  'shipper_postcode',
  'shipper_country',
  'origin',
  'port',
  'total_value',
  'goods_currency',
  'sac',
  'fr_reference',
  'sub_master',
  'pkg_type',
  'country_of_origin',
  'cyber_vendor_account',
  'customs_code',
  'cyber_importer_account',
  'importer_abn',
  'importer_cac',
  'cyber_supplier_account',
  'supplier_customs_code',
  'is_scanned',
  'parcel_no',
  'sequence_no',
  'status',
  'zone',
  'zone_name',
  'suburb',
  'suburb_name',
  'state',
  'state_name',
  'country',
  'country_name',
  'height',
  'length',
  'volume_weighted',
  'assigned_to_id',
  'assigned_to',
  'coordinates',
  'delivery_date',
  'latitude',
  'longitude',
  'created_at',
  'package_failed_delivery_status',
];

async function seedAssigned(t: TestApp, n: number) {
  const admin = await t.login('admin');
  const driver = await t.login('driver', { name: 'Dana Driver' });
  const companyId = await t.company('Acme Imports');
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await t.json<{ id: number }>('POST', '/api/package/', admin.token, {
      hawb: `HAWB${1000 + i}`,
      company: companyId,
      customer_name: `Receiver ${i}`,
      customer_address: `${i} Long St`,
      postcode: 2000 + i,
      weight: 1.5,
      latitude: -33.86,
      longitude: 151.2,
    });
    expect(res.status).toBe(201);
    ids.push(res.body.id);
  }
  const assigned = await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: ids });
  expect(assigned.status).toBe(200);
  return { admin, driver, ids, companyId };
}

describe('4.1 remaining packages list', () => {
  it("answers the driver's assigned, unscanned packages with every spec 2.1 field", async () => {
    const t = await makeApp();
    const { driver, ids, companyId } = await seedAssigned(t, 3);
    const scan = await t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, { barcode: 'HAWB1000' });
    expect(scan.status).toBe(200);

    const res = await t.json<{ success: boolean; message: string; pending_packages: Record<string, unknown>[] }>(
      'GET',
      `/api/scan-package-api/${driver.id}/remaining-packages-list/`,
      driver.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(typeof res.body.message).toBe('string');
    expect(res.body.pending_packages.map((p) => p.id)).toEqual(ids.slice(1));
    const first = res.body.pending_packages[0]!;
    expect(Object.keys(first).sort()).toEqual([...SPEC_PACKAGE_FIELDS].sort());
    expect(Package.safeParse(first).success).toBe(true);
    expect(first).toMatchObject({
      hawb: 'HAWB1001',
      company: companyId,
      company_name: 'Acme Imports',
      is_scanned: false,
      status: 'assigned',
      assigned_to_id: driver.id,
      assigned_to: { id: driver.id, name: 'Dana Driver' },
      coordinates: { latitude: -33.86, longitude: 151.2 },
      delivery_date: null,
      zone: null,
      package_failed_delivery_status: [],
    });
  });

  it('lets a driver ask only for their own id; supervisors and admins for anyone', async () => {
    const t = await makeApp();
    const { driver } = await seedAssigned(t, 1);
    const other = await t.login('driver');
    const supervisor = await t.login('supervisor');
    const company = await t.login('company');
    expect((await t.json('GET', `/api/scan-package-api/${driver.id}/remaining-packages-list/`, other.token)).status).toBe(403);
    const sup = await t.json<{ pending_packages: unknown[] }>(
      'GET',
      `/api/scan-package-api/${driver.id}/remaining-packages-list/`,
      supervisor.token,
    );
    expect(sup.status).toBe(200);
    expect(sup.body.pending_packages).toHaveLength(1);
    expect((await t.json('GET', `/api/scan-package-api/${driver.id}/remaining-packages-list/`, company.token)).status).toBe(403);
    expect((await t.json('GET', `/api/scan-package-api/${driver.id}/remaining-packages-list/`, null)).status).toBe(401);
    expect((await t.json('GET', '/api/scan-package-api/abc/remaining-packages-list/', supervisor.token)).status).toBe(404);
  });
});

describe('4.2 update failed-delivery status', () => {
  it('answers 200 and {} and changes the name', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const created = await t.json<{ id: number }>('POST', '/api/failed-delivery-status/', admin.token, { name: 'Nobody home' });
    expect(created.status).toBe(201);
    const res = await t.json('PATCH', `/api/failed-delivery-status/${created.body.id}/`, admin.token, { name: 'Receiver absent' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const got = await t.json<{ name: string }>('GET', `/api/failed-delivery-status/${created.body.id}/`, admin.token);
    expect(got.body.name).toBe('Receiver absent');
  });

  it('refuses an empty name, an unknown id and a driver', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const driver = await t.login('driver');
    const created = await t.json<{ id: number }>('POST', '/api/failed-delivery-status/', admin.token, { name: 'Closed' });
    expect((await t.json('PATCH', `/api/failed-delivery-status/${created.body.id}/`, admin.token, { name: '' })).status).toBe(400);
    expect((await t.json('PATCH', `/api/failed-delivery-status/${created.body.id}/`, admin.token, { name: 42 })).status).toBe(400);
    expect((await t.json('PATCH', '/api/failed-delivery-status/999/', admin.token, { name: 'x' })).status).toBe(404);
    expect((await t.json('PATCH', `/api/failed-delivery-status/${created.body.id}/`, driver.token, { name: 'x' })).status).toBe(403);
    const list = await t.json<{ results: { name: string }[] }>('GET', '/api/failed-delivery-status/', driver.token);
    expect(list.body.results.map((r) => r.name)).toEqual(['Closed']);
  });
});

describe('4.3-4.6 restore operations', () => {
  const cases = [
    {
      path: 'pickup-point',
      body: {
        person_name: 'Pat',
        email: 'pat@example.com',
        phone: '+61 400 000 000',
        address: '5 Pier St',
        suburb: 'Pyrmont',
        state: 'NSW',
        pincode: '2009',
      },
      expected: (id: number) => ({
        id,
        person_name: 'Pat',
        email: 'pat@example.com',
        phone: '+61 400 000 000',
        address: '5 Pier St',
        additional_detail: '',
        suburb: 'Pyrmont',
        state: 'NSW',
        pincode: '2009',
      }),
    },
    {
      path: 'warehouse',
      body: { street_address: '9 Depot Way', additional_details: 'Gate 2', suburb: 'Mascot', state: 'NSW', postcode: '2020' },
      expected: (id: number) => ({
        id,
        street_address: '9 Depot Way',
        additional_details: 'Gate 2',
        suburb: 'Mascot',
        state: 'NSW',
        postcode: '2020',
      }),
    },
    { path: 'package-type', body: { package_type: 'Satchel' }, expected: (id: number) => ({ id, package_type: 'Satchel' }) },
  ];
  for (const c of cases) {
    it(`${c.path}: restores archived records and answers the envelope with exactly the spec fields`, async () => {
      const t = await makeApp();
      const admin = await t.login('admin');
      const a = await t.json<{ id: number }>('POST', `/api/${c.path}/`, admin.token, c.body);
      const b = await t.json<{ id: number }>('POST', `/api/${c.path}/`, admin.token, c.body);
      expect(a.status).toBe(201);
      await t.json('POST', `/api/${c.path}/archive-${c.path}/`, admin.token, { deleted: [a.body.id, b.body.id] });
      const archived = await t.json<{ count: number }>('GET', `/api/${c.path}/archive-${c.path}-list/`, admin.token);
      expect(archived.body.count).toBe(2);

      const res = await t.json('POST', `/api/${c.path}/restore-${c.path}/`, admin.token, { deleted: [a.body.id] });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ count: 1, next: null, previous: null, results: { success: true, data: [c.expected(a.body.id)] } });
      const patched = await t.json<{ count: number }>('PATCH', `/api/${c.path}/restore-${c.path}/`, admin.token, { deleted: [b.body.id] });
      expect(patched.body.count).toBe(1);
      const list = await t.json<{ count: number }>('GET', `/api/${c.path}/`, admin.token);
      expect(list.body.count).toBe(2);
    });

    it(`${c.path}: unknown ids are named in a 400 and nothing changes; drivers are refused`, async () => {
      const t = await makeApp();
      const admin = await t.login('admin');
      const driver = await t.login('driver');
      const a = await t.json<{ id: number }>('POST', `/api/${c.path}/`, admin.token, c.body);
      await t.json('POST', `/api/${c.path}/archive-${c.path}/`, admin.token, { deleted: [a.body.id] });
      const res = await t.json<{ message: string; code: string }>('POST', `/api/${c.path}/restore-${c.path}/`, admin.token, {
        deleted: [a.body.id, 9999],
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('9999');
      expect((await t.json<{ count: number }>('GET', `/api/${c.path}/archive-${c.path}-list/`, admin.token)).body.count).toBe(1);
      expect((await t.json('POST', `/api/${c.path}/restore-${c.path}/`, admin.token, { deleted: [] })).status).toBe(400);
      expect((await t.json('POST', `/api/${c.path}/restore-${c.path}/`, admin.token, { deleted: 'all' })).status).toBe(400);
      expect((await t.json('POST', `/api/${c.path}/restore-${c.path}/`, driver.token, { deleted: [a.body.id] })).status).toBe(403);
      expect((await t.json('POST', `/api/${c.path}/restore-${c.path}/`, null, { deleted: [a.body.id] })).status).toBe(401);
    });
  }
});
