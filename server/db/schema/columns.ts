import { integer, text } from 'drizzle-orm/sqlite-core';

/** Columns every resource row carries; times are epoch milliseconds. */
export const id = () => integer('id').primaryKey({ autoIncrement: true });
export const timestamps = () => ({
  created_at: integer('created_at').notNull(),
  updated_at: integer('updated_at').notNull(),
});
/** Soft delete: archived rows keep their references valid (DESIGN.md section 3). */
export const archivable = () => ({ deleted_at: integer('deleted_at') });
export const activeFlag = () => ({ is_active: integer('is_active', { mode: 'boolean' }).notNull().default(true) });
export const str = (name: string) => text(name).notNull().default('');
