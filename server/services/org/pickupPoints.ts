import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { pickupPoint, pkg } from '../../db/schema/index';
import { notFound } from '../../errors';
import type { SessionUser } from '../auth/session';

/**
 * A company manages its own pickup points; staff manage all. A driver sees only the points where a
 * pickup is assigned to them (the person, phone and address there are theirs to know); any other
 * point opens to a driver only by scanning its signed QR code there (services/pickups/scan.ts).
 */
export function pickupPointScope(user: SessionUser): SQL | undefined {
  if (user.role === 'company') return eq(pickupPoint.company_id, user.companyId ?? -1);
  if (user.role === 'driver') return assignedPointOf(user.id);
  return undefined;
}

/** A pickup at this point (waiting or collected) is assigned to the driver. */
export const assignedPointOf = (driverId: number): SQL =>
  sql`exists (select 1 from ${pkg} where ${and(
    eq(pkg.pickup_point_id, pickupPoint.id),
    eq(pkg.assigned_to_id, driverId),
    inArray(pkg.status, ['pickup_requested', 'picked_up']),
    isNull(pkg.deleted_at),
  )})`;

/** A live pickup point the caller may see; archived or outside scope is 404. */
export async function findPickupPoint(db: Db, user: SessionUser, id: number): Promise<{ id: number }> {
  const point = await db
    .select({ id: pickupPoint.id })
    .from(pickupPoint)
    .where(and(eq(pickupPoint.id, id), isNull(pickupPoint.deleted_at), pickupPointScope(user)))
    .get();
  if (!point) throw notFound(`Pickup point ${id} not found`);
  return point;
}
