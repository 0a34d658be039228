import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Engine, Method, QueryResult, Units } from './types';
import { codeOf, constraintOf } from './errors';
import { forPostgres } from './dialect';

/** node-postgres answers 64-bit integers and numerics as strings; every such value here fits a double (ids, epoch ms, counts, sums). */
const PARSERS: Record<number, (text: string) => unknown> = { 20: Number, 1700: Number };
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    return PARSERS[oid] ?? pg.types.getTypeParser(oid, format ?? 'text');
  },
};

const MAX_TRIES = 10;

/**
 * A unit's connection; `ended` once it committed or rolled back (work it started may outlive it).
 * `pending`: transaction control not sent yet (see `postgresEngine`).
 */
interface Scope {
  client: pg.PoolClient;
  ended: boolean;
  after: (() => void)[];
  pending: string[];
}

const BEGIN = 'begin isolation level serializable';
const SAVEPOINT = 'savepoint nested';
const RELEASE = 'release savepoint nested';

export interface PostgresOptions {
  /** Connections per process. */
  poolSize?: number;
  /** An idle connection is closed after this long (tests open many small databases). */
  idleMs?: number;
  /** Each table's identity column (its single integer primary key), by table name. */
  identities?: Readonly<Record<string, string>>;
}

/**
 * Units this engine ran again, by why: `serialization` (40001, SERIALIZABLE could not order it with
 * another unit), `deadlock` (40P01), `unique` (a twin's row seen late). A cost to watch (tests, benches):
 * each retry is the whole unit's work again.
 */
export interface RetryCounts {
  serialization: number;
  deadlock: number;
  unique: number;
}

export type PostgresEngine = Engine & { kind: 'postgres'; pool: pg.Pool; readonly retried: RetryCounts };

/**
 * PostgreSQL behind the engine interface. Statements outside a unit run on any pooled connection;
 * a unit holds one connection for a SERIALIZABLE transaction, so two processes (or two requests of
 * one) can never both apply one state transition: PostgreSQL refuses the second to commit, and the
 * unit runs again from the start and sees the first one's effect (the same outcome SQLite's one
 * connection gives by running units one after another). Unique constraints stand behind idempotency
 * keys and device sequences.
 */
