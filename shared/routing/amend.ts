/**
 * Changing routes that are already on the road (issue 32, section 2): new parcels join them, or the
 * stops of a route that cannot run (a driver called in sick, a van broke down) move to the others.
 * What the drivers were told stays as it is unless a change pays for itself:
 * - the stops already done and the driver's next stop are not given here at all (the caller starts
 *   each route after them: `from`, `startAt`);
 * - the remaining stops keep their driver (their parcels are on that van) and their order;
 * - each new stop goes where it adds the least (cheapest insertion, tightest window first),
 *   never making a stop late that was not, nor the van back after its shift;
 * - then a stop already on the route moves to another place on it only when that saves more than
 *   `movePenalty` seconds (a driver re-reading their day has a cost too).
 * Plain data in and out; times in seconds on any one clock; `travel` between location indices.
 */

export interface AmendStop {
  id: number;
  location: number;
  /** Seconds at the door. */
  service: number;
  /** Service starts inside it; arriving early means waiting. */
  window?: readonly [number, number] | null;
  /** Per capacity dimension (kg, m³, parcels...). */
  demand?: readonly number[];
  /** What the van and driver must have (refrigerated, two-person...); none: any route. */
  skills?: readonly string[];
}

export interface AmendRoute {
  id: number;
  /** Where the changeable part starts (after the last locked stop, or the depot) and when the van leaves it. */
  from: number;
  startAt: number;
  /** Where the van returns; absent: the route ends at its last stop. */
  end?: number;
  /** Back at `end` (or done with the last stop) no later than this. */
  endBy?: number;
  /** Room left for the changeable stops, per dimension; absent dimensions are unlimited. */
  capacity?: readonly number[];
  /** The changeable stops in the order the driver has them. */
  stops: readonly AmendStop[];
  /** What this van and its driver can do; a new stop needing a skill joins only a route that has it. */
  skills?: readonly string[];
}

export interface AmendInput {
  routes: readonly AmendRoute[];
  /** Stops to place: new parcels, or those of a route that cannot run. */
  jobs: readonly AmendStop[];
  travel: (from: number, to: number) => number;
  /** Seconds a move of an existing stop must save to be made. */
  movePenalty?: number;
}

export interface AmendResult {
  routes: { id: number; stops: number[] }[];
  /** Jobs no route could take without making someone late, over capacity or past a shift, or that need a skill no route has. */
  unassigned: number[];
  /** Existing stops moved within their route because it paid. */
  moved: number[];
}

export const DEFAULT_MOVE_PENALTY_S = 300;
/** Each move costs the driver a re-read; a handful per route is already a lot (and bounds the work). */
const MAX_MOVES_PER_ROUTE = 8;
/**
 * Work allowed to the moves, counted in schedule steps and positions tried (not in time, so the
 * answer does not depend on how busy the machine is): about a million travel look-ups at most,
 * which keeps a request well under the event-loop budget. Insertion itself is not bounded by it.
 */
const IMPROVE_BUDGET = 250_000;

interface Timed {
  arrive: number;
  begin: number;
  depart: number;
}

/** Arrival, start of service and departure of each stop, and when the van is back. */
export function amendSchedule(
  route: AmendRoute,
  stops: readonly AmendStop[],
  travel: AmendInput['travel'],
): { times: Timed[]; back: number; travelS: number } {
  let at = route.startAt;
  let here = route.from;
  let travelS = 0;
  const times = stops.map((s) => {
    const leg = travel(here, s.location);
    travelS += leg;
    const arrive = at + leg;
    const begin = Math.max(arrive, s.window?.[0] ?? arrive);
    at = begin + s.service;
    here = s.location;
    return { arrive, begin, depart: at };
  });
  const home = route.end != null ? travel(here, route.end) : 0;
  return { times, back: at + home, travelS: travelS + home };
}

/**
 * A stop already late (or a shift already overrun) cannot be fixed by an insertion; it must only not
 * get worse: its limit is the later of its window's close and the time service begins now.
 */
