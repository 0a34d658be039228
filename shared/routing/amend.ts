/**
 * Changing routes that are already on the road (issue 32, section 2): new parcels join them, or the
 * stops of a route that cannot run (a driver called in sick, a van broke down) move to the others.
 * What the drivers were told stays as it is unless a change pays for itself:
 * - the stops already done and the driver's next stop are not given here at all (the caller starts
 *   each route after them: `from`, `startAt`);
 * - the remaining stops keep their driver (their parcels are on that van) and their order;
 * - a parcel still at the depot (`atDepot`) reaches a van that has left only through a visit back
 *   to the depot (`depot`), made before the first such stop (where the van passes nearest) and
 *   priced like any leg;
 * - each route keeps its break (taken in whichever gap fits), its stop limit and its shift;
 * - each new stop goes where it costs the courier least (cheapest insertion, tightest window
 *   first): hours and kilometres at the office's rates, plus the balance term when the office wants
 *   work shared, so a stop piles onto a busy van only when that is cheaper than spreading;
 *   never making a stop late that was not, nor the van back after its shift;
 * - then a stop already on the route moves to another place on it only when that saves more than
 *   `movePenalty` seconds (a driver re-reading their day has a cost too);
 * - each van is priced at its own rates where it has them (`AmendRoute.costs`), else the office's;
 * - a driver on shift with no route yet is a route not opened (`opens`): it costs nothing while
 *   empty and its fixed cost plus its hours and kilometres once it has a stop, so it is opened only
 *   where that is the cheapest place for a parcel (or the only one);
 * - a collection still to make (`pickupFor`) stays on its route before the delivery it feeds; a new
 *   parcel still to collect is a pair of jobs (its collection names its delivery), placed together
 *   on one route, collected first;
 * - the load is followed along the route: the van carries what it left with (less each delivery),
 *   picks up what waits at the depot at its visit there, and each parcel it collects until it
 *   delivers it; the van's capacity bounds the load at every point, not the route's total.
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
  /** The parcel waits at the depot: a van that has left (`AmendRoute.depot`) must go back for it first. */
  atDepot?: boolean;
  /**
   * A collection: the parcel is then delivered at stop `pickupFor` of the same route, which must
   * stay after it. Among a route's own stops, one still to make; among the jobs, a new parcel still
   * to collect, placed together with its delivery (the job whose id is `pickupFor`). It carries no
   * demand: the delivery's is on the van from here to there.
   */
  pickupFor?: number;
}

/** A route's own rates: per second of its duration, per metre, and (for a route not opened yet) its fixed cost. */
export interface AmendCosts {
  perSecond: number;
  perMetre: number;
  fixed?: number;
}

/** A break still to take: `duration` seconds, starting inside `window`. */
export interface AmendBreak {
  duration: number;
  window: readonly [number, number];
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
  /**
   * The van's room, per dimension, for what it carries from `from` on (its changeable stops' parcels
   * on board, those it loads at the depot or collects); absent dimensions are unlimited.
   */
  capacity?: readonly number[];
  /** The changeable stops in the order the driver has them. */
  stops: readonly AmendStop[];
  /** What this van and its driver can do; a new stop needing a skill joins only a route that has it. */
  skills?: readonly string[];
  /** Where a van already on the road loads parcels still at the depot; absent: it has not left, they go on before it does. */
  depot?: number;
  /** The driver's break, when not taken yet; not taken when the route is done before its window opens. */
  break?: AmendBreak | null;
  /** Most changeable stops this route may have (the office's limit less the stops done and locked). */
  maxStops?: number;
  /** When the route really left (for balance by duration); default `startAt`. */
  departedAt?: number;
  /** Stops done or locked before `from` (for balance by stops). */
  doneStops?: number;
  /** This van's own rates; absent: the office's (`AmendInput.costs`). */
  costs?: AmendCosts;
  /**
   * Not opened yet (a driver on shift with no route): free while it has no stop; with one, its
   * `costs.fixed` is added. It starts at its depot (`from`), loaded before it leaves (no `depot`).
   */
  opens?: boolean;
}

