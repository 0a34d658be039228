import { stopEtas, travelSeconds, type EtaStop, type TravelModel } from '../../../shared/routing/eta';
import { haversineDistance, type LatLng } from '../../../shared/routing/haversine';
import type { FleetRoute, FleetRunOptions, UnassignedReason as FleetReason } from '../../../shared/routing/fleet/index';
import type { PlanRoute, PlanStop, PlanUnassigned, Proposal, UnassignedReason } from '../../../shared/schemas/dispatch';
import { iso } from '../../clock';
import type { PackageRow } from '../packages/shape';
import { routeCost } from './cost';
import { solveDay, type DayProblem, type DaySolution } from './solveDay';
import type { PlanContext } from './problem';
import type { PlanDriver, PlanParcel } from './planTypes';

/**
 * Shaping a plan's answer grows with the parcels (a stop or a reason for each), so it runs in the
 * fleet worker with the search (server/services/planning/fleetWorker.ts), never on the thread that
 * answers requests (security issue 30): plain data in, the proposal's JSON text out. This module is
 * loaded by that worker, so it imports no database code.
 */

/** The columns of a parcel's row the proposal shows: the rest stays on the request thread. */
type ProposalRow = Pick<
  PackageRow,
  'id' | 'hawb' | 'customer_name' | 'customer_address' | 'postcode_name' | 'postcode' | 'latitude' | 'longitude'
>;
type ProposalParcel = Omit<PlanParcel, 'row'> & { row: ProposalRow };

/** What the proposal needs of a plan's context, as the worker gets it. */
export interface ProposalContext {
  date: string;
  dayStart: number;
  drivers: PlanDriver[];
  parcels: ProposalParcel[];
  /** Pickup-and-delivery pairs among the jobs (issue 32), by job id; absent in tasks made before them. */
  pairs?: { pickup: number; delivery: number }[];
  locks: Map<number, number>;
  fixed: { driver: PlanDriver; parcels: ProposalParcel[] }[];
  preUnassigned: { parcel: ProposalParcel; reason: UnassignedReason; message: string }[];
  model: TravelModel;
}

const slim = (p: PlanParcel): ProposalParcel => {
  const { id, hawb, customer_name, customer_address, postcode_name, postcode, latitude, longitude } = p.row;
  return { ...p, row: { id, hawb, customer_name, customer_address, postcode_name, postcode, latitude, longitude } };
};

/** The context cut to what the proposal shows, so little is copied to the worker. */
export function proposalContext(ctx: PlanContext): ProposalContext {
  return {
    date: ctx.date,
    dayStart: ctx.dayStart,
    drivers: ctx.drivers,
    parcels: ctx.parcels.map(slim),
    pairs: ctx.pairs,
    locks: ctx.locks,
    fixed: ctx.fixed.map((f) => ({ driver: f.driver, parcels: f.parcels.map(slim) })),
    preUnassigned: ctx.preUnassigned.map((u) => ({ ...u, parcel: slim(u.parcel) })),
    model: ctx.model,
  };
}

const REASON_TEXT: Record<FleetReason, { reason: UnassignedReason; message: string }> = {
  capacity: { reason: 'capacity', message: 'Too heavy or too big for every van that may take it' },
  window: { reason: 'window', message: 'No driver can get there before its delivery window closes' },
  shift: { reason: 'shift', message: 'No driver could get there and back inside their shift' },
  no_vehicle: { reason: 'fleet_full', message: 'The vans on shift are full or out of time' },
  skill: { reason: 'skill', message: 'No driver on shift has the skills it needs' },
};

/** Why the optimiser left a job out (fleet's `unassignedReasons`, worked out in the worker), in the board's words. */
function unassignedWhy(reason: FleetReason, missingSkills?: string[]): { reason: UnassignedReason; message: string } {
  if (reason === 'skill' && missingSkills?.length)
    return { reason, message: `No driver on shift has the skill it needs: ${missingSkills.join(', ')}` };
  return REASON_TEXT[reason];
}

const pathMetres = (points: LatLng[], model: TravelModel) =>
  points.reduce((m, p, i) => (i ? m + haversineDistance(points[i - 1], p) * model.detourFactor : 0), 0);

/**
 * A stop of a route: a parcel's delivery, or (`atPickup`) the collection of a paired pickup at its
 * pickup point, whose place stands in for the recipient's and which has no delivery window.
 */
type RouteStop = ProposalParcel & { atPickup?: true };
const pickupStop = (p: ProposalParcel): RouteStop =>
  p.pickup ? { ...p, atPickup: true, windowAt: null, row: { ...p.row, latitude: p.pickup.latitude, longitude: p.pickup.longitude } } : p;