function limits(
  route: AmendRoute,
  stops: readonly AmendStop[],
  sched: ReturnType<typeof amendSchedule>,
): { close: number[]; endBy: number } {
  return {
    close: stops.map((s, i) => Math.max(s.window?.[1] ?? Infinity, sched.times[i].begin)),
    endBy: Math.max(route.endBy ?? Infinity, sched.back),
  };
}

interface Working {
  route: AmendRoute;
  stops: AmendStop[];
  close: Map<number, number>;
  endBy: number;
  load: number[];
}

/**
 * A route's timing with, per stop, the latest its service may begin so that every later stop stays
 * inside its limit and the van inside its shift: with it, whether a stop fits between two others is
 * answered in constant time (the classic forward/backward slack of insertion heuristics).
 */
interface Slack {
  begin: number[];
  depart: number[];
  latest: number[];
  back: number;
  travelS: number;
}

function slackOf(w: Working, stops: readonly AmendStop[], travel: AmendInput['travel']): Slack {
  const { times, back, travelS } = amendSchedule(w.route, stops, travel);
  const n = stops.length;
  const latest = new Array<number>(n);
  let leave = w.endBy - (n && w.route.end != null ? travel(stops[n - 1].location, w.route.end) : 0);
  for (let i = n - 1; i >= 0; i--) {
    latest[i] = Math.min(w.close.get(stops[i].id) ?? Infinity, leave - stops[i].service);
    leave = i > 0 ? latest[i] - travel(stops[i - 1].location, stops[i].location) : 0;
  }
  return { begin: times.map((t) => t.begin), depart: times.map((t) => t.depart), latest, back, travelS };
}

/** The courier pays for kilometres and hours: travel plus the time the van is out. */
const costOf = (route: AmendRoute, s: { back: number; travelS: number }) => s.travelS + (s.back - route.startAt);

/**
 * Extra cost of putting `job` before position `at` (at = length: last), or null when it does not
 * fit. The time part is the delay pushed onto the next stop (or onto the return), an upper bound of
 * how much later the van is back: waits downstream may absorb some of it.
 */
function insertionCost(
  w: Working,
  stops: readonly AmendStop[],
  sl: Slack,
  job: AmendStop,
  at: number,
  travel: AmendInput['travel'],
): number | null {
  const prev = at === 0 ? w.route.from : stops[at - 1].location;
  const leave = at === 0 ? w.route.startAt : sl.depart[at - 1];
  const into = travel(prev, job.location);
  const begin = Math.max(leave + into, job.window?.[0] ?? -Infinity);
  if (begin > (w.close.get(job.id) ?? job.window?.[1] ?? Infinity)) return null;
  const done = begin + job.service;
  if (at < stops.length) {
    const next = stops[at];
    const out = travel(job.location, next.location);
    const nextBegin = Math.max(done + out, next.window?.[0] ?? -Infinity);
    if (nextBegin > sl.latest[at]) return null;
    return into + out - travel(prev, next.location) + (nextBegin - sl.begin[at]);
  }
  const home = w.route.end != null ? travel(job.location, w.route.end) : 0;
  if (done + home > w.endBy) return null;
  const wasHome = w.route.end != null ? travel(prev, w.route.end) : 0;
  return into + home - wasHome + (done + home - sl.back);
}

const addLoad = (load: number[], d: readonly number[] | undefined) => {
  d?.forEach((x, k) => {
    load[k] = (load[k] ?? 0) + x;
  });
};
const roomFor = (w: Working, d: readonly number[] | undefined) =>
  !d || d.every((x, k) => (w.load[k] ?? 0) + x <= (w.route.capacity?.[k] ?? Infinity) + 1e-9);
const skilled = (w: Working, job: AmendStop) => !job.skills?.length || job.skills.every((s) => w.route.skills?.includes(s));

/** Cheapest feasible place for one stop over all routes, or null: O(stops) constant-time checks. */
function bestInsertion(
  ws: Working[],
  slacks: Slack[],
  job: AmendStop,
  travel: AmendInput['travel'],
): { k: number; at: number; cost: number } | null {
  let best: { k: number; at: number; cost: number } | null = null;
  ws.forEach((w, k) => {
    if (!roomFor(w, job.demand) || !skilled(w, job)) return;
    for (let at = 0; at <= w.stops.length; at++) {
      const cost = insertionCost(w, w.stops, slacks[k], job, at, travel);
      if (cost != null && (!best || cost < best.cost - 1e-9)) best = { k, at, cost };
    }
  });
  return best;
}

