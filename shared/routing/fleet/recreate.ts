import type { Rng } from '../rng';
import { fits, type FleetModel } from './model';
import type { Solution } from './solution';

/** Chance to skip a position while inserting ("blinks" in SISR): cheap diversification. */
export const BLINK_RATE = 0.01;

export interface RecreateContext {
  m: FleetModel;
  rng: Rng;
  /** Distance from each job to its vehicle depots, for the "far first" / "close first" orders. */
  depotDistance: Float64Array;
  /** Per vehicle type: last insertion that tried an empty vehicle of that type. */
  typeStamp: Int32Array;
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

/** Greedy insertion with blinks of every absent job at its cheapest feasible place. */
export function recreate(ctx: RecreateContext, sol: Solution, touch: (r: number) => void): void {
  const { m, rng, typeStamp } = ctx;
  const absent = sol.absent;
  sortAbsent(ctx, absent);
  const left: number[] = [];
  const routes = sol.routes;
  for (const u of absent) {
    let best = Infinity;
    let bestR = -1;
    let bestP = -1;
    const stamp = ++ctx.stamp;
    for (let r = 0; r < routes.length; r++) {
      const route = routes[r];
      const len = route.jobs.length;
      if (len === 0) {
        const t = m.vType[r];
        if (typeStamp[t] === stamp) continue;
        typeStamp[t] = stamp;
      }
      if (!fits(m, r, route.load, u)) continue;
      ctx.work += len + 1;
      for (let p = 0; p <= len; p++) {
        if (rng.next() < BLINK_RATE) continue;
        const c = route.insertionCost(m, u, p);
        if (c < best) {
          best = c;
          bestR = r;
          bestP = p;
        }
      }
    }
    if (bestR < 0) left.push(u);
    else {
      sol.insert(u, bestR, bestP);
      ctx.work += routes[bestR].jobs.length;
      touch(bestR);
    }
  }
  sol.absent = left;
}
