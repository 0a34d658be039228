import type { Rng } from '../rng';
import { EPS, fits, skilled, type FleetModel } from './model';
import { pairAt } from './route';
import type { Solution } from './solution';

/** An insertion lists at least this many routes (when the neighbour list reaches them). */
const MIN_ROUTES = 3;

/** Chance to skip a position while inserting ("blinks" in SISR): cheap diversification. */
export const BLINK_RATE = 0.01;

export interface RecreateContext {
  m: FleetModel;
  rng: Rng;
  /** Distance from each job to its vehicle depots, for the "far first" / "close first" orders. */
  depotDistance: Float64Array;
  /** Per vehicle type: an empty vehicle of that type, or -1. */
  emptyOf: Int32Array;
  /** Per route: last insertion that listed it as a candidate. */
  routeStamp: Int32Array;
  /** Nearest jobs first, per job. */
  adj: Int32Array[];
  /** How many nearest jobs' routes an insertion tries. */
  near: number;
  stamp: number;
  /** Work counter (positions evaluated), the search's deterministic clock. */
  work: number;
}

function sortAbsent(ctx: RecreateContext, absent: number[]): void {
  const { rng, m, depotDistance } = ctx;
  const x = rng.next() * 11;
  if (x < 4) {
    for (let i = absent.length - 1; i > 0; i--) {
      const k = rng.int(i + 1);
      const t = absent[i];
      absent[i] = absent[k];
      absent[k] = t;
    }
  } else if (x < 8) {
    const D = m.D;
    const total = (j: number): number => {
      let s = 0;
      for (let q = 0; q < D; q++) s += m.demand[j * D + q];
      return s;
    };
    absent.sort((a, b) => total(b) - total(a) || a - b);
  } else if (x < 10) absent.sort((a, b) => depotDistance[b] - depotDistance[a] || a - b);
  else absent.sort((a, b) => depotDistance[a] - depotDistance[b] || a - b);
}

/** The next empty vehicle of type t after `taken` gets its first job. */
function findEmpty(ctx: RecreateContext, sol: Solution, t: number, taken: number): void {
  ctx.emptyOf[t] = -1;
  for (let r = taken + 1; r < sol.routes.length; r++) {
    if (ctx.m.vType[r] === t && sol.routes[r].jobs.length === 0) {
      ctx.emptyOf[t] = r;
      return;
    }
  }
}

/** Positions until the next blink: geometric, so one random number covers ~1/BLINK_RATE positions. */
function blinkGap(rng: Rng): number {
  return Math.floor(Math.log(1 - rng.next()) / LOG_KEEP);
}
const LOG_KEEP = Math.log(1 - BLINK_RATE);

/**
 * Greedy insertion with blinks of every absent job at its cheapest feasible place. Only routes
 * that serve one of the job's nearest neighbours (plus one empty vehicle per type) are tried:
 * the cheapest place is almost always next to a near job, and it keeps big plans fast. A
 * pickup-and-delivery pair goes in together at its pickup's turn: the best pickup place with the
 * best delivery place after it (Route.pairInsertion), in a route near either half.
 */
export function recreate(ctx: RecreateContext, sol: Solution, touch: (r: number) => void): void {
  const routes = sol.routes;
  const { m, rng, emptyOf, routeStamp, adj, near } = ctx;
  const absent = sol.absent;
  if (absent.length === 0) return;
  sortAbsent(ctx, absent);
  emptyOf.fill(-1);
  for (let r = routes.length - 1; r >= 0; r--) if (routes[r].jobs.length === 0) emptyOf[m.vType[r]] = r;
  const left: number[] = [];
  const routeOf = sol.routeOf;
  const candidates: number[] = [];
  let gap = blinkGap(rng);
  const skip = (): boolean => {
    if (gap-- === 0) {
      gap = blinkGap(rng);
      return true;
    }
    return false;
  };
  const { hasPairs, role, partner, service } = m;
  for (const u of absent) {
    // A pair goes in as one, when its pickup's turn comes.
    if (hasPairs && role[u] === 2) continue;
    const b = hasPairs && role[u] === 1 ? partner[u] : -1;
    const close = m.wHi[m.wOff[u + 1] - 1] + EPS;
    let best = Infinity;
    let bestR = -1;
    let bestP = -1;
    let bestQ = -1;
    const stamp = ++ctx.stamp;
    candidates.length = 0;
    for (let half = 0; half < (b >= 0 ? 2 : 1); half++) {
      const list = adj[half === 0 ? u : b];
      const k = Math.min(near, list.length);
      const found = candidates.length;
      // The nearest jobs' routes, and farther ones until MIN_ROUTES distinct routes are listed: in
      // a cluster served by one long route, every near job is on that route and the job could
      // never move to another.
      for (let i = 0; i < list.length && (i < k || candidates.length - found < MIN_ROUTES); i++) {
        const r = routeOf[list[i]];
        if (r >= 0 && routeStamp[r] !== stamp) {
          routeStamp[r] = stamp;
          candidates.push(r);
        }
      }
    }
    for (let t = 0; t < emptyOf.length; t++) if (emptyOf[t] >= 0) candidates.push(emptyOf[t]);
    for (let pass = 0; pass < 2 && bestR < 0; pass++) {
      if (pass === 1) {
        // Nothing near fits (a mixed fleet: only a far-away van is big enough): try every route.
        candidates.length = 0;
        for (let r = 0; r < routes.length; r++) if (routeStamp[r] !== stamp && routes[r].jobs.length > 0) candidates.push(r);
      }
      for (const r of candidates) {
        const route = routes[r];
        const len = route.jobs.length;
        if (b >= 0) {
          if (!skilled(m, r, u) || !skilled(m, r, b) || len + 2 > m.vMaxStops[r]) continue;
          const before = pairAt.work;
          const c = route.pairInsertion(m, u, b, skip);
          ctx.work += pairAt.work - before;
          if (c < best) {
            best = c;
            bestR = r;
            bestP = pairAt.p;
            bestQ = pairAt.q;
          }
          continue;
        }
        if (!fits(m, r, route.load, u) || !skilled(m, r, u)) continue;
        if (len >= m.vMaxStops[r]) continue;
        // Work counts every place of the route, tried or cut off below, so the budget's CPU stays put.
        ctx.work += len + 1;
        const early = route.early;
        const rj = route.jobs;
        for (let p = 0; p <= len; p++) {
          // Departures only grow along a route (waiting allowed, travel non-negative): once the
          // stop before p is left after u's last window has closed, no later place can serve u.
          if (p > 0 && early[p - 1] + service[rj[p - 1]] > close) break;
          if (gap-- === 0) {
            gap = blinkGap(rng);
            continue;
          }
          if (hasPairs && !route.fitsAt(m, u, p)) continue;
          const c = route.insertionCost(m, u, p);
          if (c < best) {
            best = c;
            bestR = r;
            bestP = p;
          }
        }
      }
    }
    // A job with a penalty stays out when serving it costs more than leaving it out.
    const penalty = b >= 0 ? m.penalty[u] + m.penalty[b] : m.penalty[u];
    if (bestR < 0 || best >= penalty) {
      left.push(u);
      if (b >= 0) left.push(b);
    } else {
      if (routes[bestR].jobs.length === 0) findEmpty(ctx, sol, m.vType[bestR], bestR);
      if (b >= 0) sol.insertPair(u, b, bestR, bestP, bestQ);
      else sol.insert(u, bestR, bestP);
      ctx.work += routes[bestR].jobs.length;
      touch(bestR);
    }
  }
  sol.absent = left;
}
