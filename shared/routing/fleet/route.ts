import { evaluateRoute } from './evaluate';
import { EPS, earliestStart, latestStart, type FleetModel } from './model';

/**
 * One vehicle's route with the two schedules that make every insertion test O(1):
 * `early[k]` is the earliest service start at stop k given everything before it, and
 * `late[k]` the latest service start at stop k that still lets every later stop and the
 * return keep their windows and the shift end. Starting earlier never hurts later stops
 * (waiting is allowed and the earliest-start function is monotone), so a stop placed before k
 * keeps the route feasible exactly when it lets k start by `late[k]`.
 */
export class Route {
  readonly jobs: number[] = [];
  readonly early: number[] = [];
  readonly late: number[] = [];
  /** legs[k]: travel into stop k; legs[length]: travel back to the end (0 for an open or empty route). */
  readonly legs: number[] = [0];
  /** The load the vehicle leaves with: the demand of its unpaired jobs (with pairs, not the peak). */
  readonly load: Float64Array;
  /**
   * Only with pairs (issue 32), D per leg: `legLoad[k]` the load on the leg into stop k
   * (k = length: after the last stop), `prefMax[k]` the most of legs 0..k (an unpaired job
   * inserted before stop k adds its demand to exactly those legs).
   */
  legLoad: Float64Array;
  prefMax: Float64Array;
  cost = 0;

  constructor(
    readonly v: number,
    readonly D: number,
  ) {
    this.load = new Float64Array(D);
    this.legLoad = new Float64Array(D);
    this.prefMax = new Float64Array(D);
  }

  copyFrom(o: Route): void {
    const n = o.jobs.length;
    this.jobs.length = n;
    this.early.length = n;
    this.late.length = n;
    this.legs.length = n + 1;
    for (let k = 0; k < n; k++) {
      this.jobs[k] = o.jobs[k];
      this.early[k] = o.early[k];
      this.late[k] = o.late[k];
      this.legs[k] = o.legs[k];
    }
    this.legs[n] = o.legs[n];
    this.load.set(o.load);
    if (o.legLoad.length > this.D) {
      const size = (n + 1) * this.D;
      if (this.legLoad.length < size) this.grow(size);
      this.legLoad.set(o.legLoad.subarray(0, size));
      this.prefMax.set(o.prefMax.subarray(0, size));
    }
    this.cost = o.cost;
  }

  /** Rebuilds cost, load and both schedules after the job list changed. */
  update(m: FleetModel): void {
    const { d, n, loc, service, D, demand } = m;
    const v = this.v;
    const jobs = this.jobs;
    const len = jobs.length;
    this.early.length = len;
    this.late.length = len;
    this.legs.length = len + 1;
    this.load.fill(0);
    let prev = m.vStart[v];
    let t = m.shiftStart[v];
    let cost = 0;
    for (let k = 0; k < len; k++) {
      const j = jobs[k];
      const l = loc[j];
      const leg = d[prev * n + l];
      this.legs[k] = leg;
      cost += leg;
      const st = earliestStart(m, j, t + leg);
      this.early[k] = st;
      t = st + service[j];
      prev = l;
      if (m.role[j] === 0) for (let q = 0; q < D; q++) this.load[q] += demand[j * D + q];
    }
    const end = m.vEnd[v];
    if (m.hasPairs) this.loads(m);
    const back = end >= 0 && len > 0 ? d[prev * n + end] : 0;
    this.legs[len] = back;
    cost += back;
    this.cost = m.rich ? evaluateRoute(m, v, jobs, len) : cost;
    let bound = m.shiftEnd[v];
    let next = end;
    for (let k = len - 1; k >= 0; k--) {
      const j = jobs[k];
      const l = loc[j];
      const lim = bound - service[j] - (next >= 0 ? d[l * n + next] : 0);
      const ls = latestStart(m, j, lim);
      this.late[k] = ls;
      bound = ls;
      next = l;
    }
  }

  private grow(size: number): void {
    const legLoad = new Float64Array(Math.max(size, 2 * this.legLoad.length));
    legLoad.set(this.legLoad);
    this.legLoad = legLoad;
    const prefMax = new Float64Array(legLoad.length);
    prefMax.set(this.prefMax);
    this.prefMax = prefMax;
  }

