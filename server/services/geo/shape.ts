import { eq } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { iso } from '../../clock';
import type { Db } from '../../db/client';
import { area, city, country, state, suburb, warehouse, zone } from '../../db/schema/index';
import type { Row } from './hierarchy';

type Named = SQLiteTable & { id: SQLiteColumn; name: SQLiteColumn };

/** Parent names ride along so a list screen needs no second request per row. */
async function nameOf(db: Db, table: Named, id: unknown): Promise<string | null> {
  if (typeof id !== 'number') return null;
  const row = (await db.select({ name: table.name }).from(table).where(eq(table.id, id)).get()) as { name: string } | undefined;
  return row?.name ?? null;
}

const common = (r: Row) => ({ id: r.id as number, is_active: r.is_active as boolean, created_at: iso(r.created_at as number) ?? '' });

export const toCountry = (r: Row) => ({ ...common(r), name: r.name, iso2: r.iso2, currency: r.currency });
export const toCurrency = (r: Row) => ({ country: r.id as number, name: r.name as string, currency: r.currency as string });

export const toState = async (r: Row, db: Db) => ({
  ...common(r),
  name: r.name,
  code: r.code,
  country: r.country_id,
  country_name: await nameOf(db, country, r.country_id),
});

export const toCity = async (r: Row, db: Db) => ({
  ...common(r),
  name: r.name,
  state: r.state_id,
  state_name: await nameOf(db, state, r.state_id),
});

export const toZone = async (r: Row, db: Db) => ({
  ...common(r),
  name: r.name,
  code: r.code,
  description: r.description,
  warehouse: r.warehouse_id ?? null,
  warehouse_name: await nameOf(db, warehouse, r.warehouse_id),
});

export const toSuburb = async (r: Row, db: Db) => ({
  ...common(r),
  name: r.name,
  state: r.state_id,
  state_name: await nameOf(db, state, r.state_id),
  city: r.city_id ?? null,
  city_name: await nameOf(db, city, r.city_id),
  zone: r.zone_id ?? null,
  zone_name: await nameOf(db, zone, r.zone_id),
  postcode: r.postcode,
  latitude: r.latitude ?? null,
  longitude: r.longitude ?? null,
});

export const toArea = async (r: Row, db: Db) => ({
  ...common(r),
  name: r.name,
  suburb: r.suburb_id,
  suburb_name: await nameOf(db, suburb, r.suburb_id),
});

export const toStreet = async (r: Row, db: Db) => ({
  ...common(r),
  name: r.name,
  area: r.area_id,
  area_name: await nameOf(db, area, r.area_id),
  latitude: r.latitude ?? null,
  longitude: r.longitude ?? null,
});

export const toPincode = async (r: Row, db: Db) => {
  const sub = await db
    .select({ name: suburb.name, state_id: suburb.state_id, zone_id: suburb.zone_id })
    .from(suburb)
    .where(eq(suburb.id, r.suburb_id as number))
    .get();
  return {
    ...common(r),
    code: r.code,
    suburb: r.suburb_id,
    suburb_name: sub?.name ?? null,
    state: sub?.state_id ?? null,
    state_name: await nameOf(db, state, sub?.state_id),
    zone: sub?.zone_id ?? null,
    zone_name: await nameOf(db, zone, sub?.zone_id),
  };
};