export interface AmendInput {
  routes: readonly AmendRoute[];
  /** Stops to place: new parcels, or those of a route that cannot run. */
  jobs: readonly AmendStop[];
  travel: (from: number, to: number) => number;
  /** Metres between locations, for the per-km rate; absent: travel seconds stand in. */
  distance?: (from: number, to: number) => number;
  /** Seconds a move of an existing stop must save to be made. */
  movePenalty?: number;
  /** The courier's rates; absent (and no route's own): cost = travel seconds + seconds out (the historic measure). */
  costs?: AmendCosts;
  /** Added per route: weight x (route duration in s, or its stops)², so even shares cost least. */
  balance?: { by: 'duration' | 'stops'; weight: number } | null;
  /** Seconds at the depot to load the parcels of a reload visit. */
  reloadService?: number;
}

export interface AmendRouteResult {
  id: number;
  stops: number[];
  /** Per stop: arrival and start of service. */
  times: { arrive: number; begin: number }[];
  /** The visit back to the depot, made before `stops[before]` (at or before the first parcel it loads). */
  reload?: { before: number; arrive: number; depart: number; parcels: number };
  /** The break, taken on arrival at `stops[before]` (= stops.length: after the last stop, before the return). */
  break?: { before: number; start: number; end: number };
  back: number;
}

export interface AmendResult {
  routes: AmendRouteResult[];
  /** Jobs no route could take without making someone late, over capacity or past a shift, or that need a skill no route has. */
  unassigned: number[];
  /** Existing stops moved within their route because it paid. */
  moved: number[];
}

export const DEFAULT_MOVE_PENALTY_S = 300;
/** Loading a few parcels at the depot: parking, scanning, stowing. */
export const DEFAULT_RELOAD_S = 600;
/** Each move costs the driver a re-read; a handful per route is already a lot (and bounds the work). */
const MAX_MOVES_PER_ROUTE = 8;
/** Full evaluations tried per route and job, among the places the constant-time test lets through (cheapest first). */
const FULL_CHECKS = 4;
/**
 * Work allowed to the moves, counted in schedule steps (not in time, so the answer does not depend
 * on how busy the machine is): keeps a request well under the event-loop budget. Insertion itself
 * is not bounded by it.
 */
const IMPROVE_BUDGET = 400_000;

interface Timed {
  arrive: number;
  begin: number;
  depart: number;
}

/**
 * Arrival, start of service and departure of each stop, and when the van is back, on the plain
 * route (no break, no reload): every break or depot visit only makes things later, so what does not
 * fit here fits nowhere.
 */
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

/** The route with its depot visit before stop `reloadAt` (-1: none) and its break in gap `gap` (-1: none). */
interface Sim {
  times: Timed[];
  back: number;
  travelS: number;
  metres: number;
  reload?: { before: number; arrive: number; depart: number; parcels: number };
  brk?: { before: number; start: number; end: number };
}

function simulate(route: AmendRoute, stops: readonly AmendStop[], input: AmendInput, gap: number, reloadAt: number): Sim {
  const { travel } = input;
  const dist = input.distance ?? travel;
  let at = route.startAt;
  let here = route.from;
  let travelS = 0;
  let metres = 0;
  let reload: Sim['reload'];
  let brk: Sim['brk'];
  const pause = (before: number) => {
    const b = route.break!;
    const start = Math.max(at, b.window[0]);
    brk = { before, start, end: start + b.duration };
    at = brk.end;
  };
  const go = (to: number) => {
    const leg = travel(here, to);
    travelS += leg;
    metres += dist(here, to);
    at += leg;
    here = to;
  };
  const times = stops.map((s, i) => {
    if (i === reloadAt) {
      go(route.depot!);
      const arrive = at;
      at += input.reloadService ?? DEFAULT_RELOAD_S;
      reload = { before: i, arrive, depart: at, parcels: 0 };
    }
    go(s.location);
    const arrive = at;
    if (gap === i) pause(i);
    const begin = Math.max(at, s.window?.[0] ?? at);
    at = begin + s.service;
    return { arrive, begin, depart: at };
  });
  if (gap === stops.length) pause(stops.length);
  if (route.end != null) go(route.end);
  if (reload) for (const s of stops) if (s.atDepot) reload.parcels++;
  return { times, back: at, travelS, metres, reload, brk };
}

