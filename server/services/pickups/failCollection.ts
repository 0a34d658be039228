import { and, eq, isNull } from 'drizzle-orm';
import { COLLECTION_FAIL_LABELS, collectionFailProblem, type CollectionFailReason } from '../../../shared/collection';
import type { Deps } from '../../deps';
import { pkg, routePickup } from '../../db/schema/index';
import { invalidTransition, notFound } from '../../errors';
import { refreshRouteEtas } from '../dispatch/eta';
import { updatePackage } from '../packages/lifecycle';
import { notYoursNow, recordedRefusal, type ScanContext } from '../packages/scan';
import type { PackageRow } from '../packages/shape';
import { wasDriversParcel } from '../packages/wasDrivers';

/**
 * A collection the driver could not make at the pickup point (issue 32): the parcel was not there,
 * the shipper was closed. Its collection and its delivery leave the route (the delivery cannot
 * happen), and it goes back to waiting for collection with nobody on it, so the office plans it
 * again; the attempt stays on its history (`pickup_failed`, with the reason). The route's remaining
 * stops are timed again without the detour.
 */
export async function failCollection(
  deps: Deps,
  ctx: ScanContext,
  packageId: number,
  body: { reason: CollectionFailReason; note?: string },
): Promise<PackageRow> {
  const driver = ctx.actor;
  const row = await deps.db
    .select()
    .from(pkg)
    .where(and(eq(pkg.id, packageId), isNull(pkg.deleted_at)))
    .get();
  // A parcel never the driver's is unknown to them, as every driver action by id answers.
  if (!row || (row.assigned_to_id !== driver.id && !(await wasDriversParcel(deps.db, row.id, driver.id))))
    throw notFound(`Package ${packageId} not found`);
  const problem = collectionFailProblem(row, driver.id);
  if (problem === 'reassigned' || (problem === 'final' && row.assigned_to_id !== driver.id))
    throw await notYoursNow(deps, row, 'pickup_fail', ctx, 'pickup_requested');
  if (problem) {
    const err = invalidTransition(
      problem === 'final'
        ? `Parcel ${row.hawb} is ${row.status.replace(/_/g, ' ')} (final); no collection is left to make`
        : `Parcel ${row.hawb} is ${row.status.replace(/_/g, ' ')}: it was collected already`,
      { package: row.id, hawb: row.hawb, status: row.status, reason: problem },
    );
    throw recordedRefusal(deps, err, row, 'pickup_fail_rejected', ctx);
  }
  const stop = await deps.db.select().from(routePickup).where(eq(routePickup.package_id, row.id)).get();
  const route = row.route_id;
  const said = COLLECTION_FAIL_LABELS[body.reason];
  const now = deps.clock.now();
  const updated = await updatePackage(
    deps.db,
    now,
    row,
    { route_id: null, sequence_no: null, assigned_to_id: null, is_scanned: false },
    'pickup_failed',
    { userId: driver.id, deviceId: ctx.deviceId },
    {
      ...ctx.meta,
      note: body.note ? `${said}: ${body.note}` : said,
      data: { reason: body.reason, route, pickup_point: row.pickup_point_id, pickup_sequence_no: stop?.sequence_no ?? null },
    },
  );
  if (stop) await deps.db.delete(routePickup).where(eq(routePickup.package_id, row.id)).run();
  // The rest of the route without this detour and this door.
  if (route != null) await refreshRouteEtas(deps, route);
  return updated;
}
