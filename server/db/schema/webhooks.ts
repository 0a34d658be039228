import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { activeFlag, id, str, timestamps } from './columns';
import { company } from './people';

/**
 * Signatures of inbound webhook calls seen within their validity window: a second call with the
 * same signature is a replay. Rows past `expires_at` can go; nothing refers to them.
 */
export const webhookNonce = sqliteTable(
  'webhook_nonce',
  {
    signature: text('signature').primaryKey(),
    company_id: integer('company_id')
      .notNull()
      .references(() => company.id),
    expires_at: integer('expires_at').notNull(),
    created_at: integer('created_at').notNull(),
  },
  (t) => [index('webhook_nonce_expiry_idx').on(t.expires_at)],
);

/** A company's read-only API key (Package by Company Key); only its SHA-256 is kept. */
export const companyApiKey = sqliteTable(
  'company_api_key',
  {
    id: id(),
    company_id: integer('company_id')
      .notNull()
      .references(() => company.id),
    name: str('name'),
    /** The first characters of the key, shown so a user can tell keys apart. */
    prefix: text('prefix').notNull(),
    key_hash: text('key_hash').notNull(),
    last_used_at: integer('last_used_at'),
    revoked_at: integer('revoked_at'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('company_api_key_hash_uq').on(t.key_hash), index('company_api_key_company_idx').on(t.company_id)],
);

/** Where a company wants package events sent; `events` is a JSON array of event names. */
export const webhookEndpoint = sqliteTable(
  'webhook_endpoint',
  {
    id: id(),
    company_id: integer('company_id')
      .notNull()
      .references(() => company.id),
    url: text('url').notNull(),
    events: text('events').notNull(),
    description: str('description'),
    ...activeFlag(),
    ...timestamps(),
  },
  (t) => [index('webhook_endpoint_company_idx').on(t.company_id, t.is_active)],
);

/**
 * The durable outbound queue: one row per event and endpoint, written in the transaction of the
 * change it reports, sent (and retried) by the dispatcher.
 */
export const webhookDelivery = sqliteTable(
  'webhook_delivery',
  {
    id: id(),
    endpoint_id: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoint.id),
    company_id: integer('company_id')
      .notNull()
      .references(() => company.id),
    event_id: text('event_id').notNull(),
    event: text('event').notNull(),
    /** A parcel hot or in history (schema/history.ts): the delivery log stays; no foreign key, since it may point at either table. */
    package_id: integer('package_id'),
    payload: text('payload').notNull(),
    /** pending | delivered | dead */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: integer('next_attempt_at').notNull(),
    last_attempt_at: integer('last_attempt_at'),
    last_status_code: integer('last_status_code'),
    last_error: text('last_error'),
    delivered_at: integer('delivered_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('webhook_delivery_event_uq').on(t.event_id),
    index('webhook_delivery_due_idx').on(t.status, t.next_attempt_at),
    index('webhook_delivery_company_idx').on(t.company_id, t.id),
  ],
);
