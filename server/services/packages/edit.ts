import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { changeLog, packageEvent, packageLocation, pkg } from '../../db/schema/index';
import { referencingRows } from '../../db/references';
import { conflict, forbidden } from '../../errors';
import { isFinal, type PackageStatus } from '../../../shared/lifecycle';
import type { PackageUpdate, STATUS_CHANGE_TARGETS } from '../../../shared/schemas/package';
import type { SessionUser } from '../auth/session';
import { assertHawbFree, checkCompanyActive, foreignKeyError, packageValues, volumetricWeight } from './create';
import { recordLocation, relocate } from '../geo/location';
import { repriceForZone } from '../money/charges';
import { findPackage, transition, updatePackage } from './lifecycle';
import { visiblePackage } from './scope';
import type { PackageRow } from './shape';

/** Event actions that record paperwork, not movement: a parcel with only these never left the shipper. */
const PAPERWORK_ACTIONS = ['create', 'upload', 'update'];

/**
 * Edits the details of a parcel that is not final. State and assignment have their own operations;
 * the hawb is the printed label, so it changes only before anyone has handled the parcel.
 */
export function editPackage(deps: Deps, user: SessionUser, id: number, input: PackageUpdate): PackageRow {
  const { db } = deps;
  const row = visiblePackage(user, findPackage(db, id), id);
  if (isFinal(row.status as PackageStatus)) {
    throw conflict(`Package ${row.hawb} is ${row.status.replace(/_/g, ' ')} (final); it can no longer be edited`, { package: row.id, status: row.status });
  }
  const { status: _s, assigned_to_id: _a, assigned_to: _t, driver: _d, is_scanned: _i, landed: _l, ...fields } = input;
  const values = packageValues(fields);
  if (fields.hawb !== undefined && fields.hawb !== row.hawb) {
    if (row.status !== 'created') throw conflict(`Package ${row.hawb} has been handled; its hawb (the printed label) can no longer change`, { package: row.id, status: row.status });
    assertHawbFree(db, fields.hawb, row.id);
  }
  if (fields.company !== undefined && fields.company !== row.company_id) {
    if (user.role === 'company') throw forbidden('A company can only manage its own packages');
    if (fields.company != null) checkCompanyActive(db, fields.company);
  }
  const located = relocate(deps, row, values);
  if (fields.length !== undefined || fields.width !== undefined || fields.height !== undefined) {
    values.volume_weighted = volumetricWeight(fields.length ?? row.length, fields.width ?? row.width, fields.height ?? row.height);
  }
  const now = deps.clock.now();
  let updated: PackageRow;
  try {
    updated = updatePackage(db, now, row, values, 'update', { userId: user.id }, { data: { fields: Object.keys(fields) } });
  } catch (err) { foreignKeyError(err); }
  if (located) recordLocation(db, row.id, located, now);
  // A new zone is a new price, exactly as a quote for the new address would say (money/charges.ts).
  if (updated.zone_id !== row.zone_id) repriceForZone(deps, updated, user.id);
  return updated;
}

/**
 * A parcel created by mistake may be deleted while nobody has handled it (still `created`, no scan
 * or transition beyond its creation, nothing else pointing at it); afterwards it is history and can
 * only be cancelled or archived.
 */
export function deletePackage(deps: Deps, user: SessionUser, id: number): PackageRow {
  const { db } = deps;
  const row = visiblePackage(user, findPackage(db, id), id);
  const moved = db.select({ n: sql<number>`count(*)` }).from(packageEvent)
    .where(and(eq(packageEvent.package_id, id), notInArray(packageEvent.action, PAPERWORK_ACTIONS))).get()?.n ?? 0;
  if (row.status !== 'created' || moved > 0) {
    throw conflict(`Package ${row.hawb} has already moved (${row.status.replace(/_/g, ' ')}); cancel or archive it instead`, { package: row.id, status: row.status });
  }
  const refs = referencingRows(db, 'package', id).filter((r) => !r.endsWith(' package_event') && !r.endsWith(' package_location'));
  if (refs.length) throw conflict(`Package ${row.hawb} is still referenced by ${refs.join(', ')}; archive it instead`, { referenced_by: refs });
  db.delete(packageEvent).where(eq(packageEvent.package_id, id)).run();
  db.delete(packageLocation).where(eq(packageLocation.package_id, id)).run();
  db.delete(pkg).where(eq(pkg.id, id)).run();
  // Company screens and any device holding it learn that it is gone.
  db.insert(changeLog).values({ entity: 'package', entity_id: id, op: 'remove', driver_id: null, company_id: row.company_id, created_at: deps.clock.now() }).run();
  return row;
}

/**
 * An admin or supervisor sets a status by hand, through the lifecycle table like every other change.
 * A parcel put back to `received` is on the depot shelf again: no driver, not on a van.
 */
export function changeStatus(
  deps: Deps, user: SessionUser, id: number, to: (typeof STATUS_CHANGE_TARGETS)[number], note?: string,
): PackageRow {
  const row = visiblePackage(user, findPackage(deps.db, id), id);
  const patch: Partial<typeof pkg.$inferInsert> =
    to === 'received' ? { landed: true, assigned_to_id: null, is_scanned: false }
      : to === 'returned' ? { is_scanned: false } : {};
  return transition(deps.db, deps.clock.now(), row, to, 'status_change', { userId: user.id }, { note: note ?? null }, patch);
}
