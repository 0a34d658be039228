import { and, eq, inArray, isNull, notInArray, or } from 'drizzle-orm';
import { DEFAULT_RELOAD_S, type AmendCosts, type AmendResult, type AmendRoute, type AmendStop } from '../../../shared/routing/amend';
import type { AmendTask } from '../planning/runFleet';
import { stopEtas, timeOnDay, type EtaStop, type TravelModel } from '../../../shared/routing/eta';
import type { LatLng } from '../../../shared/routing/haversine';
import { routeDiff } from '../../../shared/routing/routeDiff';
import type { AmendProposal, AmendRequest, AmendRouteShape } from '../../../shared/schemas/dispatch';
import { iso } from '../../clock';
import type { Deps } from '../../deps';
import { deliveryRoute, depotPosition, pkg, user, vehicle } from '../../db/schema/index';
import { ApiError } from '../../errors';
import type { PackageRow } from '../packages/shape';
import { LIVE_ROUTE, routeParcels, type RouteRow } from '../routes/shape';
import { restartPoint, routeZone, shiftOf, TO_VISIT, travelModel } from './eta';
import { DEFAULT_SHIFT, dueBy, volumeOf } from './problem';
import { windowsOf, type WindowInfo } from './windows';
import { depotZones } from '../time/zones';
import { driverSkillsOf, skillsOf } from './skills';
import { depotWait } from './reload';
import { breakWindow, vehicleRates } from './rules';
import { planSettings } from './settings';
import type { PlanSettings } from '../../../shared/schemas/dispatch';
import { pendingCollections } from '../routes/collections';
import { idleDrivers } from './idleDrivers';
import { pickupOrigins, unpairable } from './pickupPairs';
import type { PlanDriver } from './planTypes';

/**
 * The day after the plan (issue 32): reads the day's live routes as the drivers have them, shapes
 * them for `amendRoutes` (shared/routing/amend.ts) and answers the proposal with what changed per
 * route. Nothing is written here; `commitAmend` (amendCommit.ts) applies what the board sends back.
 */

const PLANNABLE = ['created', 'received', 'assigned'] as const;
const UNLIMITED = Number.POSITIVE_INFINITY;
const placed = (p: { latitude: number | null; longitude: number | null }): p is LatLng => p.latitude != null && p.longitude != null;
const addressOf = (p: PackageRow) =>
  [p.customer_address, p.postcode_name ?? (p.postcode != null ? String(p.postcode) : null)]
    .filter((x): x is string => !!x && x.trim() !== '')
    .join(', ');

/**
 * A collection still to make stands in a route's stops as its parcel with the id negated and the
 * pickup point's place (as refreshRouteEtas orders them); the board and the commit name it by the
 * parcel, twice: collected first, then delivered (pairCommit.ts).
 */
export const isCollection = (p: { id: number }) => p.id < 0;

/** One live route as it stands: what is done, the locked next stop, the stops still changeable. */
export interface LiveRoute {
  row: RouteRow;
  driverName: string;
  zone: string;
  done: number;
  next: PackageRow | null;
  rest: PackageRow[];
  /** Open but not to be visited today (failed, waiting for another attempt): kept after the rest. */
  parked: PackageRow[];
  from: LatLng | null;
  startAt: number;
  end: LatLng | null;
  endBy: number;
  capacity: [number, number, number];
  /** What the van and the driver can do (issue 32): a new parcel needing a skill joins only such a route. */
  skills: string[];
  /** Where the van loads: its start depot. */
  depot: LatLng | null;
  /** The van has left the depot: a parcel still there needs a trip back for it. */
  left: boolean;
  /** Its stops still at the depot (handed over after the van left, not scanned on since). */
  atDepot: Set<number>;
  /** Epoch ms of the rostered shift start, and the shift's own break (else the plan settings'). */
  shiftStart: number;
  break: { minutes: number; after_min: number; after_max: number } | null;
  /** Stops worked today (delivered or failed). */
  worked: number;
  /** The van's own rates (null parts: the office's). */
  rates: PlanDriver['rates'];
}

