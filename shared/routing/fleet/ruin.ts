import type { Rng } from '../rng';
import type { Solution } from './solution';

/**
 * SISR ruin (Christiaens & Vanden Berghe, "Slack Induction by String Removals", 2020): remove
 * a few strings of consecutive stops from routes that lie near a random seed job, so the removed
 * jobs are close in space and the routes around them get slack to be rebuilt differently. The
 * other half of a pickup-and-delivery pair leaves with its half.
 */
export interface RuinParams {
  /** Mean number of jobs removed. */
  avgRemoved: number;
  /** Longest string. */
  maxString: number;
  /** Probability of a split string (keeps a middle part in place). */
  splitRate: number;
  /** Per-step chance to keep one more stop in place inside a split string. */
  splitDepth: number;
  /**
   * Chance that a ruin empties the route with the fewest stops instead: the recreate then either
   * fits its jobs into the other routes (one vehicle fewer) or opens one again. Strings alone
   * rarely free a whole route, and a plan one vehicle above the optimum's count stays trapped
   * there (issue 32: Li & Lim lrc201, Solomon RC104, RC101).
   */
  routeRate: number;
}

export const RUIN: RuinParams = { avgRemoved: 10, maxString: 10, splitRate: 0.5, splitDepth: 0.01, routeRate: 0.05 };

/** Removes strings; appends removed jobs to `sol.absent` and calls `touch(r)` for each route changed. */
export function ruin(sol: Solution, adj: Int32Array[], rng: Rng, p: RuinParams, touch: (r: number) => void): void {
  const { routes, routeOf, posOf } = sol;
  let served = 0;
  let used = 0;
  for (const r of routes) {
    if (r.jobs.length > 0) {
      served += r.jobs.length;
      used++;
    }
  }
  if (served === 0) return;
  if (p.routeRate > 0 && rng.next() < p.routeRate) {
    let best = -1;
    for (let r = 0; r < routes.length; r++) {
      const n = routes[r].jobs.length;
      if (n > 0 && (best < 0 || n < routes[best].jobs.length)) best = r;
    }
    for (const j of routes[best].jobs) {
      routeOf[j] = -1;
      posOf[j] = -1;
      sol.absent.push(j);
    }
    routes[best].jobs.length = 0;
    touch(best);
    return;
  }
  const lsMax = Math.min(p.maxString, served / used);
  const ksMax = (4 * p.avgRemoved) / (1 + lsMax) - 1;
  const ks = Math.floor(rng.next() * ksMax) + 1;
  // Seed: a random served job.
  let seed = -1;
  const J = routeOf.length;
  for (let tries = 0; tries < 4 * J && seed < 0; tries++) {
    const j = rng.int(J);
    if (routeOf[j] >= 0) seed = j;
  }
  if (seed < 0) return;
  const ruined = new Set<number>();
  const list = adj[seed];
  for (let i = -1; i < list.length && ruined.size < ks; i++) {
    const c = i < 0 ? seed : list[i];
    const r = routeOf[c];
    if (r < 0 || ruined.has(r)) continue;
    const jobs = routes[r].jobs;
    const len = jobs.length;
    const lMax = Math.min(len, lsMax);
    const l = Math.floor(rng.next() * lMax) + 1;
    const pos = posOf[c];
    let removed: number[];
    if (l === len || rng.next() >= p.splitRate) {
      // A string of l stops containing c.
      const lo = Math.max(0, pos - l + 1);
      const hi = Math.min(pos, len - l);
      const a = lo + rng.int(hi - lo + 1);
      removed = jobs.splice(a, l);
    } else {
      // A string of l + m stops containing c, of which m consecutive ones stay.
      let m = 1;
      while (l + m < len && rng.next() < p.splitDepth) m++;
      const total = l + m;
      const lo = Math.max(0, pos - total + 1);
      const hi = Math.min(pos, len - total);
      const a = lo + rng.int(hi - lo + 1);
      const keepAt = rng.int(l + 1);
      const segment = jobs.splice(a, total);
      const kept = segment.splice(keepAt, m);
      jobs.splice(a, 0, ...kept);
      removed = segment;
    }
    for (const j of removed) routeOf[j] = -1;
    if (sol.m.hasPairs) {
      // A pair leaves together: the other half of each removed pair goes too.
      const partner = sol.m.partner;
      for (let i = 0, e = removed.length; i < e; i++) {
        const o = partner[removed[i]];
        if (o >= 0 && routeOf[o] === r) {
          routeOf[o] = -1;
          removed.push(o);
          jobs.splice(jobs.indexOf(o), 1);
        }
      }
    }
    for (const j of removed) {
      routeOf[j] = -1;
      posOf[j] = -1;
      sol.absent.push(j);
    }
    ruined.add(r);
    touch(r);
  }
}
