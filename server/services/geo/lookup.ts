import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { area, country, pincode, state, suburb, zone } from '../../db/schema/index';
import { ApiError, notFound } from '../../errors';
import type { Row } from './hierarchy';

/** Filters name suburbs by id; an id that was never a suburb is a mistake worth saying, archived ones are not. */
export async function requireSuburbs(db: Db, ids: number[]): Promise<void> {
  const found = new Set((await db.select({ id: suburb.id }).from(suburb).where(inArray(suburb.id, ids)).all()).map((r) => r.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) {
    throw new ApiError(
      400,
      'validation_error',
      `Unknown suburb ids: ${missing.join(', ')}`,
      missing.map((id) => ({ path: 'suburb', message: `no suburb ${id}` })),
    );
  }
}

export interface ZoneMatch {
  zone: Row;
  suburbs: number[];
}

/** Live zones of the given suburbs, each with the suburbs that led to it. */
async function zonesOfSuburbs(db: Db, suburbIds: number[]): Promise<ZoneMatch[]> {
  if (!suburbIds.length) return [];
  const links = await db
    .select({ suburb: suburb.id, zone: suburb.zone_id })
    .from(suburb)
    .where(inArray(suburb.id, suburbIds))
    .orderBy(asc(suburb.id))
    .all();
  const bySuburb = new Map<number, number[]>();
  for (const l of links) {
    if (l.zone == null) continue;
    bySuburb.set(l.zone, [...(bySuburb.get(l.zone) ?? []), l.suburb]);
  }
  if (!bySuburb.size) return [];
  const zones = (await db
    .select()
    .from(zone)
    .where(and(inArray(zone.id, [...bySuburb.keys()]), isNull(zone.deleted_at)))
    .orderBy(asc(zone.name), asc(zone.id))
    .all()) as Row[];
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
  const viaPincode = await db
    .select({ id: pincode.suburb_id })
    .from(pincode)
    .where(and(eq(pincode.code, code), isNull(pincode.deleted_at)))
    .all();
  const suburbs = await db
    .select({ id: suburb.id })
    .from(suburb)
    .where(
      and(
        isNull(suburb.deleted_at),
        or(
          eq(suburb.postcode, code),
          inArray(
            suburb.id,
            viaPincode.map((p) => p.id),
          ),
        ),
      ),
    )
    .all();
  return zonesOfSuburbs(
    db,
    suburbs.map((s) => s.id),
  );
}

export async function areasBySuburb(db: Db, suburbIds: number[]): Promise<Row[]> {
  await requireSuburbs(db, suburbIds);
  return (await db
    .select()
    .from(area)
    .where(and(inArray(area.suburb_id, suburbIds), isNull(area.deleted_at)))
    .orderBy(asc(area.name), asc(area.id))
    .all()) as Row[];
}

export async function pincodesBySuburb(db: Db, suburbIds: number[]): Promise<Row[]> {
  await requireSuburbs(db, suburbIds);
  return (await db
    .select()
    .from(pincode)
    .where(and(inArray(pincode.suburb_id, suburbIds), isNull(pincode.deleted_at)))
    .orderBy(asc(pincode.code), asc(pincode.id))
    .all()) as Row[];
}

export async function countryCurrencies(db: Db): Promise<Row[]> {
  return (await db.select().from(country).where(isNull(country.deleted_at)).orderBy(asc(country.name), asc(country.id)).all()) as Row[];
}

export async function countryById(db: Db, id: number): Promise<Row> {
  const row = (await db.select().from(country).where(eq(country.id, id)).get()) as Row | undefined;
  if (!row) throw notFound(`Country ${id} not found`);
  return row;
}

/** Suburbs (with their zone and state) and their areas for a postcode: the suburb's own postcode or the pincode table. */
export async function placesByPostcode(db: Db, postcode: string) {
  const viaPincode = (
    await db
      .select({ id: pincode.suburb_id })
      .from(pincode)
      .where(and(eq(pincode.code, postcode), isNull(pincode.deleted_at)))
      .all()
  ).map((r) => r.id);
  const suburbs = await db
    .select({
      id: suburb.id,
      name: suburb.name,
      zone: suburb.zone_id,
      zone_name: zone.name,
      state: suburb.state_id,
      state_name: state.name,
    })
    .from(suburb)
    .leftJoin(zone, eq(zone.id, suburb.zone_id))
    .leftJoin(state, eq(state.id, suburb.state_id))
    .where(
      and(
        isNull(suburb.deleted_at),
        viaPincode.length ? sql`(${suburb.postcode} = ${postcode} or ${inArray(suburb.id, viaPincode)})` : eq(suburb.postcode, postcode),
      ),
    )
    .orderBy(suburb.name)
    .all();
  const areas = suburbs.length
    ? await db
        .select({ id: area.id, name: area.name, suburb: area.suburb_id, suburb_name: suburb.name })
        .from(area)
        .innerJoin(suburb, eq(suburb.id, area.suburb_id))
        .where(
          and(
            inArray(
              area.suburb_id,
              suburbs.map((s) => s.id),
            ),
            isNull(area.deleted_at),
          ),
        )
        .orderBy(area.name)
        .all()
    : [];
  return { suburbs, areas };
}
