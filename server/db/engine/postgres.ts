import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Engine, Method, QueryResult, Units } from './types';
import { isRetryable } from './errors';

/** node-postgres answers 64-bit integers and numerics as strings; every such value here fits a double (ids, epoch ms, counts, sums). */
const PARSERS: Record<number, (text: string) => unknown> = { 20: Number, 1700: Number };
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    return PARSERS[oid] ?? pg.types.getTypeParser(oid, format ?? 'text');
  },
};

const MAX_TRIES = 8;

/**
 * SQLite sorts NULL below every value, PostgreSQL above: the queries are written for SQLite's order
 * (undated stops first...), so each ASC/DESC drizzle renders gets SQLite's placement of NULLs.
 */
export function sqliteNullOrder(text: string): string {
  return text.replace(/ (asc|desc)(?=,|\)| limit | offset |$)/g, (_, dir: string) => (dir === 'asc' ? ' asc nulls first' : ' desc nulls last'));
}

/** A unit's connection; `ended` once it committed or rolled back (work it started may outlive it). */
interface Scope { client: pg.PoolClient; ended: boolean; after: (() => void)[] }

export interface PostgresOptions {
  /** Connections per process. */
  poolSize?: number;
}

/**
 * PostgreSQL behind the engine interface. Statements outside a unit run on any pooled connection;
 * a unit holds one connection for a SERIALIZABLE transaction, so two processes (or two requests of
 * one) can never both apply one state transition: PostgreSQL refuses the second to commit, and the
 * unit runs again from the start and sees the first one's effect (the same outcome SQLite's one
 * connection gives by running units one after another). Unique constraints stand behind idempotency
 * keys and device sequences.
 */
export function postgresEngine(url: string, options: PostgresOptions = {}): Engine & { pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, types });
  // An idle pooled connection that breaks (server restart) must not take the process down.
  pool.on('error', (err) => console.error('[courier] idle PostgreSQL connection failed', err.message));
  const store = new AsyncLocalStorage<Scope>();
  // Named statements are parsed and planned once per connection.
  const names = new Map<string, string>();
  const nameOf = (text: string): string => {
    let name = names.get(text);
    if (!name) {
      name = `q${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
      if (names.size > 2000) names.clear();
      names.set(text, name);
    }
    return name;
  };

  /** The unit the caller runs in, if it is still open: background work started by a unit carries its context. */
  const current = (): Scope | undefined => {
    const scope = store.getStore();
    return scope && !scope.ended ? scope : undefined;
  };

  async function execute(sql: string, params: unknown[], method: Method): Promise<QueryResult> {
    const target = current()?.client ?? pool;
    const res = await target.query({ name: nameOf(sql), text: sql, values: params, rowMode: 'array' });
    if (method === 'run') return { rows: [], changes: res.rowCount ?? 0 };
    return { rows: method === 'get' ? res.rows[0] : res.rows };
  }

  const units: Units = {
    async run<T>(work: () => T | Promise<T>): Promise<T> {
      if (current()) return work();
      for (let attempt = 1; ; attempt += 1) {
        const client = await pool.connect();
        const scope: Scope = { client, ended: false, after: [] };
        let broken = false;
        try {
          await client.query('begin isolation level serializable');
          const value = await store.run(scope, work);
          await client.query('commit');
          scope.ended = true;
          for (const task of scope.after) store.exit(task);
          return value;
        } catch (err) {
          scope.ended = true;
          try {
            await client.query('rollback');
          } catch {
            broken = true;
          }
          if (!isRetryable(err) || attempt >= MAX_TRIES) throw err;
          // Let the unit that won go first; a little randomness keeps two losers from meeting again.
          await new Promise((ok) => setTimeout(ok, Math.random() * 5 * attempt));
        } finally {
          client.release(broken);
        }
      }
    },
    // Every unit committed before it answered: nothing is ever pending.
    settled: () => Promise.resolve(),
    failures: 0,
    open: false,
    flush: () => Promise.resolve(),
    inside: () => current() !== undefined,
    after(task) {
      const scope = current();
      if (scope) scope.after.push(task);
      else store.exit(task);
    },
  };

  return {
    kind: 'postgres',
    pool,
    execute,
    units: () => units,
    async savepoint<T>(work: () => Promise<T>): Promise<T> {
      const scope = current();
      if (!scope) throw new Error('A savepoint runs inside a unit of work');
      await scope.client.query('savepoint nested');
      try {
        const value = await work();
        await scope.client.query('release savepoint nested');
        return value;
      } catch (err) {
        await scope.client.query('rollback to savepoint nested');
        await scope.client.query('release savepoint nested');
        throw err;
      }
    },
    async close() {
      await pool.end();
    },
  };
}
