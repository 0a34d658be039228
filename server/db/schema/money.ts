import { sql } from 'drizzle-orm';
import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { activeFlag, archivable, id, str, timestamps } from './columns';
import { zone } from './geo';
import { company, user } from './people';
import { packageType } from './places';

/** A weight unit rates are written in; `kg_factor` is how many kilograms one unit weighs. */
export const unitOfMeasurement = sqliteTable('unit_of_measurement', {
  id: id(),
  name: text('name').notNull(),
  symbol: text('symbol').notNull(),
  kg_factor: real('kg_factor').notNull(),
  ...activeFlag(),
  ...archivable(),
  ...timestamps(),
});

/**
 * One line of a rate card. Lines with `company_id` null form the default card; a company with any
 * active line of its own is priced from its own card only. Null zone / package type match any.
 */
export const deliveryRate = sqliteTable(
  'delivery_rate',
  {
    id: id(),
    name: str('name'),
    company_id: integer('company_id').references(() => company.id),
    zone_id: integer('zone_id').references(() => zone.id),
    package_type_id: integer('package_type_id').references(() => packageType.id),
    /** Null means kilograms. */
    unit_id: integer('unit_id').references(() => unitOfMeasurement.id),
    /** Weight band in the line's unit: min inclusive, max exclusive (null = no upper bound). */
    min_weight: real('min_weight').notNull().default(0),
    max_weight: real('max_weight'),
    base_cents: integer('base_cents').notNull(),
    per_unit_cents: integer('per_unit_cents').notNull().default(0),
    currency: text('currency').notNull(),
    volumetric_divisor: integer('volumetric_divisor').notNull().default(5000),
    ...activeFlag(),
    ...archivable(),
    ...timestamps(),
  },
  (t) => [index('delivery_rate_company_idx').on(t.company_id), index('delivery_rate_zone_idx').on(t.zone_id)],
);

/** What a driver earns per delivered parcel; null driver / zone / package type match any. */
export const driverRate = sqliteTable(
  'driver_rate',
  {
    id: id(),
    name: str('name'),
    driver_id: integer('driver_id').references(() => user.id),
    zone_id: integer('zone_id').references(() => zone.id),
    package_type_id: integer('package_type_id').references(() => packageType.id),
    amount_cents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    effective_from: integer('effective_from').notNull(),
    effective_to: integer('effective_to'),
    ...activeFlag(),
    ...archivable(),
    ...timestamps(),
  },
  (t) => [index('driver_rate_driver_idx').on(t.driver_id)],
);

/** `balance_cents` is a cache of the sum of the wallet's transactions, written in the same transaction. */
export const wallet = sqliteTable(
  'wallet',
  {
    id: id(),
    company_id: integer('company_id')
      .notNull()
      .references(() => company.id),
    currency: text('currency').notNull(),
    balance_cents: integer('balance_cents').notNull().default(0),
    /** Postpaid only: how far below zero charges may go; null = no limit. */
    credit_limit_cents: integer('credit_limit_cents'),
    created_by: integer('created_by').references(() => user.id),
    ...timestamps(),
  },
  (t) => [uniqueIndex('wallet_company_uq').on(t.company_id)],
);

/** Append-only: rows are never updated or deleted. `amount_cents` is signed (credit > 0). */
export const walletTxn = sqliteTable(
  'wallet_txn',
  {
    id: id(),
    wallet_id: integer('wallet_id')
      .notNull()
      .references(() => wallet.id),
    company_id: integer('company_id')
      .notNull()
      .references(() => company.id),
    kind: text('kind').notNull(),
    amount_cents: integer('amount_cents').notNull(),
    balance_after_cents: integer('balance_after_cents').notNull(),
    currency: text('currency').notNull(),
    /** The company's billing type when it was posted: statements bill only postpaid charges. */
    billing: text('billing').notNull().default('prepaid'),
    /** A parcel hot or in history (schema/history.ts): ledger rows never move; no foreign key, since it may point at either table. */
    package_id: integer('package_id'),
    reason: str('reason'),
    reference: str('reference'),
    created_by: integer('created_by').references(() => user.id),
    created_at: integer('created_at').notNull(),
  },
  (t) => [
    index('wallet_txn_wallet_idx').on(t.wallet_id, t.id),
    index('wallet_txn_company_idx').on(t.company_id, t.created_at),
    // A parcel is charged once and refunded once, whatever retries happen; each zone change after
    // acceptance may re-price it (kind `reprice`, the difference), so those are not unique.
    uniqueIndex('wallet_txn_package_kind_uq')
      .on(t.package_id, t.kind)
      .where(sql`${t.kind} <> 'reprice'`),
  ],
);

/**
 * Issued documents: period statements, receipts of recharges and notes of adjustments. Amounts and
 * lines never change after issue; only status (issued -> paid | void) and its timestamps do.
 */
export const invoice = sqliteTable(
  'invoice',
  {
    id: id(),
    number: text('number').notNull(),
    company_id: integer('company_id')
      .notNull()
      .references(() => company.id),
    kind: text('kind').notNull(),
    status: text('status').notNull(),
    currency: text('currency').notNull(),
    period_from: integer('period_from'),
    period_to: integer('period_to'),
    total_cents: integer('total_cents').notNull(),
    issued_at: integer('issued_at').notNull(),
    paid_at: integer('paid_at'),
    /** The payment transaction that settled a statement. */
    payment_txn_id: integer('payment_txn_id'),
    voided_at: integer('voided_at'),
    void_reason: str('void_reason'),
    /** An adjustment note names the invoice it corrects. */
    corrects_invoice_id: integer('corrects_invoice_id'),
    /** Statements: UTC midnight of the due day (issue day + the company's days to pay at issue), fixed at issue. */
    due_at: integer('due_at'),
    /** GST rate and inclusive flag of the business profile at issue, so a re-rendered tax invoice never changes. Null: issued before GST was recorded (10 %, inclusive). */
    gst_rate_bp: integer('gst_rate_bp'),
    prices_include_gst: integer('prices_include_gst', { mode: 'boolean' }),
    /** The seller and buyer blocks as printed at issue (JSON, `InvoiceParties`), so a re-rendered document never changes. Null: issued before they were kept. */
    parties: text('parties'),
    created_by: integer('created_by').references(() => user.id),
    ...timestamps(),
  },
  (t) => [uniqueIndex('invoice_number_uq').on(t.number), index('invoice_company_idx').on(t.company_id, t.issued_at)],
);

export const invoiceLine = sqliteTable(
  'invoice_line',
  {
    id: id(),
    invoice_id: integer('invoice_id')
      .notNull()
      .references(() => invoice.id),
    txn_id: integer('txn_id')
      .notNull()
      .references(() => walletTxn.id),
    /** A parcel hot or in history (schema/history.ts): ledger rows never move; no foreign key, since it may point at either table. */
    package_id: integer('package_id'),
    description: text('description').notNull(),
    amount_cents: integer('amount_cents').notNull(),
    created_at: integer('created_at').notNull(),
  },
  (t) => [index('invoice_line_invoice_idx').on(t.invoice_id), uniqueIndex('invoice_line_txn_uq').on(t.txn_id)],
);

/** Gap-free numbering: incremented in the transaction that issues the invoice. */
export const invoiceCounter = sqliteTable('invoice_counter', {
  year: integer('year').primaryKey(),
  last: integer('last').notNull(),
});
