import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { str } from './columns';
import { company, user } from './people';

/**
 * Cash on delivery (issue 34, docs/decisions-cod.md): what a parcel's recipient pays at the door, and
 * what the driver recorded. Beside the parcel rather than in it, so the hot parcel table and its cold
 * copy keep their columns; a parcel hot or in history, hence no foreign key on `package_id`.
 */
export const packageCod = sqliteTable(
  'package_cod',
  {
    package_id: integer('package_id').primaryKey(),
    company_id: integer('company_id')
      .notNull()
      .references(() => company.id),
    amount_cents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    /** What the office excused (audited); the driver must collect at least amount - waived. */
    waived_cents: integer('waived_cents').notNull().default(0),
    waived_by: integer('waived_by').references(() => user.id),
    waived_at: integer('waived_at'),
    waive_reason: text('waive_reason'),
    /** Set once, with the delivery that collected it. */
    collected_cents: integer('collected_cents'),
    method: text('method'),
    collected_by: integer('collected_by').references(() => user.id),
    collected_at: integer('collected_at'),
    /** The business's local day of the collection (reports and the driver's hand-over). */
    collected_day: text('collected_day'),
    created_at: integer('created_at').notNull(),
    updated_at: integer('updated_at').notNull(),
  },
  (t) => [index('package_cod_collected_idx').on(t.collected_by, t.collected_day), index('package_cod_company_idx').on(t.company_id)],
);

/**
 * A driver's cash, append-only and signed. `account` `cash` is what the driver should hold (float and
 * cash collections in, each hand-over's expected amount out); `debt` is what the driver owes the
 * company (a hand-over short of its expected amount; a surplus is negative).
 */
export const driverCashTxn = sqliteTable(
  'driver_cash_txn',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    driver_id: integer('driver_id')
      .notNull()
      .references(() => user.id),
    day: text('day').notNull(),
    account: text('account').notNull(),
    kind: text('kind').notNull(),
    amount_cents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    package_id: integer('package_id'),
    handover_id: integer('handover_id'),
    reason: str('reason'),
    created_by: integer('created_by').references(() => user.id),
    created_at: integer('created_at').notNull(),
  },
  (t) => [
    index('driver_cash_txn_driver_idx').on(t.driver_id, t.day),
    // A parcel's cash is counted in once, whatever retries happen.
    uniqueIndex('driver_cash_txn_package_uq')
      .on(t.package_id, t.kind)
      .where(sql`${t.package_id} is not null`),
  ],
);

/** The depot's count of a driver's cash for a day: one per driver, day and currency. */
export const cashHandover = sqliteTable(
  'cash_handover',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    driver_id: integer('driver_id')
      .notNull()
      .references(() => user.id),
    day: text('day').notNull(),
    currency: text('currency').notNull(),
    expected_cents: integer('expected_cents').notNull(),
    counted_cents: integer('counted_cents').notNull(),
    /** counted - expected: negative is a shortfall the driver owes. */
    difference_cents: integer('difference_cents').notNull(),
    note: str('note'),
    counted_by: integer('counted_by').references(() => user.id),
    created_at: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('cash_handover_driver_day_uq').on(t.driver_id, t.day, t.currency)],
);
