import { and, asc, eq, inArray, isNull, or, type SQL } from 'drizzle-orm';
import type { Deps } from '../../deps';
import type { Db } from '../../db/client';
import { pickupPoint, pkg } from '../../db/schema/index';
import { ApiError, badRequest, notFound } from '../../errors';
import { isStaff } from '../../../shared/roles';
import type { SessionUser } from '../auth/session';
import { parsePickupPointCode } from '../org/pickupQr';
import { recordEvent, refusal, transition, type ActionMeta } from '../packages/lifecycle';
import { notYours, parcelByCode, recordedRefusal, recordedTransition, recordScanException, type ScanContext } from '../packages/scan';
import type { PackageRow } from '../packages/shape';
import { pairedRoute } from '../dispatch/pairCommit';

type PointRow = typeof pickupPoint.$inferSelect;

/**
 * How a caller reaches a pickup point's parcels. Staff: every point; a company: its own. A driver
 * (issue 30, section 6): with the point's signed QR code (`code`, as scanned there) what waits there
 * for anyone; without it only what is assigned to them, and a point where nothing is assigned to
 * them is 404 (so walking point ids shows nobody's names, phones or addresses).
 */
export interface PointAccess {
  point: PointRow;
  scanned: boolean;
}

export async function visiblePoint(deps: Deps, ctx: ScanContext, id: number, code?: string): Promise<PointAccess> {
  const { db } = deps;
  const user = ctx.actor;
  const point = await db
    .select()
    .from(pickupPoint)
    .where(and(eq(pickupPoint.id, id), isNull(pickupPoint.deleted_at)))
    .get();
  if (!point || (user.role === 'company' && point.company_id !== user.companyId)) throw notFound(`Pickup point ${id} not found`);
  if (user.role !== 'driver') return { point, scanned: false };
  if (code !== undefined) {
    const scanned = await scanPickupPoint(deps, ctx, code);
    if (scanned.id !== point.id)
      throw badRequest("This QR code is another pickup point's", [{ path: 'code', message: 'not this pickup point' }]);
    return { point, scanned: true };
  }
  const assigned = await db
    .select({ id: pkg.id })
    .from(pkg)
    .where(
      and(
        eq(pkg.pickup_point_id, id),
        eq(pkg.assigned_to_id, user.id),
        inArray(pkg.status, ['pickup_requested', 'picked_up']),
        isNull(pkg.deleted_at),
      ),
    )
    .get();
  if (!assigned) throw notFound(`Pickup point ${id} not found`);
  return { point, scanned: false };
}

/**
 * Pickups at a point as the caller may see them. A driver: those waiting there for them, and for
 * anyone (unassigned) only when they scanned the point's code; and those they collected. A company
 * its own; staff all.
 */
export async function pickupsAtPoint(db: Db, user: SessionUser, pointId: number, scanned: boolean): Promise<PackageRow[]> {
  let scope: SQL | undefined;
  if (user.role === 'driver') {
    const waiting = scanned ? or(eq(pkg.assigned_to_id, user.id), isNull(pkg.assigned_to_id)) : eq(pkg.assigned_to_id, user.id);
    scope = or(and(eq(pkg.status, 'pickup_requested'), waiting), and(eq(pkg.status, 'picked_up'), eq(pkg.assigned_to_id, user.id)));
  } else {
    scope = and(
      or(eq(pkg.status, 'pickup_requested'), eq(pkg.status, 'picked_up')),
      isStaff(user.role) ? undefined : eq(pkg.company_id, user.companyId ?? -1),
    );
  }
  return await db
    .select()
    .from(pkg)
    .where(and(eq(pkg.pickup_point_id, pointId), isNull(pkg.deleted_at), scope))
    .orderBy(asc(pkg.id))
    .all();
}

/**
 * The point a driver's action proves they stand at: the one its scanned `code` names (a code this
 * server did not print is a recorded 404). A `pickup_point` sent beside it must be the same point.
 */
export async function scannedPoint(
  deps: Deps,
  ctx: ScanContext,
  code: string | undefined,
  pointId: number | undefined,
): Promise<number | null> {
  if (code === undefined) return null;
  const point = await scanPickupPoint(deps, ctx, code);
  if (pointId != null && pointId !== point.id)
    throw badRequest("The QR code scanned is another pickup point's", [{ path: 'code', message: 'not the pickup_point sent' }]);
  return point.id;
}

/** The driver at a pickup point: its QR code names it; a code this server did not print is a recorded 404. */
export async function scanPickupPoint(deps: Deps, ctx: ScanContext, code: string): Promise<PointRow> {
  const now = deps.clock.now();
  const id = await parsePickupPointCode(deps.db, code, now);
  const point =
    id == null
      ? undefined
      : await deps.db
          .select()
          .from(pickupPoint)
          .where(and(eq(pickupPoint.id, id), isNull(pickupPoint.deleted_at)))
          .get();
  if (!point) {
    throw new ApiError(
      404,
      'not_found',
      'This is not a pickup point code of this courier',
      [{ path: 'code', message: 'unknown pickup point code' }],
      { code },
    ).withRecord(async () => {
      await recordScanException(deps.db, now, code, 'pickup_point', ctx);
    });
  }
  return point;
}

