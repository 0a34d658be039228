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
  readonly load: Float64Array;
  cost = 0;

  constructor(
    readonly v: number,
    D: number,
  ) {
    this.load = new Float64Array(D);
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
      for (let q = 0; q < D; q++) this.load[q] += demand[j * D + q];
    }
    const end = m.vEnd[v];
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
