import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { deliveryAttemptColumns, deliveryRecordColumns } from './delivery';
import { packageColumns } from './packages';

/**
 * Cold storage ("history"): parcels final for longer than HISTORY_AFTER_DAYS, moved out of the hot
 * tables by server/services/history/move.ts (docs/decisions-data-layer.md, "Cold storage").
 * Ids are kept: both engines never hand a package id out twice, so an id names one parcel, hot or cold.
 */
export const packageHistory = sqliteTable(
  'package_history',
  {
    ...packageColumns(),
    /** When the parcel left the hot tables. */
    moved_at: integer('moved_at').notNull(),
  },
  (tb) => [
    uniqueIndex('package_history_hawb_uq').on(tb.hawb),
    index('package_history_company_idx').on(tb.company_id, tb.created_at),
    index('package_history_created_idx').on(tb.created_at),
    index('package_history_status_idx').on(tb.status),
    index('package_history_driver_idx').on(tb.assigned_to_id, tb.delivered_at),
    // The list's zone filter: without it every zone-filtered list (and its count) read all of history.
    index('package_history_zone_idx').on(tb.zone_id, tb.status),
    // An old route's parcels and POD.
    index('package_history_route_idx').on(tb.route_id),
    // Delivered parcels newest first (the delivered and completed lists): a page reads the newest cold
    // deliveries in index order instead of sorting all of them.
    index('package_history_delivered_idx').on(tb.status, tb.delivered_at, tb.id),
    // Parcels with proof newest delivery first (the proof-upload list, any status): the same, without the status.
    index('package_history_delivered_at_idx').on(tb.delivered_at, tb.id),
  ],
);

/**
 * The Package answer (spec 2.1) of a cold parcel as it was when it moved: GET by id answers exactly
 * this. Its own table keeps `package_history` rows as narrow as `package` ones (a list that scans
 * them would otherwise read every answer's pages too).
 */
export const packageHistoryAnswer = sqliteTable('package_history_answer', {
  package_id: integer('package_id').primaryKey(),
  answer: text('answer').notNull(),
});

/** Delivery records of cold parcels, same columns as `delivery_record`: reports read both. */
export const deliveryRecordHistory = sqliteTable('delivery_record_history', deliveryRecordColumns(), (t) => [
  index('delivery_record_history_pkg_idx').on(t.package_id),
  index('delivery_record_history_occurred_idx').on(t.occurred_at),
  // A driver's completed deliveries (the dashboard's list) as on the hot table.
  index('delivery_record_history_driver_idx').on(t.driver_id, t.received_at),
]);

/** Failed attempts of cold parcels, same columns as `delivery_attempt`. */
export const deliveryAttemptHistory = sqliteTable('delivery_attempt_history', deliveryAttemptColumns(), (t) => [
  index('delivery_attempt_history_pkg_idx').on(t.package_id),
  index('delivery_attempt_history_occurred_idx').on(t.occurred_at),
  // The parcels a driver failed (the returns list) as on the hot table.
  index('delivery_attempt_history_driver_idx').on(t.driver_id, t.received_at),
]);

/**
 * Every other row of a cold parcel (events, failures, photos, pricing, location, recipient, ratings,
 * refused deliveries...), kept whole as JSON under the name of the table it came from, so nothing is
 * lost and a parcel could be brought back. Read through services/history/kept.ts (a parcel's story, proof,
 * refusals; ratings lists).
 */
export const packageHistoryRow = sqliteTable(
  'package_history_row',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    package_id: integer('package_id').notNull(),
    source: text('source').notNull(),
    row_id: integer('row_id'),
    data: text('data').notNull(),
  },
  (t) => [
    index('package_history_row_pkg_idx').on(t.package_id, t.source, t.row_id),
    // Lists across parcels (a company's ratings) read one source newest first without scanning every kept row.
    index('package_history_row_source_idx').on(t.source, t.row_id),
  ],
);

/**
 * The tracking-link token of a cold parcel (its recipient row is kept only as JSON): the recipient's
 * page finds the parcel by it. Written by the mover in the unit that moves the parcel.
 */
export const packageHistoryToken = sqliteTable('package_history_token', {
  token: text('token').primaryKey(),
  package_id: integer('package_id').notNull(),
});

/**
 * How many cold parcels there are, per status, over all parcels (`scope` 'all', owner 0), per
 * company ('company', company id), per driver ('driver', assigned driver id) and per route ('route', route id). The mover adds
 * each batch in its own unit, so the all-time counts (hot + this) stay exact without reading history.
 */
export const packageHistoryTally = sqliteTable(
  'package_history_tally',
  {
    scope: text('scope').notNull(),
    owner_id: integer('owner_id').notNull(),
    status: text('status').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.owner_id, t.status] })],
);

/**
 * For every person who acted on a cold parcel, their last event on it (its id, action and when it
 * arrived), as a driver's history list reads `package_event`: the list reads this by actor, newest first.
 */
export const packageHistoryActor = sqliteTable(
  'package_history_actor',
  {
    actor_id: integer('actor_id').notNull(),
    package_id: integer('package_id').notNull(),
    event_id: integer('event_id').notNull(),
    action: text('action').notNull(),
    received_at: integer('received_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.actor_id, t.package_id] }), index('package_history_actor_last_idx').on(t.actor_id, t.event_id)],
);
