import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * A server-side monotonic change feed (DESIGN.md section 6). Each write of a synced record appends a
 * row per scope that saw it change; `op = remove` tells a device a record left its scope.
 */
export const changeLog = sqliteTable(
  'change_log',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    entity: text('entity').notNull(),
    entity_id: integer('entity_id').notNull(),
    op: text('op').notNull(),
    /** The driver whose device must hear of it; null for records every device in scope shares. */
    driver_id: integer('driver_id'),
    company_id: integer('company_id'),
    created_at: integer('created_at').notNull(),
  },
  (t) => [
    index('change_log_driver_idx').on(t.driver_id, t.seq),
    index('change_log_entity_idx').on(t.entity, t.seq),
    // A record's latest feed row (snapshot ordering) and a company's feed, without scanning history.
    index('change_log_record_idx').on(t.entity, t.entity_id, t.seq),
    index('change_log_company_idx').on(t.company_id, t.seq),
  ],
);

/** One row per Idempotency-Key, written in the transaction of the effect it answered. */
export const idempotencyKey = sqliteTable(
  'idempotency_key',
  {
    key: text('key').primaryKey(),
    user_id: integer('user_id').notNull(),
    device_id: text('device_id'),
    device_seq: integer('device_seq'),
    method: text('method').notNull(),
    path: text('path').notNull(),
    body_hash: text('body_hash').notNull(),
    status: integer('status').notNull(),
    response: text('response').notNull(),
    created_at: integer('created_at').notNull(),
  },
  (t) => [index('idempotency_created_idx').on(t.created_at)],
);

export const device = sqliteTable('device', {
  device_id: text('device_id').primaryKey(),
  user_id: integer('user_id').notNull(),
  last_seq: integer('last_seq').notNull().default(0),
  updated_at: integer('updated_at').notNull(),
});
