import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { AmendCommit } from '../../../shared/schemas/dispatch';
import type { RouteRecord } from '../../../shared/schemas/routes';
import type { Deps } from '../../deps';
import { deliveryRoute, driverShift, pkg, routePickup, user } from '../../db/schema/index';
import { ApiError, conflict } from '../../errors';
import type { SessionUser } from '../auth/session';
import { updatePackage } from '../packages/lifecycle';
import type { PackageRow } from '../packages/shape';
import { handOver } from '../routes/assign';
import { changeStatus, placeParcels } from '../routes/manage';
import { pathMetres } from '../routes/optimize';
import { LIVE_ROUTE, routeParcels, routeRecord, type RouteRow } from '../routes/shape';
import { isCollection, liveRoute, newRouteName, type LiveRoute } from './amend';
import { refreshRouteEtas } from './eta';
import { idleDrivers } from './idleDrivers';
import { openRoute } from './openRoute';
import { placePairs } from './pairCommit';
import { pickupOrigins, unpairable } from './pickupPairs';

const PLANNABLE = new Set(['created', 'received', 'assigned']);
const stale = (message: string, details: Record<string, unknown> = {}) =>
  conflict(`${message}; the day has moved on since the preview: preview again`, details);

/**
 * Applies an amended day as the board sends it back, all in the request's one transaction:
 * - each route named gets exactly its stops still to visit, in the order given; the stop the
 *   driver is heading to must stay first, and every stop it had must still be there unless its
 *   route is dropped (parcels on a van stay on it);
 * - a stop may come from the free parcels or from a dropped route; it is placed, handed to the
 *   route's driver (assign events, the change feed to the phone) and sequenced after the stops done;
 * - a dropped route gives up its stops (those not placed elsewhere leave it) and is cancelled;
 * - the arrival times of every changed route are recomputed and become the new promise, so
 *   recipients' times move.
 * - a parcel a route still has to collect is named twice, collected first (as a plan's commit names
 *   it); the collection keeps its own place in the order (its `route_pickup` row);
 * - a new parcel still to collect (`pickup_requested`, on no live route) named twice joins as a
 *   pair: collected at its first place, delivered at its second, as a plan's commit places pairs
 *   (`placePairs`: its `route_pickup` row, the driver's, the feed to the phone);
 * - an open route (`open_routes`) is created for a driver on shift with no route yet, as a plan's
 *   commit creates routes (openRoute.ts), with free parcels or a dropped route's;
 * Anything out of date (a stop worked meanwhile, a parcel taken) answers 409 and changes nothing.
 */
