import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { pkg } from './packages';
import { company } from './people';

/**
 * The pricing state of a company's parcel (issue 18): `priced` with the amount its company was
 * charged for it, or `unpriced` (no rate line fitted, or a prepaid wallet could not pay) and listed
 * for the office until a rate line or a recharge prices it. The ledger (wallet_txn) holds the money;
 * this row says what the parcel should cost and why it is not charged yet.
 */
export const packagePricing = sqliteTable(
  'package_pricing',
  {
    package_id: integer('package_id')
      .primaryKey()
      .references(() => pkg.id),
    company_id: integer('company_id')
      .notNull()
      .references(() => company.id),
    /** `priced` | `unpriced` */
    state: text('state').notNull(),
    price_cents: integer('price_cents'),
    currency: text('currency').notNull(),
    /** Why unpriced: `no_rate_line` | `insufficient_balance`; '' when priced. */
    reason: text('reason').notNull().default(''),
    priced_at: integer('priced_at'),
    updated_at: integer('updated_at').notNull(),
  },
  (t) => [index('package_pricing_state_idx').on(t.state, t.company_id)],
);

/** Per-company commercial terms the office sets: what to do with a parcel no rate fits, and days to pay a statement. */
export const companyTerms = sqliteTable('company_terms', {
  company_id: integer('company_id')
    .primaryKey()
    .references(() => company.id),
  /** `accept` (created unpriced, listed for the office) | `refuse` (the creation is refused, 409). */
  unpriced_policy: text('unpriced_policy').notNull().default('accept'),
  payment_terms_days: integer('payment_terms_days').notNull().default(14),
  updated_at: integer('updated_at').notNull(),
});
