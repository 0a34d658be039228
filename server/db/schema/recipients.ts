import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { id, timestamps } from './columns';
import { company, storedFile, user } from './people';
import { pkg } from './packages';

/**
 * Every e-mail and text message the system sends (password resets, recipient notices). A row is
 * written in the transaction of what caused it and sent later by the message dispatcher, never
 * inside a request. `status`: pending -> sending (claimed, committed before the network call) ->
 * sent | logged (no transport configured: kept here for the operator) | dead (gave up) |
 * skipped (recipient opted out meanwhile) | uncertain (the process stopped mid-send: never retried,
 * so a message is never sent twice).
 */
export const messageOutbox = sqliteTable(
  'message_outbox',
  {
    id: id(),
    /** email | sms */
    channel: text('channel').notNull(),
    to: text('to').notNull(),
    /** password_reset, account, out_for_delivery, arriving_soon, delivered, failed, returned_to_sender */
    kind: text('kind').notNull(),
    /** Filled when queued (account mail) or when rendered at send time (recipient notices, from the company's template). */
    subject: text('subject'),
    body: text('body'),
    /** Facts the template needs (reason, stops away, ETA), JSON. */
    data: text('data'),
    company_id: integer('company_id').references(() => company.id),
    /** A parcel hot or in history (schema/history.ts): the message log stays; no foreign key, since it may point at either table. */
    package_id: integer('package_id'),
    /** One message per event and channel: a second enqueue of the same key is ignored. */
    dedupe_key: text('dedupe_key'),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: integer('next_attempt_at').notNull(),
    claimed_at: integer('claimed_at'),
    last_error: text('last_error'),
    provider_id: text('provider_id'),
    sent_at: integer('sent_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('message_outbox_dedupe_uq').on(t.dedupe_key),
    index('message_outbox_due_idx').on(t.status, t.next_attempt_at),
    index('message_outbox_package_idx').on(t.package_id),
  ],
);

/**
 * The recipient side of a parcel: the unguessable tracking token (base64url of 24 random bytes,
 * 192 bits), the e-mail the shipper gave, the recipient's delivery instructions and opt-out.
 */
export const packageRecipient = sqliteTable(
  'package_recipient',
  {
    package_id: integer('package_id')
      .primaryKey()
      .references(() => pkg.id),
    token: text('token').notNull(),
    email: text('email'),
    instructions: text('instructions'),
    instructions_at: integer('instructions_at'),
    opted_out_at: integer('opted_out_at'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('package_recipient_token_uq').on(t.token)],
);

/** Addresses (e-mail or phone) that asked a company to stop messaging them; checked at enqueue and at send. */
export const messageOptOut = sqliteTable(
  'message_opt_out',
  {
    id: id(),
    company_id: integer('company_id')
      .notNull()
      .references(() => company.id),
    address: text('address').notNull(),
    created_at: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('message_opt_out_uq').on(t.company_id, t.address)],
);

/** A company's recipient messaging; no row means the defaults (recipients/settings.ts). */
export const recipientSettings = sqliteTable('recipient_settings', {
  company_id: integer('company_id')
    .primaryKey()
    .references(() => company.id),
  /** JSON arrays of event names and channels. */
  events: text('events').notNull(),
  channels: text('channels').notNull(),
  sender_name: text('sender_name'),
  /** JSON object: event -> short template text with {placeholders}. */
  templates: text('templates').notNull().default('{}'),
  logo_file_id: integer('logo_file_id').references(() => storedFile.id),
  /** "Arriving soon" when this many stops or fewer are left before the parcel's. */
  stops_away: integer('stops_away').notNull().default(2),
  /** How many days ahead a recipient may move a failed delivery to. */
  reschedule_days: integer('reschedule_days').notNull().default(7),
  ...timestamps(),
});

/** The recipient's rating of a delivery (one per parcel), reported per driver. */
export const deliveryRating = sqliteTable(
  'delivery_rating',
  {
    id: id(),
    package_id: integer('package_id')
      .notNull()
      .references(() => pkg.id),
    driver_id: integer('driver_id').references(() => user.id),
    company_id: integer('company_id').references(() => company.id),
    rating: integer('rating').notNull(),
    comment: text('comment'),
    created_at: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('delivery_rating_package_uq').on(t.package_id), index('delivery_rating_driver_idx').on(t.driver_id)],
);
