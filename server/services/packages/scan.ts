import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import type { Deps } from '../../deps';
import { packageEvent, pkg, scanException, zone } from '../../db/schema/index';
import { ApiError, notFound } from '../../errors';
import { driverOutcome, type DriverOutcome, type ParcelState } from '../../../shared/driverActions';
import type { SessionUser } from '../auth/session';
import { findByBarcode, findPackage, recordEvent, refusal, transition, updatePackage, type ActionMeta, type Actor } from './lifecycle';
import { locationInput, locationRow, recordLocation, resolverFor } from '../geo/location';
import type { Resolution } from '../geo/resolve';
import { repriceForZone } from '../money/charges';
import { looksMisread } from './misread';
import { wasDriversParcel } from './wasDrivers';
import type { PackageRow } from './shape';
import { standingZoneOverride } from './zoneOverride';
import { isFinal, type PackageStatus } from '../../../shared/lifecycle';

export interface ScanResult {
  row: PackageRow;
  already: boolean;
}
export interface ScanContext {
  actor: SessionUser;
  meta: ActionMeta;
  deviceId?: string | null;
}

/** Device time and position of an action, from the body (DESIGN.md section 6). */
export function actionMeta(body: { occurred_at?: string; latitude?: number; longitude?: number; note?: string }): ActionMeta {
  return {
    occurredAt: body.occurred_at ? Date.parse(body.occurred_at) : undefined,
    latitude: body.latitude ?? null,
    longitude: body.longitude ?? null,
    note: body.note ?? null,
  };
}

const actorOf = (ctx: ScanContext): Actor => ({ userId: ctx.actor.id, deviceId: ctx.deviceId });

// Scans run these all day: built once per database, since building drizzle's SQL cost more than running it.
const exceptionInsert = (db: Db) =>
  db
    .insert(scanException)
    .values({
      code: sql.placeholder('code'),
      action: sql.placeholder('action'),
      actor_id: sql.placeholder('actor_id'),
      device_id: sql.placeholder('device_id'),
      occurred_at: sql.placeholder('occurred_at'),
      received_at: sql.placeholder('received_at'),
      latitude: sql.placeholder('latitude'),
      longitude: sql.placeholder('longitude'),
      note: sql.placeholder('note'),
    })
    .returning()
    .prepare();
const zoneById = (db: Db) =>
  db
    .select({ id: zone.id, name: zone.name })
    .from(zone)
    .where(eq(zone.id, sql.placeholder('id')))
    .prepare();
const newestEvent = (db: Db) =>
  db
    .select()
    .from(packageEvent)
    .where(eq(packageEvent.package_id, sql.placeholder('pkg')))
    .orderBy(desc(packageEvent.id))
    .limit(1)
    .prepare();

export function recordScanException(db: Db, now: number, code: string, action: string, ctx: ScanContext) {
  return prepared(db, 'scan.exceptionInsert', exceptionInsert).get({
    code,
    action,
    actor_id: ctx.actor.id,
    device_id: ctx.deviceId ?? null,
    occurred_at: ctx.meta.occurredAt ?? now,
    received_at: now,
    latitude: ctx.meta.latitude ?? null,
    longitude: ctx.meta.longitude ?? null,
    note: ctx.meta.note ?? null,
  });
}

/** The parcel a code names; an unknown code is a 404 that stays on record as a scan exception for staff. */
export async function parcelByCode(deps: Deps, code: string, action: string, ctx: ScanContext): Promise<PackageRow> {
  const row = await findByBarcode(deps.db, code);
  if (row && row.deleted_at == null) return row;
  const now = deps.clock.now();
  // The reason lets a screen say what to do: scan again (misread) or leave it to the depot (unknown).
  const misread = await looksMisread(deps.db, ctx.actor, code);
  const message = misread ? `Code ${code} looks like part of a label: scan it again` : `No parcel has the code ${code}`;
  throw new ApiError(404, 'not_found', message, [{ path: 'barcode', message: misread ? 'misread' : 'unknown code' }], {
    barcode: code,
    reason: misread ? 'misread' : 'unknown_code',
  }).withRecord(async () => {
    await recordScanException(deps.db, now, code, action, ctx);
  });
}

