import { and, asc, eq, isNull, or, type SQL } from 'drizzle-orm';
import type { Deps } from '../../deps';
import type { Db } from '../../db/client';
import { pickupPoint, pkg } from '../../db/schema/index';
import { ApiError, notFound } from '../../errors';
import { isStaff } from '../../../shared/roles';
import type { SessionUser } from '../auth/session';
import { parsePickupPointCode } from '../org/pickupQr';
import { recordEvent, refusal, transition, type ActionMeta } from '../packages/lifecycle';
import {
  notYours, parcelByCode, recordedRefusal, recordedTransition, recordScanException, type ScanContext,
} from '../packages/scan';
import type { PackageRow } from '../packages/shape';

type PointRow = typeof pickupPoint.$inferSelect;

/** A pickup point the caller may look at: live, and for a company login its own. */
export async function visiblePoint(db: Db, user: SessionUser, id: number): Promise<PointRow> {
  const point = await db.select().from(pickupPoint).where(and(eq(pickupPoint.id, id), isNull(pickupPoint.deleted_at))).get();
  if (!point || (user.role === 'company' && point.company_id !== user.companyId)) throw notFound(`Pickup point ${id} not found`);
  return point;
}

/**
 * Pickups at a point as the caller may see them. A driver: those waiting there for them or for
 * anyone (unassigned), and those they collected; a company its own; staff all.
 */
export async function pickupsAtPoint(db: Db, user: SessionUser, pointId: number): Promise<PackageRow[]> {
  let scope: SQL | undefined;
  if (user.role === 'driver') {
    scope = or(
      and(eq(pkg.status, 'pickup_requested'), or(eq(pkg.assigned_to_id, user.id), isNull(pkg.assigned_to_id))),
      and(eq(pkg.status, 'picked_up'), eq(pkg.assigned_to_id, user.id)),
    );
  } else {
    scope = and(or(eq(pkg.status, 'pickup_requested'), eq(pkg.status, 'picked_up')), isStaff(user.role) ? undefined : eq(pkg.company_id, user.companyId ?? -1));
  }
  return await db.select().from(pkg).where(and(eq(pkg.pickup_point_id, pointId), isNull(pkg.deleted_at), scope)).orderBy(asc(pkg.id)).all();
}

/** The driver at a pickup point: its QR code names it; a code this server did not print is a recorded 404. */
export async function scanPickupPoint(deps: Deps, ctx: ScanContext, code: string): Promise<PointRow> {
  const now = deps.clock.now();
  const id = await parsePickupPointCode(deps.db, code, now);
  const point = id == null ? undefined
    : await deps.db.select().from(pickupPoint).where(and(eq(pickupPoint.id, id), isNull(pickupPoint.deleted_at))).get();
  if (!point) {
    throw new ApiError(404, 'not_found', 'This is not a pickup point code of this courier', [{ path: 'code', message: 'unknown pickup point code' }], { code })
      .withRecord(async () => { await recordScanException(deps.db, now, code, 'pickup_point', ctx); });
  }
  return point;
}

/**
 * The driver scans a parcel at the pickup point: `pickup_requested -> picked_up`, and the parcel is
 * theirs from then on. One meant for another driver, or waiting at another point, is refused and
 * recorded; a repeat scan of a parcel they already collected is harmless and says so.
 */
export async function collectPickup(deps: Deps, ctx: ScanContext, barcode: string, pointId: number | undefined): Promise<{ row: PackageRow; already: boolean }> {
  const driver = ctx.actor;
  const now = deps.clock.now();
  const row = await parcelByCode(deps, barcode, 'pickup', ctx);
  if (row.status === 'picked_up' && row.assigned_to_id === driver.id) {
    await recordEvent(deps.db, now, row, 'scan_repeat', { userId: driver.id, deviceId: ctx.deviceId }, ctx.meta);
    return { row, already: true };
  }
  if (row.status === 'pickup_requested' && row.assigned_to_id != null && row.assigned_to_id !== driver.id) throw notYours(deps, row, 'pickup_scan', ctx);
  if (row.status !== 'pickup_requested') {
    const final = row.status === 'delivered' || row.status === 'cancelled' || row.status === 'returned_to_sender';
    throw recordedRefusal(deps, refusal(row, 'picked_up', final ? 'final' : 'not_allowed'), row, 'pickup_scan_rejected', ctx);
  }
  if (pointId != null && row.pickup_point_id != null && row.pickup_point_id !== pointId) {
    const err = new ApiError(409, 'conflict', `Parcel ${row.hawb} waits at another pickup point`, [],
      { package: row.id, hawb: row.hawb, status: row.status, pickup_point: row.pickup_point_id, reason: 'wrong_pickup_point' });
    throw recordedRefusal(deps, err, row, 'pickup_scan_rejected', ctx);
  }
  const meta: ActionMeta = { ...ctx.meta, data: { pickup_point: pointId ?? row.pickup_point_id } };
  const updated = await recordedTransition(deps, ctx, () => transition(deps.db, now, row, 'picked_up', 'pickup_scan',
    { userId: driver.id, deviceId: ctx.deviceId }, meta, { assigned_to_id: driver.id, is_scanned: false }), row, 'pickup_scan');
  return { row: updated, already: false };
}

/**
 * The driver marks parcels collected without scanning them (an unreadable label): the same rules
 * as a scan. Ids outside what the driver may collect answer 404.
 */
export async function markCollected(deps: Deps, ctx: ScanContext, ids: number[], pointId: number | undefined): Promise<{ row: PackageRow; already: boolean }[]> {
  const driver = ctx.actor;
  const out: { row: PackageRow; already: boolean }[] = [];
  for (const id of new Set(ids)) {
    const row = await deps.db.select().from(pkg).where(and(eq(pkg.id, id), isNull(pkg.deleted_at))).get();
    const mine = row != null && row.assigned_to_id === driver.id;
    const open = row != null && row.assigned_to_id == null && row.status === 'pickup_requested' && pointId != null && row.pickup_point_id === pointId;
    if (!row || (!mine && !open)) throw notFound(`Package ${id} not found`);
    out.push(await collectPickup(deps, ctx, row.hawb, pointId));
  }
  return out;
}
