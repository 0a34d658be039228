import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { activeFlag, archivable, id, str, timestamps } from './columns';
import { warehouse } from './places';

export const country = sqliteTable('country', {
  id: id(),
  name: text('name').notNull(),
  iso2: str('iso2'),
  currency: str('currency'),
  ...activeFlag(),
  ...archivable(),
  ...timestamps(),
});

export const state = sqliteTable(
  'state',
  {
    id: id(),
    name: text('name').notNull(),
    code: str('code'),
    country_id: integer('country_id')
      .notNull()
      .references(() => country.id),
    ...activeFlag(),
    ...archivable(),
    ...timestamps(),
  },
  (t) => [index('state_country_idx').on(t.country_id)],
);

export const city = sqliteTable(
  'city',
  {
    id: id(),
    name: text('name').notNull(),
    state_id: integer('state_id')
      .notNull()
      .references(() => state.id),
    ...activeFlag(),
    ...archivable(),
    ...timestamps(),
  },
  (t) => [index('city_state_idx').on(t.state_id)],
);

export const zone = sqliteTable(
  'zone',
  {
    id: id(),
    name: text('name').notNull(),
    code: str('code'),
    description: str('description'),
    warehouse_id: integer('warehouse_id').references(() => warehouse.id),
    ...activeFlag(),
    ...archivable(),
    ...timestamps(),
  },
  (t) => [index('zone_warehouse_idx').on(t.warehouse_id)],
);

export const suburb = sqliteTable(
  'suburb',
  {
    id: id(),
    name: text('name').notNull(),
    city_id: integer('city_id').references(() => city.id),
    state_id: integer('state_id')
      .notNull()
      .references(() => state.id),
    zone_id: integer('zone_id').references(() => zone.id),
    postcode: str('postcode'),
    latitude: real('latitude'),
    longitude: real('longitude'),
    ...activeFlag(),
    ...archivable(),
    ...timestamps(),
  },
  (t) => [
    index('suburb_zone_idx').on(t.zone_id),
    index('suburb_postcode_idx').on(t.postcode),
    index('suburb_state_idx').on(t.state_id),
    index('suburb_city_idx').on(t.city_id),
  ],
);

export const area = sqliteTable(
  'area',
  {
    id: id(),
    name: text('name').notNull(),
    suburb_id: integer('suburb_id')
      .notNull()
      .references(() => suburb.id),
    ...activeFlag(),
    ...archivable(),
    ...timestamps(),
  },
  (t) => [index('area_suburb_idx').on(t.suburb_id)],
);

export const street = sqliteTable(
  'street',
  {
    id: id(),
    name: text('name').notNull(),
    area_id: integer('area_id')
      .notNull()
      .references(() => area.id),
    /** Optional: a street with a position lets the resolver place a parcel at `street` precision. */
    latitude: real('latitude'),
    longitude: real('longitude'),
    ...activeFlag(),
    ...archivable(),
    ...timestamps(),
  },
  (t) => [index('street_area_idx').on(t.area_id)],
);

export const pincode = sqliteTable(
  'pincode',
  {
    id: id(),
    code: text('code').notNull(),
    suburb_id: integer('suburb_id')
      .notNull()
      .references(() => suburb.id),
    ...activeFlag(),
    ...archivable(),
    ...timestamps(),
  },
  (t) => [
    // One row per (code, suburb): a postcode spans several suburbs and a suburb may have several postcodes.
    uniqueIndex('pincode_code_suburb_uq').on(t.code, t.suburb_id),
    index('pincode_suburb_idx').on(t.suburb_id),
  ],
);
