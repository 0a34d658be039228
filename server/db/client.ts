import Database from 'better-sqlite3';
import type pg from 'pg';
import { is } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { drizzle, type SqliteRemoteDatabase } from 'drizzle-orm/sqlite-proxy';
import { migrate as migrateSqlite } from 'drizzle-orm/better-sqlite3/migrator';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as schema from './schema/index';
import type { Engine } from './engine/types';
import { sqliteEngine } from './engine/sqlite';
import { installAnswerStore } from './engine/sqliteAnswers';
import { installPostgresAnswerStore } from './engine/postgresAnswers';
import { answerTag } from './engine/answerStore';
// The answer store's triggers are the Package answer's expression.
import { answerSource } from './engine/packageAnswer';
import { postgresEngine, type PostgresOptions } from './engine/postgres';
import { migratePostgres } from './engine/postgresMigrate';

export type Schema = typeof schema;
/**
 * The database every service is written against: drizzle's SQLite query builder, asynchronous, run
 * by whichever engine was chosen at start (`$engine`). See docs/decisions-data-layer.md.
 */
export type Db = SqliteRemoteDatabase<Schema> & { $engine: Engine };

const here = dirname(fileURLToPath(import.meta.url));
export const MIGRATIONS_DIR = join(here, 'migrations');
export const PG_MIGRATIONS_DIR = join(here, 'migrations-pg');

/** Where the data lives: a PostgreSQL URL, else a SQLite file (or `:memory:`). */
export interface DatabaseTarget {
  url?: string;
  path?: string;
  /** PostgreSQL: connections per process (each unit of work holds one while it runs). */
  poolSize?: number;
}

/** Wraps an engine in the one query builder; PostgreSQL numbers its parameters ($1, $2...). */
export function dbOf(engine: Engine): Db {
  const db = drizzle((sql, params, method) => engine.execute(sql, params, method) as Promise<{ rows: never[] }>, { schema });
  if (engine.kind === 'postgres') {
    const dialect = (db as unknown as { dialect: { escapeParam: (n: number) => string } }).dialect;
    dialect.escapeParam = (n) => `$${n + 1}`;
  }
  return Object.assign(db, { $engine: engine });
}

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
const IDENTITIES = identityColumns();

/** A PostgreSQL database already migrated (a second process's view in tests, benchmarks). */
export function postgresDb(url: string, options: Omit<PostgresOptions, 'identities'> = {}): Db {
  return dbOf(postgresEngine(url, { ...options, identities: IDENTITIES }));
}

/** Opens and migrates the database: PostgreSQL when `url` is a postgres:// URL, else SQLite at `path`. */
export async function openDatabase(target: DatabaseTarget | string): Promise<Db> {
  const { url, path, poolSize } = typeof target === 'string' ? { url: undefined, path: target, poolSize: undefined } : target;
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url))
      throw new Error('DATABASE_URL must be a postgres:// URL (leave it unset for SQLite at DATABASE_PATH)');
    await migratePostgres(url, PG_MIGRATIONS_DIR, installPostgresAnswers);
    return postgresDb(url, poolSize ? { poolSize } : {});
  }
  return dbOf(sqliteEngine(openSqliteFile(path ?? './data/courier.db')));
}

/** The better-sqlite3 connection under a SQLite database (backups, checkpoints); null on PostgreSQL. */
export function sqliteOf(db: Db): Database.Database | null {
  const engine = db.$engine as Engine & { sqlite?: Database.Database };
  return engine.sqlite ?? null;
}

let template: Buffer | undefined;

/**
 * A fresh migrated database for a test: in-memory SQLite (migrations run once per process, then the
 * image is copied), or, with TEST_DATABASE_URL set, a new PostgreSQL database made from a migrated
 * template (test/helpers/postgres.ts).
 */
export async function openMemoryDatabase(): Promise<Db> {
  const admin = process.env.TEST_DATABASE_URL;
  if (admin) {
    const { freshPostgresDatabase } = await import('./engine/postgresDatabases');
    const answers = answerTag(answerSource('postgres'));
    return postgresDb(await freshPostgresDatabase(admin, PG_MIGRATIONS_DIR, installPostgresAnswers, answers), {
      poolSize: 4,
      idleMs: 1000,
    });
  }
  if (!template) {
    const first = openSqliteFile(':memory:');
    template = first.serialize();
    first.close();
  }
  const sqlite = new Database(template);
  configure(sqlite, false);
  return dbOf(sqliteEngine(sqlite));
}

/** How many rows an UPDATE or DELETE `.run()` changed, on either engine. */
export function changedRows(result: unknown): number {
  return (result as { changes?: number }).changes ?? 0;
}