export async function commitAmend(deps: Deps, actor: SessionUser, body: AmendCommit): Promise<RouteRecord[]> {
  const named = [...body.routes.map((r) => r.route), ...body.drop_routes];
  if (new Set(named).size !== named.length)
    throw new ApiError(400, 'validation_error', 'A route is named twice', [
      { path: 'routes', message: 'each route once, kept or dropped' },
    ]);
  if (!named.length && !body.open_routes.length)
    throw new ApiError(400, 'validation_error', 'Nothing to change', [{ path: 'routes', message: 'name a route to change, drop or open' }]);
  const opening = body.open_routes.map((o) => o.driver);
  if (new Set(opening).size !== opening.length)
    throw new ApiError(400, 'validation_error', 'One route to open per driver', [
      { path: 'open_routes', message: 'a driver is named twice' },
    ]);
  if (opening.length && !body.date)
    throw new ApiError(400, 'validation_error', 'The day of the routes to open is missing', [
      { path: 'date', message: 'required with open_routes' },
    ]);
  const rows = await deps.db
    .select({ r: deliveryRoute, name: user.name })
    .from(deliveryRoute)
    .innerJoin(user, eq(user.id, deliveryRoute.driver_id))
    .where(and(inArray(deliveryRoute.id, named), eq(deliveryRoute.kind, 'delivery'), inArray(deliveryRoute.status, [...LIVE_ROUTE])))
    .all();
  const found = new Map(rows.map((x) => [x.r.id, x]));
  const missing = named.filter((id) => !found.has(id));
  if (missing.length) throw stale(`Routes not live with a driver: ${missing.join(', ')}`, { routes: missing });
  const live = new Map<number, LiveRoute>();
  for (const id of named) {
    const x = found.get(id)!;
    live.set(id, await liveRoute(deps, x.r, x.name));
  }

  // A parcel is on one route; twice on it only as a collection still to make and its delivery (checked per route below).
  const wanted = [...body.routes.map((r) => [...new Set(r.packages)]), ...body.open_routes.map((o) => [...new Set(o.packages)])].flat();
  if (new Set(wanted).size !== wanted.length)
    throw new ApiError(400, 'validation_error', 'A parcel is named twice', [{ path: 'routes', message: 'each parcel on one route once' }]);
  const droppedStops = new Map<number, number>();
  for (const id of body.drop_routes) for (const p of openStops(live.get(id)!)) droppedStops.set(p.id, id);
  const parcels = new Map(
    (wanted.length
      ? await deps.db
          .select()
          .from(pkg)
          .where(and(inArray(pkg.id, wanted), isNull(pkg.deleted_at)))
          .all()
      : []
    ).map((p) => [p.id, p]),
  );
  const liveIds = new Set(
    (
      await deps.db
        .select({ id: deliveryRoute.id })
        .from(deliveryRoute)
        .where(inArray(deliveryRoute.status, [...LIVE_ROUTE]))
        .all()
    ).map((r) => r.id),
  );

  const changed: {
    route: RouteRow;
    ordered: PackageRow[];
    joining: PackageRow[];
    pairs: Set<number>;
    reloadBefore?: number;
    parked: PackageRow[];
  }[] = [];
  for (const r of body.routes) {
    const now = live.get(r.route)!;
    const had = [...(now.next ? [now.next] : []), ...now.rest];
    const pairs = newPairs(r.packages, parcels, liveIds);
    const stops = signedStops(now, had, r.packages, pairs);
    const given = new Set(stops);
    const lost = had.filter((p) => !given.has(p.id));
    if (lost.length)
      throw stale(`Route ${now.row.name} would lose stops it carries: ${lost.map((p) => p.hawb).join(', ')}`, {
        packages: lost.map((p) => p.id),
      });
    if (now.next && stops[0] !== now.next.id)
      throw stale(`Route ${now.row.name}: the driver is heading to ${now.next.hawb}; it stays the next stop`, { next: now.next.id });
    const mine = new Set(had.map((p) => p.id));
    const joining: PackageRow[] = [];
    for (const id of stops) {
      if (mine.has(id) || pairs.has(Math.abs(id))) continue;
      const p = parcels.get(id);
      if (!p) throw new ApiError(400, 'validation_error', `Unknown package ${id}`, [{ path: 'routes', message: `no package ${id}` }]);
      const fromDropped = droppedStops.has(id);
      const free = PLANNABLE.has(p.status) && (p.route_id == null || !liveIds.has(p.route_id));
      if (!fromDropped && !free)
        throw stale(`Parcel ${p.hawb} is ${p.status}${p.route_id != null && liveIds.has(p.route_id) ? ' on another route' : ''}`, {
          package: id,
        });
      joining.push(p);
    }
    const paired = [...pairs].map((id) => parcels.get(id)!);
    const byId = new Map([...had, ...joining, ...paired, ...paired.map((p) => ({ ...p, id: -p.id }))].map((p) => [p.id, p]));
    // Failed stops waiting for another attempt keep their place after the ones to visit.
    if (r.reload_before != null && !r.packages.includes(r.reload_before))
      throw new ApiError(400, 'validation_error', `The depot visit of route ${now.row.name} is before a stop it does not have`, [
        { path: 'routes.reload_before', message: `package ${r.reload_before} is not among its stops` },
      ]);
    changed.push({
      route: now.row,
      ordered: stops.map((id) => byId.get(id)!),
      joining,
      pairs,
      reloadBefore: r.reload_before,
      parked: now.parked,
    });
  }
  const opened = await openable(deps, body, droppedStops, parcels, liveIds);
  await placeable(
    deps,
    [...changed.flatMap((c) => [...c.pairs]), ...opened.flatMap((o) => [...newPairs(o.packages, parcels, liveIds)])],
    parcels,
  );

  for (const c of changed) await placeStops(deps, actor, c.route, c.ordered, c.parked, c.pairs);
  for (const c of changed) {
    // Where the van goes back to the depot for them rides with the hand-over (reload.ts reads it back).
    if (c.joining.length)
      await handOver(deps, actor, c.route, c.route.driver_id as number, c.joining, {
        data: { amended: true, ...(c.reloadBefore != null ? { reload_before: c.reloadBefore } : {}) },
      });
  }
  const placedIds = new Set(wanted);
  const records: RouteRecord[] = [];
  const nowMs = deps.clock.now();
  for (const id of body.drop_routes) {
    const r = live.get(id)!;
    for (const p of [...(r.next ? [r.next] : []), ...r.rest, ...r.parked]) {
      if (placedIds.has(p.id)) continue;
      // Left without a route: back on the office's list for the next plan or insertion.
      const row = await deps.db.select().from(pkg).where(eq(pkg.id, p.id)).get();
      if (row)
        await updatePackage(
          deps.db,
          nowMs,
          row,
          { route_id: null, sequence_no: null },
          'route_remove',
          { userId: actor.id },
          { data: { route: id, reason: 'route_dropped' } },
        );
    }
    records.push(await routeRecord(deps.db, await changeStatus(deps, actor, r.row, 'cancelled')));
    await refreshRouteEtas(deps, id);
  }
  for (const o of opened) {
    const row = await openRoute(deps, actor, { date: body.date as string, ...o });
    await refreshRouteEtas(deps, row.id, { replan: true });
    records.push(await routeRecord(deps.db, row));
  }
  for (const c of changed) {
    // The whole day's length, stops done included, as POST route/{id}/sequence/ measures it.
    const stops = (await routeParcels(deps.db, c.route.id))
      .filter((p) => p.latitude != null && p.longitude != null)
      .map((p) => ({ latitude: p.latitude as number, longitude: p.longitude as number }));
    const start =
      c.route.start_latitude != null && c.route.start_longitude != null
        ? { latitude: c.route.start_latitude, longitude: c.route.start_longitude }
        : null;
    const row =
      (await deps.db
        .update(deliveryRoute)
        .set({ total_distance_m: pathMetres(start, stops), updated_at: nowMs })
        .where(eq(deliveryRoute.id, c.route.id))
        .returning()
        .get()) ?? c.route;
    await refreshRouteEtas(deps, row.id, { replan: true });
    records.push(await routeRecord(deps.db, row));
  }
  return records;
}

