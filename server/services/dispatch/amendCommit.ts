import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { AmendCommit } from '../../../shared/schemas/dispatch';
import type { RouteRecord } from '../../../shared/schemas/routes';
import type { Deps } from '../../deps';
import { deliveryRoute, pkg, user } from '../../db/schema/index';
import { ApiError, conflict } from '../../errors';
import type { SessionUser } from '../auth/session';
import { updatePackage } from '../packages/lifecycle';
import type { PackageRow } from '../packages/shape';
import { handOver } from '../routes/assign';
import { changeStatus, placeParcels } from '../routes/manage';
import { pathMetres } from '../routes/optimize';
import { LIVE_ROUTE, routeParcels, routeRecord, type RouteRow } from '../routes/shape';
import { liveRoute, type LiveRoute } from './amend';
import { refreshRouteEtas } from './eta';

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
 * Anything out of date (a stop worked meanwhile, a parcel taken) answers 409 and changes nothing.
 */
export async function commitAmend(deps: Deps, actor: SessionUser, body: AmendCommit): Promise<RouteRecord[]> {
  const named = [...body.routes.map((r) => r.route), ...body.drop_routes];
  if (new Set(named).size !== named.length)
    throw new ApiError(400, 'validation_error', 'A route is named twice', [
      { path: 'routes', message: 'each route once, kept or dropped' },
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

  const wanted = body.routes.flatMap((r) => r.packages);
  if (new Set(wanted).size !== wanted.length)
    throw new ApiError(400, 'validation_error', 'A parcel is named twice', [{ path: 'routes', message: 'each parcel on one route once' }]);
  const droppedStops = new Map<number, number>();
  for (const id of body.drop_routes)
    for (const p of [...(live.get(id)!.next ? [live.get(id)!.next!] : []), ...live.get(id)!.rest]) droppedStops.set(p.id, id);
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

  const changed: { route: RouteRow; ordered: PackageRow[]; joining: PackageRow[]; reloadBefore?: number }[] = [];
  for (const r of body.routes) {
    const now = live.get(r.route)!;
    const had = [...(now.next ? [now.next] : []), ...now.rest];
    const given = new Set(r.packages);
    const lost = had.filter((p) => !given.has(p.id));
    if (lost.length)
      throw stale(`Route ${now.row.name} would lose stops it carries: ${lost.map((p) => p.hawb).join(', ')}`, {
        packages: lost.map((p) => p.id),
      });
    if (now.next && r.packages[0] !== now.next.id)
      throw stale(`Route ${now.row.name}: the driver is heading to ${now.next.hawb}; it stays the next stop`, { next: now.next.id });
    const mine = new Set(had.map((p) => p.id));
    const joining: PackageRow[] = [];
    for (const id of r.packages) {
      if (mine.has(id)) continue;
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
    const byId = new Map([...had, ...joining].map((p) => [p.id, p]));
    // Failed stops waiting for another attempt keep their place after the ones to visit.
    if (r.reload_before != null && !r.packages.includes(r.reload_before))
      throw new ApiError(400, 'validation_error', `The depot visit of route ${now.row.name} is before a stop it does not have`, [
        { path: 'routes.reload_before', message: `package ${r.reload_before} is not among its stops` },
      ]);
    changed.push({
      route: now.row,
      ordered: [...r.packages.map((id) => byId.get(id)!), ...now.parked],
      joining,
      reloadBefore: r.reload_before,
    });
  }

  for (const c of changed) {
    await placeParcels(deps, actor, c.route, c.ordered, 'route_amend');
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
