import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { prepared } from '../../db/prepared';
import { DEFAULT_RELOAD_S } from '../../../shared/routing/amend';
import { DEFAULT_TRAVEL, etaBand, timeOnDay, travelSeconds, type EtaStop, type TravelModel } from '../../../shared/routing/eta';
import type { LatLng } from '../../../shared/routing/haversine';
import { roadEtas, type EtaOrigin } from '../../../shared/routing/roadEta';
import { promiseLegs, storedLegs, workedAt } from './legs';
import type { RouteEtas, StopEtaRecord } from '../../../shared/schemas/dispatch';
import { iso } from '../../clock';
import type { Deps } from '../../deps';
import type { Db } from '../../db/client';
import { deliveryRoute, depotPosition, driverShift, pkg, routePickup, stopEta, user } from '../../db/schema/index';
import { lastPositionOf } from '../routes/positions';
import { LIVE_ROUTE, routeParcels, type RouteRow } from '../routes/shape';
import { DEFAULT_SHIFT } from './problem';
import { windowsOf, type WindowInfo } from './windows';
import { depotZone } from '../time/zones';
import { pendingCollections } from '../routes/collections';
import { depotWait, withReload } from './reload';

/** The great-circle model of the configured travel times (TRAVEL_SPEED_KMH, DETOUR_FACTOR); the phone gets it with the plan. */
export const travelModel = (config: Deps['config']): TravelModel => ({
  speedKmh: config.travelSpeedKmh ?? DEFAULT_TRAVEL.speedKmh,
  detourFactor: config.detourFactor ?? DEFAULT_TRAVEL.detourFactor,
});

/** Stops still to be driven to: failed ones were skipped today, delivered ones are done. */
export const TO_VISIT = new Set(['created', 'received', 'assigned', 'out_for_delivery']);
/** A parcel a route collects before delivering it (issue 32), not yet collected. */
const AWAITING_COLLECTION = new Set(['pickup_requested']);
/** A position older than this says little about where the van is now. */
const FRESH_POSITION_MS = 30 * 60_000;
/** A route whose next stop runs this far behind its planned time is "running late". */
export const LATE_AFTER_MIN = 15;

const placed = (p: { latitude: number | null; longitude: number | null }): p is { latitude: number; longitude: number } =>
  p.latitude != null && p.longitude != null;

export async function shiftOf(db: Db, route: RouteRow) {
  return route.driver_id != null
    ? await db
        .select()
        .from(driverShift)
        .where(and(eq(driverShift.driver_id, route.driver_id), eq(driverShift.date, route.date)))
        .get()
    : undefined;
}

/**
 * The zone a route's shift and windows are typed in: its depot's, else its driver's start depot that
 * day, else the business's (issue 31). A route serves one depot's parcels, so its stops share it.
 */
export async function routeZone(
  deps: Pick<Deps, 'db' | 'config'>,
  route: RouteRow,
  shift?: Awaited<ReturnType<typeof shiftOf>> | null,
): Promise<string> {
  const s = shift === undefined ? await shiftOf(deps.db, route) : shift;
  return depotZone(deps, route.warehouse_id ?? s?.start_warehouse_id ?? null);
}

/** Where the route starts: its own start point, else its driver's depot that day. */
async function routeStart(db: Db, route: RouteRow, shift: Awaited<ReturnType<typeof shiftOf>>): Promise<LatLng | null> {
  if (route.start_latitude != null && route.start_longitude != null)
    return { latitude: route.start_latitude, longitude: route.start_longitude };
  const depot =
    shift?.start_warehouse_id != null
      ? await db.select().from(depotPosition).where(eq(depotPosition.warehouse_id, shift.start_warehouse_id)).get()
      : undefined;
  return depot ? { latitude: depot.latitude, longitude: depot.longitude } : null;
}

/**
 * Where and when the rest of a route starts now, for inserting parcels into it (amend.ts): the van's
 * last known place, from now but never before the shift starts.
 */
export async function restartPoint(
  deps: Deps,
  route: RouteRow,
  worked: { id: number; latitude: number | null; longitude: number | null }[],
  shift: Awaited<ReturnType<typeof shiftOf>>,
): Promise<{ from: LatLng | null; startAt: number }> {
  const o = await origin(deps, route, worked, shift);
  const shiftStart = timeOnDay(route.date, shift?.start_time ?? DEFAULT_SHIFT.start, await routeZone(deps, route, shift ?? null));
  return { from: o.at, startAt: Math.max(deps.clock.now(), shiftStart) };
}