/**
 * A route's stops as the body names them, with each collection still to make as its parcel's id
 * negated (LiveRoute's form): a parcel of those named twice is collected at its first naming and
 * delivered at its second. Another parcel named twice, or a collection named after its delivery
 * would be, is out of date (collected meanwhile) or wrong: 409, nothing changes.
 */
function signedStops(now: LiveRoute, had: PackageRow[], packages: number[], pairs: Set<number>): number[] {
  const collecting = new Set([...had.filter(isCollection).map((p) => -p.id), ...pairs]);
  const seen = new Set<number>();
  return packages.map((id) => {
    if (!seen.has(id)) {
      seen.add(id);
      return collecting.has(id) ? -id : id;
    }
    if (!collecting.has(id))
      throw stale(`Route ${now.row.name}: parcel ${id} is named twice but is no collection still to make`, { package: id });
    return id;
  });
}

/** New pairs the van can collect: each needs a placed pickup point, as a plan's pairs do (pickupPairs.ts); else 400, nothing changes. */
async function placeable(deps: Deps, ids: number[], parcels: Map<number, PackageRow>): Promise<void> {
  const rows = ids.map((id) => parcels.get(id)!);
  const origins = await pickupOrigins(deps.db, rows);
  const bad = rows.flatMap((p) => {
    const why = unpairable(p, origins.get(p.id));
    return why ? [{ path: 'routes', message: `package ${p.id} (${p.hawb}): ${why}` }] : [];
  });
  if (bad.length) throw new ApiError(400, 'validation_error', 'Pickups that cannot be collected on the way', bad);
}

/**
 * The parcels of a route's body that join it as new pairs: named twice, still waiting for
 * collection, deleted by no one and on no live route. Any other parcel named twice is checked by
 * `signedStops` (a collection the route still has to make, else out of date).
 */
function newPairs(packages: number[], parcels: Map<number, PackageRow>, liveIds: Set<number>): Set<number> {
  const twice = packages.filter((id, i) => packages.indexOf(id) !== i);
  return new Set(
    twice.filter((id) => {
      const p = parcels.get(id);
      return p?.status === 'pickup_requested' && (p.route_id == null || !liveIds.has(p.route_id));
    }),
  );
}

/**
 * Writes a route's new order: deliveries as `sequence_no` after the stops worked, each collection
 * still to make as its `route_pickup` row's place in the same count, failed stops after all; a new
 * pair (`pairs`) is put on the route by `placePairs`, as a plan's commit does.
 */
