import { and, inArray, isNull } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { pkg } from '../../db/schema/index';
import { ApiError, invalidTransition } from '../../errors';
import type { SessionUser } from '../auth/session';
import { activeDriver } from '../packages/assign';
import { updatePackage } from '../packages/lifecycle';
import { packageScope } from '../packages/scope';
import type { PackageRow } from '../packages/shape';

/** Pickups in the caller's scope by id, all or nothing: unknown (or another company's) ids are named in a 400. */
async function pickupsOrUnknown(deps: Deps, user: SessionUser, ids: number[]): Promise<PackageRow[]> {
  const wanted = [...new Set(ids)];
  const rows = await deps.db
    .select()
    .from(pkg)
    .where(and(inArray(pkg.id, wanted), isNull(pkg.deleted_at), packageScope(user)))
    .all();
  const found = new Set(rows.map((r) => r.id));
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length) {
    throw new ApiError(
      400,
      'validation_error',
      `Unknown package ids: ${missing.join(', ')}`,
      missing.map((id) => ({ path: 'packages', message: `no package ${id}` })),
    );
  }
  return rows;
}

const notWaiting = (row: PackageRow, what: string) =>
  invalidTransition(`Parcel ${row.hawb} is ${row.status.replace(/_/g, ' ')}; only a pickup not yet collected can be ${what}`, {
    package: row.id,
    hawb: row.hawb,
    status: row.status,
    allowed: ['pickup_requested'],
  });

/**
 * Sends a driver to collect parcels. The status stays `pickup_requested` (the lifecycle moves on
 * when the driver scans it at the pickup point); the driver's device gets it through the change feed.
 */
export async function assignPickups(deps: Deps, actor: SessionUser, driverId: number, ids: number[]): Promise<PackageRow[]> {
  const driver = await activeDriver(deps, driverId);
  const rows = await pickupsOrUnknown(deps, actor, ids);
  const bad = rows.find((r) => r.status !== 'pickup_requested');
  if (bad) throw notWaiting(bad, 'assigned for collection');
  const now = deps.clock.now();
  const out: PackageRow[] = [];
  for (const row of rows) {
    out.push(
      row.assigned_to_id === driver.id
        ? row
        : await updatePackage(
            deps.db,
            now,
            row,
            { assigned_to_id: driver.id },
            'pickup_assign',
            { userId: actor.id },
            { data: { driver: driver.id, previous: row.assigned_to_id } },
          ),
    );
  }
  return out;
}

export async function unassignPickups(deps: Deps, actor: SessionUser, ids: number[]): Promise<PackageRow[]> {
  const rows = await pickupsOrUnknown(deps, actor, ids);
  const bad = rows.find((r) => r.status !== 'pickup_requested');
  if (bad) throw notWaiting(bad, 'unassigned');
  const now = deps.clock.now();
  const out: PackageRow[] = [];
  for (const row of rows) {
    out.push(
      row.assigned_to_id == null
        ? row
        : await updatePackage(
            deps.db,
            now,
            row,
            { assigned_to_id: null },
            'pickup_unassign',
            { userId: actor.id },
            { data: { driver: row.assigned_to_id } },
          ),
    );
  }
  return out;
}
