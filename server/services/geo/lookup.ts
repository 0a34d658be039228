import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { area, country, pincode, suburb, zone } from '../../db/schema/index';
import { ApiError, notFound } from '../../errors';
import type { Row } from './hierarchy';

/** Filters name suburbs by id; an id that was never a suburb is a mistake worth saying, archived ones are not. */
export async function requireSuburbs(db: Db, ids: number[]): Promise<void> {
  const found = new Set((await db.select({ id: suburb.id }).from(suburb).where(inArray(suburb.id, ids)).all()).map((r) => r.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) {
    throw new ApiError(400, 'validation_error', `Unknown suburb ids: ${missing.join(', ')}`,
      missing.map((id) => ({ path: 'suburb', message: `no suburb ${id}` })));
  }
}

export interface ZoneMatch { zone: Row; suburbs: number[] }

/** Live zones of the given suburbs, each with the suburbs that led to it. */
async function zonesOfSuburbs(db: Db, suburbIds: number[]): Promise<ZoneMatch[]> {
  if (!suburbIds.length) return [];
  const links = await db.select({ suburb: suburb.id, zone: suburb.zone_id }).from(suburb)
    .where(inArray(suburb.id, suburbIds)).orderBy(asc(suburb.id)).all();
  const bySuburb = new Map<number, number[]>();
  for (const l of links) {
    if (l.zone == null) continue;
    bySuburb.set(l.zone, [...(bySuburb.get(l.zone) ?? []), l.suburb]);
  }
  if (!bySuburb.size) return [];
  const zones = await db.select().from(zone).where(and(inArray(zone.id, [...bySuburb.keys()]), isNull(zone.deleted_at)))
    .orderBy(asc(zone.name), asc(zone.id)).all() as Row[];
  return zones.map((z) => ({ zone: z, suburbs: bySuburb.get(z.id as number) ?? [] }));
}

export async function zonesBySuburb(db: Db, suburbIds: number[]): Promise<ZoneMatch[]> {
  await requireSuburbs(db, suburbIds);
  return await zonesOfSuburbs(db, suburbIds);
}

/**
 * A postcode reaches zones through the suburbs it covers: pincode rows first, and the postcode a
 * suburb itself carries, so either way of recording it works.
 */
export async function zonesByPincode(db: Db, code: string): Promise<ZoneMatch[]> {
  const viaPincode = await db.select({ id: pincode.suburb_id }).from(pincode).where(and(eq(pincode.code, code), isNull(pincode.deleted_at))).all();
  const suburbs = await db.select({ id: suburb.id }).from(suburb).where(and(
    isNull(suburb.deleted_at),
    or(eq(suburb.postcode, code), inArray(suburb.id, viaPincode.map((p) => p.id))),
  )).all();
  return zonesOfSuburbs(db, suburbs.map((s) => s.id));
}

export async function areasBySuburb(db: Db, suburbIds: number[]): Promise<Row[]> {
  await requireSuburbs(db, suburbIds);
  return await db.select().from(area).where(and(inArray(area.suburb_id, suburbIds), isNull(area.deleted_at)))
    .orderBy(asc(area.name), asc(area.id)).all() as Row[];
}

export async function pincodesBySuburb(db: Db, suburbIds: number[]): Promise<Row[]> {
  await requireSuburbs(db, suburbIds);
  return await db.select().from(pincode).where(and(inArray(pincode.suburb_id, suburbIds), isNull(pincode.deleted_at)))
    .orderBy(asc(pincode.code), asc(pincode.id)).all() as Row[];
}

export async function countryCurrencies(db: Db): Promise<Row[]> {
  return await db.select().from(country).where(isNull(country.deleted_at)).orderBy(asc(country.name), asc(country.id)).all() as Row[];
}

export async function countryById(db: Db, id: number): Promise<Row> {
  const row = await db.select().from(country).where(eq(country.id, id)).get() as Row | undefined;
  if (!row) throw notFound(`Country ${id} not found`);
  return row;
}