/**
 * Where the van was last known (issue 31): its fresh position on a running route, else the stop it
 * worked last (by the time it was worked, so a stop done out of order counts), else the route's start.
 */
export async function origin(
  deps: Deps,
  route: RouteRow,
  worked: { id: number; latitude: number | null; longitude: number | null }[],
  shift: Awaited<ReturnType<typeof shiftOf>>,
): Promise<EtaOrigin> {
  const now = deps.clock.now();
  if (route.driver_id != null && route.status === 'in_progress') {
    const pos = await lastPositionOf(deps.db, route.driver_id);
    if (pos && now - pos.occurred_at <= FRESH_POSITION_MS)
      return { kind: 'position', at: { latitude: pos.latitude, longitude: pos.longitude }, since: Math.min(pos.occurred_at, now) };
  }
  const times = await workedAt(
    deps.db,
    worked.map((p) => p.id),
  );
  const last = worked
    .map((p, i) => ({ p, i, at: times.get(p.id) }))
    .sort((a, b) => (a.at ?? -Infinity) - (b.at ?? -Infinity) || a.i - b.i)
    .at(-1);
  if (last)
    return {
      kind: 'stop',
      id: last.p.id,
      at: placed(last.p) ? { latitude: last.p.latitude, longitude: last.p.longitude } : null,
      since: last.at != null ? Math.min(last.at, now) : null,
    };
  return { kind: 'start', at: await routeStart(deps.db, route, shift) };
}

/**
 * Recomputes the arrival time of every stop still to visit on a route over its stored road legs
 * (`roadEtas`, issue 31) and stores it: the phone's feed (`route/{id}/eta/`), the dashboard and the
 * recipient's page all read these rows. `replan` also resets the promised (planned) time: a new plan or order.
 */
export async function refreshRouteEtas(deps: Deps, routeId: number, opts: { replan?: boolean; model?: TravelModel } = {}): Promise<void> {
  const route = await deps.db.select().from(deliveryRoute).where(eq(deliveryRoute.id, routeId)).get();
  if (!route) return;
  const live = (LIVE_ROUTE as readonly string[]).includes(route.status) && route.kind === 'delivery';
  const parcels = live ? await routeParcels(deps.db, route.id) : [];
  // Collections still to make on the way (issue 32): their parcels' deliveries are stops to visit too.
  const pending = live ? await pendingCollections(deps.db, route.id) : [];
  const collecting = new Set(pending.map((c) => c.package));
  const visit = parcels.filter((p) => TO_VISIT.has(p.status) || collecting.has(p.id));
  // A parcel the route still has to collect (issue 32) is not a stop worked.
  const worked = parcels.filter((p) => !TO_VISIT.has(p.status) && !AWAITING_COLLECTION.has(p.status) && p.sequence_no != null);
  const keep = new Set(visit.map((p) => p.id));
  const stale = (await deps.db.select({ id: stopEta.package_id }).from(stopEta).where(eq(stopEta.route_id, route.id)).all())
    .map((r) => r.id)
    .filter((id) => !keep.has(id));
  if (stale.length) await deps.db.delete(stopEta).where(inArray(stopEta.package_id, stale)).run();
  if (!visit.length) return;
  const windows = await windowsOf(deps.db, [...visit.map((p) => p.id), ...pending.map((c) => c.package)]);
  const zone = await routeZone(deps, route);
  const deliveries: (EtaStop & { seq: number })[] = visit.map((p) => {
    const w = windows.get(p.id);
    return {
      id: p.id,
      seq: p.sequence_no ?? Number.MAX_SAFE_INTEGER,
      latitude: p.latitude,
      longitude: p.longitude,
      serviceS: w?.service_s ?? 0,
      window:
        w?.window_start && w.window_end ? [timeOnDay(route.date, w.window_start, zone), timeOnDay(route.date, w.window_end, zone)] : null,
    };
  });
  // Collections still to make on the way (issue 32) are stops too, at their pickup points: the van
  // spends the time getting there. Their ids are the parcels' negated; only deliveries' times are kept.
  const collections = pending.map((c) => ({
    id: -c.package,
    seq: c.sequence_no,
    latitude: c.latitude,
    longitude: c.longitude,
    serviceS: windows.get(c.package)?.service_s ?? 0,
    window: null,
  }));
  const stops: EtaStop[] = collections.length
    ? [...deliveries, ...collections].sort((a, b) => a.seq - b.seq).map(({ seq: _seq, ...s }) => s)
    : deliveries.map(({ seq: _seq, ...s }) => s);
  const shift = await shiftOf(deps.db, route);
  const now = deps.clock.now();
  const startPlace = await routeStart(deps.db, route, shift);
  // Parcels that joined after the van left are reached through a trip back to the depot (issue 32).
  const reload = withReload(stops, await depotWait(deps.db, route, visit), startPlace);
  const all = roadEtas(
    {
      now,
      shiftStart: timeOnDay(route.date, shift?.start_time ?? DEFAULT_SHIFT.start, zone),
      origin: await origin(deps, route, worked, shift),
      stops: reload.stops,
      legs: await storedLegs(deps.db, route.id),
      model: opts.model ?? travelModel(deps.config),
    },
    startPlace,
  );
  const etas = all.filter((e) => e.id > 0);
  const existing = new Map(
    (
      await deps.db
        .select()
        .from(stopEta)
        .where(
          inArray(
            stopEta.package_id,
            visit.map((p) => p.id),
          ),
        )
        .all()
    ).map((r) => [r.package_id, r]),
  );
  // A stop's time is when its service begins (issue 31): a van early for a 13:00 window is at that door at 13:00,
  // which is what the recipient is told and what the delivery is measured against.
  for (const e of etas) {
    const prev = existing.get(e.id);
    const planned = !opts.replan && prev && prev.route_id === route.id ? prev.planned_at : e.begin;
    const values = { route_id: route.id, eta_at: e.begin, planned_at: planned, wait_s: e.waitS, late: e.late, computed_at: now };
    await deps.db
      .insert(stopEta)
      .values({ package_id: e.id, ...values })
      .onConflictDoUpdate({ target: stopEta.package_id, set: values })
      .run();
  }
  // Each collection's time, from the same walk (the phone shows it on the collection's row).
  for (const e of all)
    if (e.id < 0)
      await deps.db
        .update(routePickup)
        .set({ eta_at: e.begin })
        .where(and(eq(routePickup.package_id, -e.id), eq(routePickup.route_id, route.id)))
        .run();
  if (opts.replan) await promiseLegs(deps.db, route.id, new Map(etas.map((e) => [e.id, e.begin])));
}

