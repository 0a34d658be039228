import { eq, getTableColumns, sql } from 'drizzle-orm';
import { changedRows, type Db } from '../../db/client';
import { encodePatch, patchedRow, placeholderSet, prepared, preparedShape } from '../../db/prepared';
import { packageEvent, pkg } from '../../db/schema/index';
import { allowedTransitions, DEFAULT_MAX_ATTEMPTS, transitionProblem, type PackageStatus } from '../../../shared/lifecycle';
import { invalidTransition } from '../../errors';
import type { PackageRow } from './shape';
import { parcelChangesOf, type ActionMeta, type Actor } from './changes';

export type { ActionMeta, Actor } from './changes';
export interface TransitionOptions {
  /** The configured attempt limit (deps.config.maxAttempts); past it a failed parcel may only be returned. */
  maxAttempts?: number;
  /** Admin force actions skip the table, never a final state. */
  force?: boolean;
  /**
   * The caller read `row` in this same unit of work, so it is the row as stored (the unit holds
   * SQLite's connection; on PostgreSQL its SERIALIZABLE transaction would fail on a change in
   * between): the updated row is `row` with the patch, and the UPDATE need not answer it. Leaving
   * out RETURNING took the scan's UPDATE from 98 to 88 µs in one process (docs/operations.md).
   */
  current?: boolean;
}

// Every scan and delivery runs these several times: built once per database, since building
// drizzle's SQL cost more than SQLite running it.
const byId = (db: Db) =>
  db
    .select()
    .from(pkg)
    .where(eq(pkg.id, sql.placeholder('id')))
    .prepare();
const byHawb = (db: Db) =>
  db
    .select()
    .from(pkg)
    .where(eq(pkg.hawb, sql.placeholder('hawb')))
    .prepare();
const eventInsert = (db: Db) =>
  db
    .insert(packageEvent)
    .values({
      package_id: sql.placeholder('package_id'),
      action: sql.placeholder('action'),
      from_status: sql.placeholder('from_status'),
      to_status: sql.placeholder('to_status'),
      actor_id: sql.placeholder('actor_id'),
      device_id: sql.placeholder('device_id'),
      occurred_at: sql.placeholder('occurred_at'),
      received_at: sql.placeholder('received_at'),
      latitude: sql.placeholder('latitude'),
      longitude: sql.placeholder('longitude'),
      note: sql.placeholder('note'),
      data: sql.placeholder('data'),
    })
    .prepare();

export async function findPackage(db: Db, id: number): Promise<PackageRow | undefined> {
  return await prepared(db, 'package.byId', byId).get({ id });
}
export async function findByBarcode(db: Db, barcode: string): Promise<PackageRow | undefined> {
  return await prepared(db, 'package.byHawb', byHawb).get({ hawb: barcode.trim() });
}

export async function recordEvent(
  db: Db,
  now: number,
  row: Pick<PackageRow, 'id' | 'status'>,
  action: string,
  actor: Actor,
  meta: ActionMeta,
  to: PackageStatus | null = null,
): Promise<void> {
  await prepared(db, 'package.eventInsert', eventInsert).run({
    package_id: row.id,
    action,
    from_status: row.status,
    to_status: to,
    actor_id: actor.userId,
    device_id: actor.deviceId ?? null,
    occurred_at: meta.occurredAt ?? now,
    received_at: now,
    latitude: meta.latitude ?? null,
    longitude: meta.longitude ?? null,
    note: meta.note ?? null,
    data: meta.data ? JSON.stringify(meta.data) : null,
  });
}

type PackagePatch = Partial<typeof pkg.$inferInsert>;
const PKG_COLUMNS = getTableColumns(pkg);
/** Not a column name, so it never meets a SET placeholder. */
const ROW_ID = 'row id';
const patchOf = (db: Db, keys: readonly string[]) =>
  db
    .update(pkg)
    .set(placeholderSet(keys))
    .where(eq(pkg.id, sql.placeholder(ROW_ID)));
