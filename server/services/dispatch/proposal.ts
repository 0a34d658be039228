import { stopEtas, travelSeconds, type EtaStop } from '../../../shared/routing/eta';
import type { LatLng } from '../../../shared/routing/haversine';
import type { FleetRoute } from '../../../shared/routing/fleet/index';
import type { PlanRoute, PlanStop, PlanUnassigned, Proposal } from '../../../shared/schemas/dispatch';
import { iso } from '../../clock';
import type { DayProblem, DaySolution } from './solveDay';
import { pathMetres, unassignedWhy, type PlanContext } from './problem';
import type { PlanDriver, PlanParcel } from './planTypes';

const addressOf = (p: PlanParcel) =>
  [p.row.customer_address, p.row.postcode_name ?? (p.row.postcode != null ? String(p.row.postcode) : null)]
    .filter((x): x is string => !!x && x.trim() !== '')
    .join(', ');

export const etaStop = (p: PlanParcel): EtaStop => ({
  id: p.row.id,
  latitude: p.row.latitude,
  longitude: p.row.longitude,
  serviceS: p.window.service_s,
  window: p.windowAt,
});

/** One driver's route as the board shows it: stops with ETAs (the shared function), load against capacity, distance. */
function planRoute(
  ctx: PlanContext,
  driver: PlanDriver,
  parcels: PlanParcel[],
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
    window_start: p.window.window_start,
    window_end: p.window.window_end,
    service_s: p.window.service_s,
    time_zone: p.zone,
    kg: p.kg,
    m3: p.m3,
    // When service begins (after any wait for the window), as stored at commit and told to the recipient.
    eta: iso(sched?.arrivals ? at(sched.arrivals[i]) + Math.round((sched.waits?.[i] ?? 0) * 1000) : etas[i].begin) ?? '',
    late: etas[i].late,
    locked: ctx.locks.get(p.row.id) === driver.id,
    ...(sched?.waits ? { wait_s: waitFor(sched, i) } : {}),
  }));
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
    load: { kg: round(parcels.reduce((s, p) => s + p.kg, 0)), m3: round(parcels.reduce((s, p) => s + p.m3, 0)), parcels: parcels.length },
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

function unassignedOf(p: PlanParcel, reason: PlanUnassigned['reason'], message: string): PlanUnassigned {
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
 * fitted). Linear in the parcels: the legs and the reasons came from the worker with the plan.
 */
export function toProposal(ctx: PlanContext, problem: DayProblem, solution: DaySolution, solveMs: number): Proposal {
  const { result } = solution;
  const byVehicle = new Map(
    result.routes.map((r, k) => [r.vehicle, { jobs: r.jobs, legs: solution.legs[k], sched: r, back: solution.returns?.[k] }]),
  );
  const routes = ctx.drivers.map((d, v) => {
    const got = byVehicle.get(problem.vehicles[v].id);
    return planRoute(
      ctx,
      d,
      (got?.jobs ?? []).map((j) => ctx.parcels[j]),
      false,
      got?.legs ?? [],
      got?.back,
      got?.sched,
    );
  });
  for (const f of ctx.fixed) routes.push(planRoute(ctx, f.driver, f.parcels, true));
  const unassigned = [
    ...ctx.preUnassigned.map((u) => unassignedOf(u.parcel, u.reason, u.message)),
    ...result.unassigned.map((j, k) => {
      const r = unassignedWhy(solution.reasons[k], solution.missingSkills?.[k] ?? undefined);
      return unassignedOf(ctx.parcels[j], r.reason, r.message);
    }),
  ];
  return {
    date: ctx.date,
    routes,
    unassigned,
    parcels: ctx.parcels.length + ctx.preUnassigned.length + ctx.fixed.reduce((s, f) => s + f.parcels.length, 0),
    distance_m: routes.reduce((s, r) => s + r.distance_m, 0),
    solve_ms: Math.round(solveMs),
  };
}
