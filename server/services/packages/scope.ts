import { eq, type SQL } from 'drizzle-orm';
import { pkg } from '../../db/schema/index';
import type { SessionUser } from '../auth/session';
import { isStaff } from '../../../shared/roles';
import { notFound } from '../../errors';
import type { PackageRow } from './shape';

/** Companies see their parcels, drivers the ones assigned to them, staff every parcel. */
export function packageScope(user: SessionUser): SQL | undefined {
  if (isStaff(user.role)) return undefined;
  if (user.role === 'driver') return eq(pkg.assigned_to_id, user.id);
  return eq(pkg.company_id, user.companyId ?? -1);
}

export function canSeePackage(user: SessionUser, row: PackageRow): boolean {
  if (isStaff(user.role)) return true;
  if (user.role === 'driver') return row.assigned_to_id === user.id;
  return row.company_id != null && row.company_id === user.companyId;
}

/** 404 rather than 403 for parcels outside the caller's scope, so ids do not leak what exists. */
export function visiblePackage(user: SessionUser, row: PackageRow | undefined, id: number | string): PackageRow {
  if (!row || row.deleted_at != null || !canSeePackage(user, row)) throw notFound(`Package ${id} not found`);
  return row;
}