const patchUpdate = (keys: readonly string[]) => (db: Db) => patchOf(db, keys).returning().prepare();
const patchOnly = (keys: readonly string[]) => (db: Db) => patchOf(db, keys).prepare();

/**
 * The patched row. Prepared per set of columns changed: the lifecycle's few patches repeat endlessly.
 * With `current` (TransitionOptions) the row is `row` with the patch, each value as a read returns it.
 */
async function applyPatch(db: Db, row: PackageRow, patch: PackagePatch, current = false): Promise<PackageRow | undefined> {
  const encoded = encodePatch(PKG_COLUMNS, patch);
  if (!encoded) return await db.update(pkg).set(patch).where(eq(pkg.id, row.id)).returning().get();
  const bound = { ...encoded.values, [ROW_ID]: row.id };
  if (!current) return await preparedShape(db, 'package.update', encoded.shape, patchUpdate(encoded.keys)).get(bound);
  if (changedRows(await preparedShape(db, 'package.patch', encoded.shape, patchOnly(encoded.keys)).run(bound)) !== 1) return undefined;
  return patchedRow(PKG_COLUMNS, row, encoded);
}

const words = (s: string) => s.replace(/_/g, ' ');

/** The 409 for a refused change, naming the parcel and its state; `details` carries what a device needs to reconcile. */
export function refusal(row: PackageRow, to: PackageStatus | string, problem: string, maxAttempts = DEFAULT_MAX_ATTEMPTS) {
  const from = row.status as PackageStatus;
  const why =
    problem === 'final'
      ? ' (final)'
      : problem === 'must_return'
        ? ` after ${row.attempts} of ${maxAttempts} attempts and must be returned to the depot`
        : '';
  return invalidTransition(`Parcel ${row.hawb} is ${words(from)}${why}; it cannot become ${words(to)}`, {
    package: row.id,
    hawb: row.hawb,
    status: from,
    attempts: row.attempts,
    allowed: problem === 'final' ? [] : allowedTransitions(from),
    reason: problem,
  });
}

/**
 * The one way a package changes state: checks the lifecycle table, applies the patch, writes the
 * event and announces the change (a cancel's refund, webhooks, messages, ETAs, the change feed
 * follow it as subscribers). Must run inside the caller's transaction.
 */
export async function transition(
  db: Db,
  now: number,
  row: PackageRow,
  to: PackageStatus,
  action: string,
  actor: Actor,
  meta: ActionMeta = {},
  patch: Partial<typeof pkg.$inferInsert> = {},
  opts: TransitionOptions = {},
): Promise<PackageRow> {
  const problem = transitionProblem(row.status as PackageStatus, to, {
    attempts: row.attempts,
    maxAttempts: opts.maxAttempts,
    force: opts.force,
  });
  if (problem) throw refusal(row, to, problem, opts.maxAttempts);
  return await updatePackage(db, now, row, { ...patch, status: to }, action, actor, meta, to, opts.current);
}

/** A change that is not a transition (sequence, zone) still writes an event and reaches devices. */
export async function updatePackage(
  db: Db,
  now: number,
  row: PackageRow,
  patch: Partial<typeof pkg.$inferInsert>,
  action: string,
  actor: Actor,
  meta: ActionMeta = {},
  to: PackageStatus | null = null,
  current = false,
): Promise<PackageRow> {
  const updated = await applyPatch(db, row, { ...patch, updated_at: now }, current);
  if (!updated) throw new Error(`package ${row.id} vanished inside its transaction`);
  await recordEvent(db, now, row, action, actor, meta, to);
  // Announced once: money, webhooks, recipients, ETAs, then the sync feed (server/parcelSubscribers.ts).
  await parcelChangesOf(db).publish({ db, now, before: row, after: updated, to, actor, meta });
  return updated;
}
