import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { company, country, state, street, area, suburb, zone } from '../../server/db/schema/index';
import { makeApp, type TestApp } from '../helpers/app';

export type Json = Record<string, unknown>;

/**
 * A courier as the issue found it: master data with suburbs that carry coordinates (Bondi 2026 in
 * zone East; Sydney and Haymarket sharing 2000 in zone City), a street with a position, and a
 * default rate card: East 18.00, City 15.00, any other zone 25.00.
 */
export async function locateWorld(given?: TestApp) {
  const t = given ?? (await makeApp());
  const admin = await t.login('admin');
  const depot = await t.login('depot_manager');
  const shipperId = await t.company('Shipper');
  await t.db.update(company).set({ billing_type: 'postpaid', currency: 'AUD' }).where(eq(company.id, shipperId)).run();
  const shipper = await t.login('company', { companyId: shipperId });
  const now = t.clock.now();
  const ins = async <T extends { id: number }>(q: { returning: () => { get: () => Promise<T> } }) => (await q.returning().get()).id;
  const au = await ins(t.db.insert(country).values({ name: 'Australia', iso2: 'AU', currency: 'AUD', created_at: now, updated_at: now }));
  const nsw = await ins(
    t.db.insert(state).values({ name: 'New South Wales', code: 'NSW', country_id: au, created_at: now, updated_at: now }),
  );
  const east = await ins(t.db.insert(zone).values({ name: 'East', code: 'E', created_at: now, updated_at: now }));
  const city = await ins(t.db.insert(zone).values({ name: 'City', code: 'C', created_at: now, updated_at: now }));
  const west = await ins(t.db.insert(zone).values({ name: 'West', code: 'W', created_at: now, updated_at: now }));
  const sub = async (name: string, postcode: string, zoneId: number, latitude: number, longitude: number) =>
    ins(
      t.db.insert(suburb).values({ name, postcode, zone_id: zoneId, state_id: nsw, latitude, longitude, created_at: now, updated_at: now }),
    );
  const bondi = await sub('Bondi', '2026', east, -33.8915, 151.2767);
  const sydney = await sub('Sydney', '2000', city, -33.8688, 151.2093);
  const haymarket = await sub('Haymarket', '2000', city, -33.8793, 151.2049);
  const beach = await ins(t.db.insert(area).values({ name: 'Bondi Beach', suburb_id: bondi, created_at: now, updated_at: now }));
  const campbell = await ins(
    t.db
      .insert(street)
      .values({ name: 'Campbell Pde', area_id: beach, latitude: -33.8908, longitude: 151.2743, created_at: now, updated_at: now }),
  );
  const rate = async (body: Json) => {
    const r = await t.json('POST', '/api/delivery-rate/', admin.token, { currency: 'AUD', ...body });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  };
  await rate({ name: 'East', zone: east, base_cents: 1800 });
  await rate({ name: 'City', zone: city, base_cents: 1500 });
  await rate({ name: 'Anywhere', base_cents: 2500 });
  return { t, admin, depot, shipper, shipperId, au, nsw, east, city, west, bondi, sydney, haymarket, campbell };
}
export type LocateWorld = Awaited<ReturnType<typeof locateWorld>>;

export const csvForm = (csv: string, name = 'parcels.csv') => {
  const f = new FormData();
  f.append('file', new File([csv], name));
  return f;
};
