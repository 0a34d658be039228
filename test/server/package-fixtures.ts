import { eq } from 'drizzle-orm';
import type { Db } from '../../server/db/client';
import { area, country, pincode, pkg, state, suburb, zone } from '../../server/db/schema/index';

/** Geography a package can point at: two zones, a suburb in the first, an area, a pincode. */
export async function seedGeo(db: Db, now = 1_700_000_000_000) {
  const t = { created_at: now, updated_at: now };
  const au = (
    await db
      .insert(country)
      .values({ name: 'Australia', ...t })
      .returning()
      .get()
  ).id;
  const nsw = (
    await db
      .insert(state)
      .values({ name: 'New South Wales', country_id: au, ...t })
      .returning()
      .get()
  ).id;
  const north = (
    await db
      .insert(zone)
      .values({ name: 'North', ...t })
      .returning()
      .get()
  ).id;
  const south = (
    await db
      .insert(zone)
      .values({ name: 'South', ...t })
      .returning()
      .get()
  ).id;
  const east = (
    await db
      .insert(zone)
      .values({ name: 'East', ...t })
      .returning()
      .get()
  ).id;
  const sydney = (
    await db
      .insert(suburb)
      .values({ name: 'Sydney', state_id: nsw, zone_id: north, postcode: '2000', ...t })
      .returning()
      .get()
  ).id;
  const haymarket = (
    await db
      .insert(suburb)
      .values({ name: 'Haymarket', state_id: nsw, zone_id: south, postcode: '2001', ...t })
      .returning()
      .get()
  ).id;
  await db
    .insert(pincode)
    .values({ code: '2000', suburb_id: haymarket, ...t })
    .run();
  const rocks = (
    await db
      .insert(area)
      .values({ name: 'The Rocks', suburb_id: sydney, ...t })
      .returning()
      .get()
  ).id;
  return { au, nsw, north, south, east, sydney, haymarket, rocks };
}

/** Test-only shortcut to a state no route of this group produces (delivery is another group's). */
export async function forceStatus(db: Db, id: number, status: string): Promise<void> {
  await db.update(pkg).set({ status }).where(eq(pkg.id, id)).run();
}