interface Working {
  route: AmendRoute;
  stops: AmendStop[];
  close: Map<number, number>;
  endBy: number;
  maxStops: number;
  /** The break still required (dropped when it fits nowhere even before any change). */
  brk: AmendBreak | null;
  /** Room per dimension: the van's capacity, or the route's peak load as the driver has it when that is higher. */
  cap: number[];
  cost: number;
  sim: Sim;
}

/**
 * Gaps where the break may go, from the plain schedule (each later one reached no earlier): from the
 * last reached by the window's opening to the last reached before it closes. Of those, only the
 * first, the last (which delays the fewest stops) and those with a wait to fill are tried: between
 * two such, any other gap ends the same or later.
 */
function breakGaps(w: Working, plain: Sim): number[] {
  const b = w.brk;
  if (!b) return [-1];
  const n = plain.times.length;
  const reach = (g: number) => (g < n ? plain.times[g].arrive : n ? plain.times[n - 1].depart : w.route.startAt);
  // Done (back) before the window opens: no break to take.
  if (plain.back <= b.window[0]) return [-1];
  let first = 0;
  while (first < n && reach(first + 1) <= b.window[0]) first++;
  let last = first;
  while (last < n && reach(last + 1) <= b.window[1]) last++;
  if (reach(first) > b.window[1]) return [first];
  const gaps = [first];
  for (let g = first + 1; g < last; g++) if (plain.times[g].begin > plain.times[g].arrive) gaps.push(g);
  if (last > first) gaps.push(last);
  return gaps;
}

/** The rates a route is priced at: its own, else the office's; none: the historic measure. */
const ratesOf = (route: AmendRoute, input: AmendInput): AmendCosts | undefined => route.costs ?? input.costs;

const courierCost = (w: Working, sim: Sim, stops: number, input: AmendInput): number => {
  // A route not opened costs nothing until it has a stop.
  if (w.route.opens && stops === 0) return 0;
  const duration = sim.back - w.route.startAt;
  const rates = ratesOf(w.route, input);
  let cost = rates ? rates.perSecond * duration + rates.perMetre * sim.metres : sim.travelS + duration;
  if (w.route.opens) cost += rates?.fixed ?? 0;
  const bal = input.balance;
  if (bal && bal.weight > 0) {
    const share = bal.by === 'duration' ? sim.back - (w.route.departedAt ?? w.route.startAt) : (w.route.doneStops ?? 0) + stops;
    cost += bal.weight * share * share;
  }
  return cost;
};

/** Within every limit: windows (as relaxed), the break's window, the shift's end. */
function fits(w: Working, stops: readonly AmendStop[], sim: Sim): boolean {
  if (sim.back > w.endBy + 1e-9) return false;
  if (w.brk && sim.brk && sim.brk.start > w.brk.window[1] + 1e-9) return false;
  for (let i = 0; i < stops.length; i++) {
    const close = w.close.get(stops[i].id) ?? stops[i].window?.[1] ?? Infinity;
    if (sim.times[i].begin > close + 1e-9) return false;
  }
  return true;
}

/** The cheapest way to run `stops` on this route (its break in the best gap), or null when none fits. `steps` counts the work. */
function evaluate(w: Working, stops: readonly AmendStop[], input: AmendInput, steps: { left: number }): { sim: Sim; cost: number } | null {
  if (stops.length > w.maxStops) return null;
  let best: { sim: Sim; cost: number } | null = null;
  for (const r of reloadPlaces(w.route, stops, input)) {
    if (w.cap.some((c) => c < Infinity) && !loadFits(w.cap, peakLoad(w.route, stops, r))) continue;
    const plain = simulate(w.route, stops, input, -1, r);
    steps.left -= stops.length + 1;
    for (const g of breakGaps(w, plain)) {
      const sim = g === -1 ? plain : simulate(w.route, stops, input, g, r);
      if (g !== -1) steps.left -= stops.length + 1;
      if (!fits(w, stops, sim)) continue;
      const cost = courierCost(w, sim, stops.length, input);
      if (!best || cost < best.cost - 1e-9) best = { sim, cost };
    }
  }
  return best;
}

/**
 * Where the depot visit may go: it must come before the first parcel still at the depot, and may
 * come earlier, where the way back passes closest to the depot (the van drops what it carries on the
 * way out, and fetches the new parcels when it is near). Both are tried.
 */
