import type { PostgresEngine } from './postgres';
import type { Engine } from './types';

/**
 * The change feed's order on PostgreSQL without a lock held through any writer's COMMIT
 * (docs/decisions-sync.md, "Feed order on PostgreSQL"). Devices read `change_log` by `seq` and keep
 * the last one seen, so no row may ever become visible below a seq a device already passed. A unit
 * writes its feed rows *pending* (a negative seq from the identity, migration 0011) and commits
 * without waiting for anyone; before the feed is read, the rows that have committed are *placed*:
 * renumbered above the highest placed seq, in the order they were written, by one placer at a time
 * holding a lock through its own short COMMIT. A placed seq is only ever handed out above every
 * placed seq already visible, so a reader that saw seq N can never later find a new row at or below N.
 * SQLite runs one unit at a time, so its rows take their final seq at insert and nothing is pending.
 */

/** Any fixed number: the lock one placement at a time holds (one per database). */
const PLACE_LOCK = 0x66656564; // "feed"

const ANY_PENDING = 'select exists (select 1 from change_log where seq < 0) as pending';

/**
 * Under the lock, in READ COMMITTED so this statement's snapshot is taken after the lock was granted
 * (it sees every earlier placement): the pending rows committed by now, above the highest placed seq.
 * Pending seqs count down from -1 as rows are inserted, so `seq desc` is the order they were written
 * (a unit's `remove` before its `upsert`). Pending rows not yet committed are invisible here and are
 * placed by a later call, above these.
 */
const PLACE = `with top as (select coalesce(max(seq), 0) as s from change_log where seq > 0),
  pending as (select seq, row_number() over (order by seq desc) as n from change_log where seq < 0)
  update change_log c set seq = top.s + pending.n from top, pending where c.seq = pending.seq`;

/**
 * Places the feed rows committed so far (PostgreSQL; nothing to do on SQLite). Call before reading
 * the feed: every unit that committed before the call is then readable at its final seq. Runs on its
 * own connection, outside any unit.
 */
export async function placeFeedRows(db: { $engine: Engine }): Promise<number> {
  if (db.$engine.kind !== 'postgres') return 0;
  const { pool } = db.$engine as PostgresEngine;
  // The usual case on a poll: nothing pending, one indexed read and no lock.
  const { rows } = await pool.query<{ pending: boolean }>(ANY_PENDING);
  if (!rows[0]?.pending) return 0;
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query(`begin isolation level read committed; select pg_advisory_xact_lock(${PLACE_LOCK})`);
    const placed = (await client.query(`${PLACE}; commit`)) as unknown as { rowCount: number | null }[];
    return placed[0]?.rowCount ?? 0;
  } catch (err) {
    try {
      await client.query('rollback');
    } catch {
      broken = true;
    }
    throw err;
  } finally {
    client.release(broken);
  }
}