/**
 * The driver scans a parcel at the pickup point: `pickup_requested -> picked_up`, and the parcel is
 * theirs from then on. One meant for another driver, or waiting at another point, is refused and
 * recorded; a repeat scan of a parcel they already collected is harmless and says so.
 */
export async function collectPickup(
  deps: Deps,
  ctx: ScanContext,
  barcode: string,
  pointId: number | undefined,
  scanned: number | null,
): Promise<{ row: PackageRow; already: boolean }> {
  const driver = ctx.actor;
  const now = deps.clock.now();
  const row = await parcelByCode(deps, barcode, 'pickup', ctx);
  if (row.status === 'picked_up' && row.assigned_to_id === driver.id) {
    await recordEvent(deps.db, now, row, 'scan_repeat', { userId: driver.id, deviceId: ctx.deviceId }, ctx.meta);
    return { row, already: true };
  }
  // Collected already and loaded for its delivery on the driver's route (issue 32): a repeat scan, harmless.
  if (
    row.status === 'out_for_delivery' &&
    row.assigned_to_id === driver.id &&
    (await pairedRoute(deps, row.id, row.route_id, driver.id)) != null
  ) {
    await recordEvent(deps.db, now, row, 'scan_repeat', { userId: driver.id, deviceId: ctx.deviceId }, ctx.meta);
    return { row, already: true };
  }
  if (row.status === 'pickup_requested' && row.assigned_to_id != null && row.assigned_to_id !== driver.id)
    throw notYours(deps, row, 'pickup_scan', ctx);
  if (row.status !== 'pickup_requested') {
    const final = row.status === 'delivered' || row.status === 'cancelled' || row.status === 'returned_to_sender';
    throw recordedRefusal(deps, refusal(row, 'picked_up', final ? 'final' : 'not_allowed'), row, 'pickup_scan_rejected', ctx);
  }
  if (pointId != null && row.pickup_point_id != null && row.pickup_point_id !== pointId) {
    const err = new ApiError(409, 'conflict', `Parcel ${row.hawb} waits at another pickup point`, [], {
      package: row.id,
      hawb: row.hawb,
      status: row.status,
      pickup_point: row.pickup_point_id,
      reason: 'wrong_pickup_point',
    });
    throw recordedRefusal(deps, err, row, 'pickup_scan_rejected', ctx);
  }
  // A parcel nobody is assigned to is collected only by a driver standing at its point: one who
  // scanned that point's QR code (a pickup without a point must be assigned first).
  if (row.assigned_to_id == null && (row.pickup_point_id == null || scanned !== row.pickup_point_id)) {
    const err = new ApiError(
      409,
      'conflict',
      row.pickup_point_id == null
        ? `Parcel ${barcode} is not assigned to you; the office assigns a pickup without a pickup point`
        : `Scan the pickup point's QR code first: a parcel waiting there is collected by a driver at the point`,
      [],
      { barcode, reason: row.pickup_point_id == null ? 'not_assigned' : 'pickup_point_not_scanned' },
    );
    throw recordedRefusal(deps, err, row, 'pickup_scan_rejected', ctx);
  }
  const meta: ActionMeta = { ...ctx.meta, data: { pickup_point: pointId ?? row.pickup_point_id } };
  const collected = await recordedTransition(
    deps,
    ctx,
    () =>
      transition(deps.db, now, row, 'picked_up', 'pickup_scan', { userId: driver.id, deviceId: ctx.deviceId }, meta, {
        assigned_to_id: driver.id,
        is_scanned: false,
      }),
    row,
    'pickup_scan',
  );
  // Collected to be delivered on the same route (issue 32): it is on the van now, as a scan onto it would say.
  const route = await pairedRoute(deps, row.id, row.route_id, driver.id);
  const updated =
    route == null
      ? collected
      : await transition(
          deps.db,
          now,
          collected,
          'out_for_delivery',
          'pickup_load',
          { userId: driver.id, deviceId: ctx.deviceId },
          { ...ctx.meta, data: { route } },
          { is_scanned: true },
        );
  return { row: updated, already: false };
}

/**
 * The driver marks parcels collected without scanning them (an unreadable label): the same rules
 * as a scan. Ids outside what the driver may collect answer 404.
 */
export async function markCollected(
  deps: Deps,
  ctx: ScanContext,
  ids: number[],
  pointId: number | undefined,
  scanned: number | null,
): Promise<{ row: PackageRow; already: boolean }[]> {
  const driver = ctx.actor;
  const out: { row: PackageRow; already: boolean }[] = [];
  for (const id of new Set(ids)) {
    const row = await deps.db
      .select()
      .from(pkg)
      .where(and(eq(pkg.id, id), isNull(pkg.deleted_at)))
      .get();
    const mine = row != null && row.assigned_to_id === driver.id;
    // Unassigned parcels only at the point whose QR code the driver scanned: an id alone opens nothing.
    const open =
      row != null && row.assigned_to_id == null && row.status === 'pickup_requested' && scanned != null && row.pickup_point_id === scanned;
    if (!row || (!mine && !open)) throw notFound(`Package ${id} not found`);
    out.push(await collectPickup(deps, ctx, row.hawb, pointId ?? scanned ?? undefined, scanned));
  }
  return out;
}
