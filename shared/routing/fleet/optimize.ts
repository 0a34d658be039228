import { now } from '../clock';
import { emptyDetail, evaluateRoute } from './evaluate';
import { buildModel, type FleetModel } from './model';
import { solveFleetModel, type SearchResult } from './search';
import type { FleetInput, FleetResult, FleetRoute } from './types';

export const FLEET_DEFAULT_TIME_LIMIT_MS = 2000;
export const FLEET_DEFAULT_SEED = 0x5eed;
/**
 * The CPU-time cap is this multiple of `timeLimitMs`: the work budget is what a quiet core does in
 * the limit, and a loaded core (shared caches, a slower clock) may need somewhat more CPU for the
 * same work; the margin keeps the answer the same there. Only a machine more than this much slower
 * than the benchmark one is stopped by the cap, and then the plan depends on its speed.
 */
export const CPU_CAP_FACTOR = 1.5;
/**
 * Work units (insertion positions evaluated) per millisecond of `timeLimitMs` for a matrix of n
 * locations, measured on one core of the benchmark machine (about 17,000 at 100 locations,
 * 6,500 at 1,000, where the matrix no longer fits in cache; issue 32 raised the 1,000 figure
 * from 4,800 when insertions began trying fewer routes, which left a third of a 30 s budget's
 * CPU unspent on the Gehring & Homberger instances). The search anneals over this
 * deterministic budget rather than over the clock, so a given input, seed and time limit give
 * the same plan on every run; the clock takes over only on a machine too slow (or too loaded)
 * to spend the budget in time.
 */
export function workPerMs(n: number): number {
  return 20900 / (1 + n / 450);
}

/** The deterministic work budget `optimizeFleet` gives a search of `timeLimitMs`. */
export function workBudget(n: number, timeLimitMs: number): number {
  return timeLimitMs * workPerMs(n);
}

/**
 * CPU milliseconds used so far, as precisely as the platform allows without Node-only imports
 * (shared code also runs in browsers): `process.cpuUsage` counts every thread of the process, so a
 * worker should pass its own thread's clock (server/services/planning/threadCpu.ts) to `optimizeFleet`.
 */
export function defaultCpuNow(): () => number {
  const proc = (globalThis as { process?: { cpuUsage?: () => { user: number; system: number } } }).process;
  if (proc?.cpuUsage) {
    const cpuUsage = proc.cpuUsage.bind(proc);
    return () => {
      const u = cpuUsage();
      return (u.user + u.system) / 1000;
    };
  }
  return now;
}

/** The public result: ids, plus each route's schedule (departure, waits, breaks) and cost. */
export function fleetResult(input: FleetInput, res: Pick<SearchResult, 'routes' | 'absent'>, model?: FleetModel): FleetResult {
  const m = model ?? buildModel(input);
  const routes: FleetRoute[] = [];
  let cost = 0;
  for (let v = 0; v < res.routes.length; v++) {
    const jobs = res.routes[v];
    if (jobs.length === 0) continue;
    const det = emptyDetail();
    const c = evaluateRoute(m, v, jobs, jobs.length, det);
    const route: FleetRoute = { vehicle: input.vehicles[v].id, jobs: jobs.map((j) => input.jobs[j].id) };
    if (c < Infinity) {
      cost += c;
      Object.assign(route, {
        departure: det.departure,
        arrivals: det.arrivals,
        starts: det.starts,
        waits: det.arrivals.map((a, k) => det.starts[k] - a),
        breaks: det.breaks,
        end: det.end,
        duration: det.duration,
        travel: det.travel,
        distance: det.distance,
        cost: c,
      });
    }
    routes.push(route);
  }
  const absent = res.absent.slice().sort((a, b) => a - b);
  for (const j of absent) if (m.penalty[j] < Infinity) cost += m.penalty[j];
  return { routes, unassigned: absent.map((j) => input.jobs[j].id), cost };
}

export interface FleetRunOptions {
  /** CPU milliseconds of the calling thread; default `defaultCpuNow()`. */
  cpuNow?: () => number;
}

/**
 * Plans routes for a fleet (VRPTW with multiple capacities, multiple windows, shifts, open or
 * closed routes, skills, breaks, route limits): serves as many jobs as possible (those without a
 * penalty first), then minimises the cost (total travel unless costs are given, types.ts).
 * Deterministic for an input, seed and time limit while the CPU cap is not reached.
 * Throws RangeError on malformed input (bad indices, negative times, duplicate ids).
 */
export function optimizeFleet(input: FleetInput, options: FleetRunOptions = {}): FleetResult {
  const timeLimitMs = input.timeLimitMs ?? FLEET_DEFAULT_TIME_LIMIT_MS;
  if (typeof timeLimitMs !== 'number' || Number.isNaN(timeLimitMs) || timeLimitMs < 0) {
    throw new RangeError('optimizeFleet: timeLimitMs must be a non-negative number');
  }
  const seed = input.seed ?? FLEET_DEFAULT_SEED;
  if (!Number.isFinite(seed)) throw new RangeError('optimizeFleet: seed must be a finite number');
  const model = buildModel(input);
  const res = solveFleetModel(model, {
    seed,
    work: workBudget(model.n, timeLimitMs),
    timeLimitMs: timeLimitMs * CPU_CAP_FACTOR,
    cpuNow: options.cpuNow ?? defaultCpuNow(),
  });
  return fleetResult(input, res, model);
}
