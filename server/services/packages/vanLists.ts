import { and, eq, isNull, sql } from 'drizzle-orm';
import { isStaff } from '../../../shared/roles';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import type { Deps } from '../../deps';
import { isLive, pkg } from '../../db/schema/index';
import { forbidden } from '../../errors';
import type { RawJson } from '../../http/rawJson';
import type { SessionUser } from '../auth/session';
import { packageAnswerSelect, packageJsonWhere, rawPackages } from './json';
import { routeOrder } from './shape';

/** Prepared once per database: drivers poll this list, and building its SQL cost more than running it. */
const remainingQuery = (db: Db) =>
  prepared(db, 'remaining-packages-json', (d) =>
    packageAnswerSelect(d)
      // Same rule as offerableToDriver (shared/lifecycle.ts): a failed parcel past its attempts must come back, so it is not offered.
      .where(
        and(
          eq(pkg.assigned_to_id, sql.placeholder('driver')),
          eq(pkg.is_scanned, false),
          isNull(pkg.deleted_at),
          isLive(pkg.status),
          sql`not (${pkg.status} = 'failed' and ${pkg.attempts} >= ${sql.placeholder('max')})`,
        ),
      )
      .orderBy(...routeOrder())
      .prepare(),
  );

/**
 * Whose van lists a caller may read: a driver only their own (the id is their employee id), staff
 * anyone's. `what` names the list in the refusal.
 */
export function assertMayListVan(user: SessionUser, driverId: number, what: 'remaining' | 'scanned'): void {
  if (!isStaff(user.role) && user.id !== driverId) throw forbidden(`You may only list your own ${what} packages`);
}

/** A driver's open parcels not yet scanned onto the van, in route order, as answer JSON. */
export async function remainingPackages(deps: Pick<Deps, 'db' | 'config'>, driverId: number): Promise<RawJson[]> {
  return rawPackages((await remainingQuery(deps.db).values({ driver: driverId, max: deps.config.maxAttempts })) as unknown[][]);
}

/** A driver's parcels on the van and not yet in a final state, in route order, as answer JSON. */
export function scannedPackages(db: Db, driverId: number): Promise<RawJson[]> {
  return packageJsonWhere(db, and(eq(pkg.assigned_to_id, driverId), eq(pkg.is_scanned, true), isNull(pkg.deleted_at), isLive(pkg.status)), {
    orderBy: routeOrder(),
  });
}
