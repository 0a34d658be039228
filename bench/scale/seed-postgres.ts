import pg from 'pg';
import type { ScaleOptions } from './plan';
import { seedScale, type ScaleData, type SeedConnection } from './seed';

/**
 * The scale data set in a migrated PostgreSQL database: one session with synchronous_commit off and
 * foreign-key triggers off during the load (the rows are made consistent), indexes built after,
 * identity sequences moved past the explicit ids, then VACUUM ANALYZE so the server meets the
 * visibility map and statistics of a database that has been running.
 */
export async function seedPostgres(url: string, o: ScaleOptions, log?: (line: string) => void): Promise<ScaleData> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("set synchronous_commit = off; set maintenance_work_mem = '1GB'; set session_replication_role = replica");
    const c: SeedConnection = {
      kind: 'postgres',
      exec: async (sql) => {
        await client.query(sql);
      },
      value: async (sql) => Number(Object.values((await client.query(sql)).rows[0] as Record<string, unknown>)[0] ?? 0),
      numbers: (lo, hi) => `(select generate_series(${lo}::bigint, ${hi}::bigint) as n)`,
      indexes: async (tables) =>
        (
          (
            await client.query(
              `select i.indexname as name, i.indexdef as sql from pg_indexes i where i.schemaname = 'public' and i.tablename = any($1)
           and not exists (select 1 from pg_constraint k where k.conname = i.indexname)`,
              [tables],
            )
          ).rows as { name: string; sql: string }[]
        ).map((ix) => ({ drop: `drop index "${ix.name}"`, create: ix.sql })),
      afterLoad: async (tables) => {
        // change_log's identity hands out pending seqs (negative, migration 0011); the seeded rows took theirs.
        for (const t of tables.filter((name) => name !== 'change_log')) {
          await client.query(`select setval(pg_get_serial_sequence('"${t}"', 'id'), coalesce((select max("id") from "${t}"), 1))`);
        }
      },
    };
    const data = await seedScale(c, o, Date.now(), log);
    await client.query('vacuum analyze');
    return data;
  } finally {
    await client.end();
  }
}
