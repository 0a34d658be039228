import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Throttle counters every server process shares (PostgreSQL, WORKERS=N): the rate limiter's windows
 * and the login throttle's failures and known addresses (server/http/sharedThrottle.ts). SQLite is
 * served by one process, which keeps those in memory. On both engines it holds the upload
 * allowances (`upload-rate:`, `upload-held:`; server/services/files/allowance.ts), reserved in one
 * conditional statement each. Keys are `<scope>:<subject>`, as in server/http/rateLimit.ts.
 */
export const throttle = sqliteTable(
  'throttle',
  {
    key: text('key').primaryKey(),
    /** Hits in the window, or failures counted. */
    n: integer('n').notNull(),
    /** Epoch ms: when the window ends, or until when the failures refuse attempts. */
    until_at: integer('until_at').notNull(),
    /** Epoch ms after which the row means nothing any more (pruned by `pruneThrottle`). */
    expires_at: integer('expires_at').notNull(),
  },
  (t) => [index('throttle_expires_idx').on(t.expires_at)],
);