async function depotPoint(deps: Deps, id: number | null | undefined): Promise<LatLng | null> {
  if (id == null) return null;
  const d = await deps.db.select().from(depotPosition).where(eq(depotPosition.warehouse_id, id)).get();
  return d ? { latitude: d.latitude, longitude: d.longitude } : null;
}

/** The route as its driver has it now. The next stop is locked only on a route under way: the driver is heading there. */
export async function liveRoute(deps: Deps, row: RouteRow, driverName: string): Promise<LiveRoute> {
  const parcels = await routeParcels(deps.db, row.id);
  // A paired parcel not collected yet is two stops to make (issue 32): its collection, then its delivery.
  const pending = await pendingCollections(deps.db, row.id);
  const collecting = new Set(pending.map((c) => c.package));
  const deliveries = parcels.filter((p) => TO_VISIT.has(p.status) || collecting.has(p.id));
  const byId = new Map(parcels.map((p) => [p.id, p]));
  const visit = [
    ...deliveries.map((p) => ({ p, seq: p.sequence_no ?? Number.MAX_SAFE_INTEGER })),
    ...pending.map((c) => ({
      p: { ...(byId.get(c.package) as PackageRow), id: -c.package, latitude: c.latitude, longitude: c.longitude },
      seq: c.sequence_no,
    })),
  ]
    .sort((a, b) => a.seq - b.seq)
    .map((x) => x.p);
  const parked = parcels.filter((p) => p.status === 'failed');
  const worked = parcels.filter((p) => !TO_VISIT.has(p.status) && !collecting.has(p.id) && p.sequence_no != null);
  const shift = await shiftOf(deps.db, row);
  const zone = await routeZone(deps, row, shift ?? null);
  const { from, startAt } = await restartPoint(deps, row, worked, shift);
  const startDepot =
    row.start_latitude != null && row.start_longitude != null
      ? { latitude: row.start_latitude, longitude: row.start_longitude }
      : await depotPoint(deps, shift?.start_warehouse_id);
  const end = shift?.end_warehouse_id != null ? await depotPoint(deps, shift.end_warehouse_id) : startDepot;
  const van = shift?.vehicle_id != null ? await deps.db.select().from(vehicle).where(eq(vehicle.id, shift.vehicle_id)).get() : undefined;
  const underWay = row.status === 'in_progress' && visit.length > 0;
  const atDepot = (await depotWait(deps.db, row, deliveries)).ids;
  return {
    row,
    driverName,
    zone,
    done: parcels.filter((p) => p.status === 'delivered').length,
    next: underWay ? visit[0] : null,
    rest: underWay ? visit.slice(1) : visit,
    parked,
    from,
    startAt,
    end,
    endBy: timeOnDay(row.date, shift?.end_time ?? DEFAULT_SHIFT.end, zone),
    capacity: [van?.capacity_kg ?? UNLIMITED, van?.capacity_m3 ?? UNLIMITED, van?.capacity_parcels ?? UNLIMITED],
    skills: [
      ...new Set([
        ...(row.driver_id != null ? ((await driverSkillsOf(deps.db, [row.driver_id])).get(row.driver_id) ?? []) : []),
        ...skillsOf(van?.skills),
      ]),
    ],
    depot: startDepot,
    // A driver starts the route as the van leaves the depot.
    left: row.status === 'in_progress',
    atDepot,
    shiftStart: timeOnDay(row.date, shift?.start_time ?? DEFAULT_SHIFT.start, zone),
    break:
      shift?.break_minutes != null && shift.break_after_min != null && shift.break_after_max != null
        ? { minutes: shift.break_minutes, after_min: shift.break_after_min, after_max: shift.break_after_max }
        : null,
    worked: worked.length,
    rates: { per_km: van?.cost_per_km ?? null, per_hour: van?.cost_per_hour ?? null, fixed: van?.cost_fixed ?? null },
  };
}

