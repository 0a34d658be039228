import { eq, inArray, type SQL } from 'drizzle-orm';
import { pkg } from '../../db/schema/index';
import type { PickupListQuery } from '../../../shared/schemas/package';
import type { SessionUser } from '../auth/session';
import { packageListWhere } from '../packages/list';
import { PICKUP_STATUSES } from './create';

/**
 * The pickup lists' own filters, beside the package list's: without a status, parcels waiting for
 * collection or collected; `pickup_point` narrows to one point.
 */
export function pickupListFilters(q: { status?: string; pickup_point?: number }): (SQL | undefined)[] {
  return [
    q.status ? undefined : inArray(pkg.status, [...PICKUP_STATUSES]),
    q.pickup_point != null ? eq(pkg.pickup_point_id, q.pickup_point) : undefined,
  ];
}

/** Pickups (requested or collected, unless `status` says otherwise) the caller may see. */
export function pickupWhere(user: SessionUser, q: PickupListQuery & { localZone: string }) {
  return packageListWhere(user, q, false, ...pickupListFilters(q));
}
