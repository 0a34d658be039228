import { buildModel } from './model';
import { solveFleetModel, type SearchResult } from './search';
import type { FleetInput, FleetResult } from './types';

export const FLEET_DEFAULT_TIME_LIMIT_MS = 2000;
export const FLEET_DEFAULT_SEED = 0x5eed;
/**
 * Work units (insertion positions evaluated) per millisecond of `timeLimitMs` for a matrix of n
 * locations, measured on one core of the benchmark machine (about 17,900 at 100 locations,
 * 4,800 at 1,000, where the matrix no longer fits in cache). The search anneals over this
 * deterministic budget rather than over the clock, so a given input, seed and time limit give
 * the same plan on every run; the clock takes over only on a machine too slow (or too loaded)
 * to spend the budget in time.
 */
export function workPerMs(n: number): number {
  return 24000 / (1 + n / 250);
}

/** The deterministic work budget `optimizeFleet` gives a search of `timeLimitMs`. */
export function workBudget(n: number, timeLimitMs: number): number {
  return timeLimitMs * workPerMs(n);
}

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
  const res = solveFleetModel(model, { seed, work: workBudget(model.n, timeLimitMs), timeLimitMs });
  return fleetResult(input, res);
}
