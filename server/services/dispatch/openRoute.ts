import { eq, inArray } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { deliveryRoute, depotPosition, driverShift, pkg } from '../../db/schema/index';
import type { SessionUser } from '../auth/session';
import { createRoute } from '../routes/manage';
import { pathMetres } from '../routes/optimize';
import type { RouteRow } from '../routes/shape';
import { routeLegs, storeLegs, type PlannedLeg } from './legs';
import { placePairs, routeStops } from './pairCommit';

/**
 * Creates one driver's route of a day from its stops in order, as a plan's commit does (plans.ts),
 * and as an insertion does when it opens a route for a driver on shift with none yet (amendCommit.ts):
 * `createRoute` with the driver (route_add and assign events, the change feed to the phone), from
 * the shift's start depot; a parcel named twice is a pickup collected then delivered (pairCommit.ts);
 * the road legs (asked before the transaction, when they match this order, else the estimate) and
 * the length are stored, and the route counts as optimised. The caller refreshes its ETAs.
 */
export async function openRoute(
  deps: Deps,
  actor: SessionUser,
  o: {
    date: string;
    driver: number;
    name: string;
    packages: number[];
    shift: typeof driverShift.$inferSelect | undefined;
    legs?: PlannedLeg[];
  },
): Promise<RouteRow> {
  const { deliveries, sequences, pairs } = routeStops(o.packages);
  const now = deps.clock.now();
  const depot =
    o.shift?.start_warehouse_id != null
      ? await deps.db.select().from(depotPosition).where(eq(depotPosition.warehouse_id, o.shift.start_warehouse_id)).get()
      : undefined;
  const unpaired = new Set(deliveries.filter((id) => !pairs.some((p) => p.package === id)));
  const { route } = await createRoute(
    deps,
    actor,
    {
      name: o.name,
      date: o.date,
      kind: 'delivery',
      driver: o.driver,
      warehouse: o.shift?.start_warehouse_id ?? null,
      start_latitude: depot?.latitude ?? null,
      start_longitude: depot?.longitude ?? null,
      packages: deliveries.filter((id) => unpaired.has(id)),
    },
    pairs.length ? sequences.filter((_, i) => unpaired.has(deliveries[i])) : undefined,
  );
  await placePairs(deps, actor, route, o.driver, pairs);
  const parcels = new Map(
    (deliveries.length
      ? await deps.db
          .select({ id: pkg.id, latitude: pkg.latitude, longitude: pkg.longitude })
          .from(pkg)
          .where(inArray(pkg.id, deliveries))
          .all()
      : []
    ).map((p) => [p.id, p]),
  );
  // The route's length as POST route/{id}/sequence/ measures it (metres from the start through the stops).
  const stops = deliveries.flatMap((id) => {
    const p = parcels.get(id);
    return p?.latitude != null && p.longitude != null ? [{ latitude: p.latitude, longitude: p.longitude }] : [];
  });
  const start = depot ? { latitude: depot.latitude, longitude: depot.longitude } : null;
  // The legs asked before the transaction, when they match this order (else the estimate now).
  // Legs between the deliveries: a collection on the way is not a stop of its own there (its time is the plan's, not the legs').
  const asked =
    o.legs?.length === deliveries.length && o.legs.every((l, i) => l.to === deliveries[i])
      ? o.legs
      : await routeLegs(
          { config: { ...deps.config, osrmUrl: undefined } },
          start,
          deliveries.map((id) => ({ id, latitude: parcels.get(id)?.latitude ?? null, longitude: parcels.get(id)?.longitude ?? null })),
        );
  await storeLegs(deps.db, route.id, asked, now);
  // Road metres when the engine gave every leg's; else straight-line metres as POST route/{id}/sequence/ measures.
  const driven = asked.filter((l) => l.source !== 'unplaced' && l.source !== 'no_start');
  const roadMetres =
    driven.length && driven.every((l) => l.source.startsWith('osrm') && l.distanceM != null)
      ? driven.reduce((s, l) => s + (l.distanceM ?? 0), 0)
      : null;
  return (
    (await deps.db
      .update(deliveryRoute)
      // The solver ordered these stops: the route is optimised (issue 36: it said "Not optimised" after commit).
      .set({ total_distance_m: roadMetres ?? pathMetres(start, stops), optimized_at: now })
      .where(eq(deliveryRoute.id, route.id))
      .returning()
      .get()) ?? route
  );
}
