import type { Role } from '../../../shared/roles';
import { STAFF_ROLES } from '../../../shared/roles';
import { badRequest, forbidden, notFound } from '../../errors';
import type { SessionUser } from '../../services/auth/session';
import { driverRef } from '../../services/routes/shape';
import type { Db } from '../../db/client';

export const STAFF: readonly Role[] = STAFF_ROLES;
export const STAFF_AND_DRIVERS: readonly Role[] = [...STAFF_ROLES, 'driver'];

/**
 * The driver a view is about. A driver is always themself (naming another is outside their scope:
 * 404); staff must name one unless `optional`.
 */
export async function whichDriver(
  db: Db,
  me: SessionUser,
  requested: number | undefined,
  optional = false,
): Promise<{ id: number; name: string } | null> {
  if (me.role === 'driver') {
    if (requested != null && requested !== me.id) throw notFound(`Driver ${requested} not found`);
    return { id: me.id, name: me.name };
  }
  if (requested == null) {
    if (optional) return null;
    throw badRequest('Say which driver: ?driver=<employee id>', [{ path: 'driver', message: 'required for staff' }]);
  }
  return await driverRef(db, requested);
}

/** Route changes a driver makes from the phone; anyone else needs route.manage. */
export function requireRouteWriter(me: SessionUser): void {
  if (me.role !== 'driver' && !me.permissions.has('route.manage')) throw forbidden('You need the "route.manage" permission');
}
