import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { pickupPoint, pkg, routePickup } from '../../db/schema/index';

export interface CollectionStop {
  route: number;
  package: number;
  sequence_no: number;
  eta_at: number | null;
  name: string | null;
  street: string | null;
  suburb: string | null;
  latitude: number | null;
  longitude: number | null;
}

/**
 * The collections of routes that pick a parcel up and then deliver it (issue 32), in each route's
 * order, with the pickup point's place: a `route_pickup` row counts while its parcel is still on
 * that route. `pendingOnly`: only those still waiting at the point, the stops a route's ETAs and an
 * insertion drive through. The route's shape, its ETAs and the insertion read this one query.
 */
export async function collectionStops(db: Db, routeIds: number[], opts: { pendingOnly?: boolean } = {}): Promise<CollectionStop[]> {
  if (!routeIds.length) return [];
  return await db
    .select({
      route: routePickup.route_id,
      package: routePickup.package_id,
      sequence_no: routePickup.sequence_no,
      eta_at: routePickup.eta_at,
      name: pickupPoint.person_name,
      street: pickupPoint.address,
      suburb: pickupPoint.suburb,
      latitude: pickupPoint.latitude,
      longitude: pickupPoint.longitude,
    })
    .from(routePickup)
    .innerJoin(pkg, and(eq(pkg.id, routePickup.package_id), eq(pkg.route_id, routePickup.route_id)))
    .leftJoin(pickupPoint, eq(pickupPoint.id, pkg.pickup_point_id))
    .where(
      and(
        inArray(routePickup.route_id, routeIds),
        opts.pendingOnly ? and(eq(pkg.status, 'pickup_requested'), isNull(pkg.deleted_at)) : undefined,
      ),
    )
    .orderBy(asc(routePickup.sequence_no))
    .all();
}

/** Collections still to make on one committed route (see `collectionStops`). */
export function pendingCollections(db: Db, routeId: number): Promise<CollectionStop[]> {
  return collectionStops(db, [routeId], { pendingOnly: true });
}
