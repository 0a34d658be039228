import { EPS, earliestStart, windowEnd, type FleetModel } from './model';

/**
 * The full evaluation of one route (issue 32): times, breaks, departure, duration and cost. The
 * O(1) tests of route.ts (windows and shift end, without breaks) are a necessary condition it
 * refines; with `rich` models every insertion the search keeps passes through here.
 *
 * Rules, which the independent checker in the tests replays:
 * - The schedule runs from the shift start: drive, wait for a window when early, serve.
 * - Each break is taken in a gap (on arrival at a stop, before its service, so it can fill the
 *   wait for the stop's window; or after the last stop, before the return) starting at the later
 *   of the moment the vehicle is there and its window's opening, and must start by the
 *   window's end; a break whose window opens at or after the route's end is not taken (so a break
 *   left out means every later one is too). Of all placements, the route takes the one that ends
 *   earliest, then the one with the latest departure below, then the first in gap order.
 * - Departure: the latest that keeps that end, i.e. the shift start delayed by as much as the
 *   waits absorb without pushing any service (or break) past the end of its window.
 * - Duration = end - departure, where end is the return (closed route) or the last service's end.
 * - Cost = fixed + perDistance x distance + perTime x duration (+ the balance term), 0 when empty.
 */
export interface RouteDetail {
  departure: number;
  end: number;
  duration: number;
  travel: number;
  distance: number;
  cost: number;
  arrivals: number[];
  starts: number[];
  breaks: { before: number; start: number; end: number }[];
}

/** Scratch for one model: placements and the lower-bound gap times. */
interface Scratch {
  gapTime: Float64Array;
  place: Int32Array;
  best: Int32Array;
}

const scratchOf = new WeakMap<FleetModel, Scratch>();

function scratch(m: FleetModel, len: number, nb: number): Scratch {
  let s = scratchOf.get(m);
  if (!s || s.gapTime.length < len + 1 || s.place.length < nb) {
    s = { gapTime: new Float64Array(Math.max(len + 1, 64)), place: new Int32Array(Math.max(nb, 4)), best: new Int32Array(Math.max(nb, 4)) };
    scratchOf.set(m, s);
  }
  return s;
}

let simEnd = 0;
let simShift = 0;

/**
 * One schedule for a placement (`place[i]` = gap of break i, len + 1 = not taken). Sets simEnd /
 * simShift (the departure delay); false when a window, the shift end or a break rule is broken.
 */
function simulate(
  m: FleetModel,
  v: number,
  seq: ArrayLike<number>,
  len: number,
  place: Int32Array,
  nb: number,
  detail: RouteDetail | null,
  from = m.shiftStart[v],
): boolean {
  const { d, n, loc, service } = m;
  const b0 = m.bOff[v];
  let t = from;
  let prev = m.vStart[v];
  let waits = 0;
  let shift = Infinity;
  let bi = 0;
  for (let g = 0; g <= len; g++) {
    const j = g < len ? seq[g] : -1;
    let arrive = t;
    if (j >= 0) {
      arrive = t + d[prev * n + loc[j]];
      t = arrive;
      if (detail) detail.arrivals.push(arrive);
    }
    // Breaks at gap g: on arrival at stop g before its service (so they fill the wait for its window), or before the return.
    while (bi < nb && place[bi] === g) {
      const lo = m.bLo[b0 + bi];
      const hi = m.bHi[b0 + bi];
      const bs = t > lo ? t : lo;
      if (bs > hi + EPS) return false;
      waits += bs - t;
      const room = hi - bs + waits;
      if (room < shift) shift = room;
      t = bs + m.bDur[b0 + bi];
      if (detail) detail.breaks.push({ before: g, start: bs, end: t });
      bi++;
    }
    if (j < 0) break;
    const s = earliestStart(m, j, t);
    if (s === Infinity) return false;
    waits += s - t;
    const room = windowEnd(m, j, s) - s + waits;
    if (room < shift) shift = room;
    if (detail) detail.starts.push(s);
    t = s + service[j];
    prev = loc[j];
  }
  const end = m.vEnd[v];
  if (end >= 0) t += d[prev * n + end];
  if (t > m.shiftEnd[v] + EPS) return false;
  for (let i = bi; i < nb; i++) if (m.bLo[b0 + i] < t - EPS) return false;
  if (waits < shift) shift = waits;
  if (t - (from + shift) > m.vMaxDuration[v] + EPS) return false;
  simEnd = t;
  simShift = shift;
  return true;
}