/** The day's live delivery routes with a driver, each as its driver has it. */
export async function liveRoutes(deps: Deps, date: string): Promise<LiveRoute[]> {
  const rows = await deps.db
    .select({ r: deliveryRoute, name: user.name })
    .from(deliveryRoute)
    .innerJoin(user, eq(user.id, deliveryRoute.driver_id))
    .where(and(eq(deliveryRoute.date, date), eq(deliveryRoute.kind, 'delivery'), inArray(deliveryRoute.status, [...LIVE_ROUTE])))
    .orderBy(deliveryRoute.id)
    .all();
  const out: LiveRoute[] = [];
  for (const x of rows) out.push(await liveRoute(deps, x.r, x.name));
  return out;
}

/**
 * Parcels free to join a route: open, not out, on no live route; a pickup still to collect when
 * named, or with `include_pickups`.
 */
async function freeParcels(deps: Deps, req: AmendRequest): Promise<PackageRow[]> {
  const statuses = req.packages || req.include_pickups ? [...PLANNABLE, 'pickup_requested'] : [...PLANNABLE];
  const live = deps.db
    .select({ id: deliveryRoute.id })
    .from(deliveryRoute)
    .where(inArray(deliveryRoute.status, [...LIVE_ROUTE]));
  const rows = await deps.db
    .select()
    .from(pkg)
    .where(
      and(
        isNull(pkg.deleted_at),
        inArray(pkg.status, statuses),
        or(isNull(pkg.route_id), notInArray(pkg.route_id, live)),
        req.packages ? inArray(pkg.id, req.packages.length ? req.packages : [-1]) : dueBy(req.date, req.include_undated),
      ),
    )
    .orderBy(pkg.id)
    .limit(200)
    .all();
  if (req.packages) {
    const found = new Set(rows.map((r) => r.id));
    const bad = req.packages.filter((id) => !found.has(id));
    if (bad.length)
      throw new ApiError(
        400,
        'validation_error',
        `Parcels that cannot join a route: ${bad.join(', ')}`,
        bad.map((id) => ({ path: 'packages', message: `package ${id} is unknown, already out or on a live route` })),
      );
  }
  return rows;
}

interface Stopped {
  row: PackageRow;
  window: WindowInfo | undefined;
  zone: string;
}

/** The recipient's window binds the delivery, not the collection. */
const windowAt = (date: string, s: Stopped): [number, number] | null =>
  !isCollection(s.row) && s.window?.window_start && s.window.window_end
    ? [timeOnDay(date, s.window.window_start, s.zone), timeOnDay(date, s.window.window_end, s.zone)]
    : null;

/**
 * Proposes the change: new parcels (and the open stops of `drop_routes`) placed into the other live
 * routes of the day by `amendRoutes`, with each route's diff against what its driver has.
 * Bounded (200 parcels, the day's routes): it runs inside the request.
 */