/**
 * Moves an existing stop elsewhere on its route when that saves more than the penalty; repeats
 * while it pays (at most MAX_MOVES_PER_ROUTE times). O(stops²) per round.
 */
function improve(
  w: Working,
  movable: ReadonlySet<number>,
  penalty: number,
  travel: AmendInput['travel'],
  moved: Set<number>,
  budget: { left: number },
): void {
  for (let round = 0; round < Math.min(w.stops.length, MAX_MOVES_PER_ROUTE); round++) {
    // A round costs about stops²; one that does not fit in what is left is not started.
    const roundCost = w.stops.length * (2 * w.stops.length + 1);
    if (roundCost > budget.left) return;
    budget.left -= roundCost;
    const cur = costOf(w.route, amendSchedule(w.route, w.stops, travel));
    let best: { stops: AmendStop[]; gain: number; id: number } | null = null;
    for (let i = 0; i < w.stops.length; i++) {
      const stop = w.stops[i];
      if (!movable.has(stop.id)) continue;
      const rest = [...w.stops.slice(0, i), ...w.stops.slice(i + 1)];
      const sl = slackOf(w, rest, travel);
      const base = costOf(w.route, sl);
      for (let at = 0; at <= rest.length; at++) {
        if (at === i) continue;
        const extra = insertionCost(w, rest, sl, stop, at, travel);
        if (extra == null) continue;
        // A stop moved once already costs nothing more to move again.
        const gain = cur - (base + extra) - (moved.has(stop.id) ? 0 : penalty);
        if (gain > 1e-9 && (!best || gain > best.gain))
          best = { stops: [...rest.slice(0, at), stop, ...rest.slice(at)], gain, id: stop.id };
      }
    }
    if (!best) return;
    w.stops = best.stops;
    moved.add(best.id);
  }
}

/** Tightest first: the stop with the earliest closing window has the fewest places to go. */
const byUrgency = (a: AmendStop, b: AmendStop) => (a.window?.[1] ?? Infinity) - (b.window?.[1] ?? Infinity) || a.id - b.id;

export function amendRoutes(input: AmendInput): AmendResult {
  const { travel } = input;
  const penalty = input.movePenalty ?? DEFAULT_MOVE_PENALTY_S;
  const ws: Working[] = input.routes.map((route) => {
    const sched = amendSchedule(route, route.stops, travel);
    const lim = limits(route, route.stops, sched);
    const load: number[] = [];
    for (const s of route.stops) addLoad(load, s.demand);
    return { route, stops: [...route.stops], close: new Map(route.stops.map((s, i) => [s.id, lim.close[i]])), endBy: lim.endBy, load };
  });
  const unassigned: number[] = [];
  const slacks = ws.map((w) => slackOf(w, w.stops, travel));
  for (const job of [...input.jobs].sort(byUrgency)) {
    const best = bestInsertion(ws, slacks, job, travel);
    if (!best) {
      unassigned.push(job.id);
      continue;
    }
    const w = ws[best.k];
    w.stops.splice(best.at, 0, job);
    w.close.set(job.id, job.window?.[1] ?? Infinity);
    addLoad(w.load, job.demand);
    slacks[best.k] = slackOf(w, w.stops, travel);
  }
  // Only the routes that changed are reconsidered: the others stay exactly as the drivers have them.
  const moved = new Set<number>();
  const existing = new Set(input.routes.flatMap((r) => r.stops.map((s) => s.id)));
  const budget = { left: IMPROVE_BUDGET };
  for (const w of ws) {
    if (w.stops.length === w.route.stops.length) continue;
    improve(w, existing, penalty, travel, moved, budget);
  }
  return {
    routes: ws.map((w) => ({ id: w.route.id, stops: w.stops.map((s) => s.id) })),
    unassigned: input.jobs.map((j) => j.id).filter((id) => unassigned.includes(id)),
    moved: [...moved],
  };
}
