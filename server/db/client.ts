import { drizzle, type SqliteRemoteDatabase } from 'drizzle-orm/sqlite-proxy';
import * as schema from './schema/index';
import type { Engine } from './engine/types';
import type { PostgresOptions } from './engine/postgres';
import { freshPostgresUrl, migratePostgresAt, postgresEngineAt, sqliteFileEngine, sqliteMemoryEngine } from './engine/open';

export { MIGRATIONS_DIR, PG_MIGRATIONS_DIR, sqliteOf } from './engine/open';

export type Schema = typeof schema;
/**
 * The database every service is written against: drizzle's SQLite query builder, asynchronous, run
 * by whichever engine was chosen at start (`$engine`), which turns the text into its own where it
 * must (server/db/engine/dialect.ts). See docs/decisions-data-layer.md, docs/decisions-engine-joint.md.
 */
export type Db = SqliteRemoteDatabase<Schema> & { $engine: Engine };

/** Where the data lives: a PostgreSQL URL, else a SQLite file (or `:memory:`). */
export interface DatabaseTarget {
  url?: string;
  path?: string;
  /** PostgreSQL: connections per process (each unit of work holds one while it runs). */
  poolSize?: number;
}

/** Wraps an engine in the one query builder. */
function dbOf(engine: Engine): Db {
  const db = drizzle((sql, params, method) => engine.execute(sql, params, method) as Promise<{ rows: never[] }>, { schema });
  return Object.assign(db, { $engine: engine });
}

/** A PostgreSQL database already migrated (a second process's view in tests, benchmarks). */
export function postgresDb(url: string, options: Omit<PostgresOptions, 'identities'> = {}): Db {
  return dbOf(postgresEngineAt(url, options));
}

/** Opens and migrates the database: PostgreSQL when `url` is a postgres:// URL, else SQLite at `path`. */
export async function openDatabase(target: DatabaseTarget | string): Promise<Db> {
  const { url, path, poolSize } = typeof target === 'string' ? { url: undefined, path: target, poolSize: undefined } : target;
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url))
      throw new Error('DATABASE_URL must be a postgres:// URL (leave it unset for SQLite at DATABASE_PATH)');
    await migratePostgresAt(url);
    return postgresDb(url, poolSize ? { poolSize } : {});
  }
  return dbOf(sqliteFileEngine(path ?? './data/courier.db'));
}

/**
 * A fresh migrated database for a test: in-memory SQLite, or, with TEST_DATABASE_URL set, a new
 * PostgreSQL database made from a migrated template (test/helpers/postgres.ts).
 */
export async function openMemoryDatabase(): Promise<Db> {
  const admin = process.env.TEST_DATABASE_URL;
  if (admin) return postgresDb(await freshPostgresUrl(admin), { poolSize: 4, idleMs: 1000 });
  return dbOf(sqliteMemoryEngine());
}

/** How many rows an UPDATE or DELETE `.run()` changed, on either engine. */
export function changedRows(result: unknown): number {
  return (result as { changes?: number }).changes ?? 0;
}
