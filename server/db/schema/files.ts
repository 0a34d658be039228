import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { user } from './people';

/**
 * Uploaded bytes (photos, signatures, documents). `client_id` is the id the device chose before it
 * had signal, so a delivery queued offline can name its photos and the upload stays idempotent.
 */
export const storedFile = sqliteTable('stored_file', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  key: text('key').notNull(),
  client_id: text('client_id'),
  sha256: text('sha256').notNull(),
  mime: text('mime').notNull(),
  size: integer('size').notNull(),
  kind: text('kind').notNull(),
  owner_id: integer('owner_id').notNull().references(() => user.id),
  created_at: integer('created_at').notNull(),
}, (t) => [uniqueIndex('stored_file_client_uq').on(t.owner_id, t.client_id), index('stored_file_sha_idx').on(t.sha256)]);
