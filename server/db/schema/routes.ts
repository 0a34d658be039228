import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { id, timestamps } from './columns';
import { user } from './people';
import { warehouse } from './places';

/**
 * A driver's run for a day. Its parcels are the packages whose `route_id` names it; their order is
 * `package.sequence_no`, so devices learn of a new order through the ordinary package feed.
 */
export const deliveryRoute = sqliteTable(
  'route',
  {
    id: id(),
    name: text('name').notNull(),
    /** The day the run is planned for, `YYYY-MM-DD`. */
    date: text('date').notNull(),
    /** `delivery` or `pickup` (pickup routes collect `pickup_requested` parcels). */
    kind: text('kind').notNull().default('delivery'),
    /** planned | in_progress | completed | cancelled */
    status: text('status').notNull().default('planned'),
    driver_id: integer('driver_id').references(() => user.id),
    warehouse_id: integer('warehouse_id').references(() => warehouse.id),
    start_latitude: real('start_latitude'),
    start_longitude: real('start_longitude'),
    /** Metres of the last optimised (or driver-sent) order, from the start through every placed stop. */
    total_distance_m: real('total_distance_m'),
    optimized_at: integer('optimized_at'),
    started_at: integer('started_at'),
    completed_at: integer('completed_at'),
    created_by: integer('created_by').references(() => user.id),
    ...timestamps(),
  },
  (t) => [index('route_driver_status_idx').on(t.driver_id, t.status), index('route_date_idx').on(t.date)],
);

/**
 * Positions reported by drivers' phones. One reading per driver and device instant: a batch sent
 * twice (a retry without its key) stores nothing new.
 */
export const driverPosition = sqliteTable(
  'driver_position',
  {
    id: id(),
    driver_id: integer('driver_id')
      .notNull()
      .references(() => user.id),
    latitude: real('latitude').notNull(),
    longitude: real('longitude').notNull(),
    accuracy: real('accuracy'),
    occurred_at: integer('occurred_at').notNull(),
    received_at: integer('received_at').notNull(),
    device_id: text('device_id'),
  },
  (t) => [uniqueIndex('driver_position_driver_time_uq').on(t.driver_id, t.occurred_at)],
);
