import { and, eq, gte, inArray, isNull, notInArray, or, type SQL } from 'drizzle-orm';
import { FINAL_STATUSES } from '../../../shared/lifecycle';
import { isStaff } from '../../../shared/roles';
import { changeLog, failedDeliveryStatus, pkg } from '../../db/schema/index';
import type { SessionUser } from '../auth/session';

/** Parcels in a final state stay on devices this long after their last change: today's and recent history. */
export const FINAL_KEPT_MS = 3 * 24 * 3600_000;

/**
 * Whose copies a device keeps. Drivers: their assigned parcels. Companies: their own parcels. Staff
 * work online against the list endpoints, so their devices keep only the shared records.
 */
export type FeedScope = { kind: 'driver'; driverId: number } | { kind: 'company'; companyId: number } | { kind: 'shared' };

export function feedScopeOf(user: SessionUser): FeedScope {
  if (user.role === 'driver') return { kind: 'driver', driverId: user.id };
  if (!isStaff(user.role) && user.companyId != null) return { kind: 'company', companyId: user.companyId };
  return { kind: 'shared' };
}

/** Packages this scope holds right now; null when the scope holds none. */
export function packagesInScope(scope: FeedScope, now: number): SQL | null {
  const owner =
    scope.kind === 'driver'
      ? eq(pkg.assigned_to_id, scope.driverId)
      : scope.kind === 'company'
        ? eq(pkg.company_id, scope.companyId)
        : null;
  if (!owner) return null;
  const recent = or(notInArray(pkg.status, [...FINAL_STATUSES]), gte(pkg.updated_at, now - FINAL_KEPT_MS));
  return and(owner, isNull(pkg.deleted_at), recent) ?? null;
}

/** Failed-delivery statuses every device keeps: the usable ones. */
export const statusesInScope = and(isNull(failedDeliveryStatus.deleted_at), eq(failedDeliveryStatus.is_active, true));

/** The feed rows of this scope's packages (the driver's or company's column of change_log). */
export function packageFeedRows(scope: FeedScope): SQL | null {
  if (scope.kind === 'driver') return and(eq(changeLog.entity, 'package'), eq(changeLog.driver_id, scope.driverId)) ?? null;
  if (scope.kind === 'company') return and(eq(changeLog.entity, 'package'), eq(changeLog.company_id, scope.companyId)) ?? null;
  return null;
}

export const sharedFeedRows = and(inArray(changeLog.entity, ['failed_delivery_status']), isNull(changeLog.driver_id));
