import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { warehouse } from './places';

/**
 * A depot whose clock differs from the business's (a Perth depot of a Sydney courier; issue 31).
 * No row = the business's zone. Beside the warehouse because the spec's warehouse shape is its own.
 */
export const depotTimeZone = sqliteTable('depot_time_zone', {
  warehouse_id: integer('warehouse_id')
    .primaryKey()
    .references(() => warehouse.id),
  /** IANA name, e.g. Australia/Perth. */
  time_zone: text('time_zone').notNull(),
  updated_at: integer('updated_at').notNull(),
});
