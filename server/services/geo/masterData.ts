import { and, asc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { area, pincode, state, street, suburb, zone } from '../../db/schema/index';

export interface SuburbRow {
  id: number;
  name: string;
  zone_id: number | null;
  state_id: number;
  postcode: string;
  latitude: number | null;
  longitude: number | null;
  deleted_at: number | null;
}
export interface StreetRow {
  id: number;
  name: string;
  suburb_id: number;
  latitude: number;
  longitude: number;
}

const SUBURB_COLUMNS = {
  id: suburb.id,
  name: suburb.name,
  zone_id: suburb.zone_id,
  state_id: suburb.state_id,
  postcode: suburb.postcode,
  latitude: suburb.latitude,
  longitude: suburb.longitude,
  deleted_at: suburb.deleted_at,
};

// Every create, upload row and depot scan asks these: built once per database.
const suburbById = (db: Db) =>
  db
    .select(SUBURB_COLUMNS)
    .from(suburb)
    .where(eq(suburb.id, sql.placeholder('id')))
    .prepare();
const pincodeSuburbs = (db: Db) =>
  db
    .select({ id: pincode.suburb_id })
    .from(pincode)
    .where(and(eq(pincode.code, sql.placeholder('code')), isNull(pincode.deleted_at)))
    .prepare();
const postcodeSuburbs = (db: Db) =>
  db
    .select(SUBURB_COLUMNS)
    .from(suburb)
    .where(and(isNull(suburb.deleted_at), eq(suburb.postcode, sql.placeholder('code'))))
    .orderBy(asc(suburb.id))
    .prepare();
const stateCountry = (db: Db) =>
  db
    .select({ c: state.country_id })
    .from(state)
    .where(eq(state.id, sql.placeholder('id')))
    .prepare();
const liveZone = (db: Db) =>
  db
    .select({ id: zone.id })
    .from(zone)
    .where(and(eq(zone.id, sql.placeholder('id')), isNull(zone.deleted_at)))
    .prepare();

/**
 * The master-data look-ups of the resolver, memoised for the life of one object: one create asks a
 * handful, one upload of 10,000 rows asks each postcode once. Built per call (never module state);
 * it must not outlive the transaction it reads in.
 */
export function masterData(db: Db) {
  const suburbs = new Map<number, SuburbRow | null>();
  const byPostcode = new Map<string, SuburbRow[]>();
  const byName = new Map<string, SuburbRow[]>();
  const streets = new Map<number, StreetRow[]>();
  const countries = new Map<number, number | null>();
  const zones = new Map<number, boolean>();
  const remember = (rows: SuburbRow[]) => {
    for (const r of rows) suburbs.set(r.id, r);
    return rows;
  };

  return {
    async suburb(id: number): Promise<SuburbRow | null> {
      if (!suburbs.has(id)) suburbs.set(id, (await prepared(db, 'geo.suburbById', suburbById).get({ id })) ?? null);
      return suburbs.get(id) ?? null;
    },
    /** Live suburbs a postcode covers, by their own postcode or pincode rows; oldest first. */
    async suburbsOfPostcode(code: string): Promise<SuburbRow[]> {
      let rows = byPostcode.get(code);
      if (!rows) {
        const viaPincode = (await prepared(db, 'geo.pincodeSuburbs', pincodeSuburbs).all({ code })).map((r) => r.id);
        rows = remember(
          viaPincode.length
            ? await db
                .select(SUBURB_COLUMNS)
                .from(suburb)
                .where(and(isNull(suburb.deleted_at), or(eq(suburb.postcode, code), inArray(suburb.id, viaPincode))))
                .orderBy(asc(suburb.id))
                .all()
            : await prepared(db, 'geo.postcodeSuburbs', postcodeSuburbs).all({ code }),
        );
        byPostcode.set(code, rows);
      }
      return rows;
    },
    /** Live suburbs of that name (case-insensitive), oldest first. */
    async suburbsNamed(name: string): Promise<SuburbRow[]> {
      const key = name.trim().toLowerCase();
      let rows = byName.get(key);
      if (!rows) {
        rows = remember(
          await db
            .select(SUBURB_COLUMNS)
            .from(suburb)
            .where(and(isNull(suburb.deleted_at), sql`lower(${suburb.name}) = ${key}`))
            .orderBy(asc(suburb.id))
            .all(),
        );
        byName.set(key, rows);
      }
      return rows;
    },
    /** Live streets with a position in a suburb (through its areas). */
    async streetsOf(suburbId: number): Promise<StreetRow[]> {
      let rows = streets.get(suburbId);
      if (!rows) {
        rows = (await db
          .select({ id: street.id, name: street.name, suburb_id: area.suburb_id, latitude: street.latitude, longitude: street.longitude })
          .from(street)
          .innerJoin(area, eq(area.id, street.area_id))
          .where(
            and(
              eq(area.suburb_id, suburbId),
              isNull(street.deleted_at),
              isNull(area.deleted_at),
              isNotNull(street.latitude),
              isNotNull(street.longitude),
            ),
          )
          .orderBy(asc(street.id))
          .all()) as StreetRow[];
        streets.set(suburbId, rows);
      }
      return rows;
    },
    async countryOfState(stateId: number): Promise<number | null> {
      if (!countries.has(stateId))
        countries.set(stateId, (await prepared(db, 'geo.stateCountry', stateCountry).get({ id: stateId }))?.c ?? null);
      return countries.get(stateId) ?? null;
    },
    async zoneLive(id: number): Promise<boolean> {
      if (!zones.has(id)) zones.set(id, !!(await prepared(db, 'geo.liveZone', liveZone).get({ id })));
      return zones.get(id) ?? false;
    },
  };
}
