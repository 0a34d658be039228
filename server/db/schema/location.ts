import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { id } from './columns';
import { pkg } from './packages';
import { user } from './people';

/**
 * Where a parcel's coordinates came from and how precise they are (issue 16). Kept beside the
 * package row because the spec's Package shape (2.1) is exact: it is read through
 * `GET package/{id}/location/` and the review list, never added to the Package answer.
 */
export const packageLocation = sqliteTable(
  'package_location',
  {
    package_id: integer('package_id')
      .primaryKey()
      .references(() => pkg.id),
    /** exact | street | suburb | postcode | none */
    precision: text('precision').notNull(),
    /** caller | address_book | office | geocoder | street | suburb | postcode | none */
    source: text('source').notNull(),
    /** The normalised address the address book and the geocoder cache are keyed by. */
    address_key: text('address_key'),
    /** Waiting for the background geocoder (set only when GEOCODER_URL is configured). */
    pending: integer('pending', { mode: 'boolean' }).notNull().default(false),
    /** The upload whose parcels are geocoded together (progress), if any. */
    job_id: integer('job_id'),
    /** What the geocoder last said when it could not help: not_found, failed, rate_limited. */
    geocode_status: text('geocode_status'),
    /** Why the office should look at this address although it was placed: po_box | postcode_mismatch (issue 36). */
    review_reason: text('review_reason'),
    resolved_at: integer('resolved_at').notNull(),
  },
  (t) => [
    index('package_location_precision_idx').on(t.precision),
    index('package_location_pending_idx').on(t.pending, t.package_id),
    index('package_location_key_idx').on(t.address_key),
  ],
);

/**
 * Addresses delivered to, at the position drivers' phones recorded there. `source = deliveries`
 * once two deliveries agree within ~50 m; `office` when staff dragged the pin (that wins).
 */
export const addressBook = sqliteTable(
  'address_book',
  {
    id: id(),
    address_key: text('address_key').notNull(),
    latitude: real('latitude').notNull(),
    longitude: real('longitude').notNull(),
    source: text('source').notNull(),
    samples: integer('samples').notNull().default(0),
    updated_by: integer('updated_by').references(() => user.id),
    updated_at: integer('updated_at').notNull(),
  },
  (t) => [uniqueIndex('address_book_key_uq').on(t.address_key)],
);

/** Each delivery's recorded position, per address; the address book learns from these. */
export const addressSighting = sqliteTable(
  'address_sighting',
  {
    address_key: text('address_key').notNull(),
    package_id: integer('package_id')
      .notNull()
      .references(() => pkg.id),
    latitude: real('latitude').notNull(),
    longitude: real('longitude').notNull(),
    occurred_at: integer('occurred_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.address_key, t.package_id] })],
);

/** Answers of the external geocoder, so one address is asked once (found or not). */
export const geocodeCache = sqliteTable('geocode_cache', {
  query: text('query').primaryKey(),
  found: integer('found', { mode: 'boolean' }).notNull(),
  latitude: real('latitude'),
  longitude: real('longitude'),
  precision: text('precision'),
  label: text('label'),
  fetched_at: integer('fetched_at').notNull(),
});

/** An upload's background geocoding: how many of its parcels were queued, how many are done. */
export const geocodeJob = sqliteTable('geocode_job', {
  id: id(),
  created_by: integer('created_by').references(() => user.id),
  company_id: integer('company_id'),
  total: integer('total').notNull(),
  created_at: integer('created_at').notNull(),
});

/** Travel-time matrices by day and point set, so a day's plan asks the road engine once. */
export const travelMatrixCache = sqliteTable(
  'travel_matrix_cache',
  {
    day: text('day').notNull(),
    provider: text('provider').notNull(),
    points_hash: text('points_hash').notNull(),
    matrix: text('matrix').notNull(),
    created_at: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.provider, t.points_hash] })],
);
