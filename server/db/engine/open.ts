import Database from 'better-sqlite3';
import type pg from 'pg';
import { is } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { migrate as migrateSqlite } from 'drizzle-orm/better-sqlite3/migrator';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as schema from '../schema/index';
import type { Engine } from './types';
import { sqliteEngine } from './sqlite';
import { installAnswerStore } from './sqliteAnswers';
import { installPostgresAnswerStore } from './postgresAnswers';
import { answerTag } from './answerStore';
// The answer store's triggers are the Package answer's expression.
import { answerSource } from './packageAnswer';
import { postgresEngine, type PostgresEngine, type PostgresOptions } from './postgres';
import { migratePostgres } from './postgresMigrate';

/**
 * Opening each engine: its settings, migrations and answer store. server/db/client.ts picks one from
 * the configuration and wraps it in the one query builder.
 */

const here = dirname(fileURLToPath(import.meta.url));
export const MIGRATIONS_DIR = join(here, '../migrations');
export const PG_MIGRATIONS_DIR = join(here, '../migrations-pg');

/**
 * WAL with synchronous=FULL: a device deletes a queued action once it is answered, so an answered
 * write must survive a power cut (DESIGN.md section 8). A 64 MB page cache instead of SQLite's 2 MB:
 * a remaining list or a poll touches more pages than 2 MB holds, and each page missed is a read
 * from the OS cache (a syscall and a copy); 64 MB keeps the indexes' upper levels and the recent
 * drivers' rows. Measured in process (bench/scale/cache.ts, median of 5 rounds): the remaining list
 * 2.53 -> 2.26 ms of CPU at 100k and 2.89 -> 2.55 at 1M, the head poll 0.78 -> 0.59 and 0.65 -> 0.57.
 * It is one connection's (the server has one; the checkpointer's needs none), small beside the
 * 4 GB the smallest machine in docs/operations.md has.
 */
function configure(sqlite: Database.Database, file: boolean): void {
  if (file) sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('cache_size = -65536');
}

function openSqliteFile(path: string): Database.Database {
  const file = path !== ':memory:';
  if (file) mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  configure(sqlite, file);
  // A migration that rebuilds a table (SQLite's way to change a foreign key) drops the old one, which
  // with foreign keys on deletes and checks every referencing row; its own PRAGMA foreign_keys=OFF
  // does nothing inside the migrator's transaction. So they are off while migrating, then checked.
  sqlite.pragma('foreign_keys = OFF');
  migrateSqlite(drizzleSqlite(sqlite), { migrationsFolder: MIGRATIONS_DIR });
  const broken = sqlite.pragma('foreign_key_check') as unknown[];
  sqlite.pragma('foreign_keys = ON');
  if (broken.length) throw new Error(`migration left ${broken.length} row(s) with a broken foreign key`);
  installAnswerStore(sqlite, answerSource('sqlite'));
  return sqlite;
}

/** A SQLite file (or `:memory:`), migrated. */
export const sqliteFileEngine = (path: string) => sqliteEngine(openSqliteFile(path));

let template: Buffer | undefined;

/** A fresh migrated in-memory SQLite database: migrations run once per process, then the image is copied. */
export function sqliteMemoryEngine() {
  if (!template) {
    const first = openSqliteFile(':memory:');
    template = first.serialize();
    first.close();
  }
  const sqlite = new Database(template);
  configure(sqlite, false);
  return sqliteEngine(sqlite);
}

const installPostgresAnswers = (client: pg.ClientBase) => installPostgresAnswerStore(client, answerSource('postgres'));

/** Each table's identity column on PostgreSQL: its single integer primary key (SQLite's rowid). */
function identityColumns(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const table of Object.values(schema)) {
    if (!is(table, SQLiteTable)) continue;
    const cfg = getTableConfig(table);
    const pk = cfg.primaryKeys.length ? undefined : cfg.columns.find((c) => c.primary && c.columnType === 'SQLiteInteger');
    if (pk) out[cfg.name] = pk.name;
  }
  return out;
}
/** Table -> identity column, for the PostgreSQL translation (dialect.ts `forPostgres`). */
export const IDENTITIES: Readonly<Record<string, string>> = identityColumns();

/** A PostgreSQL database already migrated. */
export const postgresEngineAt = (url: string, options: Omit<PostgresOptions, 'identities'> = {}): PostgresEngine =>
  postgresEngine(url, { ...options, identities: IDENTITIES });

/** Migrates the PostgreSQL database at `url` and puts its answer store in place. */
export const migratePostgresAt = (url: string): Promise<void> => migratePostgres(url, PG_MIGRATIONS_DIR, installPostgresAnswers);

/** A new migrated PostgreSQL database made from a template on the server at `admin` (tests): its URL. */
export async function freshPostgresUrl(admin: string): Promise<string> {
  const { freshPostgresDatabase } = await import('./postgresDatabases');
  const answers = answerTag(answerSource('postgres'));
  return freshPostgresDatabase(admin, PG_MIGRATIONS_DIR, installPostgresAnswers, answers);
}

/** The better-sqlite3 connection under a SQLite database (tests, benchmarks); null on PostgreSQL. */
export function sqliteOf(db: { $engine: Engine }): Database.Database | null {
  const engine = db.$engine as Engine & { sqlite?: Database.Database };
  return engine.sqlite ?? null;
}
