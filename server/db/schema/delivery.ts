import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { id } from './columns';
import { pkg } from './packages';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';

/** Columns of a delivery record; `parcel` is the table its package_id points at (hot `package` or none for the cold copy). */
export const deliveryRecordColumns = (parcel?: () => AnySQLiteColumn) => ({
  id: id(),
  package_id: parcel ? integer('package_id').notNull().references(parcel) : integer('package_id').notNull(),
  driver_id: integer('driver_id').references(() => user.id),
  recipient_name: text('recipient_name'),
  note: text('note'),
  occurred_at: integer('occurred_at').notNull(),
  received_at: integer('received_at').notNull(),
  latitude: real('latitude'),
  longitude: real('longitude'),
  /** An admin forced it (no scan, no proof). */
  forced: integer('forced', { mode: 'boolean' }).notNull().default(false),
  updated_at: integer('updated_at').notNull(),
});

/** Columns of a failed attempt, shared like deliveryRecordColumns. */
export const deliveryAttemptColumns = (parcel?: () => AnySQLiteColumn) => ({
  id: id(),
  package_id: parcel ? integer('package_id').notNull().references(parcel) : integer('package_id').notNull(),
  attempt_no: integer('attempt_no').notNull(),
  driver_id: integer('driver_id').references(() => user.id),
  recorded_by: integer('recorded_by').references(() => user.id),
  failed_status_id: integer('failed_status_id'),
  reason: text('reason').notNull(),
  note: text('note'),
  photo_file_id: integer('photo_file_id').references(() => storedFile.id),
  occurred_at: integer('occurred_at').notNull(),
  received_at: integer('received_at').notNull(),
  latitude: real('latitude'),
  longitude: real('longitude'),
  forced: integer('forced', { mode: 'boolean' }).notNull().default(false),
});
import { storedFile, user } from './people';

/** Proof of delivery of a parcel: who took it and what the driver said; photos live in `package_photo`. */
export const deliveryRecord = sqliteTable(
  'delivery_record',
  deliveryRecordColumns(() => pkg.id),
  (t) => [uniqueIndex('delivery_record_pkg_uq').on(t.package_id), index('delivery_record_driver_idx').on(t.driver_id, t.received_at)],
);

/** The six proof slots of a parcel (photo_one..photo_five, signature), each naming one stored file. */
export const packagePhoto = sqliteTable(
  'package_photo',
  {
    id: id(),
    package_id: integer('package_id')
      .notNull()
      .references(() => pkg.id),
    slot: text('slot').notNull(),
    file_id: integer('file_id')
      .notNull()
      .references(() => storedFile.id),
    added_by: integer('added_by').references(() => user.id),
    created_at: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('package_photo_slot_uq').on(t.package_id, t.slot)],
);

/** One failed attempt at the door; their number per parcel counts toward the configured maximum. */
export const deliveryAttempt = sqliteTable(
  'delivery_attempt',
  deliveryAttemptColumns(() => pkg.id),
  (t) => [
    index('delivery_attempt_pkg_idx').on(t.package_id, t.attempt_no),
    index('delivery_attempt_driver_idx').on(t.driver_id, t.received_at),
  ],
);

/** A scanned code that matched no parcel (or a refused scan of one): kept for staff to sort out. */
export const scanException = sqliteTable(
  'scan_exception',
  {
    id: id(),
    code: text('code').notNull(),
    /** Which scan met it: no_parcel, inbound, depot, supervisor, return, deliver. */
    action: text('action').notNull(),
    actor_id: integer('actor_id').references(() => user.id),
    device_id: text('device_id'),
    occurred_at: integer('occurred_at').notNull(),
    received_at: integer('received_at').notNull(),
    latitude: real('latitude'),
    longitude: real('longitude'),
    note: text('note'),
    resolved: integer('resolved', { mode: 'boolean' }).notNull().default(false),
    resolved_by: integer('resolved_by').references(() => user.id),
    resolved_at: integer('resolved_at'),
    resolution_note: text('resolution_note'),
  },
  (t) => [index('scan_exception_open_idx').on(t.resolved, t.received_at), index('scan_exception_code_idx').on(t.code)],
);
