import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { id } from './columns';

/**
 * Admin actions that change what others may do or what a parcel's record says (force delivery,
 * wallet adjustments, permissions, company and employee status). Append-only: nothing updates or
 * deletes these rows.
 */
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: id(),
    at: integer('at').notNull(),
    /** No foreign key: the trail outlives the account (an employee who acted can still be deleted). */
    actor_id: integer('actor_id'),
    action: text('action').notNull(),
    /** `<kind>:<id>`, e.g. `package:12`, `company:3`. */
    target: text('target').notNull(),
    /** JSON: the facts of the change (before/after, note); never passwords or tokens. */
    details: text('details'),
  },
  (t) => [
    index('audit_log_target_idx').on(t.target, t.id),
    index('audit_log_actor_idx').on(t.actor_id, t.id),
    index('audit_log_action_idx').on(t.action, t.id),
  ],
);
