import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { id } from './columns';
import { pkg } from './packages';
import { storedFile, user } from './people';

/**
 * A delivery the server refused (the parcel was cancelled, delivered by someone else, or out of
 * attempts while the driver was offline). It happened at the door all the same: what the driver
 * recorded is kept here, with its proof, for the supervisor the parcel is flagged to.
 */
export const refusedDelivery = sqliteTable(
  'refused_delivery',
  {
    id: id(),
    package_id: integer('package_id')
      .notNull()
      .references(() => pkg.id),
    driver_id: integer('driver_id')
      .notNull()
      .references(() => user.id),
    device_id: text('device_id'),
    /** The refusal as the driver's phone got it. */
    code: text('code').notNull(),
    message: text('message').notNull(),
    /** The parcel's status when the delivery arrived. */
    status: text('status').notNull(),
    recipient_name: text('recipient_name'),
    note: text('note'),
    occurred_at: integer('occurred_at').notNull(),
    received_at: integer('received_at').notNull(),
    latitude: real('latitude'),
    longitude: real('longitude'),
  },
  (t) => [index('refused_delivery_pkg_idx').on(t.package_id, t.id), index('refused_delivery_driver_idx').on(t.driver_id, t.received_at)],
);

/** The photos and signature of a refused delivery (slot as in `package_photo`). */
export const refusedDeliveryFile = sqliteTable(
  'refused_delivery_file',
  {
    id: id(),
    refused_id: integer('refused_id')
      .notNull()
      .references(() => refusedDelivery.id),
    slot: text('slot').notNull(),
    file_id: integer('file_id')
      .notNull()
      .references(() => storedFile.id),
  },
  (t) => [index('refused_delivery_file_idx').on(t.refused_id)],
);
