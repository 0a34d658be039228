import { now } from '../clock';
import { createRng } from '../rng';
import { LocalSearch, localSearchApplies } from './localSearch';
import { fits, skilled, type FleetModel } from './model';
import { recreate, type RecreateContext } from './recreate';
import { Route } from './route';
import { RUIN, ruin, type RuinParams } from './ruin';
import { Solution } from './solution';

export interface SearchOptions {
  seed: number;
  /** Deterministic budget in work units (insertion positions evaluated); the annealing schedule runs on it. */
  work: number;
  /** CPU-time cap (ms of `cpuNow` from the call); only a safety stop, so runs that end by `work` are reproducible. */
  timeLimitMs: number;
  /** CPU milliseconds of the running thread (default: the shared clock's `now`). */
  cpuNow?: () => number;
  /** Annealing temperatures as multiples of the first plan's travel per job (tuning only). */
  temperatures?: [number, number];
  /** Nearest jobs whose routes an insertion tries (tuning only). */
  near?: number;
  /** Ruin parameters (tuning only). */
  ruin?: Partial<RuinParams>;
  /** Inter-route local search after each recreate where the model allows it (tuning only; default on). */
  localSearch?: boolean;
  /** Nearest jobs each job's local-search moves try (tuning only). */
  lsNear?: number;
}

export interface SearchResult {
  /** Job indices per vehicle index. */
  routes: number[][];
  /** Job indices nobody serves. */
  absent: number[];
  cost: number;
  iterations: number;
  /** Iteration that found the returned plan. */
  lastImprovement: number;
}

/** Neighbours of each job kept for the ruin step, nearest first. */
const NEIGHBOURS = 100;
/**
 * An insertion tries the routes of this many nearest jobs. 15 rather than 30: an insertion then
 * tries about half the routes, and the iterations that buys beat the rare better place farther
 * off (hard Solomon instances at 2 s, two seeds: mean gap 1.19% against 1.64% with 30, 1.51% with 10).
 */
export const NEAR_ROUTES = 15;
/** Iterations without a new best before stopping early, so small plans answer fast. */
export function stallLimit(J: number): number {
  return 2000 + 1000 * J;
}
/** Annealing temperatures as multiples of the mean travel per job of the first plan. */
const TEMP_START = 3;
const TEMP_END = 0.02;
/** The clock is read only every this many iterations. */
const CLOCK_EVERY = 16;

/**
 * Can vehicle v serve job j alone (window, capacity, shift, skills)? Breaks and the maximum
 * duration are left out of this test: a break that does not fit around one job alone may fit
 * between it and another, so such a job still enters the search.
 */
export function servableBy(m: FleetModel, v: number, j: number): boolean {
  const empty = new Route(v, m.D);
  if (!fits(m, v, empty.load, j) || !skilled(m, v, j) || m.vMaxStops[v] < 1) return false;
  return empty.travelInsertion(m, j, 0) < Infinity;
}

/** Can vehicle v serve the pair (pickup a, delivery b) alone? Breaks and the maximum duration aside, as for one job. */
export function pairServableBy(m: FleetModel, v: number, a: number, b: number): boolean {
  if (!skilled(m, v, a) || !skilled(m, v, b) || m.vMaxStops[v] < 2) return false;
  return new Route(v, m.D).pairInsertion(m, a, b, () => false, false) < Infinity;
}

/** Penalties of absent jobs that have one (the others count apart, before any cost). */
function penaltyOf(m: FleetModel, absent: number[]): { hard: number; soft: number } {
  let hard = 0;
  let soft = 0;
  for (const j of absent) {
    const p = m.penalty[j];
    if (p === Infinity) hard++;
    else soft += p;
  }
  return { hard, soft };
}

/**
 * The k nearest other jobs of each job (by travel there and back, then index), nearest first.
 * A bounded max-heap per job keeps this O(J² log k): sorting all J for each job took seconds at
 * 3,000 jobs, longer than building the first plan.
 */
