import type { Db } from '../../db/client';
import { changeLog } from '../../db/schema/index';

export type ChangeOp = 'upsert' | 'remove';

/**
 * Appends to the change feed for a package: an upsert for its current driver (and company, for
 * company screens) and a remove for a driver it was taken from. Runs inside the caller's transaction.
 */
export function logPackageChange(
  db: Db, packageId: number, scope: { driverId: number | null; previousDriverId?: number | null; companyId: number | null }, now: number,
): void {
  const rows: (typeof changeLog.$inferInsert)[] = [];
  if (scope.previousDriverId != null && scope.previousDriverId !== scope.driverId) {
    rows.push({ entity: 'package', entity_id: packageId, op: 'remove', driver_id: scope.previousDriverId, company_id: null, created_at: now });
  }
  rows.push({ entity: 'package', entity_id: packageId, op: 'upsert', driver_id: scope.driverId, company_id: scope.companyId, created_at: now });
  db.insert(changeLog).values(rows).run();
}

/** Records shared by every device (failed-delivery statuses, etc.): driver_id null. */
export function logSharedChange(db: Db, entity: string, ids: number[], op: ChangeOp, now: number): void {
  if (!ids.length) return;
  db.insert(changeLog).values(ids.map((id) => ({ entity, entity_id: id, op, driver_id: null, company_id: null, created_at: now }))).run();
}