/**
 * Cost of vehicle v serving `seq[0..len)` in order, Infinity when infeasible (windows, shift,
 * breaks, maximum duration or stops, skills). With `detail`, fills it with the schedule.
 */
export function evaluateRoute(m: FleetModel, v: number, seq: ArrayLike<number>, len: number, detail: RouteDetail | null = null): number {
  if (len === 0) {
    if (detail) Object.assign(detail, { departure: m.shiftStart[v], end: m.shiftStart[v], duration: 0, travel: 0, distance: 0, cost: 0 });
    return 0;
  }
  if (len > m.vMaxStops[v]) return Infinity;
  const { d, dist, n, loc, service } = m;
  const nb = m.bOff[v + 1] - m.bOff[v];
  const sc = scratch(m, len, nb);
  const gapTime = sc.gapTime;
  const vs = m.vSkills[v];
  // Travel, distance, and the earliest time the vehicle reaches each gap without breaks (a
  // lower bound on it with them, so a break that cannot start by then never fits there).
  let t = m.shiftStart[v];
  let prev = m.vStart[v];
  let travel = 0;
  let distance = 0;
  for (let g = 0; g < len; g++) {
    const j = seq[g];
    const need = m.jSkills[j];
    if ((need & vs) >>> 0 !== need) return Infinity;
    const k = prev * n + loc[j];
    travel += d[k];
    distance += dist[k];
    gapTime[g] = t + d[k];
    const s = earliestStart(m, j, t + d[k]);
    if (s === Infinity) return Infinity;
    t = s + service[j];
    prev = loc[j];
  }
  gapTime[len] = t;
  if (m.vEnd[v] >= 0) {
    const k = prev * n + m.vEnd[v];
    travel += d[k];
    distance += dist[k];
  }
  m.counter.work += len;

  let bestEnd = Infinity;
  let bestShift = -Infinity;
  const place = sc.place;
  const best = sc.best;
  if (nb === 0) {
    if (simulate(m, v, seq, len, place, 0, null)) {
      bestEnd = simEnd;
      bestShift = simShift;
    }
  } else {
    const b0 = m.bOff[v];
    // Depth-first over placements, gaps in order, "not taken" last.
    const walk = (i: number, from: number): void => {
      if (i === nb) {
        m.counter.work += len;
        if (
          simulate(m, v, seq, len, place, nb, null) &&
          (simEnd < bestEnd - EPS || (simEnd < bestEnd + EPS && simShift > bestShift + EPS))
        ) {
          bestEnd = simEnd;
          bestShift = simShift;
          best.set(place.subarray(0, nb));
        }
        return;
      }
      if (from <= len) {
        const hi = m.bHi[b0 + i];
        for (let g = from; g <= len && gapTime[g] <= hi + EPS; g++) {
          place[i] = g;
          walk(i + 1, g);
        }
      }
      // Not taken: then neither is any later break.
      for (let k = i; k < nb; k++) place[k] = len + 1;
      walk(nb, len + 1);
    };
    walk(0, 0);
  }
  if (bestEnd === Infinity) return Infinity;
  const departure = m.shiftStart[v] + bestShift;
  const duration = bestEnd - departure;
  let cost = m.vFixed[v] + m.vPerDist[v] * distance + m.vPerTime[v] * duration;
  if (m.balanceBy === 1) cost += m.balanceWeight * duration * duration;
  else if (m.balanceBy === 2) cost += m.balanceWeight * len * len;
  if (detail) {
    detail.arrivals.length = 0;
    detail.starts.length = 0;
    detail.breaks.length = 0;
    // The schedule as driven: from the shifted departure (same end, waits moved to the start).
    simulate(m, v, seq, len, nb === 0 ? place : best, nb, detail, departure);
    Object.assign(detail, { departure, end: bestEnd, duration, travel, distance, cost });
  }
  return cost;
}

export function emptyDetail(): RouteDetail {
  return { departure: 0, end: 0, duration: 0, travel: 0, distance: 0, cost: 0, arrivals: [], starts: [], breaks: [] };
}