/** A refusal that stays on the parcel's history after the rollback. */
export function recordedRefusal(deps: Deps, err: ApiError, row: PackageRow, action: string, ctx: ScanContext): ApiError {
  const now = deps.clock.now();
  return err.withRecord(() =>
    recordEvent(deps.db, now, row, action, actorOf(ctx), { ...ctx.meta, data: { refused: err.message, code: err.code } }),
  );
}

/**
 * A driver's scan of a parcel that is not theirs: `reassigned` when it was theirs earlier (the office
 * gave it to someone else: keep it and bring it back), `not_yours` when it never was (do not load it).
 */
export async function notYoursNow(deps: Deps, row: PackageRow, action: string, ctx: ScanContext, to: PackageStatus): Promise<ApiError> {
  const was = ctx.actor.role === 'driver' && (await wasDriversParcel(deps.db, row.id, ctx.actor.id));
  // Cancelled or delivered since it left them: that is what happened, not "another driver".
  if (was && isFinal(row.status as PackageStatus)) return recordedRefusal(deps, refusal(row, to, 'final'), row, `${action}_rejected`, ctx);
  return notYours(deps, row, action, ctx, was);
}

/**
 * A scan of a parcel that is someone else's: the driver learns only that it is not theirs, never
 * its id or status (another driver's work, another company's parcel). Its history records more.
 */
export function notYours(deps: Deps, row: PackageRow, action: string, ctx: ScanContext, reassigned = false): ApiError {
  const err = reassigned
    ? new ApiError(409, 'conflict', `Parcel ${row.hawb} was given to another driver`, [], { hawb: row.hawb, reason: 'reassigned' })
    : new ApiError(409, 'conflict', `Parcel ${row.hawb} is not assigned to you`, [], { hawb: row.hawb, reason: 'not_yours' });
  return recordedRefusal(deps, err, row, `${action}_rejected`, ctx);
}

/** Whether the parcel was ever this driver's; only asked (one query) when it is not theirs now. */
export const wasTheirs = async (deps: Deps, row: PackageRow, driver: SessionUser): Promise<boolean> =>
  row.assigned_to_id === driver.id || (await wasDriversParcel(deps.db, row.id, driver.id));

/** The row as the shared driver rules read it (shared/driverActions.ts). */
export const parcelState = (row: PackageRow): ParcelState => ({
  status: row.status as PackageStatus,
  attempts: row.attempts,
  is_scanned: row.is_scanned,
  assigned_to_id: row.assigned_to_id,
});

/**
 * The error for a refusal the shared driver rules decided: a parcel the driver never held is
 * unknown to them (404, not recorded); the others stay on its history as `<action>_rejected`.
 */
export function driverRefusal(
  deps: Deps,
  row: PackageRow,
  out: Extract<DriverOutcome, { ok: false }>,
  action: string,
  ctx: ScanContext,
): ApiError {
  if (out.reason === 'not_found') return notFound(`Package ${row.id} not found`);
  if (out.reason === 'not_yours' || out.reason === 'reassigned') return notYours(deps, row, action, ctx, out.reason === 'reassigned');
  const err = refusal(row, out.to, out.reason, deps.config.maxAttempts);
  // A device reconciling a refused action over a final parcel shows when it was delivered.
  if (out.reason === 'final' && err.details)
    err.details.delivered_at = row.delivered_at != null ? new Date(row.delivered_at).toISOString() : null;
  return recordedRefusal(deps, err, row, `${action}_rejected`, ctx);
}

