import type { AsyncLocalStorage } from 'node:async_hooks';
import Database from 'better-sqlite3';
import type { RunOptions, UnitOptions, Units } from './types';

/** Which unit holds the connection now; statements of everyone else wait for `idle`. */
export interface UnitGate {
  store: AsyncLocalStorage<object>;
  /** `fresh`: nothing ran in the unit since its SAVEPOINT (engine/sqlite.ts's savepoint() may reuse it). */
  active: { token: object; idle: Promise<void>; after: (() => void)[]; fresh: boolean } | null;
}

/** Each unit's savepoint: the batch undoes a failed unit back to it. */
export const UNIT_SAVEPOINT = 'write_unit';

/**
 * Group commit. With synchronous=FULL every COMMIT waits for an fsync, and an answered write must
 * be durable (a device deletes a queued action once it is answered), so one transaction per request
 * makes the disk flush the ceiling of every write route. Instead the first unit of an event-loop
 * turn opens one transaction, each unit runs in its own SAVEPOINT inside it (one unit at a time:
 * the gate holds everyone else's statements back while a unit is between two of its own), and the
 * whole batch commits once at the end of the turn: one fsync for all of them. A unit's promise
 * settles only after that COMMIT; if the COMMIT fails, the whole batch is rolled back and every unit
 * in it fails with the storage error, so nothing that was answered can vanish.
 *
 * A statement run outside any unit while a batch is open simply becomes part of the batch, and its
 * durability is the batch's.
 */