const addressOf = (p: RouteStop) =>
  p.atPickup && p.pickup
    ? p.pickup.address
    : [p.row.customer_address, p.row.postcode_name ?? (p.row.postcode != null ? String(p.row.postcode) : null)]
        .filter((x): x is string => !!x && x.trim() !== '')
        .join(', ');

const etaStop = (p: ProposalParcel): EtaStop => ({
  id: p.row.id,
  latitude: p.row.latitude,
  longitude: p.row.longitude,
  serviceS: p.window.service_s,
  window: p.windowAt,
});

/** One driver's route as the board shows it: stops with ETAs (the shared function), load against capacity, distance. */
function planRoute(
  ctx: ProposalContext,
  driver: PlanDriver,
  parcels: RouteStop[],
  fixed: boolean,
  legs?: number[],
  returnS?: number,
  sched?: FleetRoute,
): PlanRoute {
  // The optimiser's schedule where it planned the route (issue 32): the van leaves as late as
  // its stops allow, and breaks push the ETAs after them.
  const at = (s: number) => ctx.dayStart + s * 1000;
  const startAt = sched?.departure !== undefined ? Math.max(driver.departAt, at(sched.departure)) : driver.departAt;
  const etas = stopEtas({ from: driver.start, startAt, stops: parcels.map((p) => etaStop(p)), legs, model: ctx.model });
  const stops: PlanStop[] = parcels.map((p, i) => ({
    package: p.row.id,
    hawb: p.row.hawb,
    customer_name: p.row.customer_name,
    address: addressOf(p),
    latitude: p.row.latitude,
    longitude: p.row.longitude,
    window_start: p.atPickup ? null : p.window.window_start,
    window_end: p.atPickup ? null : p.window.window_end,
    service_s: p.window.service_s,
    time_zone: p.zone,
    kg: p.kg,
    m3: p.m3,
    // When service begins (after any wait for the window), as stored at commit and told to the recipient.
    eta: iso(sched?.arrivals ? at(sched.arrivals[i]) + Math.round((sched.waits?.[i] ?? 0) * 1000) : etas[i].begin) ?? '',
    late: etas[i].late,
    locked: ctx.locks.get(p.row.id) === driver.id,
    ...(sched?.waits ? { wait_s: waitFor(sched, i) } : {}),
    ...(p.atPickup ? { pickup: true as const } : {}),
  }));
  // A paired parcel is on the van between its two stops: counted once, at its delivery.
  const carried = parcels.filter((p) => !p.atPickup);
  const placed = parcels
    .filter((p) => p.row.latitude != null && p.row.longitude != null)
    .map((p) => ({ latitude: p.row.latitude as number, longitude: p.row.longitude as number }));
  // A van with no stops does not leave: no distance, as no time (a shift from one depot to another
  // used to show the drive between them with a zero duration).
  const path: LatLng[] = placed.length ? [...(driver.start ? [driver.start] : []), ...placed, ...(driver.end ? [driver.end] : [])] : [];
  const last = etas.at(-1);
  // The drive back to the end depot is part of the day (issue 32): the road matrix's leg when the
  // optimiser had one, else the same great-circle time the ETAs use.
  const lastPlaced = placed.at(-1);
  const home = !last || !driver.end ? 0 : (returnS ?? (lastPlaced ? travelSeconds(lastPlaced, driver.end, ctx.model) : 0));
  // The optimiser's own end where it scheduled the route (breaks and waits included), else the ETAs'.
  const back =
    sched?.end !== undefined && driver.end && last
      ? Math.max(at(sched.end), last.depart + Math.round(home * 1000))
      : last
        ? last.depart + Math.round(home * 1000)
        : startAt;
  return {
    driver: driver.id,
    driver_name: driver.name,
    vehicle: driver.vehicleId,
    vehicle_name: driver.vehicleName,
    shift_start: driver.shiftStart,
    shift_end: driver.shiftEnd,
    time_zone: driver.zone,
    depart: iso(startAt) ?? '',
    start: driver.start,
    end: driver.end,
    capacity: driver.capacity,
    load: { kg: round(carried.reduce((s, p) => s + p.kg, 0)), m3: round(carried.reduce((s, p) => s + p.m3, 0)), parcels: carried.length },
    distance_m: Math.round(pathMetres(path, ctx.model)),
    duration_s: Math.round((back - startAt) / 1000),
    back: iso(back) ?? '',
    fixed,
    stops,
    ...(sched?.breaks?.length
      ? { breaks: sched.breaks.map((b) => ({ before: b.before, start: iso(at(b.start)) ?? '', end: iso(at(b.end)) ?? '' })) }
      : {}),
  };
}
const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Seconds the van waits at stop `i` for its window. The optimiser's wait is everything between
 * arrival and service, a break taken there included; the break is shown as a break, so a stop
 * without a window no longer reads "there 30 min early" for the driver's lunch.
 */