  /** The load on every leg, from the start load (unpaired demand) on: unpaired jobs and deliveries drop theirs, pickups add. */
  private loads(m: FleetModel): void {
    const { D, demand, role } = m;
    const jobs = this.jobs;
    const len = jobs.length;
    const size = (len + 1) * D;
    if (this.legLoad.length < size) this.grow(size);
    const legLoad = this.legLoad;
    const prefMax = this.prefMax;
    for (let q = 0; q < D; q++) legLoad[q] = prefMax[q] = this.load[q];
    for (let k = 0; k < len; k++) {
      const j = jobs[k];
      const sign = role[j] === 1 ? 1 : -1;
      const o = (k + 1) * D;
      for (let q = 0; q < D; q++) {
        const x = legLoad[o - D + q] + sign * demand[j * D + q];
        legLoad[o + q] = x;
        prefMax[o + q] = x > prefMax[o - D + q] ? x : prefMax[o - D + q];
      }
    }
  }

  /** With pairs: does unpaired job u fit every leg it would ride on if served just before position p? */
  fitsAt(m: FleetModel, u: number, p: number): boolean {
    const D = m.D;
    const o = p * D;
    for (let q = 0; q < D; q++) if (this.prefMax[o + q] + m.demand[u * D + q] > m.cap[this.v * D + q] + EPS) return false;
    return true;
  }

  /**
   * Cheapest insertion of the pair (pickup a, delivery b): a before stop p, then b before stop
   * q >= p of the present route (q = p: right after a), keeping windows, the shift and the load
   * on every leg in between. For each p the route is walked forward once from a, so the whole
   * search is O(length²). `skip` drops a position (the recreate's blinks). Sets `pairAt` and
   * returns the extra cost, or Infinity when no place fits. Skills and stop counts are the caller's.
   * `full` false: windows, shift and load only, without the rich evaluation (breaks, limits, costs).
   */
  pairInsertion(m: FleetModel, a: number, b: number, skip: () => boolean, full = true): number {
    const { d, n, loc, service, D, demand, cap } = m;
    const v = this.v;
    const jobs = this.jobs;
    const len = jobs.length;
    const la = loc[a];
    const run = scratchLoad.length < D ? (scratchLoad = new Float64Array(D)) : scratchLoad;
    // Module bindings read once (a transpiled import is a getter call per read).
    const eps = EPS;
    const start = earliestStart;
    let best = Infinity;
    const rich = m.rich && full;
    for (let p = 0; p <= len; p++) {
      let prev: number;
      let dep: number;
      if (p === 0) {
        prev = m.vStart[v];
        dep = m.shiftStart[v];
      } else {
        const pj = jobs[p - 1];
        prev = loc[pj];
        dep = this.early[p - 1] + service[pj];
      }
      const toA = d[prev * n + la];
      const sa = start(m, a, dep + toA);
      // Later positions only reach a later.
      if (sa === Infinity) break;
      pairAt.work += 3;
      let over = false;
      for (let q = 0; q < D; q++) {
        run[q] = this.legLoad[p * D + q];
        if (run[q] + demand[a * D + q] > cap[v * D + q] + eps) over = true;
      }
      if (over) continue;
      const doneA = sa + service[a];
      const same = this.pairTail(m, b, la, doneA, p);
      if (same < Infinity && !skip()) {
        const c = rich ? this.pairEvaluation(m, a, b, p, p) : toA + same;
        if (c < best) {
          best = c;
          pairAt.p = p;
          pairAt.q = p;
        }
      }
      if (p === len) continue;
      const fromA = d[la * n + loc[jobs[p]]];
      let t = start(m, jobs[p], doneA + fromA);
      if (t > this.late[p] + eps) continue;
      const head = toA + fromA - this.legs[p];
      for (let q = p + 1; q <= len; q++) {
        for (let k = 0; k < D; k++) {
          const x = this.legLoad[q * D + k];
          if (x > run[k]) run[k] = x;
          if (run[k] + demand[a * D + k] > cap[v * D + k] + eps) over = true;
        }
        if (over) break;
        pairAt.work += 3;
        const pj = jobs[q - 1];
        const tl = this.pairTail(m, b, loc[pj], t + service[pj], q);
        if (tl < Infinity && !skip()) {
          const c = rich ? this.pairEvaluation(m, a, b, p, q) : head + tl;
          if (c < best) {
            best = c;
            pairAt.p = p;
            pairAt.q = q;
          }
        }
        if (q === len) break;
        t = start(m, jobs[q], t + service[pj] + this.legs[q]);
        if (t > this.late[q] + eps) break;
      }
    }
    return best;
  }

