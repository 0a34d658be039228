import { and, eq, inArray, isNotNull, isNull, type SQL } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { pkg, user } from '../../db/schema/index';
import { ApiError, badRequest, invalidTransition } from '../../errors';
import type { SessionUser } from '../auth/session';
import { transition, type ActionMeta } from './lifecycle';
import type { PackageRow } from './shape';

/** Parcels that are, or may be, waiting for a driver: the assignment screen's default view. */
export const ASSIGNABLE = ['created', 'received', 'assigned', 'failed', 'returned'];

/**
 * The assignment screen's own filters, beside the package list's: without a status, the assignable
 * states; `assigned` keeps parcels with (`true`) or without (`false`) a driver.
 */
export function assignListFilters(q: { status?: string; assigned?: 'true' | 'false' }): (SQL | undefined)[] {
  const withDriver =
    q.assigned === undefined ? undefined : q.assigned === 'true' ? isNotNull(pkg.assigned_to_id) : isNull(pkg.assigned_to_id);
  return [q.status ? undefined : inArray(pkg.status, ASSIGNABLE), withDriver];
}

export async function activeDriver(deps: Deps, driverId: number) {
  const driver = await deps.db
    .select()
    .from(user)
    .where(and(eq(user.id, driverId), isNull(user.deleted_at)))
    .get();
  if (!driver || driver.role !== 'driver')
    throw badRequest(`Employee ${driverId} is not a driver`, [{ path: 'driver', message: 'not a driver' }]);
  if (!driver.is_active) throw badRequest(`Driver ${driver.name} is inactive`, [{ path: 'driver', message: 'inactive driver' }]);
  return driver;
}

/**
 * Assigns parcels to a driver, all or nothing. A parcel already with that driver is left alone;
 * one taken from another driver leaves that driver's device through the change feed.
 */
export async function assignDriver(
  deps: Deps,
  actor: SessionUser,
  driverId: number,
  packageIds: number[],
  meta: ActionMeta = {},
): Promise<PackageRow[]> {
  const driver = await activeDriver(deps, driverId);
  const wanted = [...new Set(packageIds)];
  const rows = await deps.db
    .select()
    .from(pkg)
    .where(and(inArray(pkg.id, wanted), isNull(pkg.deleted_at)))
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
  const now = deps.clock.now();
  const out: PackageRow[] = [];
  for (const row of rows) {
    if (row.assigned_to_id === driver.id && row.status === 'assigned') {
      out.push(row);
      continue;
    }
    out.push(
      await transition(
        deps.db,
        now,
        row,
        'assigned',
        'assign',
        { userId: actor.id },
        // The caller's own facts (the route it joins, an amendment's depot visit) ride along with the driver.
        { ...meta, data: { ...meta.data, driver: driver.id } },
        { assigned_to_id: driver.id, is_scanned: false },
      ),
    );
  }
  return out;
}

async function packagesOrUnknown(deps: Deps, ids: number[]): Promise<PackageRow[]> {
  const wanted = [...new Set(ids)];
  const rows = await deps.db
    .select()
    .from(pkg)
    .where(and(inArray(pkg.id, wanted), isNull(pkg.deleted_at)))
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

/**
 * Takes parcels back from their driver, all or nothing. Only a parcel still waiting for its driver
 * (`assigned`, not yet on the van) can be taken back; it returns to the depot shelf (`received`)
 * when it has landed there, otherwise to `created`. The driver's device drops it through the
 * change feed.
 */
export async function unassignPackages(deps: Deps, actor: SessionUser, packageIds: number[], meta: ActionMeta = {}): Promise<PackageRow[]> {
  const rows = await packagesOrUnknown(deps, packageIds);
  const now = deps.clock.now();
  const out: PackageRow[] = [];
  for (const row of rows) {
    if (row.status !== 'assigned') {
      throw invalidTransition(
        `Parcel ${row.hawb} is ${row.status.replace(/_/g, ' ')}; only an assigned parcel not yet on the van can be unassigned`,
        { package: row.id, hawb: row.hawb, status: row.status },
      );
    }
    out.push(
      await transition(
        deps.db,
        now,
        row,
        row.landed ? 'received' : 'created',
        'unassign',
        { userId: actor.id },
        { ...meta, data: { driver: row.assigned_to_id } },
        { assigned_to_id: null, is_scanned: false },
      ),
    );
  }
  return out;
}