export function postgresEngine(url: string, options: PostgresOptions = {}): PostgresEngine {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, idleTimeoutMillis: options.idleMs ?? 10_000, types });
  // An idle pooled connection that breaks (server restart) must not take the process down.
  pool.on('error', (err) => console.error('[courier] idle PostgreSQL connection failed', err.message));
  const store = new AsyncLocalStorage<Scope>();
  const retried: RetryCounts = { serialization: 0, deadlock: 0, unique: 0 };
  const identities = options.identities ?? {};
  // Named statements are parsed and planned once per connection; the text PostgreSQL gets is made once.
  const statements = new Map<string, { name: string; text: string; params: number }>();
  const statementOf = (source: string) => {
    let stmt = statements.get(source);
    if (!stmt) {
      stmt = { name: `q${createHash('sha1').update(source).digest('hex').slice(0, 20)}`, ...forPostgres(source, identities) };
      if (statements.size > 2000) statements.clear();
      statements.set(source, stmt);
    }
    return stmt;
  };

  /** The unit the caller runs in, if it is still open: background work started by a unit carries its context. */
  const current = (): Scope | undefined => {
    const scope = store.getStore();
    return scope && !scope.ended ? scope : undefined;
  };

  /** Transaction control on a unit's connection. */
  const control = (client: pg.PoolClient, text: string) => {
    engine.onStatement?.(text);
    return client.query(text);
  };
  /**
   * Each statement is a round trip, and a unit's BEGIN, the route's SAVEPOINT around its handler and
   * their RELEASE carry no data: they wait in `pending` and leave as one simple query just before the
   * unit's next statement (PostgreSQL takes the snapshot at the first statement, not at BEGIN, so
   * nothing changes). A RELEASE still pending at COMMIT is dropped (COMMIT releases every savepoint),
   * and a unit that sent nothing commits nothing.
   */
  const sendPending = (scope: Scope): Promise<unknown> | undefined => {
    if (!scope.pending.length) return undefined;
    const text = scope.pending.join('; ');
    scope.pending.length = 0;
    return control(scope.client, text);
  };

  async function execute(sql: string, params: unknown[], method: Method): Promise<QueryResult> {
    const scope = current();
    if (scope) await sendPending(scope);
    const target = scope?.client ?? pool;
    const { name, text, params: bound } = statementOf(sql);
    // A parameter the translation numbered wrongly would bind a value to the wrong place: refuse instead.
    if (bound !== params.length) throw new Error(`statement binds ${bound} parameters, given ${params.length}: ${text}`);
    engine.onStatement?.(text);
    const res = await target.query({ name, text, values: params, rowMode: 'array' });
    if (method === 'run') return { rows: [], changes: res.rowCount ?? 0 };
    return { rows: method === 'get' ? res.rows[0] : res.rows };
  }

  // Units under way, in the process and per caller (a request, see `caller`). A read here never sees
  // another transaction's uncommitted rows, so `settled()` waits only for the units its own caller
  // began (a session touch, a file row before its old bytes go); outside any caller, for all of them.
  const inflight = new Set<Promise<unknown>>();
  const callers = new AsyncLocalStorage<Set<Promise<unknown>>>();
  const waitFor = (units: Set<Promise<unknown>>): Promise<void> =>
    units.size ? Promise.allSettled([...units]).then(() => undefined) : Promise.resolve();

  const units: Units = {
    run<T>(work: () => T | Promise<T>): Promise<T> {
      if (current()) return Promise.resolve().then(work);
      const unit = runUnit(work);
      const mine = callers.getStore();
      inflight.add(unit);
      mine?.add(unit);
      const forget = () => {
        inflight.delete(unit);
        mine?.delete(unit);
      };
      unit.then(forget, forget);
      return unit;
    },
    // Inside a unit it would wait for itself: the unit's own writes are its caller's to wait for.
    settled: () => (current() ? Promise.resolve() : waitFor(callers.getStore() ?? inflight)),
    caller: (work) => callers.run(new Set(), work),
    failures: 0,
    open: false,
    flush: () => waitFor(inflight),
    inside: () => current() !== undefined,
    after(task) {
      const scope = current();
      if (scope) scope.after.push(task);
      else store.exit(task);
    },
  };

  async function runUnit<T>(work: () => T | Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const client = await pool.connect();
      const scope: Scope = { client, ended: false, after: [], pending: [BEGIN] };
      let broken = false;
      try {
        const value = await store.run(scope, work);
        if (scope.pending[0] !== BEGIN) {
          // Releases go with the COMMIT; a ROLLBACK TO still pending must run before it.
          while (scope.pending.at(-1) === RELEASE) scope.pending.pop();
          scope.pending.push('commit');
          await sendPending(scope);
        }
        scope.ended = true;
        for (const task of scope.after) store.exit(task);
        return value;
      } catch (err) {
        scope.ended = true;
        const sent = scope.pending[0] !== BEGIN;
        scope.pending.length = 0;
        try {
          if (sent) await control(client, 'rollback');
        } catch {
          broken = true;
        }
        // A unique violation may be a twin that committed after this unit's snapshot was taken (an
        // Idempotency-Key, a device sequence): run again, the twin's row is seen and its answer given.
        const code = codeOf(err);
        const why =
          code === '40001'
            ? 'serialization'
            : code === '40P01'
              ? 'deadlock'
              : constraintOf(err) === 'unique' && attempt < 3
                ? 'unique'
                : null;
        if (!why || attempt >= MAX_TRIES) throw err;
        retried[why] += 1;
        // Let the unit that won go first; randomness keeps two losers from meeting again, and the wait
        // doubles (to 200 ms) because on small tables predicate locks are coarse, so many unrelated
        // units conflict at once (a fresh database's first busy minute: 30 concurrent deliveries
        // exhausted 8 tries of at most 5 ms x attempt and one answered 503). Not sequential scans: the
        // hot tables are read by index even when empty; but a read through an empty index locks the
        // whole index, and while an index is one page every read locks that page, which every insert
        // into it then conflicts with (sampled from pg_locks, docs/decisions-data-layer.md). Planner
        // settings (random_page_cost, enable_seqscan) measured no fewer retries; the pages split as
        // the tables grow.
        await new Promise((ok) => setTimeout(ok, Math.random() * Math.min(200, 5 * 2 ** attempt)));
      } finally {
        client.release(broken);
      }
    }
  }

  const engine: PostgresEngine = {
    kind: 'postgres',
    shared: true,
    detached() {
      const snapshot = AsyncLocalStorage.snapshot();
      return (work) => snapshot(work);
    },
    startUpkeep: () => ({ stop: async () => undefined }),
    pool,
    retried,
    onStatement: null,
    execute,
    units: () => units,
    async savepoint<T>(work: () => Promise<T>): Promise<T> {
      const scope = current();
      if (!scope) throw new Error('A savepoint runs inside a unit of work');
      // Sent with the next statement (see sendPending); left out if none came before its end.
      scope.pending.push(SAVEPOINT);
      const unsent = () => scope.pending.at(-1) === SAVEPOINT;
      try {
        const value = await work();
        if (unsent()) scope.pending.pop();
        else scope.pending.push(RELEASE);
        return value;
      } catch (err) {
        if (unsent()) scope.pending.pop();
        else scope.pending.push('rollback to savepoint nested', RELEASE);
        throw err;
      }
    },
    watch: () => null,
    async close() {
      await pool.end();
    },
  };
  return engine;
}
