import Database from 'better-sqlite3';
import { openDatabase } from '../../server/db/client';
import type { ScaleOptions } from './plan';
import { seedScale, type ScaleData, type SeedConnection } from './seed';

/**
 * The scale data set in a SQLite file: migrated by the server's own code, then loaded on a
 * connection of its own with the journal and fsync off (a failed seed is simply made again), and
 * left in WAL mode, analysed, as the server finds a database it has been running on.
 */
export async function seedSqlite(path: string, o: ScaleOptions, log?: (line: string) => void): Promise<ScaleData> {
  await (await openDatabase(path)).$engine.close();
  const db = new Database(path);
  try {
    // better-sqlite3 opens in defensive mode, which silently keeps WAL (an 8 GB WAL at 10M): allow OFF for the seed.
    db.unsafeMode(true);
    if (db.pragma('journal_mode = OFF', { simple: true }) !== 'off') throw new Error('the seed could not turn the journal off');
    db.pragma('synchronous = OFF');
    db.pragma('foreign_keys = OFF');
    db.pragma('cache_size = -1000000');
    const c: SeedConnection = {
      kind: 'sqlite',
      exec: async (sql) => {
        db.exec(sql);
      },
      value: async (sql) => Number(Object.values(db.prepare(sql).get() as Record<string, unknown>)[0] ?? 0),
      numbers: (lo, hi) => `(with recursive r(n) as (select ${lo} union all select n + 1 from r where n < ${hi}) select n from r)`,
      indexes: async (tables) =>
        (
          db
            .prepare(
              `select name, sql from sqlite_master where type = 'index' and sql is not null and tbl_name in (${tables.map(() => '?').join(',')})`,
            )
            .all(...tables) as { name: string; sql: string }[]
        ).map((ix) => ({ drop: `drop index "${ix.name}"`, create: ix.sql })),
      afterLoad: async () => {},
    };
    db.exec('begin');
    const data = await seedScale(c, o, Date.now(), log);
    db.exec('commit');
    db.exec('analyze');
    db.unsafeMode(false);
    db.pragma('journal_mode = WAL');
    return data;
  } finally {
    db.close();
  }
}
