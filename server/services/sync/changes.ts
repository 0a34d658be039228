import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { changeLog } from '../../db/schema/index';

export type ChangeOp = 'upsert' | 'remove';

// Every package change appends here: built once per database rather than per row.
const packageInsert = (db: Db) =>
  db
    .insert(changeLog)
    .values({
      entity: 'package',
      entity_id: sql.placeholder('entity_id'),
      op: sql.placeholder('op'),
      driver_id: sql.placeholder('driver_id'),
      company_id: sql.placeholder('company_id'),
      created_at: sql.placeholder('created_at'),
    })
    .prepare();

/**
 * Appends to the change feed for a package: an upsert for its current driver (and company, for
 * company screens) and a remove for a driver it was taken from. Runs inside the caller's transaction.
 */
export async function logPackageChange(
  db: Db,
  packageId: number,
  scope: { driverId: number | null; previousDriverId?: number | null; companyId: number | null },
  now: number,
): Promise<void> {
  const insert = prepared(db, 'changeLog.packageInsert', packageInsert);
  // The remove first: a device reading the feed in order ends with the parcel's current scope.
  if (scope.previousDriverId != null && scope.previousDriverId !== scope.driverId) {
    await insert.run({ entity_id: packageId, op: 'remove', driver_id: scope.previousDriverId, company_id: null, created_at: now });
  }
  await insert.run({ entity_id: packageId, op: 'upsert', driver_id: scope.driverId, company_id: scope.companyId, created_at: now });
}

/** Records shared by every device (failed-delivery statuses, etc.): driver_id null. */
export async function logSharedChange(db: Db, entity: string, ids: number[], op: ChangeOp, now: number): Promise<void> {
  if (!ids.length) return;
  await db
    .insert(changeLog)
    .values(ids.map((id) => ({ entity, entity_id: id, op, driver_id: null, company_id: null, created_at: now })))
    .run();
}
