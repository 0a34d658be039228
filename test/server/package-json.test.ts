import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { Package } from '../../shared/schemas/package';
import type { PackageStatus } from '../../shared/lifecycle';
import type { Db } from '../../server/db/client';
import { alias } from 'drizzle-orm/sqlite-core';
import { company, country, packageFailure, pkg, state, suburb, user, zone } from '../../server/db/schema/index';
import { packageJson, packageJsonByIds, packageJsonWhere } from '../../server/services/packages/json';
import { packagesByIds } from '../../server/services/packages/shape';
import { makeApp } from '../helpers/app';

/**
 * The JS shaping the SQL-built JSON replaced (spec 2.1), kept here as the oracle: every Package
 * SQLite serialises must parse to exactly this, key order included.
 */
async function previousShaping(db: Db, id: number): Promise<Package> {
  const driver = alias(user, 'driver');
  const r = await db
    .select({
      p: pkg,
      company_name: company.name,
      zone_name: zone.name,
      suburb_name: suburb.name,
      state_name: state.name,
      country_name: country.name,
      driver_name: driver.name,
    })
    .from(pkg)
    .leftJoin(company, eq(company.id, pkg.company_id))
    .leftJoin(zone, eq(zone.id, pkg.zone_id))
    .leftJoin(suburb, eq(suburb.id, pkg.suburb_id))
    .leftJoin(state, eq(state.id, pkg.state_id))
    .leftJoin(country, eq(country.id, pkg.country_id))
    .leftJoin(driver, eq(driver.id, pkg.assigned_to_id))
    .where(eq(pkg.id, id))
    .get();
  if (!r) throw new Error(`no package ${id}`);
  const p = r.p;
  const iso = (ms: number) => new Date(ms).toISOString();
  const failures = (
    await db
      .select()
      .from(packageFailure)
      .where(inArray(packageFailure.package_id, [id]))
      .orderBy(packageFailure.id)
      .all()
  ).map((f) => ({ id: f.status_id, name: f.name, note: f.note, created_at: iso(f.created_at) }));
  return {
    id: p.id,
    hawb: p.hawb,
    customer_code: p.customer_code,
    customer_name: p.customer_name,
    customer_address: p.customer_address,
    customer_phone: p.customer_phone,
    postcode: p.postcode,
    postcode_name: p.postcode_name,
    description_of_goods: p.description_of_goods,
    count: p.count,
    landed: p.landed,
    company: p.company_id,
    company_name: r.company_name,
    weight: p.weight,
    price: p.price,
    shipper_code: p.shipper_code,
    shipper_name: p.shipper_name,
    shipper_address: p.shipper_address,
    shipper_city: p.shipper_city,
    shipper_state: p.shipper_state,
    shipper_postcode: p.shipper_postcode,
    shipper_country: p.shipper_country,
    origin: p.origin,
    port: p.port,
    total_value: p.total_value,
    goods_currency: p.goods_currency,
    sac: p.sac,
    fr_reference: p.fr_reference,
    sub_master: p.sub_master,
    pkg_type: p.pkg_type,
    country_of_origin: p.country_of_origin,
    cyber_vendor_account: p.cyber_vendor_account,
    customs_code: p.customs_code,
    cyber_importer_account: p.cyber_importer_account,
    importer_abn: p.importer_abn,
    importer_cac: p.importer_cac,
    cyber_supplier_account: p.cyber_supplier_account,
    supplier_customs_code: p.supplier_customs_code,
    is_scanned: p.is_scanned,
    parcel_no: p.parcel_no,
    sequence_no: p.sequence_no,
    status: p.status as PackageStatus,
    zone: p.zone_id,
    zone_name: r.zone_name,
    suburb: p.suburb_id,
    suburb_name: r.suburb_name,
    state: p.state_id,
    state_name: r.state_name,
    country: p.country_id,
    country_name: r.country_name,
    height: p.height,
    length: p.length,
    volume_weighted: p.volume_weighted,
    assigned_to_id: p.assigned_to_id,
    assigned_to: p.assigned_to_id != null ? { id: p.assigned_to_id, name: r.driver_name ?? '' } : null,
    coordinates: p.latitude != null && p.longitude != null ? { latitude: p.latitude, longitude: p.longitude } : null,
    delivery_date: p.delivery_date,
    latitude: p.latitude,
    longitude: p.longitude,
    created_at: iso(p.created_at),
    package_failed_delivery_status: failures,
  };
}