/** Runs a transition, recording the refusal (with its reason) if the lifecycle forbids it. */
export async function recordedTransition(
  deps: Deps,
  ctx: ScanContext,
  run: () => Promise<PackageRow>,
  row: PackageRow,
  action: string,
): Promise<PackageRow> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) throw recordedRefusal(deps, err, row, `${action}_rejected`, ctx);
    throw err;
  }
}

/**
 * The driver loads a parcel on the van: it must be theirs and waiting (assigned, or failed for a
 * reattempt). A second scan of a loaded parcel is harmless and says so.
 */
export async function inboundScan(
  deps: Deps,
  driver: SessionUser,
  barcode: string,
  meta: ActionMeta,
  deviceId?: string | null,
): Promise<ScanResult> {
  const ctx: ScanContext = { actor: driver, meta, deviceId };
  const now = deps.clock.now();
  const row = await parcelByCode(deps, barcode, 'inbound', ctx);
  // Not (or no longer) theirs: the parcel's history says why (reassigned, final meanwhile, never theirs).
  const out = driverOutcome('load', parcelState(row), {
    driverId: driver.id,
    maxAttempts: deps.config.maxAttempts,
    wasDrivers: await wasTheirs(deps, row, driver),
  });
  if (!out.ok) throw driverRefusal(deps, row, out, 'scan', ctx);
  if (out.already) {
    await recordEvent(deps.db, now, row, 'scan_repeat', actorOf(ctx), meta);
    return { row, already: true };
  }
  const updated = await recordedTransition(
    deps,
    ctx,
    async () =>
      await transition(
        deps.db,
        now,
        row,
        'out_for_delivery',
        'inbound_scan',
        actorOf(ctx),
        meta,
        { is_scanned: out.next.is_scanned },
        { maxAttempts: deps.config.maxAttempts, current: true },
      ),
    row,
    'scan',
  );
  return { row: updated, already: false };
}

/**
 * Where the depot puts a parcel: located by the same resolver as its creation and its quote
 * (geo/resolve.ts), from master data as it is now (its suburb's zone, else its postcode's), the
 * stored zone only when master data names none.
 */
export async function locateAtDepot(
  deps: Pick<Deps, 'db' | 'config'>,
  row: PackageRow,
): Promise<{ zone: { id: number; name: string } | null; located: Resolution }> {
  const located = await resolverFor(deps).resolve({ ...locationInput(row), zone_id: null, latitude: null, longitude: null });
  let zoneId = located.zone_id ?? row.zone_id;
  // A zone the office set for this address by hand stands (zoneOverride.ts); looked up only when they differ.
  if (zoneId !== row.zone_id && row.zone_id != null && (await standingZoneOverride(deps.db, row)) != null) zoneId = row.zone_id;
  return { zone: zoneId == null ? null : ((await prepared(deps.db, 'scan.zoneById', zoneById).get({ id: zoneId })) ?? null), located };
}

/**
 * Depot inbound: the parcel lands (`received`, landed) and gets its zone so the screen can say
 * which bay it goes to. A parcel already given to a driver only lands; a repeat scan says so.
 */