export async function proposeAmend(
  deps: Deps,
  req: AmendRequest,
  search: (task: AmendTask) => Promise<AmendResult>,
): Promise<AmendProposal> {
  const model: TravelModel = travelModel(deps.config);
  const routes = await liveRoutes(deps, req.date);
  const ids = new Set(routes.map((r) => r.row.id));
  const unknown = req.drop_routes.filter((id) => !ids.has(id));
  if (unknown.length)
    throw new ApiError(
      400,
      'validation_error',
      `Routes that are not live on ${req.date}: ${unknown.join(', ')}`,
      unknown.map((id) => ({ path: 'drop_routes', message: `route ${id}` })),
    );
  const dropped = new Set(req.drop_routes);
  const keep = routes.filter((r) => !dropped.has(r.row.id));
  const pool = await freeParcels(deps, req);
  // A new parcel still to collect is a pair (issue 32): its collection at its pickup point (the
  // plan's rule, pickupPairs.ts), then its delivery; one with no place to collect it is left out, with why.
  const pickupRows = pool.filter((p) => p.status === 'pickup_requested');
  const origins = await pickupOrigins(deps.db, pickupRows);
  const unpaired = pickupRows.flatMap((p) => {
    const why = unpairable(p, origins.get(p.id));
    return why ? [{ p, why }] : [];
  });
  const pairing = pickupRows.filter((p) => !unpaired.some((u) => u.p === p));
  const collections = pairing.map((p) => {
    const o = origins.get(p.id)!;
    return {
      ...p,
      id: -p.id,
      latitude: o.latitude,
      longitude: o.longitude,
      customer_address: o.address,
      postcode_name: null,
      postcode: null,
    };
  });
  const fresh = pool.filter((p) => p.status !== 'pickup_requested');
  // A dropped route gives up everything still to visit, its next stop too: that van is not going there.
  // A pickup it had still to collect goes back to the office's pickups (it is not at the depot to hand on).
  const droppedStops = routes.filter((r) => dropped.has(r.row.id)).flatMap((r) => [...(r.next ? [r.next] : []), ...r.rest]);
  const uncollected = new Set(droppedStops.filter(isCollection).map((p) => -p.id));
  const released = droppedStops.filter((p) => !isCollection(p) && uncollected.has(p.id));
  const homeless = [...droppedStops.filter((p) => !isCollection(p) && !uncollected.has(p.id)), ...fresh];
  const all = [...keep.flatMap((r) => [...(r.next ? [r.next] : []), ...r.rest]), ...homeless, ...collections, ...pairing];
  const windows = await windowsOf(deps.db, [...new Set(all.map((p) => Math.abs(p.id)))]);
  // Drivers on shift with no route yet may get one (issue 32): priced at their van's rates with its fixed cost.
  const idle = await idleDrivers(deps, req.date);
  const zoneOf = new Map<number, string>();
  for (const r of routes) for (const p of [...(r.next ? [r.next] : []), ...r.rest]) zoneOf.set(p.id, r.zone);
  // A new parcel's window is its depot's wall clock (issue 31); a route's stops are timed in the route's zone, as refreshRouteEtas does.
  const freshZones = await depotZones(
    deps,
    [...fresh, ...pairing].map((p) => p.warehouse_id),
  );
  const stopped = (p: PackageRow): Stopped => ({
    row: p,
    window: windows.get(Math.abs(p.id)),
    zone: zoneOf.get(p.id) ?? freshZones.of(p.warehouse_id),
  });

  // Places: index into `points` (null = unknown: no travel to or from it). Seconds from `base`.
  const base = deps.clock.now();
  const points: (LatLng | null)[] = [];
  const at = (p: LatLng | null) => {
    points.push(p);
    return points.length - 1;
  };
  const toS = (ms: number) => (ms - base) / 1000;
  const stopOf = (s: Stopped): AmendStop => {
    const w = windowAt(req.date, s);
    return {
      id: s.row.id,
      location: at(placed(s.row) ? { latitude: s.row.latitude, longitude: s.row.longitude } : null),
      service: s.window?.service_s ?? 0,
      window: w ? [toS(w[0]), toS(w[1])] : null,
      // A collection's load is counted at its delivery (on the route's total, see AmendStop.pickupFor).
      ...(isCollection(s.row) ? { pickupFor: -s.row.id } : { demand: [s.row.weight ?? 0, volumeOf(s.row), 1] }),
      ...(s.window?.skills.length ? { skills: s.window.skills } : {}),
    };
  };
  const settings = await planSettings(deps.db);
  const rules = amendRules(settings, keep, fresh.length + pairing.length);
  const ratesOf = vanRates(settings, [...keep.map((r) => r.rates), ...idle.map((d) => d.rates)]);
  const amendInput: AmendRoute[] = keep.map((r) => {
    // The changeable part starts where the locked next stop is, when the driver leaves it.
    let from = r.from;
    let startAt = r.startAt;
    if (r.next) {
      const s = stopped(r.next);
      const [eta] = stopEtas({ from, startAt, stops: [etaStop(req.date, s, r)], model });
      if (placed(r.next)) from = { latitude: r.next.latitude, longitude: r.next.longitude };
      startAt = eta.depart;
    }
    const departed = r.row.started_at ?? r.shiftStart;
    const pause = r.break ?? settings.break ?? null;
    // A break whose window closed before now is taken to be taken (nothing records it).
    const window = pause ? breakWindow(pause, r.shiftStart, r.row.started_at) : null;
    const locked = r.worked + (r.next ? 1 : 0);
    const maxEnd = settings.max_route_minutes != null ? departed + settings.max_route_minutes * 60_000 : Infinity;
    return {
      id: r.row.id,
      from: at(from),
      startAt: toS(startAt),
      ...(r.end ? { end: at(r.end) } : {}),
      endBy: toS(Math.min(r.endBy, maxEnd)),
      // The whole van: amendRoutes follows the load from here on (the next stop's parcel is off it by then,
      // the parcel it collects there is on it until its delivery among the rest).
      capacity: r.capacity,
      stops: r.rest.map((p) => ({ ...stopOf(stopped(p)), ...(r.atDepot.has(p.id) ? { atDepot: true } : {}) })),
      skills: r.skills,
      ...(r.left && r.depot ? { depot: at(r.depot) } : {}),
      ...(pause && window && window[1] >= startAt
        ? { break: { duration: pause.minutes * 60, window: [toS(window[0]), toS(window[1])] as const } }
        : {}),
      ...(settings.max_stops != null ? { maxStops: Math.max(0, settings.max_stops - locked) } : {}),
      departedAt: toS(departed),
      doneStops: locked,
      ...ratesOf(r.rates),
    };
  });
  // An idle driver's route, not opened yet: from their depot when they may leave, loaded before it goes.
  const idleId = (d: PlanDriver) => -d.id;
  for (const d of idle) {
    const shiftStart = timeOnDay(req.date, d.shiftStart, d.zone);
    const pause = d.break ?? settings.break ?? null;
    const window = pause ? breakWindow(pause, shiftStart, null) : null;
    const maxEnd = settings.max_route_minutes != null ? d.departAt + settings.max_route_minutes * 60_000 : Infinity;
    const start = at(d.start);
    amendInput.push({
      id: idleId(d),
      from: start,
      startAt: toS(d.departAt),
      end: d.end ? at(d.end) : start,
      endBy: toS(Math.min(timeOnDay(req.date, d.shiftEnd, d.zone), maxEnd)),
      capacity: [d.capacity.kg ?? UNLIMITED, d.capacity.m3 ?? UNLIMITED, d.capacity.parcels ?? UNLIMITED],
      stops: [],
      skills: d.skills,
      ...(pause && window && window[1] >= d.departAt
        ? { break: { duration: pause.minutes * 60, window: [toS(window[0]), toS(window[1])] as const } }
        : {}),
      ...(settings.max_stops != null ? { maxStops: settings.max_stops } : {}),
      departedAt: toS(d.departAt),
      doneStops: 0,
      opens: true,
      ...ratesOf(d.rates),
    });
  }
  const noPlace = homeless.filter((p) => !placed(p));
  // New parcels are at the depot; so are a dropped route's (a van that broke down is emptied there).
  const jobs = [
    ...homeless.filter(placed).map((p) => ({ ...stopOf(stopped(p)), atDepot: true })),
    // A pair's parcel is at its pickup point, not the depot: the van collects it on the way.
    ...collections.map((p) => stopOf(stopped(p))),
    ...pairing.map((p) => stopOf(stopped(p))),
  ];
  // The search runs in the planning worker (planning/fleetWorker.ts): ~100 ms at 40 routes x 60 stops.
  const result = await search({ routes: amendInput, jobs, points, model, movePenalty: req.move_penalty_s, ...rules });

  const byId = new Map(all.map((p) => [p.id, p]));
  const planned = new Map(result.routes.map((r) => [r.id, r]));
  const msOf = (sec: number) => base + Math.round(sec * 1000);
  // The routes on the road, then the routes the change would open (only those given stops).
  const views: RouteView[] = [
    ...routes.map((r) => ({
      id: r.row.id,
      live: r,
      name: r.row.name,
      status: r.row.status,
      driver: r.row.driver_id as number,
      driverName: r.driverName,
      zone: r.zone,
      from: r.from,
      end: r.end,
      done: r.done,
      next: r.next,
      rest: r.rest,
    })),
    ...idle
      .filter((d) => planned.get(idleId(d))?.stops.length)
      .map((d) => ({
        id: idleId(d),
        name: newRouteName(d.name, req.date),
        status: 'new',
        driver: d.id,
        driverName: d.name,
        zone: d.zone,
        from: d.start,
        end: d.end ?? d.start,
        done: 0,
        next: null,
        rest: [],
      })),
  ];
  const shaped: AmendRouteShape[] = views.map((r) => {
    const before = [...(r.next ? [r.next.id] : []), ...r.rest.map((p) => p.id)];
    const isDropped = dropped.has(r.id);
    const plan = isDropped ? undefined : planned.get(r.id);
    const after = isDropped ? [] : [...(r.next ? [r.next.id] : []), ...(plan?.stops ?? [])];
    const diff = routeDiff(before, after);
    const parcels = after.map((id) => stopped(byId.get(id) as PackageRow));
    // The locked next stop as the phone times it; the rest as the search scheduled them (depot visit and break included).
    const nextEta =
      r.next && r.live && !isDropped
        ? stopEtas({ from: r.from, startAt: r.live.startAt, stops: [etaStop(req.date, parcels[0], r.live)], model })[0]
        : null;
    const off = nextEta ? 1 : 0;
    const beginOf = (i: number) => (i < off ? nextEta!.begin : msOf(plan!.times[i - off].begin));
    const added = new Set(diff.added);
    const moved = new Set(diff.moved);
    const back = plan && (plan.stops.length || r.next) ? msOf(plan.back) : null;
    // A collection and its delivery are one parcel, named twice (collected first), as a plan's commit names them.
    const parcel = (ids: number[]) => [...new Set(ids.map(Math.abs))];
    return {
      route: r.id > 0 ? r.id : null,
      ...(r.id > 0 ? {} : { opens: true }),
      name: r.name,
      status: r.status,
      driver: r.driver,
      driver_name: r.driverName,
      time_zone: r.zone,
      start: r.from,
      end: r.end,
      done: r.done,
      before: before.map(Math.abs),
      stops: parcels.map((s, i) => {
        const w = windowAt(req.date, s);
        const begin = beginOf(i);
        return {
          package: Math.abs(s.row.id),
          ...(isCollection(s.row) ? { collect: true } : {}),
          hawb: s.row.hawb,
          customer_name: s.row.customer_name,
          address: addressOf(s.row),
          latitude: s.row.latitude,
          longitude: s.row.longitude,
          window_start: s.window?.window_start ?? null,
          window_end: s.window?.window_end ?? null,
          eta: iso(begin) ?? '',
          late: i < off ? nextEta!.late : w != null && begin > w[1],
          state:
            r.next?.id === s.row.id
              ? ('next' as const)
              : added.has(s.row.id)
                ? ('added' as const)
                : moved.has(s.row.id)
                  ? ('moved' as const)
                  : ('kept' as const),
        };
      }),
      added: parcel(diff.added),
      moved: parcel(diff.moved),
      removed: parcel(diff.removed),
      back: iso(back),
      dropped: isDropped,
      reload: plan?.reload
        ? { before: plan.reload.before + off, parcels: plan.reload.parcels, eta: iso(msOf(plan.reload.arrive)) ?? '' }
        : null,
      break: plan?.break
        ? { before: plan.break.before + off, start: iso(msOf(plan.break.start)) ?? '', end: iso(msOf(plan.break.end)) ?? '' }
        : null,
    };
  });
  const left = new Set(result.unassigned);
  const skilledRoutes = [...keep.map((r) => r.skills), ...idle.map((d) => d.skills)];
  return {
    date: req.date,
    routes: shaped,
    unassigned: [
      ...released.map((p) => leftOut(p, 'no_room', 'A pickup not collected yet: back with the pickups to plan')),
      ...unpaired.map(({ p, why }) => leftOut(p, 'no_coordinates', why)),
      ...pairing
        .filter((p) => left.has(p.id))
        .map((p) =>
          leftOut(p, 'no_room', 'No route can collect it and then deliver it without a late stop, an overfull van or a shift overrun'),
        ),
      ...noPlace.map((p) => leftOut(p, 'no_coordinates', 'No coordinates: resolve the address first')),
      ...homeless
        .filter((p) => left.has(p.id))
        .map((p) => {
          const missing = unskilled(windows.get(p.id)?.skills ?? [], skilledRoutes);
          return leftOut(
            p,
            'no_room',
            missing
              ? `No route on the road has the skill it needs: ${missing}`
              : 'No route can take it without a late stop, an overfull van or a shift overrun',
          );
        }),
    ],
  };
}

