import { AsyncLocalStorage } from 'node:async_hooks';
import Database from 'better-sqlite3';
import type { Engine, Method, QueryResult, UnitOptions, Units } from './types';
import { cacheStatements } from '../statementCache';
import { startCheckpointer } from '../checkpointer';
import { sqliteUnits, UNIT_SAVEPOINT, type UnitGate } from './sqliteUnits';
import { sqliteWatcher } from './sqliteWatch';

/**
 * better-sqlite3 behind the engine interface. Every statement runs synchronously on the one
 * connection; the promise only hands the result to async services. While a unit of work is between
 * two of its statements, statements from anywhere else wait for it to end, so nobody reads a unit's
 * half-made state and nothing slips into its savepoint (server/db/engine/sqliteUnits.ts).
 */
export function sqliteEngine(sqlite: Database.Database): Engine & { sqlite: Database.Database } {
  cacheStatements(sqlite);
  const gate: UnitGate = { store: new AsyncLocalStorage<object>(), active: null };
  let units: Units | null = null;
  const note = (text: string): void => engine.onStatement?.(text);
  let watcher: ReturnType<typeof sqliteWatcher> | null = null;

  function now(sql: string, params: unknown[], method: Method): QueryResult {
    engine.onStatement?.(sql);
    // Only the active unit's own statements get past the gate (execute below).
    if (gate.active) gate.active.fresh = false;
    const stmt = sqlite.prepare(sql);
    if (method === 'run') {
      if (stmt.reader) {
        stmt.raw(true).all(...params);
        return { rows: [], changes: 0 };
      }
      return { rows: [], changes: stmt.run(...params).changes };
    }
    stmt.raw(true);
    return { rows: method === 'get' ? stmt.get(...params) : stmt.all(...params) };
  }

  function execute(sql: string, params: unknown[], method: Method): Promise<QueryResult> {
    const active = gate.active;
    if (active && gate.store.getStore() !== active.token) return active.idle.then(() => execute(sql, params, method));
    try {
      return Promise.resolve(now(sql, params, method));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  const engine: Engine & { sqlite: Database.Database } = {
    kind: 'sqlite',
    shared: false,
    detached: () => (work) => work(),
    startUpkeep: (log) => startCheckpointer(sqlite, { log }),
    sqlite,
    onStatement: null,
    execute,
    // One runner per connection: the first caller's options (a test's commit seam) hold.
    units(options?: UnitOptions) {
      units ??= sqliteUnits(sqlite, gate, options, note);
      return units;
    },
    async savepoint<T>(work: () => Promise<T>): Promise<T> {
      const active = gate.active;
      if (!active || gate.store.getStore() !== active.token) throw new Error('A savepoint runs inside a unit of work');
      if (active.fresh) {
        // Nothing ran in the unit since its own savepoint (a route's handler, the usual case): rolling
        // back to that one undoes exactly what `work` did, and two statements are saved.
        try {
          return await work();
        } catch (err) {
          if (sqlite.inTransaction) {
            note(`ROLLBACK TO ${UNIT_SAVEPOINT}`);
            sqlite.prepare(`ROLLBACK TO ${UNIT_SAVEPOINT}`).run();
            active.fresh = true;
          }
          throw err;
        }
      }
      note('SAVEPOINT nested');
      sqlite.prepare('SAVEPOINT nested').run();
      try {
        const value = await work();
        note('RELEASE nested');
        sqlite.prepare('RELEASE nested').run();
        return value;
      } catch (err) {
        // SQLite may have rolled back the whole transaction itself (disk full): the unit sees that.
        if (sqlite.inTransaction) {
          sqlite.prepare('ROLLBACK TO nested').run();
          sqlite.prepare('RELEASE nested').run();
        }
        throw err;
      }
    },
    watch(tables) {
      watcher ??= sqliteWatcher(sqlite, () => units?.failures ?? 0);
      return watcher(tables);
    },
    async close() {
      await units?.flush();
      sqlite.close();
    },
  };
  return engine;
}

export { Database };
