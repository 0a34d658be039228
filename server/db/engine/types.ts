/**
 * What the data layer needs from a database engine. Queries are built once, by drizzle's SQLite
 * query builder (the one dialect every service is written against), and executed by an engine:
 * better-sqlite3 in this process, or PostgreSQL over node-postgres (docs/decisions-data-layer.md).
 */
export type Method = 'run' | 'all' | 'get' | 'values';

/** Rows are value arrays in column order (drizzle maps them to objects); `run` counts changed rows. */
export interface QueryResult {
  rows: unknown;
  changes?: number;
}

export type EngineKind = 'sqlite' | 'postgres';

/**
 * Units of work: each mutation's effects, with its stored answer, commit together or not at all.
 * On SQLite units run one at a time on the one connection and share a group commit
 * (server/db/engine/sqliteUnits.ts); on PostgreSQL each unit is a serializable transaction of its own,
 * retried when PostgreSQL could not serialize it (server/db/engine/postgres.ts).
 */
export interface Units {
  /**
   * Runs `work` as one unit. Resolves with its result (or rejects with what it threw) once its effects
   * are durable. A unit started inside a unit runs inline, as part of it.
   */
  run<T>(work: () => T | Promise<T>, options?: RunOptions): Promise<T>;
  /**
   * Resolves once writes answered so far are durable. Rejects if a group commit failed after `since`
   * (a `failures` reading taken when a request began): an answer built from reads may have seen its rows.
   */
  settled(since?: number): Promise<void>;
  /**
   * Runs `work` (a request) as a caller of its own. On PostgreSQL `settled()` inside it waits only
   * for the units it began: a read never sees another transaction's uncommitted rows, so waiting for
   * other requests' units only delays the answer. On SQLite reads share the connection with the open
   * group commit, so `settled()` still waits for that batch.
   */
  caller<T>(work: () => Promise<T>): Promise<T>;
  readonly failures: number;
  /** Whether a group commit is open (SQLite): what it holds is not durable yet. */
  readonly open: boolean;
  /** Commits whatever is pending now (shutdown). */
  flush(): Promise<void>;
  /** Whether the caller runs inside a unit. */
  inside(): boolean;
  /**
   * Runs `task` once the caller's unit is durable, outside of it (work a request starts that must see
   * the request's rows: a solver's result written back); dropped if the unit fails. Outside a unit, now.
   */
  after(task: () => void): void;
}

export interface RunOptions {
  /**
   * The unit changes a handful of rows (one parcel's scan or delivery), never a number that grows with
   * its input. SQLite then keeps its undo journal in memory instead of a temporary file
   * (server/db/engine/sqliteUnits.ts, `JournalIn`); PostgreSQL has no such choice and ignores it.
   */
  small?: boolean;
}

export interface UnitOptions {
  /** SQLite: units after which the group commit commits without waiting for the end of the turn. */
  maxUnits?: number;
  /**
   * Test seam: runs just before COMMIT, and what it throws is handled as the COMMIT failing. A real
   * disk-full or I/O error at that exact statement cannot be provoked deterministically in a test.
   */
  beforeCommit?: () => void;
}

/** Runs `work` outside any unit of work where the engine can (see `Engine.detached`). */
export type Outside = <T>(work: () => Promise<T>) => Promise<T>;

export interface Engine {
  /** Which engine this is: asked only under server/db/engine/ (test/server/architecture.test.ts). */
  readonly kind: EngineKind;
  /**
   * Whether several server processes may share this database (PostgreSQL: WORKERS=N, or several
   * machines). State they must agree on (throttle counts) then lives in the database, not in memory.
   */
  readonly shared: boolean;
  /**
   * A runner for statements that must not join the caller's unit (a throttle count a rollback must
   * not take back). PostgreSQL: they run on the pool, in the async context of the moment the runner
   * was made, so make it outside any unit (when the app is built). SQLite (one connection, whose open
   * group commit every statement joins): they run where they are called.
   */
  detached(): Outside;
  /** Starts the engine's own upkeep (SQLite: WAL checkpoints off the event loop, server/db/checkpointer.ts); none on PostgreSQL. */
  startUpkeep(log: (line: string) => void): { stop(): Promise<void> };
  /**
   * Debug seam (tests, benches): called with every statement the engine sends, transaction control
   * included. On PostgreSQL each is a round trip, so their number per request is a cost worth watching.
   */
  onStatement: ((text: string) => void) | null;
  execute(sql: string, params: unknown[], method: Method): Promise<QueryResult>;
  /** The engine's units of work; options apply to SQLite's group commit. */
  units(options?: UnitOptions): Units;
  /**
   * Runs `work` in a savepoint of the current unit: what it throws undoes only its own effects. Both
   * engines speak the same SAVEPOINT statements; outside a unit it is an error (PostgreSQL has no
   * transaction to put it in).
   */
  savepoint<T>(work: () => Promise<T>): Promise<T>;
  /**
   * A stamp that moves whenever a row of these tables may have changed, in this process or any other,
   * so what a process read from them may be kept until it moves (the session cache, services/auth).
   * Null where no such signal is cheap (PostgreSQL: several processes, and asking is a round trip):
   * the caller reads every time.
   */
  watch(tables: readonly WatchedTable[]): ChangeStamp | null;
  close(): Promise<void>;
}

/** A table a process-local copy depends on; updates of `ignore` columns only (a last-use time) do not count. */
export interface WatchedTable {
  name: string;
  ignore?: readonly string[];
}

/**
 * A value that changes whenever a watched row may have changed; null while the engine cannot vouch
 * for it (its signal is missing or being repaired), when nothing read from those tables may be kept.
 */
export type ChangeStamp = () => string | null;