function reloadPlaces(route: AmendRoute, stops: readonly AmendStop[], input: AmendInput): number[] {
  const first = route.depot != null ? stops.findIndex((s) => s.atDepot) : -1;
  if (first <= 0) return [first];
  const depot = route.depot as number;
  let best = first;
  let bestDetour = Infinity;
  for (let g = 0; g <= first; g++) {
    const prev = g === 0 ? route.from : stops[g - 1].location;
    const detour = input.travel(prev, depot) + input.travel(depot, stops[g].location) - input.travel(prev, stops[g].location);
    if (detour < bestDetour - 1e-9) {
      bestDetour = detour;
      best = g;
    }
  }
  return best === first ? [first] : [best, first];
}

/**
 * Per stop, the latest its service may begin so that every later stop stays inside its limit and
 * the van inside its shift, on the plain route: whether a stop fits between two others is then a
 * constant-time necessary condition (the classic forward/backward slack of insertion heuristics);
 * the full evaluation (depot visit, break, cost) runs only on the places that pass it.
 */
interface Slack {
  begin: number[];
  depart: number[];
  latest: number[];
  back: number;
  /** All the waiting for windows: the most that later delays can be absorbed by. */
  waits: number;
}

function slackOf(w: Working, stops: readonly AmendStop[], travel: AmendInput['travel']): Slack {
  const { times, back } = amendSchedule(w.route, stops, travel);
  const n = stops.length;
  const latest = new Array<number>(n);
  let leave = w.endBy - (n && w.route.end != null ? travel(stops[n - 1].location, w.route.end) : 0);
  for (let i = n - 1; i >= 0; i--) {
    latest[i] = Math.min(w.close.get(stops[i].id) ?? Infinity, leave - stops[i].service);
    leave = i > 0 ? latest[i] - travel(stops[i - 1].location, stops[i].location) : 0;
  }
  const waits = times.reduce((sum, t) => sum + t.begin - t.arrive, 0);
  return { begin: times.map((t) => t.begin), depart: times.map((t) => t.depart), latest, back, waits };
}

/**
 * Travel and delay added by putting `job` before position `at` on the plain route, or null when it
 * cannot fit: on time, and back by the shift's end even with `more` seconds added that no wait can
 * absorb beyond the route's waits (the break it already takes, a first depot visit).
 */
function quickCost(
  w: Working,
  stops: readonly AmendStop[],
  sl: Slack,
  job: AmendStop,
  at: number,
  travel: AmendInput['travel'],
  more: number,
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
    const detour = into + out - travel(prev, next.location);
    if (more > 0 && sl.back + detour + more - sl.waits > w.endBy) return null;
    return detour + (nextBegin - sl.begin[at]);
  }
  const home = w.route.end != null ? travel(job.location, w.route.end) : 0;
  if (done + home > w.endBy) return null;
  // The break may also fill this stop's own wait.
  if (more > 0 && done + home + more - sl.waits - (begin - leave - into) > w.endBy) return null;
  const wasHome = w.route.end != null ? travel(prev, w.route.end) : 0;
  return into + home - wasHome + (done + home - sl.back);
}

/** The cheapest full placement of `job` in `stops` (skipping position `skip`), trying the FULL_CHECKS best quick places. */
function placeIn(
  w: Working,
  stops: readonly AmendStop[],
  job: AmendStop,
  input: AmendInput,
  steps: { left: number },
  skip = -1,
  more = 0,
): { stops: AmendStop[]; sim: Sim; cost: number } | null {
  const sl = slackOf(w, stops, input.travel);
  steps.left -= stops.length + 1;
  const quick: { at: number; cost: number }[] = [];
  // A parcel at the depot placed before the route's first one (or as its first) moves the depot visit: ranked with its detour.
  const firstAtDepot = w.route.depot != null && job.atDepot ? stops.findIndex((s) => s.atDepot) : -2;
  const [lo, hi] = pairBounds(stops, job);
  for (let at = lo; at <= hi; at++) {
    if (at === skip) continue;
    const c = quickCost(w, stops, sl, job, at, input.travel, more);
    if (c == null) continue;
    const depot = w.route.depot as number;
    const viaDepot =
      firstAtDepot !== -2 && (firstAtDepot === -1 || at <= firstAtDepot)
        ? input.travel(at === 0 ? w.route.from : stops[at - 1].location, depot) + input.travel(depot, job.location)
        : 0;
    quick.push({ at, cost: c + viaDepot });
  }
  quick.sort((a, b) => a.cost - b.cost || a.at - b.at);
  let best: { stops: AmendStop[]; sim: Sim; cost: number } | null = null;
  for (const q of quick.slice(0, FULL_CHECKS)) {
    const next = [...stops.slice(0, q.at), job, ...stops.slice(q.at)];
    const e = evaluate(w, next, input, steps);
    if (e && (!best || e.cost < best.cost - 1e-9)) best = { stops: next, ...e };
  }
  return best;
}