  /** Extra travel of delivery b inserted after location `prevLoc` (left at `dep`) and before stop q, or Infinity when a window or the shift breaks. */
  private pairTail(m: FleetModel, b: number, prevLoc: number, dep: number, q: number): number {
    const { d, n, loc, service } = m;
    const lb = loc[b];
    const toB = d[prevLoc * n + lb];
    const sb = earliestStart(m, b, dep + toB);
    if (sb === Infinity) return Infinity;
    const done = sb + service[b];
    const jobs = this.jobs;
    if (q === jobs.length) {
      const end = m.vEnd[this.v];
      if (end < 0) return done <= m.shiftEnd[this.v] + EPS ? toB : Infinity;
      const back = d[lb * n + end];
      return done + back <= m.shiftEnd[this.v] + EPS ? toB + back - this.legs[q] : Infinity;
    }
    const fromB = d[lb * n + loc[jobs[q]]];
    return done + fromB <= this.late[q] + EPS ? toB + fromB - this.legs[q] : Infinity;
  }

  /** Rich models: the full evaluation of the route with a before stop p and b before stop q, less the present cost. */
  private pairEvaluation(m: FleetModel, a: number, b: number, p: number, q: number): number {
    const jobs = this.jobs;
    const len = jobs.length;
    const seq = scratchSeq;
    seq.length = len + 2;
    let w = 0;
    for (let k = 0; k <= len; k++) {
      if (k === p) seq[w++] = a;
      if (k === q) seq[w++] = b;
      if (k < len) seq[w++] = jobs[k];
    }
    return evaluateRoute(m, this.v, seq, len + 2) - this.cost;
  }

  /**
   * Extra cost of serving job u just before position p (p = length: after the last stop), or
   * Infinity when that breaks a rule. Capacity, skills and stop counts are the caller's check.
   * The O(1) window and shift test comes first; on rich models (costs, breaks, limits) a
   * position that passes it is then evaluated in full.
   */
  insertionCost(m: FleetModel, u: number, p: number): number {
    const c = this.travelInsertion(m, u, p);
    if (c === Infinity || !m.rich) return c;
    const jobs = this.jobs;
    const seq = scratchSeq;
    const len = jobs.length;
    seq.length = len + 1;
    for (let k = 0; k < p; k++) seq[k] = jobs[k];
    seq[p] = u;
    for (let k = p; k < len; k++) seq[k + 1] = jobs[k];
    return evaluateRoute(m, this.v, seq, len + 1) - this.cost;
  }

  /** Extra travel of the insertion, or Infinity when it breaks a window or the shift (breaks and limits aside). */
  travelInsertion(m: FleetModel, u: number, p: number): number {
    const { d, dT, n, loc, service } = m;
    const v = this.v;
    const jobs = this.jobs;
    const row = loc[u] * n;
    let prev: number;
    let dep: number;
    if (p === 0) {
      prev = m.vStart[v];
      dep = m.shiftStart[v];
    } else {
      const pj = jobs[p - 1];
      prev = loc[pj];
      dep = this.early[p - 1] + service[pj];
    }
    const toU = dT[row + prev];
    const st = earliestStart(m, u, dep + toU);
    if (st === Infinity) return Infinity;
    const done = st + service[u];
    if (p === jobs.length) {
      const end = m.vEnd[v];
      if (end < 0) return done <= m.shiftEnd[v] + EPS ? toU : Infinity;
      const back = d[row + end];
      if (done + back > m.shiftEnd[v] + EPS) return Infinity;
      return toU + back - this.legs[p];
    }
    const fromU = d[row + loc[jobs[p]]];
    if (done + fromU > this.late[p] + EPS) return Infinity;
    return toU + fromU - this.legs[p];
  }
}

/** Candidate sequence for full evaluations (single-threaded search: one buffer serves every route). */
const scratchSeq: number[] = [];
/** Running load maximum of a pair insertion. */
let scratchLoad = new Float64Array(4);
/** Where the last `pairInsertion` found its best place (positions in the route before the insertion), and its work so far for the search's clock: 3 units per position tried, about what a single insertion test costs per unit. */
export const pairAt = { p: -1, q: -1, work: 0 };
