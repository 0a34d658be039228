import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { changeLog, packageEvent } from '../../db/schema/index';

// Asked once per refused or reassigned action: built once per database, since building drizzle's SQL cost more than running it.
const movedByDriver = (db: Db) =>
  db
    .select({ id: packageEvent.id })
    .from(packageEvent)
    .where(
      and(
        eq(packageEvent.package_id, sql.placeholder('pkg')),
        eq(packageEvent.actor_id, sql.placeholder('driver')),
        isNotNull(packageEvent.to_status),
      ),
    )
    .limit(1)
    .prepare();
const inDriversFeed = (db: Db) =>
  db
    .select({ seq: changeLog.seq })
    .from(changeLog)
    .where(
      and(
        eq(changeLog.entity, 'package'),
        eq(changeLog.entity_id, sql.placeholder('pkg')),
        eq(changeLog.driver_id, sql.placeholder('driver')),
      ),
    )
    .limit(1)
    .prepare();

/**
 * Whether the parcel was ever this driver's: they moved it along its lifecycle, or it entered their device's scope
 * (the change feed remembers every scope a parcel entered).
 */
export async function wasDriversParcel(db: Db, packageId: number, driverId: number): Promise<boolean> {
  const args = { pkg: packageId, driver: driverId };
  return (
    (await prepared(db, 'deliver.movedByDriver', movedByDriver).get(args)) != null ||
    (await prepared(db, 'deliver.inDriversFeed', inDriversFeed).get(args)) != null
  );
}
