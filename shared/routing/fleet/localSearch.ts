import { evaluateRoute } from './evaluate';
import { EPS, earliestStart, fits, skilled, type FleetModel } from './model';
import { pairAt, type Route } from './route';
import type { Solution } from './solution';

/**
 * Inter-route local search (issue 32 §3) on the routes a ruin-and-recreate step changed: moves
 * between a job and one of its nearest jobs served by another route (a granular neighbourhood),
 * first improvement, until none improves:
 * - relocate the job just before or just after its neighbour;
 * - swap the two;
 * - 2-opt*: exchange the routes' tails so that the job is followed by its neighbour (or the
 *   neighbour by the job), between vehicles of one type only (same start, end, shift, capacity
 *   and rules, so the tails' latest starts stay valid).
 * Every test is O(1) on the routes' earliest / latest schedules (route.ts). On models that
 * route.ts decides alone (no costs, breaks, duration limits, balance, separate distances or
 * pickup-and-delivery pairs) that test decides; skills, stop limits, multiple windows, open
 * routes and capacity in several dimensions are checked here.
 *
 * On the others (`full`: rich models or pairs) the O(1) tests are a filter: they are necessary
 * conditions (breaks only delay a schedule, limits only forbid) and the travel saving they compute
 * picks which moves are worth a look. A move that passes is then decided by the full evaluation
 * (evaluate.ts, the one the recreate step uses) of both changed routes: kept only when both stay
 * feasible and the sum of their costs (fixed, per distance, per time, balance) falls. Paired jobs
 * never move alone between routes: a pair moves whole, to its best place in the neighbour's route
 * (`relocatePair`); every candidate route is checked for its pairs (both halves, pickup first)
 * and its load on every leg. Absent jobs do not change, so penalties do not either.
 */
export function localSearchApplies(_m: FleetModel, jobs: number): boolean {
  return jobs <= LS_MAX_JOBS;
}

/**
 * Above this many jobs the search runs without it: on the 1,000-customer Gehring & Homberger
 * instances at 30 s the ruin-and-recreate iterations it takes were worth more (r1 +4.50% without
 * against +4.70% with, rc1 +3.39% against +3.74%, c2 +0.07% against +1.08%; r2 and rc2 gained 1.3
 * points with it). On the 100-customer Solomon instances it lowered the mean gap from +0.56% to +0.31%.
 */
const LS_MAX_JOBS = 500;

/** Nearest jobs tried per job. */
const LS_NEAR = 10;

export class LocalSearch {
  /** Prefix loads per route ((len + 1) * D), rebuilt when the route changes. */
  private pre: Float64Array[];
  private preStamp: Int32Array;
  private routeStamp: Int32Array;
  private queued: Uint8Array;
  private queue: number[] = [];
  private stamp = 1;
  /** Move evaluations, the search's deterministic clock (full evaluations add to `m.counter`). */
  work = 0;
  /** Moves are decided by the full evaluation (rich models, pairs). */
  private readonly full: boolean;
  /** Candidate sequences of the two changed routes (full models). */
  private readonly seqA: number[] = [];
  private readonly seqB: number[] = [];
  /** Pair check: pickups seen in the candidate route, by stamp. */
  private readonly seen: Int32Array;
  private seenStamp = 0;
  private readonly load: Float64Array;
  /** Pair moves: routes already tried for the present job (by stamp), and its route's cost without the pair (NaN: not yet known). */
  private readonly pairTried: Int32Array;
  private pairStamp = 0;
  private pairCost = NaN;

  constructor(
    private readonly m: FleetModel,
    private readonly adj: Int32Array[],
    private readonly near = LS_NEAR,
  ) {
    this.pre = Array.from({ length: m.V }, () => new Float64Array(0));
    this.preStamp = new Int32Array(m.V).fill(-1);
    this.routeStamp = new Int32Array(m.V);
    this.queued = new Uint8Array(m.V);
    this.full = m.rich || m.hasPairs;
    this.seen = new Int32Array(m.hasPairs ? m.J : 0);
    this.load = new Float64Array(m.D);
    this.pairTried = new Int32Array(m.hasPairs ? m.V : 0);
  }