/** Same value, same key order: what a client that does nothing special sees. */
function expectSame(actual: unknown, expected: Package): void {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
  expect(Package.strict().safeParse(actual).success).toBe(true);
}

const AWKWARD = `Zoë "Z" O'Brien \\ 🚚 ✓ 東京 \n\ttab \u2028 </script>`;

async function world() {
  const t = await makeApp();
  const { db } = t;
  const admin = await t.login('admin');
  const driver = await t.login('driver', { name: AWKWARD });
  const plain = await t.login('driver', { name: 'Plain Driver' });
  const companyId = await t.company(`Acme "Imports" & Söhne 'Ltd'`);
  const now = t.clock.now();
  const ts = { created_at: now, updated_at: now };
  const au = (
    await db
      .insert(country)
      .values({ name: 'Österreich "AT"', ...ts })
      .returning()
      .get()
  ).id;
  const st = (
    await db
      .insert(state)
      .values({ name: "New South Wales 'NSW'", country_id: au, ...ts })
      .returning()
      .get()
  ).id;
  const zn = (
    await db
      .insert(zone)
      .values({ name: 'Nörth ⟶ "Zone"', ...ts })
      .returning()
      .get()
  ).id;
  const sb = (
    await db
      .insert(suburb)
      .values({ name: 'Sydney\\CBD', state_id: st, zone_id: zn, postcode: '2000', ...ts })
      .returning()
      .get()
  ).id;

  const full = (
    await db
      .insert(pkg)
      .values({
        hawb: 'FULL-1',
        customer_code: 'C"1',
        customer_name: AWKWARD,
        customer_address: '1 "Quoted" St\nLevel 2',
        customer_phone: '+61 400 000 000',
        postcode: 2000,
        postcode_name: 'Sydney',
        description_of_goods: 'Books 📚, "rare"',
        count: 3,
        landed: true,
        company_id: companyId,
        weight: 1.5,
        price: 12.345,
        shipper_code: 'S1',
        shipper_name: 'Shipper ü',
        shipper_address: 'Addr',
        shipper_city: 'City',
        shipper_state: 'ST',
        shipper_postcode: '0800',
        shipper_country: 'AU',
        origin: 'SYD',
        port: 'BNE',
        total_value: '99.90',
        goods_currency: 'AUD',
        sac: true,
        fr_reference: 'FR',
        sub_master: 'SM',
        pkg_type: 'box',
        country_of_origin: 'CN',
        cyber_vendor_account: 'cv',
        customs_code: 'cc',
        cyber_importer_account: 'ci',
        importer_abn: '123',
        importer_cac: 'cac',
        cyber_supplier_account: 'cs',
        supplier_customs_code: 'scc',
        is_scanned: false,
        parcel_no: 7,
        sequence_no: 2,
        status: 'assigned',
        zone_id: zn,
        suburb_id: sb,
        state_id: st,
        country_id: au,
        height: 0.1,
        length: 1 / 3,
        width: 2,
        volume_weighted: 0.1 + 0.2,
        assigned_to_id: driver.id,
        delivery_date: '2026-01-06',
        latitude: -33.865143,
        longitude: 151.2099,
        created_at: Date.UTC(2026, 0, 5, 8, 0, 0, 999),
        updated_at: now,
      })
      .returning()
      .get()
  ).id;
  const bare = (await db.insert(pkg).values({ hawb: 'BARE-1', created_at: 0, updated_at: now }).returning().get()).id;
  const halfCoordinates = (
    await db
      .insert(pkg)
      .values({
        hawb: 'HALF-1',
        latitude: -33.86,
        weight: 5,
        price: 0,
        height: 1e-7,
        length: 123456789.123,
        sac: true,
        landed: false,
        is_scanned: true,
        status: 'out_for_delivery',
        assigned_to_id: driver.id,
        company_id: companyId,
        created_at: Date.UTC(2025, 11, 31, 23, 59, 59, 1),
        updated_at: now,
      })
      .returning()
      .get()
  ).id;
  const otherDriver = (
    await db
      .insert(pkg)
      .values({
        hawb: 'PLAIN-1',
        longitude: 151.2,
        status: 'assigned',
        assigned_to_id: plain.id,
        sequence_no: 1,
        created_at: now + 5,
        updated_at: now,
      })
      .returning()
      .get()
  ).id;
  // Failures written out of id order on purpose, with and without notes; the answer lists them by id.
  await db
    .insert(packageFailure)
    .values([
      { id: 40, package_id: full, status_id: 3, name: 'Closed "shop"', note: null, created_at: now + 1 },
      {
        id: 20,
        package_id: full,
        status_id: 9,
        name: 'Nobody home 🏠',
        note: "left a card 'here'",
        created_at: Date.UTC(2026, 0, 5, 9, 30, 0, 5),
      },
      { id: 30, package_id: halfCoordinates, status_id: 3, name: 'Closed "shop"', note: '', created_at: 1 },
    ])
    .run();
  return { t, db, admin, driver, plain, ids: { full, bare, halfCoordinates, otherDriver } };
}