/**
 * The positions `job` may take in `stops` with every collection before its delivery: after its own
 * collection when it is a delivery, no later than its delivery when it is a collection.
 */
function pairBounds(stops: readonly AmendStop[], job: AmendStop): [number, number] {
  let lo = 0;
  let hi = stops.length;
  stops.forEach((s, i) => {
    if (s.pickupFor === job.id) lo = i + 1;
    if (job.pickupFor != null && s.id === job.pickupFor) hi = i;
  });
  return [lo, hi];
}

const addLoad = (load: number[], d: readonly number[] | undefined, sign = 1) => {
  d?.forEach((x, k) => {
    load[k] = (load[k] ?? 0) + sign * x;
  });
};
const loadFits = (cap: readonly number[], load: readonly number[]) => load.every((x, k) => x <= (cap[k] ?? Infinity) + 1e-9);
/** A parcel alone fits the van (the cheap filter; the load along the route is checked in `evaluate`). */
const roomFor = (w: Working, d: readonly number[] | undefined) => !d || loadFits(w.cap, d);

/**
 * The most the van carries at any point of `stops` (depot visit before `stops[reloadAt]`, -1: none),
 * per dimension: it leaves `from` with every delivery neither collected on the way nor fetched at
 * the depot visit, loads the depot's parcels there, and each collected parcel at its collection.
 */
function peakLoad(route: AmendRoute, stops: readonly AmendStop[], reloadAt: number): number[] {
  // Most routes collect nothing: no lookups to build then (this runs on every full evaluation).
  const paired = stops.some((s) => s.pickupFor != null);
  const collected = paired ? new Set(stops.flatMap((s) => (s.pickupFor != null ? [s.pickupFor] : []))) : null;
  const demandOf = paired ? new Map(stops.map((s) => [s.id, s.demand])) : null;
  const fetched = (s: AmendStop) => reloadAt >= 0 && route.depot != null && !!s.atDepot;
  const load: number[] = [];
  for (const s of stops) if (s.pickupFor == null && !collected?.has(s.id) && !fetched(s)) addLoad(load, s.demand);
  const peak = [...load];
  const top = () => load.forEach((x, k) => (peak[k] = Math.max(peak[k] ?? 0, x)));
  stops.forEach((s, i) => {
    if (i === reloadAt) {
      for (const d of stops) if (d.pickupFor == null && !collected?.has(d.id) && fetched(d)) addLoad(load, d.demand);
      top();
    }
    if (s.pickupFor != null) {
      addLoad(load, demandOf?.get(s.pickupFor));
      top();
    } else addLoad(load, s.demand, -1);
  });
  return peak;
}
const skilled = (w: Working, job: AmendStop) => !job.skills?.length || job.skills.every((s) => w.route.skills?.includes(s));

/**
 * The route as the driver has it, with limits that cannot get worse: a stop already late (or a
 * shift already overrun) cannot be fixed by an insertion, so its limit is the later of its window's
 * close and when service begins now; a break that fits nowhere even now is left to the driver.
 */