  /**
   * Moves the pair of job u (pickup and delivery together) from A to its best place in B
   * (Route.pairInsertion, the recreate step's test, in full on rich models) when the plan's cost
   * falls. A without the pair is evaluated in full once per job.
   */
  private relocatePair(sol: Solution, A: Route, u: number, B: Route): boolean {
    const m = this.m;
    const a = m.role[u] === 1 ? u : m.partner[u];
    const b = m.partner[a];
    const vb = B.v;
    if (B.jobs.length + 2 > m.vMaxStops[vb] || !skilled(m, vb, a) || !skilled(m, vb, b)) return false;
    const seqA = this.seqA;
    if (Number.isNaN(this.pairCost)) {
      seqA.length = 0;
      for (const x of A.jobs) if (x !== a && x !== b) seqA.push(x);
      this.pairCost = evaluateRoute(m, A.v, seqA, seqA.length);
    }
    const gain = A.cost - this.pairCost;
    if (!(gain > 1e-7)) return false;
    const before = pairAt.work;
    const ins = B.pairInsertion(m, a, b, never);
    this.work += pairAt.work - before;
    if (ins >= gain - 1e-7) return false;
    const { p, q } = pairAt;
    seqA.length = 0;
    for (const x of A.jobs) if (x !== a && x !== b) seqA.push(x);
    A.jobs.length = 0;
    for (const x of seqA) A.jobs.push(x);
    B.jobs.splice(q, 0, b);
    B.jobs.splice(p, 0, a);
    this.changed(sol, A.v, vb);
    return true;
  }

  /**
   * With pairs: every delivery after its pickup, every pickup with its delivery, and the load on
   * every leg within capacity (unpaired demand from the start, a pair's from pickup to delivery).
   */
  private pairsHold(v: number, seq: readonly number[]): boolean {
    const m = this.m;
    const { D, demand, role, partner, cap } = m;
    const seen = this.seen;
    const stamp = ++this.seenStamp;
    const load = this.load;
    load.fill(0);
    let open = 0;
    for (const j of seq) {
      const r = role[j];
      if (r === 0) for (let q = 0; q < D; q++) load[q] += demand[j * D + q];
      else if (r === 1) {
        seen[j] = stamp;
        open++;
      } else if (seen[partner[j]] !== stamp) return false;
      else open--;
    }
    if (open !== 0) return false;
    for (let q = 0; q < D; q++) if (load[q] > cap[v * D + q] + EPS) return false;
    for (const j of seq) {
      const sign = role[j] === 1 ? 1 : -1;
      for (let q = 0; q < D; q++) {
        load[q] += sign * demand[j * D + q];
        if (load[q] > cap[v * D + q] + EPS) return false;
      }
    }
    return true;
  }

  /** Full models: the cost of vehicle v serving `seq` by the full evaluation (pairs and loads checked first), Infinity when infeasible. */
  private costOf(v: number, seq: readonly number[]): number {
    if (this.m.hasPairs && !this.pairsHold(v, seq)) return Infinity;
    return evaluateRoute(this.m, v, seq, seq.length);
  }

  /** Full models: do `seqA` on A (and `seqB` on B) cost less in all than the routes do now, both feasible? */
  private improves(A: Route, B: Route | null): boolean {
    const ca = this.costOf(A.v, this.seqA);
    if (ca === Infinity) return false;
    if (!B) return ca < A.cost - 1e-7;
    const cb = this.costOf(B.v, this.seqB);
    return cb < Infinity && ca + cb < A.cost + B.cost - 1e-7;
  }

  /** Improves `sol` around the listed routes; `touch` is called for every route a move changes. */
  run(sol: Solution, routes: readonly number[], touch: (r: number) => void): void {
    const { queue, queued } = this;
    // Routes change between runs (ruin, recreate, a rejected step's undo): no prefix load is kept.
    this.preStamp.fill(-1);
    for (const r of routes) {
      if (!queued[r] && sol.routes[r].jobs.length > 0) {
        queued[r] = 1;
        queue.push(r);
      }
    }
    let moves = 0;
    while (queue.length > 0) {
      const r = queue.pop() as number;
      queued[r] = 0;
      const changed = this.improveRoute(sol, r);
      if (changed >= 0) {
        moves++;
        touch(r);
        touch(changed);
        for (const x of [r, changed]) {
          if (!queued[x] && sol.routes[x].jobs.length > 0) {
            queued[x] = 1;
            queue.push(x);
          }
        }
        if (moves > 10000) break;
      }
    }
    for (const r of queue) queued[r] = 0;
    queue.length = 0;
  }

  private changed(sol: Solution, a: number, b: number): void {
    const m = this.m;
    for (const r of a === b ? [a] : [a, b]) {
      sol.routes[r].update(m);
      sol.index(r);
      this.routeStamp[r] = ++this.stamp;
    }
  }

