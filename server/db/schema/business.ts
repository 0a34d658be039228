import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * The courier's own business profile (issue 18): what a tax invoice must say about the seller.
 * One row (id = 1); missing until an admin first saves it, when defaults apply.
 */
export const businessProfile = sqliteTable('business_profile', {
  id: integer('id').primaryKey(),
  legal_name: text('legal_name').notNull().default(''),
  trading_name: text('trading_name').notNull().default(''),
  /** 11 digits, no spaces; checksum-validated on write. */
  abn: text('abn').notNull().default(''),
  address: text('address').notNull().default(''),
  email: text('email').notNull().default(''),
  phone: text('phone').notNull().default(''),
  bank_account_name: text('bank_account_name').notNull().default(''),
  /** 6 digits, no dash. */
  bank_bsb: text('bank_bsb').notNull().default(''),
  bank_account_number: text('bank_account_number').notNull().default(''),
  /** Free text shown under the bank details (or instead of them). */
  payment_instructions: text('payment_instructions').notNull().default(''),
  /** Basis points: 1000 = 10 %. */
  gst_rate_bp: integer('gst_rate_bp').notNull().default(1000),
  /** 1: line amounts (rate cards) already include GST; 0: GST is added on top. */
  prices_include_gst: integer('prices_include_gst', { mode: 'boolean' }).notNull().default(true),
  /** IANA zone the business's days, shifts and documents are in; null = the configured TIME_ZONE (issue 31). */
  time_zone: text('time_zone'),
  updated_at: integer('updated_at').notNull(),
});
