import Database from 'better-sqlite3';

/**
 * Group commit. With synchronous=FULL every COMMIT waits for an fsync, and an answered write must
 * be durable (a device deletes a queued action once it is answered), so one transaction per request
 * makes the disk flush the ceiling of every write route. Instead the first write of an event-loop
 * turn opens one transaction, each request's unit of work runs in its own SAVEPOINT inside it, and
 * the whole batch commits once at the end of the turn: one fsync for all of them. A unit's promise
 * settles only after that COMMIT; if the COMMIT fails, the whole batch is rolled back and every unit
 * in it fails with the storage error, so nothing that was answered can vanish.
 *
 * Anything else that writes on the connection while a batch is open (a single statement, a nested
 * `db.transaction`) simply becomes part of the batch, and its durability is the batch's.
 */
export interface WriteBatch {
  /**
   * Runs `work` now, synchronously, in its own savepoint of the open batch (opening one if none is).
   * Resolves with its result, or rejects with what it threw, once the batch has committed; rejects
   * with the batch's error if the batch could not be committed.
   */
  run<T>(work: () => T): Promise<T>;
  /**
   * Resolves once the batch open now (if any) has committed. Rejects if it failed, or if any batch
   * failed after `since` (a `failures` reading taken when a request began): an answer built from
   * reads may have seen rows of that batch.
   */
  settled(since?: number): Promise<void>;
  /** How many batches have failed so far. */
  readonly failures: number;
  readonly open: boolean;
  /** Commits the open batch now (shutdown, before the database closes). */
  flush(): void;
}

export interface WriteBatchOptions {
  /** Units after which the batch commits without waiting for the end of the turn. */
  maxUnits?: number;
  /**
   * Test seam: runs just before COMMIT, and what it throws is handled as the COMMIT failing. A real
   * disk-full or I/O error at that exact statement cannot be provoked deterministically in a test.
   */
  beforeCommit?: () => void;
}

interface Batch {
  units: number;
  done: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
  timer: NodeJS.Immediate;
  capped: boolean;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

const DEFAULT_MAX_UNITS = 200;

/** SQLite undid the whole transaction on its own (disk full, I/O error) after a statement the batch did not see fail. */
function rolledBack(): Error {
  return new Database.SqliteError('A failed write rolled back the whole transaction; nothing of it was kept', 'SQLITE_ABORT_ROLLBACK');
}

export function createWriteBatch(sqlite: Database.Database, options: WriteBatchOptions = {}): WriteBatch {
  const maxUnits = options.maxUnits ?? DEFAULT_MAX_UNITS;
  const begin = sqlite.prepare('BEGIN IMMEDIATE');
  const commit = sqlite.prepare('COMMIT');
  const rollback = sqlite.prepare('ROLLBACK');
  const savepoint = sqlite.prepare('SAVEPOINT write_unit');
  const release = sqlite.prepare('RELEASE write_unit');
  const rollbackTo = sqlite.prepare('ROLLBACK TO write_unit');
  let current: Batch | null = null;
  let failures = 0;
  let lastError: unknown = null;

  function fail(batch: Batch, err: unknown): void {
    if (current === batch) current = null;
    clearImmediate(batch.timer);
    failures += 1;
    lastError = err;
    batch.reject(err);
  }

  function finish(batch: Batch): void {
    if (current !== batch) return;
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
    batch.resolve();
  }

  function join(): Batch {
    if (current) {
      if (sqlite.inTransaction) return current;
      fail(current, rolledBack());
    }
    if (sqlite.inTransaction) {
      throw new Error('A write unit cannot run inside a transaction it does not own: its answer would not wait for that commit');
    }
    begin.run();
    let resolve: () => void = () => undefined;
    let reject: (err: unknown) => void = () => undefined;
    const done = new Promise<void>((ok, ko) => { resolve = ok; reject = ko; });
    // A batch nobody waits on (only background writes in it) must not fail as an unhandled rejection.
    done.catch(() => undefined);
    const batch: Batch = { units: 0, done, resolve, reject, capped: false, timer: setImmediate(() => finish(batch)) };
    current = batch;
    return batch;
  }

  function unit<T>(batch: Batch, work: () => T): Outcome<T> {
    batch.units += 1;
    savepoint.run();
    let outcome: Outcome<T>;
    try {
      const value = work();
      if (value instanceof Promise) throw new TypeError('A write unit must be synchronous: its effects would land outside its savepoint');
      outcome = { ok: true, value };
    } catch (error) {
      outcome = { ok: false, error };
    }
    if (!sqlite.inTransaction) {
      // SQLite rolled back the whole transaction (disk full, I/O error): every unit of the batch is gone.
      fail(batch, outcome.ok ? rolledBack() : outcome.error);
    } else if (outcome.ok) {
      release.run();
    } else {
      rollbackTo.run();
      release.run();
    }
    return outcome;
  }

  return {
    run<T>(work: () => T): Promise<T> {
      let batch: Batch;
      try {
        batch = join();
      } catch (err) {
        return Promise.reject(err);
      }
      const outcome = unit(batch, work);
      if (batch.units >= maxUnits && !batch.capped) {
        batch.capped = true;
        // After the current call stack: a unit's caller may still be inside a transaction callback.
        queueMicrotask(() => finish(batch));
      }
      return batch.done.then(() => {
        if (!outcome.ok) throw outcome.error;
        return outcome.value;
      });
    },
    settled(since = failures): Promise<void> {
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
    get failures() { return failures; },
    get open() { return current !== null; },
    flush(): void {
      if (current) finish(current);
    },
  };
}