  private prefix(route: Route): Float64Array {
    const v = route.v;
    if (this.preStamp[v] === this.routeStamp[v] && this.pre[v].length >= (route.jobs.length + 1) * this.m.D) return this.pre[v];
    const { D, demand } = this.m;
    const len = route.jobs.length;
    let p = this.pre[v];
    if (p.length < (len + 1) * D) p = this.pre[v] = new Float64Array(2 * (len + 1) * D);
    for (let q = 0; q < D; q++) p[q] = 0;
    for (let k = 0; k < len; k++) {
      const j = route.jobs[k];
      for (let q = 0; q < D; q++) p[(k + 1) * D + q] = p[k * D + q] + demand[j * D + q];
    }
    this.preStamp[v] = this.routeStamp[v];
    return p;
  }

  /** Tries the moves of every job of route r; applies the first improving one and returns the other route, or -1. */
  private improveRoute(sol: Solution, r: number): number {
    const m = this.m;
    const A = sol.routes[r];
    const { routeOf, posOf } = sol;
    for (let k = 0; k < A.jobs.length; k++) {
      const u = A.jobs[k];
      const pairStamp = ++this.pairStamp;
      this.pairCost = NaN;
      const list = this.adj[u];
      const e = Math.min(this.near, list.length);
      for (let i = 0; i < e; i++) {
        const w = list[i];
        const rb = routeOf[w];
        if (rb < 0) continue;
        if (rb === r) {
          this.work += 1;
          const l = posOf[w];
          if (this.moveWithin(A, k, l) || this.moveWithin(A, k, l + 1)) {
            this.changed(sol, r, r);
            return r;
          }
          continue;
        }
        const B = sol.routes[rb];
        const l = posOf[w];
        this.work += 3;
        if (m.role[u] !== 0 && this.pairTried[rb] !== pairStamp) {
          this.pairTried[rb] = pairStamp;
          if (this.relocatePair(sol, A, u, B)) return rb;
        }
        if (this.relocate(sol, A, k, B, l) || this.relocate(sol, A, k, B, l + 1)) return rb;
        if (this.swap(sol, A, k, B, l)) return rb;
        if (m.vType[r] === m.vType[rb]) {
          // u then w: A[..k] + B[l..], B[..l-1] + A[k+1..].
          if (this.twoOptStar(sol, A, k, B, l - 1)) return rb;
          // w then u: B[..l] + A[k..], A[..k-1] + B[l+1..].
          if (this.twoOptStar(sol, A, k - 1, B, l)) return rb;
        }
      }
    }
    return -1;
  }

  /** Location of stop k of `route`, its start for k = -1, its end for k = length (-1: open, no end). */
  private locOf(route: Route, k: number): number {
    const m = this.m;
    if (k < 0) return m.vStart[route.v];
    if (k >= route.jobs.length) return m.vEnd[route.v];
    return m.loc[route.jobs[k]];
  }

  private leg(a: number, b: number): number {
    return a < 0 || b < 0 ? 0 : this.m.d[a * this.m.n + b];
  }

  /**
   * Or-opt of one stop: moves stop k of `route` to just before its stop p (positions before the
   * move) when that shortens it and the whole route, replayed from its start, keeps every window
   * and the shift. The saving is computed first in O(1); only a saving is replayed.
   */
  private moveWithin(route: Route, k: number, p: number): boolean {
    if (p === k || p === k + 1) return false;
    const lk = this.locOf(route, k);
    const prevK = this.locOf(route, k - 1);
    const nextK = this.locOf(route, k + 1);
    const prevP = this.locOf(route, p - 1);
    const atP = this.locOf(route, p);
    const delta =
      this.leg(prevK, nextK) - this.leg(prevK, lk) - this.leg(lk, nextK) + this.leg(prevP, lk) + this.leg(lk, atP) - this.leg(prevP, atP);
    if (delta >= -1e-7) return false;
    const jobs = route.jobs;
    const seq = scratch;
    seq.length = 0;
    for (let i = 0; i <= jobs.length; i++) {
      if (i === p) seq.push(jobs[k]);
      if (i < jobs.length && i !== k) seq.push(jobs[i]);
    }
    this.work += seq.length >> 1;
    if (this.full) {
      const a = this.seqA;
      a.length = 0;
      for (const x of seq) a.push(x);
      if (!this.improves(route, null)) return false;
    } else if (!this.feasible(route.v, seq)) return false;
    for (let i = 0; i < seq.length; i++) jobs[i] = seq[i];
    return true;
  }

  /** Replays a sequence on vehicle v from its shift start: every window and the shift end kept? */
  private feasible(v: number, seq: readonly number[]): boolean {
    const m = this.m;
    const { d, n, loc, service } = m;
    let prev = m.vStart[v];
    let t = m.shiftStart[v];
    for (const j of seq) {
      const st = earliestStart(m, j, t + d[prev * n + loc[j]]);
      if (st === Infinity) return false;
      t = st + service[j];
      prev = loc[j];
    }
    const end = m.vEnd[v];
    if (end >= 0) t += d[prev * n + end];
    return t <= m.shiftEnd[v] + EPS;
  }

