import { buildModel } from './model';
import { solveFleetModel, type SearchResult } from './search';
import type { FleetInput, FleetResult } from './types';

export const FLEET_DEFAULT_TIME_LIMIT_MS = 2000;
export const FLEET_DEFAULT_SEED = 0x5eed;
/**
 * Work units (insertion positions evaluated) per millisecond of `timeLimitMs`, measured on one
 * core of the benchmark machine. The search anneals over this deterministic budget rather than
 * over the clock, so a given input, seed and time limit give the same plan on every run; the
 * clock only stops a run that is slower than that (a loaded or slower machine).
 */
export const WORK_PER_MS = 4000;

export function fleetResult(input: FleetInput, res: Pick<SearchResult, 'routes' | 'absent'>): FleetResult {
  const routes = [];
  for (let v = 0; v < res.routes.length; v++) {
    if (res.routes[v].length > 0) routes.push({ vehicle: input.vehicles[v].id, jobs: res.routes[v].map((j) => input.jobs[j].id) });
  }
  const absent = res.absent.slice().sort((a, b) => a - b);
  return { routes, unassigned: absent.map((j) => input.jobs[j].id) };
}

/**
 * Plans routes for a fleet (VRPTW with multiple capacities, multiple windows, shifts and open or
 * closed routes): serves as many jobs as possible, then minimises total travel.
 * Throws RangeError on malformed input (bad indices, negative times, duplicate ids).
 */
export function optimizeFleet(input: FleetInput): FleetResult {
  const timeLimitMs = input.timeLimitMs ?? FLEET_DEFAULT_TIME_LIMIT_MS;
  if (typeof timeLimitMs !== 'number' || Number.isNaN(timeLimitMs) || timeLimitMs < 0) {
    throw new RangeError('optimizeFleet: timeLimitMs must be a non-negative number');
  }
  const seed = input.seed ?? FLEET_DEFAULT_SEED;
  if (!Number.isFinite(seed)) throw new RangeError('optimizeFleet: seed must be a finite number');
  const model = buildModel(input);
  const res = solveFleetModel(model, { seed, work: timeLimitMs * WORK_PER_MS, timeLimitMs });
  return fleetResult(input, res);
}
