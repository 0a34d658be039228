import { and, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { pkg } from '../../db/schema/index';
import { isPackageStatus, PACKAGE_STATUSES, type PackageStatus } from '../../../shared/lifecycle';
import type { SessionUser } from '../auth/session';
import { historyTally, tallyScope } from '../history/lookups';
import { packageScope } from './scope';

export interface PackageCounts {
  total: number;
  by_status: Record<PackageStatus, number>;
  unassigned: number;
  assigned_not_scanned: number;
  flagged: number;
}

/**
 * Live parcels (archived ones left out) the caller may see, counted in one pass; every status
 * appears, zero or not. Parcels in history are added from the mover's tally (they are final, never
 * archived nor flagged, so they only add to their status and the total), never by reading history.
 */
export async function packageCounts(db: Db, user: SessionUser): Promise<PackageCounts> {
  const scope = packageScope(user);
  const rows = await db
    .select({
      status: pkg.status,
      n: sql<number>`count(*)`,
      unassigned: sql<number>`sum(case when ${pkg.assigned_to_id} is null then 1 else 0 end)`,
      waiting: sql<number>`sum(case when ${pkg.assigned_to_id} is not null and ${pkg.is_scanned} = 0 then 1 else 0 end)`,
      flagged: sql<number>`sum(case when ${pkg.flagged} = 1 then 1 else 0 end)`,
    })
    .from(pkg)
    .where(and(isNull(pkg.deleted_at), scope))
    .groupBy(pkg.status)
    .all();
  const by_status = Object.fromEntries(PACKAGE_STATUSES.map((s) => [s, 0])) as Record<PackageStatus, number>;
  const out: PackageCounts = { total: 0, by_status, unassigned: 0, assigned_not_scanned: 0, flagged: 0 };
  for (const r of rows) {
    if (isPackageStatus(r.status)) by_status[r.status] = r.n;
    out.total += r.n;
    out.flagged += r.flagged;
    // Finished parcels are not waiting for anyone, whatever their driver column says.
    if (r.status === 'created' || r.status === 'received' || r.status === 'returned') out.unassigned += r.unassigned;
    if (r.status === 'assigned') out.assigned_not_scanned += r.waiting;
  }
  const cold = await historyTally(db, tallyScope(user));
  for (const [status, n] of cold) {
    if (isPackageStatus(status)) by_status[status] += n;
    out.total += n;
  }
  return out;
}
