import { now } from './clock';
import { nearestNeighbourTour } from './construct';
import { runLocalSearch } from './localSearch';
import { buildNeighbors } from './neighbors';
import { localDoubleBridge } from './perturb';
import type { TourProblem } from './problem';
import { createRng } from './rng';
import { SearchState } from './state';
import { Tour } from './tour';

export interface IlsOptions {
  timeLimitMs: number;
  maxIterations: number;
  seed: number;
}

export interface IlsResult {
  tour: Int32Array;
  cost: number;
  iterations: number;
  /** Iteration at which the returned tour was found. */
  lastImprovement: number;
  /** Milliseconds until the construction + first local search finished. */
  firstLocalOptimumMs: number;
}

const NEIGHBOURS = 10;
/** The clock is read only every this many kicks, so a run is a pure function of its seed. */
const CLOCK_EVERY = 16;
/**
 * Longest segment a kick moves. Tuned on TSPLIB: at 10-25 the kicks are too small to leave
 * deep local optima; 50-150 all work. The cap keeps kicks local (and cheap) on big routes.
 */
const KICK_SEGMENT = 100;
/** Stalled kicks (per node) before kicking twice per iteration. */
const DOUBLE_KICK_AFTER = 10;

/**
 * Kicks without a new best before giving up early. Small routes converge in a few hundred
 * kicks, so spinning out the whole time budget on them would only add latency.
 */
export function stallLimit(n: number): number {
  return 2000 + 200 * n;
}

/** Iterated local search: local double-bridge kick, repair locally, keep if not worse. */
export function solveTour(problem: TourProblem, opts: IlsOptions): IlsResult {
  const t0 = now();
  const deadline = t0 + opts.timeLimitMs;
  const { n, d, eps, dummy } = problem;
  const rng = createRng(opts.seed);
  const nb = buildNeighbors(d, n, problem.symmetric, NEIGHBOURS);
  const tour = new Tour(nearestNeighbourTour(problem));
  const s = new SearchState(problem, nb, tour);
  for (let i = 0; i < n; i++) s.push(tour.t[i]);
  runLocalSearch(s);
  const firstLocalOptimumMs = now() - t0;

  let current = tour.cost(d);
  const saved = Int32Array.from(tour.t);
  let bestCost = current;
  const best = Int32Array.from(tour.t);
  let iterations = 0;
  let lastImprovement = 0;
  const patience = stallLimit(n);
  while (iterations < opts.maxIterations && iterations - lastImprovement < patience) {
    if (iterations % CLOCK_EVERY === 0 && now() >= deadline) break;
    iterations++;
    s.delta = 0;
    // Once progress stalls, pairs of kicks reach optima that single kicks cannot.
    let kicked = localDoubleBridge(s, rng, KICK_SEGMENT, dummy);
    if (iterations - lastImprovement > DOUBLE_KICK_AFTER * n) {
      kicked = localDoubleBridge(s, rng, KICK_SEGMENT, dummy) || kicked;
    }
    if (!kicked) continue;
    if (!runLocalSearch(s)) break;
    if (s.delta <= eps) {
      current += s.delta;
      tour.saveTo(saved);
      if (current < bestCost - eps) {
        // Re-sum exactly so rounding in accumulated deltas cannot drift the record.
        current = tour.cost(d);
        bestCost = current;
        tour.saveTo(best);
        lastImprovement = iterations;
      }
    } else {
      tour.load(saved);
    }
  }
  return { tour: best, cost: bestCost, iterations, lastImprovement, firstLocalOptimumMs };
}