/** After a stop is worked (delivered, failed, returned): the rest of its route moves. */
export async function refreshParcelRouteEtas(deps: Deps, packageId: number): Promise<void> {
  const row = await deps.db.select({ route: pkg.route_id }).from(pkg).where(eq(pkg.id, packageId)).get();
  if (row?.route != null) await refreshRouteEtas(deps, row.route);
}

function shapeEta(r: typeof stopEta.$inferSelect, sequence: number | null, w: WindowInfo | undefined): StopEtaRecord {
  // A van waiting for the window (wait_s) begins at its opening, the stored time: the band starts there.
  const [from, to] = etaBand(r.eta_at, r.wait_s > 0 ? r.eta_at : null);
  return {
    package: r.package_id,
    route: r.route_id,
    sequence_no: sequence,
    eta: iso(r.eta_at) ?? '',
    planned: iso(r.planned_at) ?? '',
    from: iso(from) ?? '',
    to: iso(to) ?? '',
    late: r.late,
    delay_min: Math.max(0, Math.round((r.eta_at - r.planned_at) / 60_000)),
    service_s: w?.service_s ?? 0,
    window_start: w?.window_start ?? null,
    window_end: w?.window_end ?? null,
  };
}

// Asked each time a parcel goes out for delivery with a recipient to tell: built once per database.
const etaOfParcel = (db: Db) =>
  db
    .select()
    .from(stopEta)
    .where(eq(stopEta.package_id, sql.placeholder('pkg')))
    .prepare();
const parcelRoute = (db: Db) =>
  db
    .select({ seq: pkg.sequence_no, route: pkg.route_id, status: pkg.status, live: deliveryRoute.status })
    .from(pkg)
    .leftJoin(deliveryRoute, eq(deliveryRoute.id, pkg.route_id))
    .where(eq(pkg.id, sql.placeholder('pkg')))
    .prepare();

/**
 * A parcel's arrival time and the band to tell its recipient ("arriving 14:10–14:40"), or null when
 * it is on no planned or running route. For recipients' messages (issue 16).
 */
