import { and, eq, getTableColumns, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { atomically } from '../../db/atomically';
import type { Units } from '../../db/engine/types';
import { jobLease } from '../background/lease';
import {
  addressSighting,
  deliveryAttempt,
  deliveryAttemptHistory,
  deliveryRating,
  deliveryRecord,
  deliveryRecordHistory,
  packageEvent,
  packageFailure,
  packageHistory,
  packageHistoryAnswer,
  packageHistoryRow,
  packageLocation,
  packagePhoto,
  packagePricing,
  packageRecipient,
  packageWindow,
  pkg,
  refusedDelivery,
  refusedDeliveryFile,
  routeLeg,
  routePickup,
  stopEta,
} from '../../db/schema/index';
import { FINAL_STATUSES } from '../../../shared/lifecycle';
import { FINAL_KEPT_MS } from '../sync/scope';
import { packageAnswerRows } from '../packages/json';
import { backgroundLoop, type BackgroundLoop } from '../background/loop';
import { writeLookups } from './lookups';

export const DAY_MS = 86_400_000;
/** Parcels per unit of work: a batch holds the writer (SQLite) or a pooled connection (PostgreSQL) this long. */
export const HISTORY_BATCH = 100;
/**
 * The shortest age allowed: a final parcel stays on drivers' and companies' devices for FINAL_KEPT_MS
 * after its last change, and a parcel must leave every device before it leaves the hot tables.
 */
export const HISTORY_MIN_DAYS = Math.ceil(FINAL_KEPT_MS / DAY_MS) + 4;

/** Child tables of a parcel kept whole as JSON rows (package_history_row), named by their table. */
const KEPT_AS_JSON: { source: string; table: SQLiteTable; packageId: SQLiteColumn; rowId?: SQLiteColumn }[] = [
  { source: 'package_event', table: packageEvent, packageId: packageEvent.package_id, rowId: packageEvent.id },
  { source: 'package_failure', table: packageFailure, packageId: packageFailure.package_id, rowId: packageFailure.id },
  { source: 'package_photo', table: packagePhoto, packageId: packagePhoto.package_id, rowId: packagePhoto.id },
  { source: 'package_pricing', table: packagePricing, packageId: packagePricing.package_id },
  { source: 'package_location', table: packageLocation, packageId: packageLocation.package_id },
  { source: 'package_recipient', table: packageRecipient, packageId: packageRecipient.package_id },
  { source: 'package_window', table: packageWindow, packageId: packageWindow.package_id },
  { source: 'stop_eta', table: stopEta, packageId: stopEta.package_id },
  { source: 'route_leg', table: routeLeg, packageId: routeLeg.package_id, rowId: routeLeg.id },
  { source: 'route_pickup', table: routePickup, packageId: routePickup.package_id },
  { source: 'delivery_rating', table: deliveryRating, packageId: deliveryRating.package_id, rowId: deliveryRating.id },
  { source: 'address_sighting', table: addressSighting, packageId: addressSighting.package_id },
];

/**
 * Every parcel in history was last changed (delivered, returned, cancelled) before this: it moved
 * at or before `now`, untouched for at least HISTORY_MIN_DAYS (whatever HISTORY_AFTER_DAYS was then).
 * A read about later times can leave history out without asking it.
 */
export const historyChangedBefore = (now: number) => now - HISTORY_MIN_DAYS * DAY_MS;

export interface HistoryRun {
  moved: number;
  batches: number;
}

/** HISTORY_AFTER_DAYS: unset = 90, `0` = off, else whole days of at least HISTORY_MIN_DAYS. */
export function parseHistoryAfterDays(value: string | undefined): number {
  if (value == null || value.trim() === '') return 90;
  const days = Number(value);
  if (!Number.isInteger(days) || days < 0 || (days > 0 && days < HISTORY_MIN_DAYS)) {
    throw new Error(`HISTORY_AFTER_DAYS must be 0 (off) or a whole number of days of at least ${HISTORY_MIN_DAYS}, not "${value}"`);
  }
  return days;
}

/**
 * The parcels that may go cold at `cutoff`: final, last changed before it, not archived (restore
 * must still find them), not waiting for a supervisor (flagged) or for a price (the office still
 * prices unpriced parcels).
 */
function eligible(cutoff: number): SQL | undefined {
  return and(
    inArray(pkg.status, [...FINAL_STATUSES]),
    lt(pkg.updated_at, cutoff),
    isNull(pkg.deleted_at),
    eq(pkg.flagged, false),
    sql`not exists (select 1 from ${packagePricing} where ${packagePricing.package_id} = ${pkg.id} and ${packagePricing.state} = 'unpriced')`,
  );
}

/** Moves one batch in the caller's unit; answers how many parcels moved. */
export async function moveBatch(db: Db, now: number, cutoff: number, limit: number): Promise<number> {
  // No ORDER BY: any eligible rows will do, and sorting every final parcel per batch made a long run quadratic.
  const found = await db.select({ id: pkg.id }).from(pkg).where(eligible(cutoff)).limit(limit).all();
  if (!found.length) return 0;
  // Claim the rows first (a no-op update takes their row locks on PostgreSQL): a second mover, or a
  // request changing one of them, waits and then retries its unit instead of copying a parcel twice.
  await db
    .update(pkg)
    .set({ updated_at: sql`${pkg.updated_at}` })
    .where(
      inArray(
        pkg.id,
        found.map((r) => r.id),
      ),
    )
    .run();
  const ids = (
    await db
      .select({ id: pkg.id })
      .from(pkg)
      .where(
        and(
          inArray(
            pkg.id,
            found.map((r) => r.id),
          ),
          eligible(cutoff),
        ),
      )
      .all()
  ).map((r) => r.id);
  if (!ids.length) return 0;
  // Row and answer copied in one statement, in the same unit as the move: what GET answered just
  // before is what it answers after.
  await db
    .insert(packageHistory)
    .select(
      db
        .select({ ...getTableColumns(pkg), moved_at: sql<number>`${now}`.as('moved_at') })
        .from(pkg)
        .where(inArray(pkg.id, ids)),
    )
    .run();
  await db
    .insert(packageHistoryAnswer)
    .select(packageAnswerRows(db).where(inArray(pkg.id, ids)))
    .run();
  await writeLookups(db, ids);

  const records = await db.select().from(deliveryRecord).where(inArray(deliveryRecord.package_id, ids)).all();
  if (records.length) await db.insert(deliveryRecordHistory).values(records).run();
  await db.delete(deliveryRecord).where(inArray(deliveryRecord.package_id, ids)).run();
  const attempts = await db.select().from(deliveryAttempt).where(inArray(deliveryAttempt.package_id, ids)).all();
  if (attempts.length) await db.insert(deliveryAttemptHistory).values(attempts).run();
  await db.delete(deliveryAttempt).where(inArray(deliveryAttempt.package_id, ids)).run();

  const kept: (typeof packageHistoryRow.$inferInsert)[] = [];
  for (const child of KEPT_AS_JSON) {
    const found = (await db.select().from(child.table).where(inArray(child.packageId, ids)).all()) as Record<string, unknown>[];
    for (const r of found) {
      kept.push({
        package_id: r.package_id as number,
        source: child.source,
        row_id: child.rowId ? (r[child.rowId.name] as number) : null,
        data: JSON.stringify(r),
      });
    }
    if (found.length) await db.delete(child.table).where(inArray(child.packageId, ids)).run();
  }
  // Refused deliveries carry their own files: both go, the files first (they name the refusal).
  const refused = await db.select().from(refusedDelivery).where(inArray(refusedDelivery.package_id, ids)).all();
  if (refused.length) {
    const owner = new Map(refused.map((r) => [r.id, r.package_id]));
    const files = await db
      .select()
      .from(refusedDeliveryFile)
      .where(inArray(refusedDeliveryFile.refused_id, [...owner.keys()]))
      .all();
    for (const f of files)
      kept.push({ package_id: owner.get(f.refused_id) ?? 0, source: 'refused_delivery_file', row_id: f.id, data: JSON.stringify(f) });
    for (const r of refused) kept.push({ package_id: r.package_id, source: 'refused_delivery', row_id: r.id, data: JSON.stringify(r) });
    if (files.length)
      await db
        .delete(refusedDeliveryFile)
        .where(inArray(refusedDeliveryFile.refused_id, [...owner.keys()]))
        .run();
    await db.delete(refusedDelivery).where(inArray(refusedDelivery.package_id, ids)).run();
  }
  for (let i = 0; i < kept.length; i += 200)
    await db
      .insert(packageHistoryRow)
      .values(kept.slice(i, i + 200))
      .run();
  await db.delete(pkg).where(inArray(pkg.id, ids)).run();
  return ids.length;
}

/**
 * The cold-storage job: parcels final for longer than `afterDays` move, `batch` at a time, each batch
 * one unit of work (all of a parcel's rows move together or not at all, so a crash between batches
 * leaves every parcel whole on one side). `maxBatches` bounds one pass; the next pass continues.
 */
export async function moveToHistory(
  deps: { db: Db; writes: Units; clock: { now(): number } },
  opts: { afterDays: number; batch?: number; maxBatches?: number; signal?: AbortSignal },
): Promise<HistoryRun> {
  if (!(opts.afterDays > 0)) return { moved: 0, batches: 0 };
  if (opts.afterDays < HISTORY_MIN_DAYS) throw new Error(`HISTORY_AFTER_DAYS must be 0 (off) or at least ${HISTORY_MIN_DAYS}`);
  const batch = opts.batch ?? HISTORY_BATCH;
  let moved = 0;
  let batches = 0;
  while ((opts.maxBatches == null || batches < opts.maxBatches) && !opts.signal?.aborted) {
    const now = deps.clock.now();
    const n = await atomically(deps, () => moveBatch(deps.db, now, now - opts.afterDays * DAY_MS, batch));
    if (!n) break;
    moved += n;
    batches += 1;
    if (n < batch) break;
  }
  return { moved, batches };
}

/** The job as the server runs it: every hour in the background worker, each pass until nothing is left. */
export function historyMover(
  deps: { db: Db; writes: Units; clock: { now(): number }; config: { historyAfterDays: number } },
  signal: AbortSignal,
  log?: (line: string) => void,
): BackgroundLoop {
  // One machine moves at a time (several share a PostgreSQL database); the lease outlasts the hourly pass.
  const lease = jobLease(deps.db, deps.clock, 'history', 2 * 3600_000);
  return backgroundLoop(
    async () => {
      if (!(await lease.hold())) return 0;
      // A shutdown stops the pass between two batches; the next start continues where it stopped.
      const run = await moveToHistory(deps, { afterDays: deps.config.historyAfterDays, signal });
      if (run.moved) log?.(`[history] moved ${run.moved} final parcel(s) to cold storage in ${run.batches} batch(es)`);
      return run.moved;
    },
    { name: 'history', intervalMs: 3600_000, log },
  );
}
