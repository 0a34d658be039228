import { eq } from 'drizzle-orm';
import { company, country, packageType, pkg, state, suburb, zone } from '../../server/db/schema/index';
import { makeApp, type TestApp } from '../helpers/app';

export interface MoneyWorld {
  t: TestApp;
  admin: { id: number; token: string };
  metro: number;
  rural: number;
  fragile: number;
}

/** An app with an admin, two zones and a package type: what every rate needs. */
export async function moneyWorld(): Promise<MoneyWorld> {
  // Months walked on the test clock with one set of logins (idle expiry has its own tests).
  const t = await makeApp({ config: { staffIdleMs: 366 * 24 * 3600_000 } });
  const admin = await t.login('admin');
  const now = t.clock.now();
  const metro = (await t.db.insert(zone).values({ name: 'Metro', created_at: now, updated_at: now }).returning().get()).id;
  const rural = (await t.db.insert(zone).values({ name: 'Rural', created_at: now, updated_at: now }).returning().get()).id;
  const fragile = (await t.db.insert(packageType).values({ package_type: 'Fragile', created_at: now, updated_at: now }).returning().get())
    .id;
  return { t, admin, metro, rural, fragile };
}

/**
 * A suburb in a zone with its own postcode: a sender's parcel gets its zone from its address (a zone
 * it sends is not its to choose), so tests that price by zone send this postcode.
 */
export async function suburbIn(t: TestApp, zoneId: number, postcode: string): Promise<void> {
  const now = t.clock.now();
  const stamp = { created_at: now, updated_at: now };
  const au = (
    await t.db
      .insert(country)
      .values({ name: `Land ${postcode}`, ...stamp })
      .returning()
      .get()
  ).id;
  const st = (
    await t.db
      .insert(state)
      .values({ name: `State ${postcode}`, country_id: au, ...stamp })
      .returning()
      .get()
  ).id;
  await t.db
    .insert(suburb)
    .values({ name: `Suburb ${postcode}`, state_id: st, zone_id: zoneId, postcode, ...stamp })
    .run();
}

/** A company of the given billing type and a login for it. */
export async function shipper(t: TestApp, billing: 'prepaid' | 'postpaid', currency = 'AUD') {
  const companyId = await t.company();
  await t.db.update(company).set({ billing_type: billing, currency }).where(eq(company.id, companyId)).run();
  const login = await t.login('company', { companyId });
  return { companyId, token: login.token, userId: login.id };
}

let hawbSeq = 0;
export function hawb(): string {
  hawbSeq += 1;
  return `MNY${String(hawbSeq).padStart(6, '0')}`;
}

/** Marks a parcel delivered by a driver at a time, as the delivery flow will (it is built elsewhere). */
export async function deliver(t: TestApp, packageId: number, driverId: number, at: number, routeId: number | null = null): Promise<void> {
  await t.db
    .update(pkg)
    .set({ status: 'delivered', assigned_to_id: driverId, delivered_at: at, route_id: routeId, updated_at: at })
    .where(eq(pkg.id, packageId))
    .run();
}

export type Json = Record<string, unknown>;
export type Page<T = Json> = { count: number; next: string | null; previous: string | null; results: T[] };