export async function etaFor(db: Db, packageId: number): Promise<StopEtaRecord | null> {
  const r = await prepared(db, 'eta.ofParcel', etaOfParcel).get({ pkg: packageId });
  if (!r) return null;
  // Only while the parcel is still to visit on that route, and the route is live.
  const p = await prepared(db, 'eta.parcelRoute', parcelRoute).get({ pkg: packageId });
  if (!p || p.route !== r.route_id || !TO_VISIT.has(p.status) || !(LIVE_ROUTE as readonly string[]).includes(p.live ?? '')) return null;
  return shapeEta(r, p.seq, (await windowsOf(db, [packageId])).get(packageId));
}

export async function routeEtas(
  deps: Pick<Deps, 'db' | 'config'>,
  route: RouteRow,
  driverName: string | null,
  model: TravelModel = DEFAULT_TRAVEL,
): Promise<RouteEtas> {
  const { db } = deps;
  const parcels = await routeParcels(db, route.id);
  const seq = new Map(parcels.map((p) => [p.id, p.sequence_no]));
  const rows = (await db.select().from(stopEta).where(eq(stopEta.route_id, route.id)).all()).sort(
    (a, b) => (seq.get(a.package_id) ?? Infinity) - (seq.get(b.package_id) ?? Infinity) || a.eta_at - b.eta_at,
  );
  const windows = await windowsOf(
    db,
    rows.map((r) => r.package_id),
  );
  const stops = rows.map((r) => shapeEta(r, seq.get(r.package_id) ?? null, windows.get(r.package_id)));
  const next = stops[0];
  const shift = await shiftOf(db, route);
  const start = await routeStart(db, route, shift);
  // The depot visit as the stored times were walked (refreshRouteEtas): before the chosen stop.
  const wait = await depotWait(
    db,
    route,
    parcels.filter((p) => rows.some((r) => r.package_id === p.id)),
  );
  const order: EtaStop[] = rows.map((r) => ({ id: r.package_id, latitude: null, longitude: null, serviceS: 0 }));
  const visit = withReload(order, wait, start);
  const beforeRow = visit.before >= 0 ? rows[visit.before] : undefined;
  const beforeParcel = beforeRow ? parcels.find((p) => p.id === beforeRow.package_id) : undefined;
  // At the depot: that stop's time less its wait, the drive out and the loading.
  const reloadAt =
    beforeRow && start && beforeParcel?.latitude != null && beforeParcel.longitude != null
      ? beforeRow.eta_at -
        beforeRow.wait_s * 1000 -
        Math.round(
          (travelSeconds(start, { latitude: beforeParcel.latitude, longitude: beforeParcel.longitude }, model) + DEFAULT_RELOAD_S) * 1000,
        )
      : null;
  // Collections still to make (issue 32), at the times the same walk gave them.
  const collections = (await pendingCollections(db, route.id)).map((c) => ({
    package: c.package,
    sequence_no: c.sequence_no,
    eta: iso(c.eta_at),
  }));
  const lateStops = stops.filter((s) => s.late).length;
  const delay = next?.delay_min ?? 0;
  return {
    route: route.id,
    name: route.name,
    driver: route.driver_id,
    driver_name: driverName,
    status: route.status,
    open: stops.length,
    delay_min: delay,
    late_stops: lateStops,
    running_late: delay >= LATE_AFTER_MIN || lateStops > 0,
    finish: rows.length ? iso(Math.max(...rows.map((r) => r.eta_at))) : null,
    shift_start: shift?.start_time ?? DEFAULT_SHIFT.start,
    time_zone: await routeZone(deps, route, shift ?? null),
    start,
    travel: model,
    stops,
    reload: beforeRow ? { before: beforeRow.package_id, parcels: visit.parcels, eta: iso(reloadAt) } : null,
    collections,
  };
}

/** The day's planned and running delivery routes with their ETAs, the late-running ones first. */
export async function dayEtas(deps: Pick<Deps, 'db' | 'config'>, date: string, model: TravelModel = DEFAULT_TRAVEL): Promise<RouteEtas[]> {
  const { db } = deps;
  const routes = await db
    .select({ r: deliveryRoute, name: user.name })
    .from(deliveryRoute)
    .leftJoin(user, eq(user.id, deliveryRoute.driver_id))
    .where(and(eq(deliveryRoute.date, date), eq(deliveryRoute.kind, 'delivery'), inArray(deliveryRoute.status, [...LIVE_ROUTE])))
    .orderBy(desc(deliveryRoute.id))
    .all();
  const out: RouteEtas[] = [];
  for (const x of routes) out.push(await routeEtas(deps, x.r, x.name, model));
  return out.sort((a, b) => Number(b.running_late) - Number(a.running_late) || b.delay_min - a.delay_min);
}