async function placeStops(
  deps: Deps,
  actor: SessionUser,
  route: RouteRow,
  ordered: PackageRow[],
  parked: PackageRow[],
  pairs: Set<number>,
): Promise<void> {
  const rows = await routeParcels(deps.db, route.id);
  const collecting = new Set(ordered.filter(isCollection).map((p) => -p.id));
  // After every stop worked: deliveries done or failed, collections made (a pending one's delivery is not worked).
  const pickups = await deps.db.select().from(routePickup).where(eq(routePickup.route_id, route.id)).all();
  const base = Math.max(
    0,
    ...rows
      .filter((p) => !PLANNABLE.has(p.status) && p.status !== 'out_for_delivery' && !collecting.has(p.id))
      .map((p) => p.sequence_no ?? 0),
    ...pickups.filter((p) => !collecting.has(p.package_id)).map((p) => p.sequence_no),
  );
  const seqOf = new Map(ordered.map((p, i) => [p.id, base + i + 1]));
  const deliveries = ordered.map((p, i) => ({ p, seq: base + i + 1 })).filter((x) => !isCollection(x.p) && !pairs.has(x.p.id));
  const open = [...deliveries, ...parked.map((p, k) => ({ p, seq: base + ordered.length + k + 1 }))];
  await placeParcels(
    deps,
    actor,
    route,
    open.map((x) => x.p),
    'route_amend',
    {},
    null,
    open.map((x) => x.seq),
  );
  await placePairs(
    deps,
    actor,
    route,
    route.driver_id as number,
    [...pairs].map((id) => ({ package: id, pickup: seqOf.get(-id)!, delivery: seqOf.get(id)! })),
  );
  for (const [i, p] of ordered.entries())
    if (isCollection(p) && !pairs.has(-p.id))
      await deps.db
        .update(routePickup)
        .set({ sequence_no: base + i + 1 })
        .where(and(eq(routePickup.package_id, -p.id), eq(routePickup.route_id, route.id)))
        .run();
}

/**
 * The routes to open, checked before anything is written: each driver on shift that day with a van
 * and a placed depot and no live route (idleDrivers.ts), each parcel free or from a dropped route.
 */
async function openable(
  deps: Deps,
  body: AmendCommit,
  droppedStops: Map<number, number>,
  parcels: Map<number, PackageRow>,
  liveIds: Set<number>,
): Promise<{ driver: number; name: string; packages: number[]; shift: typeof driverShift.$inferSelect | undefined }[]> {
  if (!body.open_routes.length) return [];
  const date = body.date as string;
  const idle = new Map(
    (
      await idleDrivers(
        deps,
        date,
        body.open_routes.map((o) => o.driver),
      )
    ).map((d) => [d.id, d]),
  );
  const out = [];
  for (const o of body.open_routes) {
    const d = idle.get(o.driver);
    if (!d) throw stale(`Driver ${o.driver} has no shift with a van and a depot on ${date}, or has a route already`, { driver: o.driver });
    // A parcel named twice is a new pair: openRoute puts it on the route collected first (pairCommit.ts), and refuses any other.
    const pairs = newPairs(o.packages, parcels, liveIds);
    for (const id of new Set(o.packages)) {
      const p = parcels.get(id);
      if (!p) throw new ApiError(400, 'validation_error', `Unknown package ${id}`, [{ path: 'open_routes', message: `no package ${id}` }]);
      const free = (PLANNABLE.has(p.status) || pairs.has(id)) && (p.route_id == null || !liveIds.has(p.route_id));
      if (!droppedStops.has(id) && !free)
        throw stale(`Parcel ${p.hawb} is ${p.status}${p.route_id != null && liveIds.has(p.route_id) ? ' on another route' : ''}`, {
          package: id,
        });
    }
    const shift = await deps.db
      .select()
      .from(driverShift)
      .where(and(eq(driverShift.driver_id, o.driver), eq(driverShift.date, date)))
      .get();
    out.push({ driver: o.driver, name: newRouteName(d.name, date), packages: o.packages, shift });
  }
  return out;
}

/** A dropped route's stops that may go to another route: not a collection still to make, nor the delivery that waits for it (back with the pickups). */
function openStops(r: LiveRoute): PackageRow[] {
  const all = [...(r.next ? [r.next] : []), ...r.rest];
  const uncollected = new Set(all.filter(isCollection).map((p) => -p.id));
  return all.filter((p) => !isCollection(p) && !uncollected.has(p.id));
}