/** A parcel the change leaves out, as the board lists it. */
function leftOut(p: PackageRow, reason: 'no_room' | 'no_coordinates', message: string) {
  return { package: p.id, hawb: p.hawb, address: addressOf(p), reason, message };
}

/** The skills a parcel needs that no route on the road has, as text; '' when some route has them all. */
function unskilled(needs: string[], routes: string[][]): string {
  if (!needs.length || routes.some((r) => needs.every((n) => r.includes(n)))) return '';
  return needs.filter((n) => !routes.some((r) => r.includes(n))).join(', ') || needs.join(', ');
}

/** A route the board shows: one on the road (`live`), or one the change would open for an idle driver (negative `id`). */
interface RouteView {
  id: number;
  live?: LiveRoute;
  name: string;
  status: string;
  driver: number;
  driverName: string;
  zone: string;
  from: LatLng | null;
  end: LatLng | null;
  done: number;
  next: PackageRow | null;
  rest: PackageRow[];
}

/** A route opened for a driver is named as a plan's commit names it. */
export const newRouteName = (driverName: string, date: string) => `${driverName} ${date}`;

/**
 * Each van's rates as amendRoutes takes them (issue 32): its own, else the office's, as the plan
 * prices them (rules.ts `vehicleRates`). Priced when some van or the office has a rate per hour or
 * km; else nothing (the historic measure, the same for every route).
 */