interface Batch {
  units: number;
  /** Every unit so far was declared small: the savepoints' undo journal is kept in memory (see `journalIn`). */
  small: boolean;
  done: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
  timer: NodeJS.Immediate;
  capped: boolean;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

const DEFAULT_MAX_UNITS = 200;

/**
 * Where SQLite keeps each unit's undo journal (its SAVEPOINT's sub-journal): SQLite's `temp_store`,
 * 0 = the build's default (a temporary file past 64 KiB), 2 = memory.
 *
 * Every page a unit changes goes into that journal first, once per savepoint and once more per
 * statement. An inbound scan changes ~20 pages (the parcel, four of its indexes, its stored answer,
 * the feed row's indexes, the event's), so past 64 KiB in its very first unit: every batch then
 * created a temporary file and wrote two syscalls per page into it, ~43 writes and 84 KB per scan,
 * more than the WAL itself got (bench figures: docs/operations.md, "The undo journal").
 *
 * In memory it is a copy, released at each unit's end. But it grows with the unit, by every page
 * each of its statements changes: bench/upload.ts's four 10,000-row uploads wrote 2.8 GB, nearly
 * all of it this journal, and 50,000 parcels inserted one statement each in one savepoint (1M
 * parcels beside them) took 3 s with it on files and had not ended after 300 s in memory. So only
 * batches whose units all say they are small keep it in memory; any other unit waits for such a
 * batch to commit and runs in a batch on files. The setting is read when a transaction begins, so
 * it changes only between batches.
 */
type JournalIn = 0 | 2;

/** SQLite undid the whole transaction on its own (disk full, I/O error) after a statement the batch did not see fail. */
function rolledBack(): Error {
  return new Database.SqliteError('A failed write rolled back the whole transaction; nothing of it was kept', 'SQLITE_ABORT_ROLLBACK');
}

/** `note` hears each transaction-control statement (the engine's debug seam, `onStatement`). */
export function sqliteUnits(
  sqlite: Database.Database,
  gate: UnitGate,
  options: UnitOptions = {},
  note: (text: string) => void = () => undefined,
): Units {
  const maxUnits = options.maxUnits ?? DEFAULT_MAX_UNITS;
  const control = (text: string) => {
    const stmt = sqlite.prepare(text);
    return {
      run: () => {
        note(text);
        return stmt.run();
      },
    };
  };
  const begin = control('BEGIN IMMEDIATE');
  const commit = control('COMMIT');
  const rollback = control('ROLLBACK');
  const savepoint = control(`SAVEPOINT ${UNIT_SAVEPOINT}`);
  const release = control(`RELEASE ${UNIT_SAVEPOINT}`);
  const rollbackTo = control(`ROLLBACK TO ${UNIT_SAVEPOINT}`);
  let current: Batch | null = null;
  let journal: JournalIn = 0;
  // Between batches the connection is back on files: a read's transient tables go there too.
  const journalIn = (where: JournalIn): void => {
    if (journal === where) return;
    // A pragma acts when prepared, so it is prepared each time (exec: 0.5 µs).
    sqlite.exec(`PRAGMA temp_store = ${where}`);
    journal = where;
  };
  const journalBack = (): void => {
    try {
      journalIn(0);
    } catch (err) {
      // Only possible inside a transaction a failed COMMIT left open; the next batch sets it again.
      console.error('[courier] could not put the undo journal back on files', err);
    }
  };
  let failures = 0;
  let lastError: unknown = null;
  // Units queue here: each waits for the one before it to leave the connection.
  let queue: Promise<void> = Promise.resolve();

  function fail(batch: Batch, err: unknown): void {
    if (current === batch) current = null;
    clearImmediate(batch.timer);
    journalBack();
    failures += 1;
    lastError = err;
    batch.reject(err);
  }

  function finish(batch: Batch): void {
    if (current !== batch) return;
    // A unit awaiting something other than this connection spans turns: commit once it is done.
    if (gate.active) {
      void gate.active.idle.then(() => finish(batch));
      return;
    }
    current = null;
    clearImmediate(batch.timer);
    if (!sqlite.inTransaction) return fail(batch, rolledBack());
    try {
      options.beforeCommit?.();
      commit.run();
    } catch (err) {
      // A failed COMMIT may leave the transaction open; nothing of the batch may persist.
      try {
        if (sqlite.inTransaction) rollback.run();
      } catch (rollbackErr) {
        console.error('[courier] rollback after a failed commit failed', rollbackErr);
      }
      return fail(batch, err);
    }
    journalBack();
    batch.resolve();
  }

  function join(small: boolean): Batch {
    if (current) {
      if (sqlite.inTransaction) {
        // A small unit may share a batch on files; the reverse waited for the batch to commit (unit()).
        current.small &&= small;
        return current;
      }
      fail(current, rolledBack());
    }
    if (sqlite.inTransaction) {
      throw new Error('A write unit cannot run inside a transaction it does not own: its answer would not wait for that commit');
    }
    journalIn(small ? 2 : 0);
    begin.run();
    let resolve: () => void = () => undefined;
    let reject: (err: unknown) => void = () => undefined;
    const done = new Promise<void>((ok, ko) => {
      resolve = ok;
      reject = ko;
    });
    // A batch nobody waits on (only background writes in it) must not fail as an unhandled rejection.
    done.catch(() => undefined);
    const batch: Batch = { units: 0, small, done, resolve, reject, capped: false, timer: setImmediate(() => finish(batch)) };
    current = batch;
    return batch;
  }

  const inside = (): boolean => gate.active !== null && gate.store.getStore() === gate.active.token;

  async function unit<T>(work: () => T | Promise<T>, small: boolean): Promise<T> {
    const before = queue;
    let leave: () => void = () => undefined;
    const mine = new Promise<void>((ok) => {
      leave = ok;
    });
    queue = mine;
    await before;
    // Nobody holds the connection (the unit before us left it): a batch with its journal in memory
    // commits now rather than take a unit that may be large.
    if (!small && current?.small) finish(current);
    const token = {};
    const after: (() => void)[] = [];
    gate.active = { token, idle: mine, after, fresh: true };
    let batch: Batch;
    try {
      batch = join(small);
    } catch (err) {
      gate.active = null;
      leave();
      throw err;
    }
    batch.units += 1;
    let outcome: Outcome<T>;
    try {
      savepoint.run();
      outcome = { ok: true, value: await gate.store.run(token, work) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    try {
      if (!sqlite.inTransaction) {
        // SQLite rolled back the whole transaction (disk full, I/O error): every unit of the batch is gone.
        fail(batch, outcome.ok ? rolledBack() : outcome.error);
      } else if (outcome.ok) {
        release.run();
      } else {
        rollbackTo.run();
        release.run();
      }
    } finally {
      gate.active = null;
      leave();
    }
    if (batch.units >= maxUnits && !batch.capped) {
      batch.capped = true;
      queueMicrotask(() => finish(batch));
    }
    await batch.done;
    if (!outcome.ok) throw outcome.error;
    for (const task of after) gate.store.exit(task);
    return outcome.value;
  }

  return {
    run<T>(work: () => T | Promise<T>, options?: RunOptions): Promise<T> {
      // A unit inside a unit is part of it: its savepoint is the caller's business.
      if (inside()) return Promise.resolve().then(work);
      return unit(work, options?.small === true);
    },
    settled(since = failures): Promise<void> {
      // Inside a unit the open batch cannot commit before the unit ends: waiting would never end.
      if (inside()) return Promise.resolve();
      const check = (): void => {
        if (failures !== since) throw lastError;
      };
      if (current) return current.done.then(check);
      try {
        check();
        return Promise.resolve();
      } catch (err) {
        return Promise.reject(err);
      }
    },
    // Reads see the open batch's rows, whoever wrote them: settled() waits for the batch, not the caller.
    caller: (work) => work(),
    get failures() {
      return failures;
    },
    get open() {
      return current !== null;
    },
    async flush() {
      await queue;
      if (current) {
        const batch = current;
        finish(batch);
        await batch.done.catch(() => undefined);
      }
    },
    inside,
    after(task) {
      if (inside() && gate.active) gate.active.after.push(task);
      else gate.store.exit(task);
    },
  };
}
