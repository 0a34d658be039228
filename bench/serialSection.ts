import type pg from 'pg';
import type { PostgresEngine } from '../server/db/engine/postgres';

/**
 * The serial section of PostgreSQL writes: from the moment a connection is granted a transaction
 * advisory lock to the moment its COMMIT returns. Before issue 33 every feed-writing unit took the
 * feed's lock (`feedOrder`); now only the feed's placement does (server/db/engine/feedPlacement.ts).
 * No two holders of one database are in it at once, so 1,000 / its mean in ms bounds how many times
 * per second it can run whatever the cores. Measured on the engine's own pooled connections (each
 * one's queries timed as they return): for benches, never for tests.
 */
interface SerialSection {
  /** Milliseconds each unit that took the lock held it, in the order they committed. */
  readonly held: number[];
  /** Milliseconds each unit waited for the lock. */
  readonly waited: number[];
  /** Rows each placement of the feed placed (the rows its COMMIT's statement changed). */
  readonly placed: number[];
}

type Query = (...args: unknown[]) => Promise<unknown>;
const textOf = (arg: unknown): string => (typeof arg === 'string' ? arg : ((arg as { text?: string } | undefined)?.text ?? ''));

export function timeSerialSection(engine: PostgresEngine): SerialSection {
  const held: number[] = [];
  const waited: number[] = [];
  const placed: number[] = [];
  const lockedAt = new WeakMap<pg.PoolClient, number>();
  const wrapped = new WeakSet<pg.PoolClient>();
  const pool = engine.pool as unknown as { connect: (...args: unknown[]) => unknown };
  const connect = pool.connect.bind(pool);
  // Units take a connection with connect() and hold it; pool.query() passes a callback: left alone.
  pool.connect = (...args: unknown[]) => {
    if (args.length) return connect(...args);
    return (connect() as Promise<pg.PoolClient>).then((client) => {
      if (!wrapped.has(client)) {
        wrapped.add(client);
        wrap(client);
      }
      return client;
    });
  };
  function wrap(client: pg.PoolClient): void {
    const query = client.query.bind(client) as unknown as Query;
    (client as unknown as { query: Query }).query = async (...args: unknown[]) => {
      const text = textOf(args[0]);
      const asked = performance.now();
      try {
        const res = await query(...args);
        const at = performance.now();
        if (text.includes('pg_advisory_xact_lock')) {
          if (!lockedAt.has(client)) {
            lockedAt.set(client, at);
            waited.push(at - asked);
          }
        } else if (/(^|; )commit$/.test(text)) {
          const from = lockedAt.get(client);
          if (from !== undefined) held.push(at - from);
          // The placement sends its UPDATE and COMMIT as one query: node-postgres answers one result each.
          if (from !== undefined && Array.isArray(res) && text.includes('update change_log'))
            placed.push((res[0] as { rowCount?: number | null }).rowCount ?? 0);
          lockedAt.delete(client);
        } else if (/(^|; )rollback$/.test(text)) lockedAt.delete(client);
        return res;
      } catch (err) {
        if (!text.includes('pg_advisory_xact_lock')) lockedAt.delete(client);
        throw err;
      }
    };
  }
  return { held, waited, placed };
}

/** Mean and percentiles of a list of milliseconds, as one line. */
export function summary(ms: number[]): string {
  if (!ms.length) return 'none';
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(2);
  const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
  return `n ${ms.length}, mean ${mean.toFixed(2)} ms, p50 ${at(0.5)}, p95 ${at(0.95)}, max ${sorted.at(-1)!.toFixed(2)}`;
}