function working(route: AmendRoute, input: AmendInput): Working {
  // A van already fuller than its stated room (a wrong capacity, a parcel weighed late) is not made worse.
  const asIs = peakLoad(route, route.stops, reloadPlaces(route, route.stops, input).at(-1) as number);
  const cap = asIs.map((x, k) => Math.max(x, route.capacity?.[k] ?? Infinity));
  route.capacity?.forEach((c, k) => (cap[k] ??= c));
  const w: Working = {
    route,
    stops: [...route.stops],
    close: new Map(),
    endBy: Infinity,
    maxStops: Math.max(route.maxStops ?? Infinity, route.stops.length),
    brk: route.break ?? null,
    cap,
    cost: 0,
    sim: simulate(route, route.stops, input, -1, -1),
  };
  const reloadAt = reloadPlaces(route, route.stops, input)[0];
  const plain = simulate(route, route.stops, input, -1, reloadAt);
  const candidates = breakGaps(w, plain).map((g) => (g === -1 ? plain : simulate(route, route.stops, input, g, reloadAt)));
  const onTime = candidates.filter((s) => !s.brk || s.brk.start <= (w.brk?.window[1] ?? Infinity));
  if (!onTime.length) w.brk = null;
  const lateness = (s: Sim) => route.stops.reduce((sum, x, i) => sum + Math.max(0, s.times[i].begin - (x.window?.[1] ?? Infinity)), 0);
  const ref = onTime.length ? onTime.reduce((a, b) => (lateness(b) < lateness(a) ? b : a)) : plain;
  route.stops.forEach((s, i) => w.close.set(s.id, Math.max(s.window?.[1] ?? Infinity, ref.times[i].begin)));
  w.endBy = Math.max(route.endBy ?? Infinity, ref.back);
  const e = evaluate(w, w.stops, input, { left: Infinity });
  w.sim = e?.sim ?? ref;
  w.cost = e?.cost ?? courierCost(w, ref, w.stops.length, input);
  return w;
}

/** Collection places tried per route for a new pair, the cheapest by the constant-time test first. */
const PAIR_PICKUP_PLACES = 6;

/**
 * The cheapest full placement of a new pair: its collection at one of the PAIR_PICKUP_PLACES
 * cheapest places, then its delivery at its best place after it (`placeIn` keeps it after).
 */
function placePairIn(
  w: Working,
  pickup: AmendStop,
  job: AmendStop,
  input: AmendInput,
  steps: { left: number },
  more: number,
): { stops: AmendStop[]; sim: Sim; cost: number } | null {
  const sl = slackOf(w, w.stops, input.travel);
  const quick: { at: number; cost: number }[] = [];
  for (let at = 0; at <= w.stops.length; at++) {
    const c = quickCost(w, w.stops, sl, pickup, at, input.travel, more);
    if (c != null) quick.push({ at, cost: c });
  }
  quick.sort((a, b) => a.cost - b.cost || a.at - b.at);
  let best: { stops: AmendStop[]; sim: Sim; cost: number } | null = null;
  for (const q of quick.slice(0, PAIR_PICKUP_PLACES)) {
    const p = placeIn(w, [...w.stops.slice(0, q.at), pickup, ...w.stops.slice(q.at)], job, input, steps, -1, more);
    if (p && (!best || p.cost < best.cost - 1e-9)) best = p;
  }
  return best;
}

/** Cheapest feasible place for one stop (with its collection first, for a new pair) over all routes (in added cost), or null. */
function bestInsertion(
  ws: Working[],
  job: AmendStop,
  input: AmendInput,
  pickup?: AmendStop,
): { k: number; stops: AmendStop[]; sim: Sim; cost: number } | null {
  let best: { k: number; stops: AmendStop[]; sim: Sim; cost: number; delta: number } | null = null;
  const steps = { left: Infinity };
  const added = pickup ? 2 : 1;
  ws.forEach((w, k) => {
    if (!roomFor(w, job.demand) || !skilled(w, job) || w.stops.length + added > w.maxStops) return;
    // Time no wait can absorb beyond the route's own: the break it takes already (it still will, the van only gets back later), a first depot visit.
    const firstReload = w.route.depot != null && job.atDepot && !w.stops.some((s) => s.atDepot);
    const more = (w.sim.brk ? w.sim.brk.end - w.sim.brk.start : 0) + (firstReload ? (input.reloadService ?? DEFAULT_RELOAD_S) : 0);
    const p = pickup ? placePairIn(w, pickup, job, input, steps, more) : placeIn(w, w.stops, job, input, steps, -1, more);
    if (!p) return;
    const delta = p.cost - w.cost;
    if (!best || delta < best.delta - 1e-9) best = { k, ...p, delta };
  });
  return best;
}

