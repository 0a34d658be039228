import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';

/** Any fixed number: every process of every version takes the same lock before migrating. */
const MIGRATION_LOCK = 0x636f7572; // "cour"

/**
 * Runs the PostgreSQL migrations on one connection under a session advisory lock: several processes
 * starting at once (WORKERS=N, several machines) migrate one after another, and each later one finds
 * nothing left to do.
 */
export async function migratePostgres(url: string, folder: string, after?: (client: pg.ClientBase) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      // Notices such as "schema already exists, skipping" are not news.
      await client.query('set client_min_messages = warning');
      await migrate(drizzle(client), { migrationsFolder: folder });
      // What the schema's code makes besides the migrations (the answer store's triggers), under the same lock.
      await after?.(client);
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await client.end();
  }
}