export function waitFor(sched: FleetRoute, i: number): number {
  const pause = (sched.breaks ?? []).filter((b) => b.before === i).reduce((s, b) => s + (b.end - b.start), 0);
  return Math.max(0, Math.round((sched.waits?.[i] ?? 0) - pause));
}

function unassignedOf(p: RouteStop, reason: PlanUnassigned['reason'], message: string): PlanUnassigned {
  return {
    package: p.row.id,
    hawb: p.row.hawb,
    customer_name: p.row.customer_name,
    address: addressOf(p),
    latitude: p.row.latitude,
    longitude: p.row.longitude,
    reason,
    message,
  };
}

/**
 * The optimiser's answer as the board's proposal: every driver gets a route (empty if nothing
 * fitted). Linear in the parcels: the legs and the reasons came with the plan.
 */
export function toProposal(ctx: ProposalContext, problem: Pick<DayProblem, 'vehicles'>, solution: DaySolution, solveMs: number): Proposal {
  const { result } = solution;
  const byVehicle = new Map(
    result.routes.map((r, k) => [r.vehicle, { jobs: r.jobs, legs: solution.legs[k], sched: r, back: solution.returns?.[k] }]),
  );
  const pickupJob = new Set((ctx.pairs ?? []).map((p) => p.pickup));
  const stopOf = (j: number): RouteStop => (pickupJob.has(j) ? pickupStop(ctx.parcels[j]) : ctx.parcels[j]);
  const routes = ctx.drivers.map((d, v) => {
    const got = byVehicle.get(problem.vehicles[v].id);
    const route = planRoute(ctx, d, (got?.jobs ?? []).map(stopOf), false, got?.legs ?? [], got?.back, got?.sched);
    const costs = problem.vehicles[v].costs;
    return costs ? { ...route, cost: routeCost(costs, route) } : route;
  });
  // A fixed route's paired pickup is named twice: collected at the first, delivered at the second.
  for (const f of ctx.fixed)
    routes.push(
      planRoute(
        ctx,
        f.driver,
        f.parcels.map((p, i) => (p.pickup && f.parcels.findIndex((x) => x.row.id === p.row.id) === i ? pickupStop(p) : p)),
        true,
      ),
    );
  const unassigned = [
    ...ctx.preUnassigned.map((u) => unassignedOf(u.parcel, u.reason, u.message)),
    ...result.unassigned.flatMap((j, k) => {
      // A pair is left out whole: told once, at its delivery, naming both its stops.
      if (pickupJob.has(j)) return [];
      const r = unassignedWhy(solution.reasons[k], solution.missingSkills?.[k] ?? undefined);
      const p = ctx.parcels[j];
      const message = p.pickup
        ? `Pickup at ${p.pickup.address} with its delivery to ${addressOf(p) || 'the recipient'}: ${r.message}`
        : r.message;
      return [unassignedOf(p, r.reason, message)];
    }),
  ];
  return {
    date: ctx.date,
    routes,
    unassigned,
    parcels:
      ctx.parcels.length -
      pickupJob.size +
      ctx.preUnassigned.length +
      ctx.fixed.reduce((s, f) => s + new Set(f.parcels.map((p) => p.row.id)).size, 0),
    distance_m: routes.reduce((s, r) => s + r.distance_m, 0),
    ...(routes.some((r) => r.cost !== undefined) ? { cost: Math.round(routes.reduce((s, r) => s + (r.cost ?? 0) * 100, 0)) / 100 } : {}),
    solve_ms: Math.round(solveMs),
  };
}

/** A day to plan as the fleet worker gets it: the problem, what its proposal shows, and when planning began. */
export interface DayPlanTask {
  problem: DayProblem;
  context: ProposalContext;
  /** Epoch milliseconds (`performance.timeOrigin + performance.now()`, comparable across threads). */
  startedAt: number;
}

/** Nothing to search (no van, or no parcel with a place): every parcel is left out for want of a van. */
const nothingToSearch = (problem: DayProblem): DaySolution => ({
  result: { routes: [], unassigned: problem.jobs.map((j) => j.id) },
  reasons: problem.jobs.map(() => 'no_vehicle' as const),
  legs: [],
});

/** Plans the day and shapes its proposal: the JSON text the plan row keeps and the board is sent as is. */
export function proposeDay(task: DayPlanTask, run: FleetRunOptions = {}): string {
  const { problem } = task;
  const solution = problem.jobs.length && problem.vehicles.length ? solveDay(problem, run) : nothingToSearch(problem);
  const solveMs = performance.timeOrigin + performance.now() - task.startedAt;
  return JSON.stringify(toProposal(task.context, problem, solution, solveMs));
}
