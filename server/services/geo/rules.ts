import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { area, city, country, pincode, state, street, suburb, warehouse, zone } from '../../db/schema/index';
import type { Deps } from '../../deps';
import { badRequest } from '../../errors';
import { assertUnique, requireParent, sameText, type Row } from './hierarchy';

/** What the resource helper hands to `toRow` and `validate`. */
export interface GeoContext {
  deps: Deps;
  existing?: Row;
}
type Rule = (values: Row, ctx: GeoContext) => Promise<void>;

/** API field -> column: the API names parents `country`, the tables `country_id`. */
export function renamer(map: Readonly<Record<string, string>>) {
  return (input: Row): Row => Object.fromEntries(Object.entries(input).map(([k, v]) => [map[k] ?? k, v]));
}

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v !== '';

export const countryRule: Rule = async (v, { deps: { db }, existing }) => {
  await assertUnique(db, country, [sameText(country.name, v.name)], existing, 'name', `A country named ${String(v.name)} already exists`);
  if (nonEmpty(v.iso2))
    await assertUnique(db, country, [eq(country.iso2, v.iso2)], existing, 'iso2', `Another country has the code ${v.iso2}`);
};

export const stateRule: Rule = async (v, { deps: { db }, existing }) => {
  await requireParent(db, country, v.country_id, 'country', 'country', existing?.country_id);
  const inCountry = eq(state.country_id, v.country_id as number);
  await assertUnique(
    db,
    state,
    [inCountry, sameText(state.name, v.name)],
    existing,
    'name',
    `Country ${String(v.country_id)} already has a state named ${String(v.name)}`,
  );
  if (nonEmpty(v.code))
    await assertUnique(
      db,
      state,
      [inCountry, sameText(state.code, v.code)],
      existing,
      'code',
      `Country ${String(v.country_id)} already has a state with code ${v.code}`,
    );
};

export const cityRule: Rule = async (v, { deps: { db }, existing }) => {
  await requireParent(db, state, v.state_id, 'state', 'state', existing?.state_id);
  await assertUnique(
    db,
    city,
    [eq(city.state_id, v.state_id as number), sameText(city.name, v.name)],
    existing,
    'name',
    `State ${String(v.state_id)} already has a city named ${String(v.name)}`,
  );
};

export const zoneRule: Rule = async (v, { deps: { db }, existing }) => {
  if (v.warehouse_id != null) await requireParent(db, warehouse, v.warehouse_id, 'warehouse', 'warehouse', existing?.warehouse_id);
  await assertUnique(db, zone, [sameText(zone.name, v.name)], existing, 'name', `A zone named ${String(v.name)} already exists`);
  if (nonEmpty(v.code))
    await assertUnique(db, zone, [sameText(zone.code, v.code)], existing, 'code', `Another zone has the code ${v.code}`);
};

/** A suburb sent with a city but no state lies in the city's state. */
export async function suburbToRow(input: Row, { deps: { db } }: GeoContext): Promise<Row> {
  const row = renamer({ state: 'state_id', city: 'city_id', zone: 'zone_id' })(input);
  if (typeof input.city === 'number' && input.state === undefined) {
    const parent = await db.select({ state_id: city.state_id }).from(city).where(eq(city.id, input.city)).get();
    if (parent) row.state_id = parent.state_id;
  }
  return row;
}

export const suburbRule: Rule = async (v, { deps: { db }, existing }) => {
  if (v.state_id == null)
    throw badRequest('A suburb needs its state (or a city, whose state it takes)', [{ path: 'state', message: 'required' }]);
  await requireParent(db, state, v.state_id, 'state', 'state', existing?.state_id);
  if (v.city_id != null) {
    const parent = await requireParent(db, city, v.city_id, 'city', 'city', existing?.city_id);
    if (parent.state_id !== v.state_id) {
      throw badRequest(`City ${String(v.city_id)} is in state ${String(parent.state_id)}, not in state ${String(v.state_id)}`, [
        { path: 'city', message: `city ${String(v.city_id)} is not in state ${String(v.state_id)}` },
      ]);
    }
  }
  if (v.zone_id != null) await requireParent(db, zone, v.zone_id, 'zone', 'zone', existing?.zone_id);
  await assertUnique(
    db,
    suburb,
    [eq(suburb.state_id, v.state_id as number), sameText(suburb.name, v.name), eq(suburb.postcode, String(v.postcode ?? ''))],
    existing,
    'name',
    `State ${String(v.state_id)} already has a suburb named ${String(v.name)} with postcode "${String(v.postcode ?? '')}"`,
  );
};

export const areaRule: Rule = async (v, { deps: { db }, existing }) => {
  await requireParent(db, suburb, v.suburb_id, 'suburb', 'suburb', existing?.suburb_id);
  await assertUnique(
    db,
    area,
    [eq(area.suburb_id, v.suburb_id as number), sameText(area.name, v.name)],
    existing,
    'name',
    `Suburb ${String(v.suburb_id)} already has an area named ${String(v.name)}`,
  );
};

export const streetRule: Rule = async (v, { deps: { db }, existing }) => {
  await requireParent(db, area, v.area_id, 'area', 'area', existing?.area_id);
  // Street names repeat across areas, never inside one.
  await assertUnique(
    db,
    street,
    [eq(street.area_id, v.area_id as number), sameText(street.name, v.name)],
    existing,
    'name',
    `Area ${String(v.area_id)} already has a street named ${String(v.name)}`,
  );
};

export const pincodeRule: Rule = async (v, { deps: { db }, existing }) => {
  await requireParent(db, suburb, v.suburb_id, 'suburb', 'suburb', existing?.suburb_id);
  await assertUnique(
    db,
    pincode,
    [eq(pincode.code, String(v.code)), eq(pincode.suburb_id, v.suburb_id as number)],
    existing,
    'code',
    `Suburb ${String(v.suburb_id)} already has the pincode ${String(v.code)}`,
  );
};

/** Moving a city to another state moves its suburbs with it, so suburb.state_id never contradicts its city. */
export async function followCityState(db: Db, cityIds: number[]): Promise<void> {
  for (const id of cityIds) {
    const row = await db.select({ state_id: city.state_id }).from(city).where(eq(city.id, id)).get();
    if (row) await db.update(suburb).set({ state_id: row.state_id }).where(eq(suburb.city_id, id)).run();
  }
}