  /** Departure from the stop before position p (the start before position 0) and its location. */
  private depBefore(route: Route, p: number): { loc: number; dep: number } {
    const m = this.m;
    if (p === 0) return { loc: m.vStart[route.v], dep: m.shiftStart[route.v] };
    const j = route.jobs[p - 1];
    return { loc: m.loc[j], dep: route.early[p - 1] + m.service[j] };
  }

  /**
   * Travel saved by taking stop k out of the route (its legs in and out against the leg that
   * replaces them), or -Infinity when a later stop or the return would then break its window or
   * the shift (possible with a matrix that breaks the triangle inequality).
   */
  private removalGain(route: Route, k: number): number {
    const m = this.m;
    const len = route.jobs.length;
    if (len === 1) return route.cost;
    const { loc: prev, dep } = this.depBefore(route, k);
    const { d, n } = m;
    if (k === len - 1) {
      const end = m.vEnd[route.v];
      if (end < 0) return route.legs[k];
      const back = d[prev * n + end];
      if (dep + back > m.shiftEnd[route.v] + EPS) return -Infinity;
      return route.legs[k] + route.legs[k + 1] - back;
    }
    const next = route.jobs[k + 1];
    const leg = d[prev * n + m.loc[next]];
    if (earliestStart(m, next, dep + leg) > route.late[k + 1] + EPS) return -Infinity;
    return route.legs[k] + route.legs[k + 1] - leg;
  }

  /** Moves A's stop k to just before B's stop p when that shortens the plan. */
  private relocate(sol: Solution, A: Route, k: number, B: Route, p: number): boolean {
    const m = this.m;
    const u = A.jobs[k];
    const vb = B.v;
    if (m.role[u] !== 0) return false;
    if (B.jobs.length >= m.vMaxStops[vb] || !skilled(m, vb, u) || !fits(m, vb, B.load, u)) return false;
    const ins = B.travelInsertion(m, u, p);
    if (ins === Infinity) return false;
    const gain = this.removalGain(A, k);
    if (ins - gain >= -1e-7) return false;
    if (this.full) {
      const { seqA, seqB } = this;
      seqA.length = 0;
      for (let i = 0; i < A.jobs.length; i++) if (i !== k) seqA.push(A.jobs[i]);
      seqB.length = 0;
      for (let i = 0; i <= B.jobs.length; i++) {
        if (i === p) seqB.push(u);
        if (i < B.jobs.length) seqB.push(B.jobs[i]);
      }
      if (!this.improves(A, B)) return false;
    }
    A.jobs.splice(k, 1);
    B.jobs.splice(p, 0, u);
    this.changed(sol, A.v, vb);
    return true;
  }

  /**
   * Cost change of putting job x in place of stop k of `route` (its neighbours kept), or
   * Infinity when a window or the shift breaks. Capacity is the caller's.
   */
  private replaceCost(route: Route, k: number, x: number): number {
    const m = this.m;
    const { d, n, loc } = m;
    const { loc: prev, dep } = this.depBefore(route, k);
    const lx = loc[x];
    const toX = d[prev * n + lx];
    const sx = earliestStart(m, x, dep + toX);
    if (sx === Infinity) return Infinity;
    const done = sx + m.service[x];
    const len = route.jobs.length;
    if (k === len - 1) {
      const end = m.vEnd[route.v];
      if (end < 0) return done <= m.shiftEnd[route.v] + EPS ? toX - route.legs[k] : Infinity;
      const back = d[lx * n + end];
      if (done + back > m.shiftEnd[route.v] + EPS) return Infinity;
      return toX + back - route.legs[k] - route.legs[k + 1];
    }
    const next = route.jobs[k + 1];
    const from = d[lx * n + loc[next]];
    if (earliestStart(m, next, done + from) > route.late[k + 1] + EPS) return Infinity;
    return toX + from - route.legs[k] - route.legs[k + 1];
  }