function neighbourLists(m: FleetModel, jobs: number[]): Int32Array[] {
  const { d, n, loc } = m;
  const adj: Int32Array[] = new Array<Int32Array>(m.J);
  const k = Math.min(NEIGHBOURS, jobs.length - 1);
  const heap = new Int32Array(Math.max(k, 1));
  const key = new Float64Array(m.J);
  // x ranks after y: farther, or as far with a higher index.
  const after = (x: number, y: number): boolean => key[x] > key[y] || (key[x] === key[y] && x > y);
  for (const a of jobs) {
    const la = loc[a];
    let size = 0;
    for (const b of jobs) {
      if (b === a) continue;
      key[b] = d[la * n + loc[b]] + d[loc[b] * n + la];
      if (size < k) {
        // Sift up.
        let i = size++;
        while (i > 0) {
          const p = (i - 1) >> 1;
          if (!after(b, heap[p])) break;
          heap[i] = heap[p];
          i = p;
        }
        heap[i] = b;
      } else if (k > 0 && after(heap[0], b)) {
        // Replace the farthest kept and sift down.
        let i = 0;
        for (;;) {
          const l = 2 * i + 1;
          if (l >= k) break;
          const c = l + 1 < k && after(heap[l + 1], heap[l]) ? l + 1 : l;
          if (!after(heap[c], b)) break;
          heap[i] = heap[c];
          i = c;
        }
        heap[i] = b;
      }
    }
    const list = Array.from(heap.subarray(0, size));
    list.sort((x, y) => key[x] - key[y] || x - y);
    adj[a] = Int32Array.from(list);
  }
  return adj;
}

