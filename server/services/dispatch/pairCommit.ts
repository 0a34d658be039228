import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { deliveryRoute, pkg, routePickup } from '../../db/schema/index';
import { ApiError, badRequest, conflict } from '../../errors';
import type { SessionUser } from '../auth/session';
import { updatePackage } from '../packages/lifecycle';
import { LIVE_ROUTE, type RouteRow } from '../routes/shape';

/**
 * A committed route's stops when it collects pickups to deliver them (issue 32). The commit names a
 * route's stops by parcel; a parcel named twice is a pair, collected at its first place and
 * delivered at its second. Every stop gets its place in one order: the deliveries as `sequence_no`
 * (the order the phone and every route view already read), each collection as a `route_pickup` row.
 */
export interface RouteStops {
  /** Parcels delivered, in order (the paired ones included, at their delivery). */
  deliveries: number[];
  /** Each delivery's place in the route's order (1-based, counting the collections). */
  sequences: number[];
  /** The pairs: the parcel, its place of collection and of delivery. */
  pairs: { package: number; pickup: number; delivery: number }[];
}

export function routeStops(packages: number[]): RouteStops {
  const seen = new Map<number, number>();
  const out: RouteStops = { deliveries: [], sequences: [], pairs: [] };
  const twice = new Set(packages.filter((id, i) => packages.indexOf(id) !== i));
  packages.forEach((id, i) => {
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    if (n > 2)
      throw badRequest(`Parcel ${id} is named more than twice on a route`, [
        { path: 'routes', message: 'a parcel is a stop at most twice' },
      ]);
    if (twice.has(id) && n === 1) out.pairs.push({ package: id, pickup: i + 1, delivery: 0 });
    else {
      out.deliveries.push(id);
      out.sequences.push(i + 1);
      const pair = out.pairs.find((p) => p.package === id);
      if (pair) pair.delivery = i + 1;
    }
  });
  return out;
}

/** The parcels a route delivers, in order: its stops without the collections. */
export const deliveryOrder = (packages: number[]): number[] => routeStops(packages).deliveries;

/**
 * Puts the paired pickups on a route just created: each parcel must still wait for collection and
 * be on no other live route. It becomes the driver's to collect (as assigning a pickup does: the
 * status stays `pickup_requested` until the driver scans it there), its delivery takes its place in
 * the order, and its collection a `route_pickup` row. Devices hear of it through the package feed.
 */
export async function placePairs(deps: Deps, actor: SessionUser, route: RouteRow, driverId: number, pairs: RouteStops['pairs']) {
  if (!pairs.length) return;
  const ids = pairs.map((p) => p.package);
  const rows = await deps.db
    .select()
    .from(pkg)
    .where(and(inArray(pkg.id, ids), isNull(pkg.deleted_at)))
    .all();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const wrong = ids.filter((id) => byId.get(id)?.status !== 'pickup_requested');
  if (wrong.length)
    throw new ApiError(
      400,
      'validation_error',
      `A parcel named twice on a route is a pickup to collect and deliver; these are not waiting for collection: ${wrong.join(', ')}`,
      wrong.map((id) => ({ path: 'routes', message: `package ${id} is ${byId.get(id)?.status ?? 'unknown'}` })),
    );
  const elsewhere = rows.filter((r) => r.route_id != null && r.route_id !== route.id).map((r) => r.route_id as number);
  if (elsewhere.length) {
    const live = new Set(
      (
        await deps.db
          .select({ id: deliveryRoute.id })
          .from(deliveryRoute)
          .where(and(inArray(deliveryRoute.id, elsewhere), inArray(deliveryRoute.status, [...LIVE_ROUTE])))
          .all()
      ).map((r) => r.id),
    );
    const taken = rows.filter((r) => r.route_id != null && live.has(r.route_id));
    if (taken.length)
      throw conflict(`Parcels already on another route: ${taken.map((r) => r.hawb).join(', ')}`, {
        packages: taken.map((r) => ({ package: r.id, route: r.route_id })),
      });
  }
  const now = deps.clock.now();
  for (const pair of pairs) {
    const row = byId.get(pair.package) as (typeof rows)[number];
    await updatePackage(
      deps.db,
      now,
      row,
      { route_id: route.id, sequence_no: pair.delivery, assigned_to_id: driverId },
      'route_add_pickup',
      { userId: actor.id },
      { data: { route: route.id, driver: driverId, pickup_sequence_no: pair.pickup, sequence_no: pair.delivery } },
    );
    const values = { route_id: route.id, sequence_no: pair.pickup, created_at: now };
    await deps.db
      .insert(routePickup)
      .values({ package_id: pair.package, ...values })
      .onConflictDoUpdate({ target: routePickup.package_id, set: values })
      .run();
  }
}

/**
 * The route a driver collects this parcel on to deliver it: a live delivery route of theirs that
 * holds both its stops. Null for a pickup taken to the depot as before.
 */
export async function pairedRoute(deps: Deps, packageId: number, routeId: number | null, driverId: number): Promise<number | null> {
  if (routeId == null) return null;
  const stop = await deps.db.select().from(routePickup).where(eq(routePickup.package_id, packageId)).get();
  if (!stop || stop.route_id !== routeId) return null;
  const route = await deps.db.select().from(deliveryRoute).where(eq(deliveryRoute.id, routeId)).get();
  const live = route != null && (LIVE_ROUTE as readonly string[]).includes(route.status) && route.kind === 'delivery';
  return live && route.driver_id === driverId ? route.id : null;
}