function vanRates(settings: PlanSettings, vans: PlanDriver['rates'][]): (own: PlanDriver['rates']) => { costs?: AmendCosts } {
  const priced = vans.some((own) => {
    const r = vehicleRates(own, settings.costs);
    return r.per_hour > 0 || r.per_km > 0;
  });
  return (own) => {
    if (!priced) return {};
    const r = vehicleRates(own, settings.costs);
    return { costs: { perSecond: r.per_hour / 3600, perMetre: r.per_km / 1000, fixed: r.fixed } };
  };
}

/** A stop as the phone times it; the locked next stop waiting at the depot is reached through it (`route`). */
function etaStop(date: string, s: Stopped, route?: LiveRoute): EtaStop {
  return {
    id: s.row.id,
    latitude: s.row.latitude,
    longitude: s.row.longitude,
    serviceS: s.window?.service_s ?? 0,
    window: windowAt(date, s),
    ...(route?.left && route.depot && route.atDepot.has(s.row.id) ? { via: { at: route.depot, serviceS: DEFAULT_RELOAD_S } } : {}),
  };
}

/**
 * The office's rates and balance (plan settings) as amendRoutes prices them, like the plan's
 * (rules.ts): a second costs the hourly rate (else one unit), balance by duration counts against
 * the longest shift, by stops against the mean count.
 */
function amendRules(settings: PlanSettings, routes: LiveRoute[], fresh: number): Pick<AmendTask, 'costs' | 'balance'> {
  const c = settings.costs;
  const costs = c && (c.per_hour > 0 || c.per_km > 0) ? { perSecond: c.per_hour / 3600, perMetre: c.per_km / 1000 } : undefined;
  const perSecond = c && c.per_hour > 0 ? c.per_hour / 3600 : 1;
  const b = settings.balance;
  if (!b || b.weight <= 0 || !routes.length) return { costs };
  const longest = Math.max(1, ...routes.map((r) => (r.endBy - r.shiftStart) / 1000));
  const stops = routes.reduce((n, r) => n + r.worked + r.rest.length + (r.next ? 1 : 0), fresh);
  const meanStops = Math.max(1, stops / routes.length);
  return {
    costs,
    balance:
      b.by === 'duration'
        ? { by: 'duration', weight: (b.weight * perSecond) / longest }
        : { by: 'stops', weight: (b.weight * perSecond * 3600) / meanStops },
  };
}
