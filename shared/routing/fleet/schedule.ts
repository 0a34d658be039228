import type { FleetInput } from './types';

/** Times at one stop of a route. */
export interface StopTimes {
  job: number;
  location: number;
  arrival: number;
  /** Service start: arrival, or the opening of the next window when early. */
  start: number;
  departure: number;
  waiting: number;
  /** Service starts after every window closed (start = arrival then). */
  late: boolean;
}

export interface RouteSchedule {
  vehicle: number;
  departure: number;
  stops: StopTimes[];
  /** Arrival back at the vehicle's end, null for an open route. */
  returnArrival: number | null;
  /** Total travel time (the optimiser's cost). */
  travel: number;
  /**
   * Most the vehicle carries at once, per dimension: the sum over the route's jobs, or with pairs
   * the peak along the route (unpaired demand loaded at the start, each pair's between its stops).
   */
  load: number[];
  /** Every window met, every capacity and the shift end kept, each pair whole and pickup first. */
  feasible: boolean;
}

const TOLERANCE = 1e-6;

/**
 * ETA math for one route, the same rules the optimiser plans by: leave at the shift start, wait
 * for a window when early, serve, drive on. Late stops are still timed (service starts on
 * arrival), so a dispatcher sees how late, not just that it is. With `pairs`, the load is counted
 * along the route and a pair split or served delivery first makes the route infeasible. Throws
 * on unknown ids.
 */
export function routeSchedule(
  input: Pick<FleetInput, 'matrix' | 'vehicles' | 'jobs'> & Partial<Pick<FleetInput, 'pairs'>>,
  route: { vehicle: number; jobs: number[] },
): RouteSchedule {
  const vehicle = input.vehicles.find((v) => v.id === route.vehicle);
  if (!vehicle) throw new RangeError(`routeSchedule: unknown vehicle ${route.vehicle}`);
  const byId = new Map(input.jobs.map((j) => [j.id, j]));
  const m = input.matrix;
  const [shiftStart, shiftEnd] = vehicle.shift ?? [0, Infinity];
  let t = shiftStart;
  let at = vehicle.start;
  let travel = 0;
  let feasible = true;
  const stops: StopTimes[] = [];
  const pickupOf = new Map<number, number>();
  const deliveryOf = new Map<number, number>();
  for (const p of input.pairs ?? []) {
    pickupOf.set(p.delivery, p.pickup);
    deliveryOf.set(p.pickup, p.delivery);
  }
  // Load on board: unpaired demand from the start; a pair's (its pickup's demand) between its stops.
  const onBoard: number[] = [];
  const add = (demand: number[] | undefined, sign: number): void =>
    (demand ?? []).forEach((q, k) => {
      onBoard[k] = (onBoard[k] ?? 0) + sign * q;
    });
  for (const id of route.jobs) if (!pickupOf.has(id) && !deliveryOf.has(id)) add(byId.get(id)?.demand, 1);
  const load = onBoard.slice();
  const seen = new Set<number>();
  for (const id of route.jobs) {
    const job = byId.get(id);
    if (!job) throw new RangeError(`routeSchedule: unknown job ${id}`);
    const leg = m[at][job.location];
    travel += leg;
    const arrival = t + leg;
    let start = arrival;
    let late = false;
    const windows = (job.windows ?? []).slice().sort((a, b) => a[0] - b[0]);
    if (windows.length > 0) {
      const open = windows.find((w) => arrival <= w[1] + TOLERANCE);
      if (open) start = Math.max(arrival, open[0]);
      else late = true;
    }
    const departure = start + (job.service ?? 0);
    stops.push({ job: id, location: job.location, arrival, start, departure, waiting: start - arrival, late });
    if (late) feasible = false;
    const pickup = pickupOf.get(id);
    if (deliveryOf.has(id)) {
      add(job.demand, 1);
      if (!route.jobs.includes(deliveryOf.get(id) ?? NaN)) feasible = false;
    } else if (pickup !== undefined) {
      add(byId.get(pickup)?.demand, -1);
      if (!seen.has(pickup)) feasible = false;
    } else add(job.demand, -1);
    seen.add(id);
    onBoard.forEach((q, k) => {
      if (q > (load[k] ?? 0)) load[k] = q;
    });
    t = departure;
    at = job.location;
  }
  let returnArrival: number | null = null;
  if (vehicle.end !== undefined) {
    const back = route.jobs.length > 0 ? m[at][vehicle.end] : 0;
    travel += back;
    returnArrival = t + back;
    if (returnArrival > shiftEnd + TOLERANCE) feasible = false;
  } else if (t > shiftEnd + TOLERANCE) feasible = false;
  load.forEach((q, k) => {
    const c = vehicle.capacity?.[k];
    if (c !== undefined && q > c + TOLERANCE) feasible = false;
  });
  return { vehicle: vehicle.id, departure: shiftStart, stops, returnArrival, travel, load, feasible };
}