describe('Package JSON built by SQLite', () => {
  it('parses to exactly the previous JS shaping for every kind of field', async () => {
    const { db, ids } = await world();
    for (const id of Object.values(ids)) {
      const raw = await packageJson(db, id);
      expect(raw).toBeDefined();
      expectSame(JSON.parse(raw?.text ?? 'null'), await previousShaping(db, id));
    }
    const full = JSON.parse((await packageJson(db, ids.full))?.text ?? 'null') as Package;
    expect(full.package_failed_delivery_status.map((f) => f.id)).toEqual([9, 3]);
    expect(full).toMatchObject({ landed: true, sac: true, is_scanned: false, coordinates: { latitude: -33.865143, longitude: 151.2099 } });
    const half = JSON.parse((await packageJson(db, ids.halfCoordinates))?.text ?? 'null') as Package;
    expect(half).toMatchObject({ coordinates: null, assigned_to: { id: expect.any(Number) as number }, landed: false, is_scanned: true });
    expect(await packageJson(db, 999_999)).toBeUndefined();
  });

  it('keeps timestamps to the millisecond as toISOString does', async () => {
    const { db, t } = await world();
    // A fixed linear congruential sequence: many awkward millisecond values, the same every run.
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const times = [0, 1, 999, 1000, 86_399_999, Date.UTC(2000, 1, 29, 23, 59, 59, 999), Date.UTC(2099, 11, 31, 23, 59, 59, 999)];
    for (let i = 0; i < 300; i++) times.push((next() * 2048 + (next() % 2048)) % 4_102_444_800_000);
    const ids: number[] = [];
    for (const [i, ms] of times.entries())
      ids.push(
        (
          await db
            .insert(pkg)
            .values({ hawb: `T-${i}`, created_at: ms, updated_at: t.clock.now() })
            .returning()
            .get()
        ).id,
      );
    const parsed = await packagesByIds(db, ids);
    expect(parsed.map((p) => p.created_at)).toEqual(times.map((ms) => new Date(ms).toISOString()));
  });

  it('answers ids in the order asked, skipping unknown ones, and lists under a filter', async () => {
    const { db, ids } = await world();
    const order = [ids.otherDriver, ids.full, 424_242, ids.bare, ids.full];
    const raws = await packageJsonByIds(db, order);
    expect(raws.map((r) => (JSON.parse(r.text) as Package).id)).toEqual([ids.otherDriver, ids.full, ids.bare, ids.full]);
    const shaped: Package[] = [];
    for (const id of [ids.otherDriver, ids.full, ids.bare, ids.full]) shaped.push(await previousShaping(db, id));
    expect(await packagesByIds(db, order)).toEqual(shaped);
    expect(await packageJsonByIds(db, [])).toEqual([]);
    const listed = await packageJsonWhere(db, eq(pkg.status, 'assigned'), { orderBy: [pkg.sequence_no, pkg.id], limit: 10 });
    expect(listed.map((r) => (JSON.parse(r.text) as Package).id)).toEqual([ids.otherDriver, ids.full]);
    expect(
      (await packageJsonWhere(db, eq(pkg.status, 'assigned'), { orderBy: [pkg.id], limit: 1, offset: 1 })).map(
        (r) => (JSON.parse(r.text) as Package).id,
      ),
    ).toEqual([ids.otherDriver]);
  });

  it('answers the same packages from the endpoints that splice it', async () => {
    const { t, db, admin, driver, ids } = await world();
    const same = async (list: Package[]) => {
      for (const p of list) expectSame(p, await previousShaping(db, p.id));
    };

    const remaining = await t.json<{ success: boolean; message: string; pending_packages: Package[] }>(
      'GET',
      `/api/scan-package-api/${driver.id}/remaining-packages-list/`,
      driver.token,
    );
    expect(remaining.status).toBe(200);
    expect(remaining.res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(remaining.body)).toEqual(['success', 'message', 'pending_packages']);
    expect(remaining.body.message).toBe('1 package(s) remaining');
    expect(remaining.body.pending_packages.map((p) => p.id)).toEqual([ids.full]);
    await same(remaining.body.pending_packages);

    const list = await t.json<{ count: number; next: string | null; previous: string | null; results: Package[] }>(
      'GET',
      '/api/package/?page_size=2',
      admin.token,
    );
    expect(list.status).toBe(200);
    expect(Object.keys(list.body)).toEqual(['count', 'next', 'previous', 'results']);
    expect(list.body.count).toBe(4);
    expect(list.body.next).toContain('page=2');
    expect(list.body.results.map((p) => p.id)).toEqual([ids.otherDriver, ids.halfCoordinates]);
    await same(list.body.results);

    const sync = await t.json<{
      upserts: { packages: Package[]; failed_delivery_statuses: unknown[] };
      removes: unknown;
      cursor: number;
      has_more: boolean;
    }>('GET', '/api/sync/changes/?cursor=0', driver.token);
    expect(sync.status).toBe(200);
    expect(Object.keys(sync.body)).toEqual(['reset', 'upserts', 'removes', 'cursor', 'has_more']);
    expect(Object.keys(sync.body.upserts)).toEqual(['packages', 'failed_delivery_statuses']);
    expect(sync.body.upserts.packages.map((p) => p.id).sort((a, b) => a - b)).toEqual(
      [ids.full, ids.halfCoordinates].sort((a, b) => a - b),
    );
    // The feed's copy is the Package answer with the attempts the phone's must-return rule reads, last.
    for (const p of sync.body.upserts.packages) {
      const { attempts, ...rest } = p as Package & { attempts?: number };
      expect(typeof attempts).toBe('number');
      expectSame(rest, await previousShaping(db, p.id));
    }

    const scanned = await t.json<{ success: boolean; already_scanned: boolean; package: Package }>(
      'POST',
      '/api/scan-package-api/inbound-scan/',
      driver.token,
      { barcode: 'FULL-1' },
    );
    expect(scanned.status).toBe(200);
    expect(Object.keys(scanned.body)).toEqual(['success', 'message', 'already_scanned', 'package']);
    expect(scanned.body.package.is_scanned).toBe(true);
    expectSame(scanned.body.package, await previousShaping(db, ids.full));

    const delivered = await t.json<{ package: Package; flagged: boolean }>(
      'POST',
      `/api/package-delivered/${ids.full}/deliver/`,
      driver.token,
      { recipient_name: 'Front desk' },
    );
    expect(delivered.status).toBe(200);
    expect(Object.keys(delivered.body)).toEqual(['success', 'message', 'flagged', 'package', 'proof']);
    expect(delivered.body.package.status).toBe('delivered');
    expectSame(delivered.body.package, await previousShaping(db, ids.full));
  });
});