  /** Exchanges A's stop k and B's stop l when that shortens the plan. */
  private swap(sol: Solution, A: Route, k: number, B: Route, l: number): boolean {
    const m = this.m;
    const u = A.jobs[k];
    const w = B.jobs[l];
    const va = A.v;
    const vb = B.v;
    if (m.role[u] !== 0 || m.role[w] !== 0) return false;
    if (!skilled(m, va, w) || !skilled(m, vb, u)) return false;
    const D = m.D;
    for (let q = 0; q < D; q++) {
      const du = m.demand[u * D + q];
      const dw = m.demand[w * D + q];
      if (A.load[q] - du + dw > m.cap[va * D + q] + EPS) return false;
      if (B.load[q] - dw + du > m.cap[vb * D + q] + EPS) return false;
    }
    const ca = this.replaceCost(A, k, w);
    if (ca === Infinity) return false;
    const cb = this.replaceCost(B, l, u);
    if (cb === Infinity || ca + cb >= -1e-7) return false;
    if (this.full) {
      const { seqA, seqB } = this;
      seqA.length = 0;
      for (const x of A.jobs) seqA.push(x);
      seqA[k] = w;
      seqB.length = 0;
      for (const x of B.jobs) seqB.push(x);
      seqB[l] = u;
      if (!this.improves(A, B)) return false;
    }
    A.jobs[k] = w;
    B.jobs[l] = u;
    this.changed(sol, va, vb);
    return true;
  }

  /**
   * Leg from the stop before position p of `route` (its start at p = 0) into `next` of `other`
   * (its end when next is past other's last stop), or Infinity when other's stop `next` or the
   * end can no longer be reached in time. `empty`: the new route has no stop.
   */
  private joinCost(route: Route, p: number, other: Route, next: number, empty: boolean): number {
    if (empty) return 0;
    const m = this.m;
    const { d, n } = m;
    const { loc: prev, dep } = this.depBefore(route, p);
    if (next === other.jobs.length) {
      const end = m.vEnd[route.v];
      if (end < 0) return 0;
      const back = d[prev * n + end];
      return dep + back > m.shiftEnd[route.v] + EPS ? Infinity : back;
    }
    const j = other.jobs[next];
    const leg = d[prev * n + m.loc[j]];
    return earliestStart(m, j, dep + leg) > other.late[next] + EPS ? Infinity : leg;
  }

  /** 2-opt*: A keeps stops 0..i and takes B's from j+1, B keeps 0..j and takes A's from i+1 (one vehicle type). */
  private twoOptStar(sol: Solution, A: Route, i: number, B: Route, j: number): boolean {
    const m = this.m;
    const la = A.jobs.length;
    const lb = B.jobs.length;
    const nA = i + 1 + (lb - j - 1);
    const nB = j + 1 + (la - i - 1);
    if (nA > m.vMaxStops[A.v] || nB > m.vMaxStops[B.v]) return false;
    // Nothing moves.
    if ((i === la - 1 && j === lb - 1) || (i === -1 && j === -1)) return false;
    const newA = this.joinCost(A, i + 1, B, j + 1, nA === 0);
    if (newA === Infinity) return false;
    const newB = this.joinCost(B, j + 1, A, i + 1, nB === 0);
    if (newB === Infinity) return false;
    // Every other leg stays (a tail keeps its return: one vehicle type, one end); a route left
    // empty costs nothing, and its only leg left was the one at the cut (newA / newB are 0 then).
    const delta = newA + newB - A.legs[i + 1] - B.legs[j + 1];
    if (delta >= -1e-7) return false;
    // With pairs the load is checked leg by leg below (a delivery's demand is not carried from the start).
    if (!m.hasPairs) {
      const D = m.D;
      const pa = this.prefix(A);
      const pb = this.prefix(B);
      for (let q = 0; q < D; q++) {
        const cap = m.cap[A.v * D + q] + EPS;
        if (pa[(i + 1) * D + q] + pb[lb * D + q] - pb[(j + 1) * D + q] > cap) return false;
        if (pb[(j + 1) * D + q] + pa[la * D + q] - pa[(i + 1) * D + q] > cap) return false;
      }
    }
    if (this.full) {
      const { seqA, seqB } = this;
      seqA.length = 0;
      for (let x = 0; x <= i; x++) seqA.push(A.jobs[x]);
      for (let x = j + 1; x < lb; x++) seqA.push(B.jobs[x]);
      seqB.length = 0;
      for (let x = 0; x <= j; x++) seqB.push(B.jobs[x]);
      for (let x = i + 1; x < la; x++) seqB.push(A.jobs[x]);
      if (!this.improves(A, B)) return false;
    }
    const tailA = A.jobs.splice(i + 1);
    const tailB = B.jobs.splice(j + 1);
    for (const x of tailB) A.jobs.push(x);
    for (const x of tailA) B.jobs.push(x);
    this.changed(sol, A.v, B.v);
    return true;
  }
}

/** Pair moves skip no position (the recreate's blinks are its own). */
const never = (): boolean => false;

/** Candidate sequence of an intra-route move (single-threaded search: one buffer). */
const scratch: number[] = [];