export function solveFleetModel(m: FleetModel, opts: SearchOptions): SearchResult {
  const clock = opts.cpuNow ?? now;
  const t0 = clock();
  const deadline = t0 + opts.timeLimitMs;
  const rng = createRng(opts.seed);
  const jobs: number[] = [];
  const never: number[] = [];
  for (let j = 0; j < m.J; j++) {
    let ok = false;
    const o = m.partner[j];
    const a = m.role[j] === 2 ? o : j;
    for (let v = 0; v < m.V && !ok; v++) ok = o < 0 ? servableBy(m, v, j) : pairServableBy(m, v, a, m.partner[a]);
    (ok ? jobs : never).push(j);
  }
  const neverPenalty = penaltyOf(m, never).soft;
  m.counter.work = 0;
  // Work done by full route evaluations joins the insertion count in the deterministic clock.
  const workNow = (): number => ctx.work + m.counter.work;
  const adj = neighbourLists(m, jobs);
  const depotDistance = new Float64Array(m.J);
  for (const j of jobs) {
    let best = Infinity;
    for (let v = 0; v < m.V; v++) best = Math.min(best, m.d[m.vStart[v] * m.n + m.loc[j]]);
    depotDistance[j] = best;
  }
  let maxType = 0;
  for (let v = 0; v < m.V; v++) maxType = Math.max(maxType, m.vType[v] + 1);
  const ctx: RecreateContext = {
    m,
    rng,
    depotDistance,
    emptyOf: new Int32Array(maxType),
    routeStamp: new Int32Array(m.V),
    adj,
    near: opts.near ?? NEAR_ROUTES,
    stamp: 0,
    work: 0,
  };

  const work = new Solution(m);
  const cur = new Solution(m);
  const touched = new Uint8Array(m.V);
  const touchedList: number[] = [];
  const touch = (r: number): void => {
    if (!touched[r]) {
      touched[r] = 1;
      touchedList.push(r);
    }
  };

  const ls = opts.localSearch !== false && localSearchApplies(m, jobs.length) ? new LocalSearch(m, adj, opts.lsNear) : undefined;
  const improve = (): void => {
    if (!ls) return;
    const before = ls.work;
    ls.run(work, touchedList.slice(), touch);
    ctx.work += ls.work - before;
  };

  work.absent = jobs.slice();
  recreate(ctx, work, touch);
  improve();
  for (const r of touchedList) cur.routes[r].copyFrom(work.routes[r]);
  cur.absent = work.absent.slice();
  touchedList.length = 0;
  touched.fill(0);

  const firstPenalty = penaltyOf(m, work.absent);
  let curCost = work.cost() + firstPenalty.soft;
  let curAbsent = firstPenalty.hard;
  // The best plan, copied lazily: only routes changed since the last copy are copied again.
  const bestRoutes = work.routes.map((r) => r.jobs.slice());
  let bestAbsentJobs = work.absent.slice();
  const dirty = new Uint8Array(m.V);
  const dirtyList: number[] = [];
  let bestCost = curCost;
  let curPenalty = firstPenalty.soft;
  let bestAbsent = curAbsent;
  const scale = jobs.length > 0 ? Math.max(curCost, 1e-9) / jobs.length : 1;
  const tStart = (opts.temperatures?.[0] ?? TEMP_START) * scale;
  const tEnd = (opts.temperatures?.[1] ?? TEMP_END) * scale;
  const stall = stallLimit(jobs.length);
  const ruinParams: RuinParams = { ...RUIN, ...opts.ruin };

  let it = 0;
  let lastImprovement = 0;
  const startWork = workNow();
  const budget = Math.max(1, opts.work);
  let timeProgress = 0;
  while (jobs.length > 0 && m.V > 0) {
    if (it % CLOCK_EVERY === 0) {
      const t = clock();
      if (t > deadline) break;
      timeProgress = (t - t0) / opts.timeLimitMs;
    }
    // Cooling follows the work budget; on a machine too slow to spend it in time, the clock.
    const progress = Math.max((workNow() - startWork) / budget, timeProgress);
    if (progress >= 1 || it - lastImprovement > stall) break;
    it++;
    const temp = tStart * Math.pow(tEnd / tStart, progress);

    ruin(work, adj, rng, ruinParams, touch);
    for (const r of touchedList) {
      work.routes[r].update(m);
      work.index(r);
      ctx.work += work.routes[r].jobs.length;
    }
    recreate(ctx, work, touch);
    improve();

    const pen = penaltyOf(m, work.absent);
    const newAbsent = pen.hard;
    let newCost = curCost - curPenalty + pen.soft;
    for (const r of touchedList) newCost += work.routes[r].cost - cur.routes[r].cost;
    const accept = newAbsent < curAbsent || (newAbsent === curAbsent && newCost < curCost - temp * Math.log(rng.next()));
    if (accept) {
      for (const r of touchedList) {
        cur.routes[r].copyFrom(work.routes[r]);
        if (!dirty[r]) {
          dirty[r] = 1;
          dirtyList.push(r);
        }
      }
      cur.absent = work.absent.slice();
      curCost = newCost;
      curAbsent = newAbsent;
      curPenalty = pen.soft;
      if (newAbsent < bestAbsent || (newAbsent === bestAbsent && newCost < bestCost - 1e-9)) {
        for (const r of dirtyList) {
          bestRoutes[r] = cur.routes[r].jobs.slice();
          dirty[r] = 0;
        }
        dirtyList.length = 0;
        bestAbsentJobs = cur.absent.slice();
        bestCost = newCost;
        bestAbsent = newAbsent;
        lastImprovement = it;
      }
    } else {
      for (const r of touchedList) work.routes[r].copyFrom(cur.routes[r]);
      work.absent = cur.absent.slice();
      for (const r of touchedList) work.index(r);
      work.markAbsent();
    }
    for (const r of touchedList) touched[r] = 0;
    touchedList.length = 0;
    // Guard against drift of the running sum.
    if (it % 1024 === 0) curCost = cur.cost() + curPenalty;
  }
  return { routes: bestRoutes, absent: bestAbsentJobs.concat(never), cost: bestCost + neverPenalty, iterations: it, lastImprovement };
}