export async function scanAssignZone(deps: Deps, staff: SessionUser, barcode: string, meta: ActionMeta, deviceId?: string | null) {
  const ctx: ScanContext = { actor: staff, meta, deviceId };
  const now = deps.clock.now();
  const row = await parcelByCode(deps, barcode, 'depot', ctx);
  const { zone: found, located } = await locateAtDepot(deps, row);
  const patch: Partial<typeof pkg.$inferInsert> = { landed: true, zone_id: found?.id ?? row.zone_id };
  // A parcel never located (older than the resolver) gets its place here too.
  const unlocated = row.latitude == null && located.latitude != null && !(await locationRow(deps.db, row.id));
  if (unlocated)
    Object.assign(patch, {
      latitude: located.latitude,
      longitude: located.longitude,
      suburb_id: row.suburb_id ?? located.suburb_id,
      state_id: row.state_id ?? located.state_id,
    });
  const data = { zone: found?.id ?? null };
  // A new zone is a new price, the one a quote for this address gives now (money/charges.ts).
  const settle = async (updated: PackageRow): Promise<PackageRow> => {
    if (unlocated) await recordLocation(deps.db, row.id, { ...located, pending: false }, now);
    if (updated.zone_id === row.zone_id) return updated;
    const outcome = await repriceForZone(deps, updated, staff.id);
    return outcome.status === 'charged' || outcome.status === 'repriced' ? ((await findPackage(deps.db, row.id)) ?? updated) : updated;
  };
  if (row.status === 'created' || row.status === 'picked_up') {
    // The pickup driver's job ends at the depot: the parcel leaves their device and waits for delivery assignment.
    const handover = row.status === 'picked_up' ? { assigned_to_id: null, is_scanned: false } : {};
    return {
      row: await settle(
        await transition(deps.db, now, row, 'received', 'depot_scan', actorOf(ctx), { ...meta, data }, { ...patch, ...handover }),
      ),
      already: false,
      zone: found,
    };
  }
  if (row.status === 'received' || (row.status === 'assigned' && !row.landed)) {
    const already = row.status === 'received' && row.landed && row.zone_id === patch.zone_id;
    const updated = already
      ? row
      : await settle(await updatePackage(deps.db, now, row, patch, 'depot_scan', actorOf(ctx), { ...meta, data }));
    if (already) await recordEvent(deps.db, now, row, 'scan_repeat', actorOf(ctx), meta);
    return { row: updated, already, zone: found };
  }
  throw recordedRefusal(
    deps,
    refusal(
      row,
      'received',
      row.status === 'delivered' || row.status === 'cancelled' || row.status === 'returned_to_sender' ? 'final' : 'not_allowed',
    ),
    row,
    'depot_scan_rejected',
    ctx,
  );
}

/** The driver takes a loaded parcel back off the van: out_for_delivery -> assigned. */
export async function resetScan(
  deps: Deps,
  driver: SessionUser,
  barcode: string,
  meta: ActionMeta,
  deviceId?: string | null,
): Promise<PackageRow> {
  const ctx: ScanContext = { actor: driver, meta, deviceId };
  const row = await parcelByCode(deps, barcode, 'reset', ctx);
  const out = driverOutcome('unload', parcelState(row), {
    driverId: driver.id,
    maxAttempts: deps.config.maxAttempts,
    wasDrivers: await wasTheirs(deps, row, driver),
  });
  if (!out.ok) throw driverRefusal(deps, row, out, 'reset', ctx);
  return transition(deps.db, deps.clock.now(), row, 'assigned', 'reset_scan', actorOf(ctx), meta, { is_scanned: out.next.is_scanned });
}

/** A supervisor's or admin's check of a parcel in hand: recorded, state unchanged. */
export async function checkScan(
  deps: Deps,
  user: SessionUser,
  barcode: string,
  action: 'supervisor_check' | 'admin_scan',
  meta: ActionMeta,
  deviceId?: string | null,
) {
  const ctx: ScanContext = { actor: user, meta, deviceId };
  const now = deps.clock.now();
  const row = await parcelByCode(deps, barcode, action, ctx);
  const before = await lastEvent(deps.db, row.id);
  await recordEvent(deps.db, now, row, action, actorOf(ctx), meta);
  return { row, before };
}

export function lastEvent(db: Db, packageId: number) {
  return prepared(db, 'scan.newestEvent', newestEvent).get({ pkg: packageId });
}

/** The context of an action from a route's input: who, from which device, when and where. */
export function scanContext(
  actor: SessionUser,
  body: { occurred_at?: string; latitude?: number; longitude?: number; note?: string } | undefined,
  device: { id: string } | null,
): ScanContext {
  return { actor, meta: actionMeta(body ?? {}), deviceId: device?.id ?? null };
}
