import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { bound, prepared } from '../../db/prepared';
import type { Deps } from '../../deps';
import { deliveryRecord, pkg, user } from '../../db/schema/index';
import { ApiError } from '../../errors';
import { isFinal, type PackageStatus } from '../../../shared/lifecycle';
import { driverOutcome } from '../../../shared/driverActions';
import type { DeliverBody } from '../../../shared/schemas/delivery';
import { rawObject, type RawJson } from '../../http/rawJson';
import type { SessionUser } from '../auth/session';
import { livePackage } from '../history/live';
import { latestChangedIds } from './changedPage';
import { findPackage, refusal, transition, updatePackage, type Actor } from './lifecycle';
import { deliverySlots, proofOf, resolveFiles, writeSlots } from './proof';
import { keepRefusedDelivery } from './refusedDelivery';
import { packageJson, packageJsonByIds } from './json';
import { driverRefusal, notYours, parcelByCode, parcelState, recordedRefusal, recordedTransition, type ScanContext } from './scan';
import { visiblePackage } from './scope';
import { wasDriversParcel } from './wasDrivers';
import type { PackageRow } from './shape';
import { learnFromDelivery } from '../geo/addressBook';
import { audit } from '../audit/record';
import { checkDoor, saveChecked } from '../door/check';
import { collectionDue, recordCollection } from '../cod/parcel';

export type DeliverInput = Omit<DeliverBody, 'occurred_at' | 'latitude' | 'longitude'>;
export interface DeliverResult {
  row: PackageRow;
  flagged: boolean;
}

// A delivery runs these once each: built once per database, since building drizzle's SQL cost more than running it.
const nameOfUser = (db: Db) =>
  db
    .select({ name: user.name })
    .from(user)
    .where(eq(user.id, sql.placeholder('id')))
    .prepare();
const recordUpsert = (db: Db) =>
  db
    .insert(deliveryRecord)
    .values({
      package_id: sql.placeholder('package_id'),
      driver_id: sql.placeholder('driver_id'),
      recipient_name: sql.placeholder('recipient_name'),
      note: sql.placeholder('note'),
      occurred_at: sql.placeholder('occurred_at'),
      received_at: sql.placeholder('received_at'),
      latitude: sql.placeholder('latitude'),
      longitude: sql.placeholder('longitude'),
      forced: false,
      updated_at: sql.placeholder('received_at'),
    })
    .onConflictDoUpdate({
      target: deliveryRecord.package_id,
      set: {
        driver_id: bound('driver_id'),
        recipient_name: bound('recipient_name'),
        note: bound('note'),
        occurred_at: bound('occurred_at'),
        received_at: bound('received_at'),
        forced: false,
        updated_at: bound('received_at'),
      },
    })
    .prepare();

/** Final states win: a later conflicting action is refused with the current state, and stays on record. */
export function refuseIfFinal(deps: Deps, row: PackageRow, to: PackageStatus, action: string, ctx: ScanContext): void {
  if (!isFinal(row.status as PackageStatus)) return;
  const err = refusal(row, to, 'final');
  if (err.details) err.details.delivered_at = row.delivered_at != null ? new Date(row.delivered_at).toISOString() : null;
  throw recordedRefusal(deps, err, row, `${action}_rejected`, ctx);
}

async function driverName(db: Db, id: number | null): Promise<string> {
  if (id == null) return 'nobody';
  return (await prepared(db, 'deliver.nameOfUser', nameOfUser).get({ id }))?.name ?? `driver ${id}`;
}

/**
 * A driver's delivery with its proof. A parcel still assigned (not scanned) or failed (reattempt)
 * passes through out_for_delivery first, each step an event. A delivery made offline after the
 * parcel was reassigned is accepted, since it happened, and flagged for a supervisor. One the
 * lifecycle refuses (cancelled, final, out of attempts) keeps its proof with the refusal and flags
 * the parcel too (`keepRefusedDelivery`).
 */
export async function deliver(
  deps: Deps,
  ctx: ScanContext,
  row: PackageRow,
  input: DeliverInput,
  action = 'deliver',
): Promise<DeliverResult> {
  try {
    // However it was delivered (by id, scanned at the door, typed), the rest of its route moves: the
    // ETA subscriber of the delivered change (services/dispatch/onParcelChange.ts).
    return await deliverOrRefuse(deps, ctx, row, input, action);
  } catch (err) {
    // A retryable 409 (files not uploaded yet) comes back with the same key; only a final refusal is kept.
    // So is a delivery the door rule refused (issue 34): what the driver recorded, and each wrong code, stays on record.
    if (err instanceof ApiError && ((err.status === 409 && !err.retryable) || (err.status === 422 && err.details?.requirements))) {
      throw keepRefusedDelivery(deps, ctx, row, input, err);
    }
    throw err;
  }
}

