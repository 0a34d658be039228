import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as schema from './schema/index';
import { cacheStatements } from './statementCache';

export type Schema = typeof schema;
export type Db = BetterSQLite3Database<Schema> & { $client: Database.Database };

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * WAL with synchronous=FULL: a device deletes a queued action once it is answered, so an answered
 * write must survive a power cut (DESIGN.md section 8).
 */
function configure(sqlite: Database.Database, file: boolean): void {
  if (file) sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  cacheStatements(sqlite);
}

export function openDatabase(path: string): Db {
  const file = path !== ':memory:';
  if (file) mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  configure(sqlite, file);
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  return db as Db;
}

let template: Buffer | undefined;

/** A fresh migrated in-memory database; migrations run once per process, then the image is copied. */
export function openMemoryDatabase(): Db {
  if (!template) {
    const first = openDatabase(':memory:');
    template = first.$client.serialize();
    first.$client.close();
  }
  const sqlite = new Database(template);
  configure(sqlite, false);
  return drizzle(sqlite, { schema }) as Db;
}