/**
 * Moves an existing stop elsewhere on its route when that saves more than the penalty; repeats
 * while it pays (at most MAX_MOVES_PER_ROUTE times).
 */
function improve(w: Working, movable: ReadonlySet<number>, input: AmendInput, moved: Set<number>, budget: { left: number }): void {
  // The penalty is in seconds of the driver's time; priced like any other second of the route.
  const rates = ratesOf(w.route, input);
  const penalty = (input.movePenalty ?? DEFAULT_MOVE_PENALTY_S) * (rates ? rates.perSecond : 1);
  for (let round = 0; round < Math.min(w.stops.length, MAX_MOVES_PER_ROUTE); round++) {
    let best: { stops: AmendStop[]; sim: Sim; cost: number; gain: number; id: number } | null = null;
    for (let i = 0; i < w.stops.length; i++) {
      const stop = w.stops[i];
      if (!movable.has(stop.id)) continue;
      // A move's work is about FULL_CHECKS full evaluations; one that does not fit in what is left is not started.
      if (budget.left < (FULL_CHECKS + 2) * 2 * (w.stops.length + 1)) return;
      const rest = [...w.stops.slice(0, i), ...w.stops.slice(i + 1)];
      const p = placeIn(w, rest, stop, input, budget, i);
      if (!p) continue;
      // A stop moved once already costs nothing more to move again.
      const gain = w.cost - p.cost - (moved.has(stop.id) ? 0 : penalty);
      if (gain > 1e-9 && (!best || gain > best.gain)) best = { ...p, gain, id: stop.id };
    }
    if (!best) return;
    w.stops = best.stops;
    w.sim = best.sim;
    w.cost = best.cost;
    moved.add(best.id);
  }
}

/** Tightest first: the stop with the earliest closing window has the fewest places to go. */
const byUrgency = (a: AmendStop, b: AmendStop) => (a.window?.[1] ?? Infinity) - (b.window?.[1] ?? Infinity) || a.id - b.id;

export function amendRoutes(input: AmendInput): AmendResult {
  const ws = input.routes.map((route) => working(route, input));
  const unassigned = new Set<number>();
  // A new pair is placed as one: its delivery's urgency orders it, its collection comes along.
  const pickups = new Map(input.jobs.flatMap((j) => (j.pickupFor != null ? [[j.pickupFor, j] as const] : [])));
  for (const p of pickups.values())
    if (!input.jobs.some((j) => j.id === p.pickupFor && j.pickupFor == null)) throw new Error(`collection ${p.id} has no delivery job`);
  for (const job of input.jobs.filter((j) => j.pickupFor == null).sort(byUrgency)) {
    const pickup = pickups.get(job.id);
    const best = bestInsertion(ws, job, input, pickup);
    if (!best) {
      unassigned.add(job.id);
      if (pickup) unassigned.add(pickup.id);
      continue;
    }
    const w = ws[best.k];
    w.stops = best.stops;
    w.sim = best.sim;
    w.cost = best.cost;
    w.close.set(job.id, job.window?.[1] ?? Infinity);
    if (pickup) w.close.set(pickup.id, pickup.window?.[1] ?? Infinity);
  }
  // Only the routes that changed are reconsidered: the others stay exactly as the drivers have them.
  const moved = new Set<number>();
  const existing = new Set(input.routes.flatMap((r) => r.stops.map((s) => s.id)));
  const budget = { left: IMPROVE_BUDGET };
  for (const w of ws) {
    if (w.stops.length === w.route.stops.length) continue;
    improve(w, existing, input, moved, budget);
  }
  return {
    routes: ws.map((w) => ({
      id: w.route.id,
      stops: w.stops.map((s) => s.id),
      times: w.sim.times.map((t) => ({ arrive: t.arrive, begin: t.begin })),
      ...(w.sim.reload ? { reload: w.sim.reload } : {}),
      ...(w.sim.brk ? { break: w.sim.brk } : {}),
      back: w.sim.back,
    })),
    unassigned: input.jobs.map((j) => j.id).filter((id) => unassigned.has(id)),
    moved: [...moved],
  };
}