/**
 * The parcel a driver names by id for an action: their own, or one they held before a reassignment
 * (deliver and fail decide what that allows); others as their scope allows. A parcel gone to
 * history is refused as a change to a final parcel would be (409), not as unknown.
 */
export async function actionParcel(db: Db, me: SessionUser, id: number): Promise<PackageRow> {
  const row = await findPackage(db, id);
  if (row && row.deleted_at == null && me.role === 'driver') return row;
  return row ? visiblePackage(me, row, id) : livePackage(db, me, id);
}

/**
 * A delivery of the parcel a code in hand names. A code that was never this driver's is answered
 * by name (409, recorded), not hidden as a 404: the driver holds its label.
 */
export async function deliverByCode(deps: Deps, ctx: ScanContext, code: string, input: DeliverInput): Promise<DeliverResult> {
  const row = await parcelByCode(deps, code, 'deliver', ctx);
  if (row.assigned_to_id !== ctx.actor.id && !(await wasDriversParcel(deps.db, row.id, ctx.actor.id)))
    throw notYours(deps, row, 'deliver', ctx);
  // The label in hand was scanned: that is the scan at the door.
  return deliver(deps, ctx, row, { ...input, door_scan: input.door_scan ?? code }, 'scan_deliver');
}

/** The answer to a driver's delivery (by id or by code): the parcel as it is now and its proof. */
export async function deliveryAnswer(db: Db, { row, flagged }: DeliverResult): Promise<RawJson> {
  return rawObject({
    success: true,
    message: flagged ? `Parcel ${row.hawb} delivered and flagged for a supervisor: it had been reassigned` : `Parcel ${row.hawb} delivered`,
    flagged,
    package: await packageJson(db, row.id),
    proof: await proofOf(db, row),
  });
}

async function deliverOrRefuse(deps: Deps, ctx: ScanContext, row: PackageRow, input: DeliverInput, action: string): Promise<DeliverResult> {
  const { db } = deps;
  const driver = ctx.actor;
  const now = deps.clock.now();
  const actor: Actor = { userId: driver.id, deviceId: ctx.deviceId };
  const reassigned = row.assigned_to_id !== driver.id;
  const opts = { maxAttempts: deps.config.maxAttempts, current: true };
  // The shared rules decide (shared/driverActions.ts): the phone predicted with the same function.
  const out = driverOutcome('deliver', parcelState(row), {
    driverId: driver.id,
    maxAttempts: opts.maxAttempts,
    wasDrivers: !reassigned || (await wasDriversParcel(db, row.id, driver.id)),
  });
  if (!out.ok) throw driverRefusal(deps, row, out, action, ctx);
  // The door's rule (shared/door.ts), the one the phone applied offline: before anything changes.
  const checked = await checkDoor(deps, row, input, ctx.meta.occurredAt ?? now);
  // Cash on delivery (issue 34): what the door collected must meet what is due, unless the office waived it.
  const cod = await collectionDue(db, row, input.collection);
  // Checked before any change so a missing upload leaves nothing half done.
  await resolveFiles(db, driver, [...input.photos, ...(input.signature !== undefined ? [input.signature] : [])]);

  const deliveredAt = Math.min(ctx.meta.occurredAt ?? now, now);
  // Every caller read `row` in this unit (the route's handler), and each step's row is the one before it patched.
  let current = row;
  if (out.flagged) {
    const reason = `Delivered by ${driver.name} (offline) after it was reassigned to ${await driverName(db, row.assigned_to_id)}`;
    current = await transition(
      db,
      now,
      current,
      'delivered',
      action,
      actor,
      { ...ctx.meta, data: { flagged: true, previous_driver: row.assigned_to_id } },
      { assigned_to_id: driver.id, delivered_at: deliveredAt, flagged: true, flag_reason: reason },
      { ...opts, force: true },
    );
  } else {
    // An assigned (unscanned) or failed (reattempt) parcel is loaded first, each step an event.
    for (const to of out.steps) {
      const from = current;
      const step =
        to === 'delivered'
          ? { name: action, patch: { delivered_at: deliveredAt } }
          : { name: 'implicit_load', patch: { is_scanned: true } };
      current = await recordedTransition(
        deps,
        ctx,
        async () => await transition(db, now, from, to, step.name, actor, ctx.meta, step.patch, opts),
        from,
        action,
      );
    }
  }
  await prepared(db, 'deliver.recordUpsert', recordUpsert).run({
    package_id: row.id,
    driver_id: driver.id,
    recipient_name: input.recipient_name ?? null,
    note: input.note ?? null,
    occurred_at: ctx.meta.occurredAt ?? now,
    received_at: now,
    latitude: ctx.meta.latitude ?? null,
    longitude: ctx.meta.longitude ?? null,
  });
  await writeSlots(deps, driver, current, deliverySlots(input.photos, input.signature), ctx.deviceId, true);
  await saveChecked(deps, row.id, checked);
  if (cod) await recordCollection(deps, cod, input.collection, driver.id, deliveredAt);
  // Where the phone was at the door teaches the address book (two agreeing deliveries place the address).
  await learnFromDelivery(db, now, row, ctx.meta.latitude, ctx.meta.longitude, deliveredAt);
  return { row: current, flagged: out.flagged };
}

/** Admin force delivery: no scan or proof needed, never over a final state; recorded as forced and in the audit log. */
export async function forceDeliver(
  deps: Deps,
  ctx: ScanContext,
  row: PackageRow,
  input: { note: string; recipient_name?: string },
): Promise<PackageRow> {
  const now = deps.clock.now();
  refuseIfFinal(deps, row, 'delivered', 'force_deliver', ctx);
  const updated = await transition(
    deps.db,
    now,
    row,
    'delivered',
    'force_deliver',
    { userId: ctx.actor.id, deviceId: ctx.deviceId },
    ctx.meta,
    { delivered_at: Math.min(ctx.meta.occurredAt ?? now, now) },
    { force: true, maxAttempts: deps.config.maxAttempts },
  );
  await deps.db
    .insert(deliveryRecord)
    .values({
      package_id: row.id,
      driver_id: row.assigned_to_id,
      recipient_name: input.recipient_name ?? null,
      note: input.note,
      occurred_at: ctx.meta.occurredAt ?? now,
      received_at: now,
      latitude: ctx.meta.latitude ?? null,
      longitude: ctx.meta.longitude ?? null,
      forced: true,
      updated_at: now,
    })
    .onConflictDoUpdate({ target: deliveryRecord.package_id, set: { note: input.note, forced: true, received_at: now, updated_at: now } })
    .run();
  await audit(deps.db, deps.clock.now(), ctx.actor.id, 'package.force_deliver', `package:${updated.id}`, {
    hawb: updated.hawb,
    note: input.note,
    before: { status: row.status },
    after: { status: updated.status },
  });
  return updated;
}

/** Parcels flagged for a supervisor (e.g. delivered offline after a reassignment), latest change first, as answer JSON. */
export async function flaggedPage(db: Db, q: { page: number; page_size: number }, url: string): Promise<RawJson> {
  const { ids, ...page } = await latestChangedIds(db, and(eq(pkg.flagged, true), isNull(pkg.deleted_at)), q, url);
  // Each with why it was flagged, so the supervisor's list says it (issue 35); a page is at most a few dozen.
  const reasons = new Map(
    (ids.length
      ? await db
          .select({ id: pkg.id, flag_reason: pkg.flag_reason })
          .from(pkg)
          .where(inArray(pkg.id, [...ids]))
      : []
    ).map((r) => [r.id, r.flag_reason]),
  );
  const results = (await packageJsonByIds(db, ids)).map((raw) => {
    const p = JSON.parse(raw.text) as { id: number };
    return { ...p, flag_reason: reasons.get(p.id) ?? null };
  });
  return rawObject({ ...page, results });
}

/** Staff clear a delivery flag once they have looked at it. */
export async function resolveFlag(deps: Deps, ctx: ScanContext, row: PackageRow): Promise<PackageRow> {
  if (!row.flagged) return row;
  return await updatePackage(
    deps.db,
    deps.clock.now(),
    row,
    { flagged: false },
    'flag_resolved',
    { userId: ctx.actor.id, deviceId: ctx.deviceId },
    { ...ctx.meta, data: { reason: row.flag_reason } },
  );
}
