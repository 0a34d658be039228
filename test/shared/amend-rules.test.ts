import { describe, expect, it } from 'vitest';
import {
  amendRoutes,
  DEFAULT_RELOAD_S,
  type AmendInput,
  type AmendResult,
  type AmendRoute,
  type AmendStop,
} from '../../shared/routing/amend';
import { createRng } from '../../shared/routing/rng';

/**
 * The day after the plan with the rules a real day has (issue 32, section 2): a parcel still at
 * the depot reaches a van on the road only through a visit back there, each route keeps its break
 * and limits, and work spreads when the courier's cost says so. Every answer is replayed by
 * `replay`, written apart from amend.ts.
 */

/** Places on a plane, 1 unit = 1 km; 60 s per km; metres = 1000 per km. */
type P = [number, number];
const km = (a: P, b: P) => Math.hypot(a[0] - b[0], a[1] - b[1]);

interface Case {
  points: P[];
  routes: AmendRoute[];
  jobs: AmendStop[];
  extra?: Partial<AmendInput>;
}

const inputOf = (c: Case): AmendInput => ({
  routes: c.routes,
  jobs: c.jobs,
  travel: (a, b) => km(c.points[a], c.points[b]) * 60,
  distance: (a, b) => km(c.points[a], c.points[b]) * 1000,
  ...c.extra,
});

/**
 * An independent check of each route of an answer: every job once, load within room, stop limit,
 * windows (a stop on time before stays on time), the break inside its window and long enough, the
 * shift's end, and a depot visit at or before the first parcel still at the depot on a van that has left;
 * the times the answer gives are those this walk finds.
 */
function replay(c: Case, r: AmendResult): void {
  const input = inputOf(c);
  const byId = new Map([...c.jobs, ...c.routes.flatMap((x) => x.stops)].map((s) => [s.id, s]));
  const seen = [...r.routes.flatMap((x) => x.stops), ...r.unassigned].sort((a, b) => a - b);
  expect(seen).toEqual([...byId.keys()].sort((a, b) => a - b));
  // A pair is placed whole or not at all.
  for (const id of r.unassigned) {
    const s = byId.get(id)!;
    if (s.pickupFor != null) expect(r.unassigned).toContain(s.pickupFor);
    else if (byId.has(-id) && byId.get(-id)!.pickupFor === id) expect(r.unassigned).toContain(-id);
  }
  for (const out of r.routes) {
    const route = c.routes.find((x) => x.id === out.id)!;
    const stops = out.stops.map((id) => byId.get(id)!);
    // Stops it had stay on it.
    for (const s of route.stops) expect(out.stops).toContain(s.id);
    // A collection still to make stays on its route, before the delivery it feeds.
    stops.forEach((s, i) => {
      if (s.pickupFor != null) expect(out.stops.indexOf(s.pickupFor), `collection ${s.id} before its delivery`).toBeGreaterThan(i);
    });
    if (route.maxStops != null) expect(stops.length).toBeLessThanOrEqual(Math.max(route.maxStops, route.stops.length));
    // The load along the route within room (or no worse than the route as the driver had it).
    const room = (route.capacity ?? []).map((x, k) => Math.max(x, peakOf(route, route.stops, byId)[k] ?? 0));
    peakOf(route, stops, byId, out.reload?.before).forEach((x, k) => expect(x).toBeLessThanOrEqual((room[k] ?? Infinity) + 1e-9));
    const firstNew = stops.findIndex((s) => s.atDepot);
    if (route.depot != null && firstNew >= 0) {
      expect(out.reload?.before).toBeLessThanOrEqual(firstNew);
      expect(out.reload?.parcels).toBe(stops.filter((s) => s.atDepot).length);
    } else expect(out.reload).toBeUndefined();
    let t = route.startAt;
    let here = route.from;
    stops.forEach((s, i) => {
      if (out.reload?.before === i) {
        t += input.travel(here, route.depot!);
        here = route.depot!;
        expect(out.reload.arrive).toBeCloseTo(t, 6);
        t += DEFAULT_RELOAD_S;
      }
      t += input.travel(here, s.location);
      here = s.location;
      expect(out.times[i].arrive).toBeCloseTo(t, 6);
      if (out.break?.before === i) {
        expect(out.break.start).toBeGreaterThanOrEqual(t - 1e-6);
        t = out.break.end;
      }
      t = Math.max(t, s.window?.[0] ?? t);
      expect(out.times[i].begin).toBeCloseTo(t, 6);
      const wasOnTime = !route.stops.some((x) => x.id === s.id) || onTimeBefore(c, route, s.id);
      if (wasOnTime) expect(t).toBeLessThanOrEqual((s.window?.[1] ?? Infinity) + 1e-6);
      t += s.service;
    });
    if (out.break?.before === stops.length) {
      expect(out.break.start).toBeGreaterThanOrEqual(t - 1e-6);
      t = out.break.end;
    }
    if (route.end != null) t += input.travel(here, route.end);
    expect(out.back).toBeCloseTo(t, 6);
    if (route.endBy != null) expect(t).toBeLessThanOrEqual(route.endBy + 1e-6);
    const b = route.break;
    if (b && out.back > b.window[0] && out.stops.length > route.stops.length) {
      expect(out.break, `route ${route.id} keeps its break`).toBeDefined();
      expect(out.break!.end - out.break!.start).toBe(b.duration);
      expect(out.break!.start).toBeGreaterThanOrEqual(b.window[0]);
      expect(out.break!.start).toBeLessThanOrEqual(b.window[1] + 1e-6);
    }
  }
}

/**
 * The most the van carries along `stops`: it leaves with every delivery it neither collects on the
 * way nor fetches at the depot visit (before `reloadAt`; default: the first parcel at the depot).
 */
function peakOf(route: AmendRoute, stops: readonly AmendStop[], byId: Map<number, AmendStop>, reloadAt?: number): number[] {
  const firstNew = route.depot != null ? stops.findIndex((s) => s.atDepot) : -1;
  const visit = reloadAt ?? firstNew;
  const collectedHere = new Set(stops.filter((s) => s.pickupFor != null).map((s) => s.pickupFor));
  const atVisit = (s: AmendStop) => visit >= 0 && route.depot != null && !!s.atDepot;
  const onBoard = stops.filter((s) => s.pickupFor == null && !collectedHere.has(s.id));
  let load = onBoard.filter((s) => !atVisit(s)).reduce<number[]>((l, s) => (s.demand ?? []).map((d, k) => d + (l[k] ?? 0)), []);
  let peak = [...load];
  const add = (d: readonly number[] | undefined, sign: number) => {
    load = (d ?? []).map((x, k) => (load[k] ?? 0) + sign * x).concat(load.slice((d ?? []).length));
    peak = load.map((x, k) => Math.max(x, peak[k] ?? 0));
  };
  stops.forEach((s, i) => {
    if (i === visit) for (const d of onBoard.filter(atVisit)) add(d.demand, 1);
    if (s.pickupFor != null) add(byId.get(s.pickupFor)?.demand, 1);
    else add(s.demand, -1);
  });
  return peak;
}

/** Whether stop `id` met its window on the route as given (no break, no reload: the tests' routes start on time). */
function onTimeBefore(c: Case, route: AmendRoute, id: number): boolean {
  const input = inputOf(c);
  let t = route.startAt;
  let here = route.from;
  for (const s of route.stops) {
    t = Math.max(t + input.travel(here, s.location), s.window?.[0] ?? 0);
    here = s.location;
    if (s.id === id) return t <= (s.window?.[1] ?? Infinity);
    t += s.service;
  }
  return true;
}

const stop = (id: number, location: number, extra: Partial<AmendStop> = {}): AmendStop => ({ id, location, service: 120, ...extra });

describe('amendRoutes: parcels that arrive after the vans left', () => {
  it('sends a van on the road back to the depot before its first new stop, and prices that trip', () => {
    // Depot at 0; the van is at (10,0) at 11:00 with two stops left further east; a new parcel at (12,0).
    const c: Case = {
      points: [
        [0, 0],
        [10, 0],
        [12, 0],
        [14, 0],
        [11, 0],
      ],
      routes: [{ id: 1, from: 1, startAt: 39_600, end: 0, depot: 0, stops: [stop(11, 2), stop(12, 3)] }],
      jobs: [stop(99, 4, { atDepot: true })],
    };
    const r = amendRoutes(inputOf(c));
    replay(c, r);
    const out = r.routes[0];
    // Back to the depot (10 km) and out again: the new stop goes where the trip hurts least, after the van has dropped what it carries on the way.
    expect(out.reload).toBeDefined();
    expect(out.back).toBeGreaterThan(39_600 + (10 + 14 + 14) * 60);
    // Without the depot visit (the parcel is on the van), the same stop is a small detour only.
    const onVan = amendRoutes(inputOf({ ...c, jobs: [stop(99, 4)] }));
    expect(onVan.routes[0].reload).toBeUndefined();
    expect(onVan.routes[0].back).toBeLessThan(out.back);
  });

  it('gives a parcel at the depot to a van still there before one on the road that must come back for it', () => {
    const c: Case = {
      points: [
        [0, 0],
        [8, 0],
        [9, 0],
        [7, 0],
      ],
      routes: [
        // On the road at 8 km with one stop left beyond.
        { id: 1, from: 1, startAt: 39_600, end: 0, depot: 0, stops: [stop(11, 2)] },
        // Not left yet: its parcels are loaded before it goes (no `depot`).
        { id: 2, from: 0, startAt: 39_600, end: 0, stops: [stop(21, 2)] },
      ],
      jobs: [stop(99, 3, { atDepot: true })],
    };
    const r = amendRoutes(inputOf(c));
    replay(c, r);
    expect(r.routes.find((x) => x.id === 2)!.stops).toContain(99);
  });

  it("keeps each route's break inside its window, and will not insert what would push it out", () => {
    // A 30-minute break to start between 12:00 and 12:30 (43_200..45_000); the van is out from 11:00.
    const brk = { duration: 1800, window: [43_200, 45_000] as const };
    const points: P[] = [[0, 0], ...Array.from({ length: 12 }, (_, i): P => [i + 1, 0])];
    const route: AmendRoute = {
      id: 1,
      from: 0,
      startAt: 39_600,
      end: 0,
      endBy: 39_600 + 6 * 3600,
      break: brk,
      stops: [stop(11, 2, { service: 900 }), stop(12, 4, { service: 900 }), stop(13, 6, { service: 900 }), stop(14, 8, { service: 900 })],
    };
    const c: Case = { points, routes: [route], jobs: [stop(91, 3, { service: 900 }), stop(92, 10, { service: 900 })] };
    const r = amendRoutes(inputOf(c));
    replay(c, r);
    expect(r.routes[0].break).toBeDefined();
    expect(r.unassigned).toEqual([]);
    // An hour's stop at 12 km fits the shift (back 13:24 of 13:30) only without the break: refused.
    const tight: Case = { ...c, routes: [{ ...route, endBy: 39_600 + 9000 }], jobs: [stop(93, 12, { service: 3600 })] };
    const t = amendRoutes(inputOf(tight));
    replay(tight, t);
    expect(t.unassigned).toEqual([93]);
  });

  it('spreads ten parcels over the drivers when balance or the stop limit says so, and piles them when that is cheapest', () => {
    // Ten parcels in the south (around (0,-20)); route 1 already works there, route 2 is in the centre with one stop.
    const points: P[] = [[0, 0], [0, -18], [2, 0], ...Array.from({ length: 10 }, (_, i): P => [i % 5, -20 - Math.floor(i / 5)])];
    const routes: AmendRoute[] = [
      { id: 1, from: 1, startAt: 39_600, end: 0, stops: [stop(11, 1)] },
      { id: 2, from: 2, startAt: 39_600, end: 0, stops: [stop(21, 2)] },
    ];
    const jobs = Array.from({ length: 10 }, (_, i) => stop(100 + i, 3 + i));
    const costs = { perSecond: 40 / 3600, perMetre: 0.5 / 1000 };
    const piled: Case = { points, routes, jobs, extra: { costs } };
    const p = amendRoutes(inputOf(piled));
    replay(piled, p);
    expect(p.routes.find((x) => x.id === 1)!.stops).toHaveLength(11);
    // The office wants stops shared: the same parcels go to both drivers.
    const shared: Case = { ...piled, extra: { costs, balance: { by: 'stops', weight: 40 / 6 } } };
    const s = amendRoutes(inputOf(shared));
    replay(shared, s);
    const counts = s.routes.map((x) => x.stops.length).sort();
    expect(counts[0]).toBeGreaterThanOrEqual(4);
    // A stop limit of 6 caps route 1; the rest go to route 2.
    const capped: Case = { ...piled, routes: routes.map((x) => ({ ...x, maxStops: 6 })) };
    const m = amendRoutes(inputOf(capped));
    replay(capped, m);
    expect(m.routes.map((x) => x.stops.length)).toEqual([6, 6]);
    expect(m.unassigned).toEqual([]);
  });

  it('passes the independent check on random days (reloads, breaks, windows, limits, capacity)', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rng = createRng(seed);
      const rnd = () => rng.next();
      const points: P[] = Array.from({ length: 40 }, () => [rnd() * 30 - 15, rnd() * 30 - 15]);
      points[0] = [0, 0];
      let id = 1;
      const routes: AmendRoute[] = Array.from({ length: 1 + Math.floor(rnd() * 4) }, (_, k) => {
        const n = Math.floor(rnd() * 8);
        const start = 36_000 + Math.floor(rnd() * 7200);
        return {
          id: k + 1,
          from: 1 + Math.floor(rnd() * 39),
          startAt: start,
          end: 0,
          endBy: start + 4 * 3600 + Math.floor(rnd() * 4 * 3600),
          capacity: [6 + Math.floor(rnd() * 10)],
          ...(rnd() < 0.7 ? { depot: 0 } : {}),
          ...(rnd() < 0.6 ? { break: { duration: 1800, window: [start + 3600, start + 3600 + Math.floor(rnd() * 5400)] as const } } : {}),
          ...(rnd() < 0.3 ? { maxStops: 8 } : {}),
          stops: withPair(
            Array.from({ length: n }, () => stop(id++, 1 + Math.floor(rnd() * 39), { demand: [1] })),
            rnd() < 0.5 ? 1 + Math.floor(rnd() * 39) : null,
          ),
        };
      });
      const jobs = Array.from({ length: Math.floor(rnd() * 14) }, () => {
        const open = 36_000 + Math.floor(rnd() * 20_000);
        const collect = rnd() < 0.3;
        const job = stop(1000 + id++, 1 + Math.floor(rnd() * 39), {
          demand: [1 + Math.floor(rnd() * 3)],
          atDepot: !collect && rnd() < 0.8,
          ...(rnd() < 0.5 ? { window: [open, open + 3600 + Math.floor(rnd() * 7200)] as const } : {}),
        });
        // A new parcel still to collect: its collection is a job too, naming its delivery.
        return collect ? [stop(-job.id, 1 + Math.floor(rnd() * 39), { pickupFor: job.id }), job] : [job];
      }).flat();
      const c: Case = {
        points,
        routes,
        jobs,
        extra: rnd() < 0.5 ? { costs: { perSecond: 0.01, perMetre: 0.0005 }, balance: { by: 'duration', weight: 1e-6 } } : {},
      };
      replay(c, amendRoutes(inputOf(c)));
    }
  });
});

/** The route with a collection still to make (at `place`) before its last stop, when `place` is given. */
function withPair(stops: AmendStop[], place: number | null): AmendStop[] {
  if (place == null || !stops.length) return stops;
  const last = stops[stops.length - 1];
  const at = Math.floor(stops.length / 2);
  return [...stops.slice(0, at), stop(-last.id, place, { pickupFor: last.id }), ...stops.slice(at)];
}

/**
 * What a route costs the courier, written apart from amend.ts: its own rates (else the office's)
 * over its time out and its kilometres, plus its fixed cost when it is opened for the change; an
 * unopened route with no stop costs nothing. Plain routes (no break, no depot visit, no windows).
 */
function routeCost(c: Case, route: AmendRoute, ids: number[]): number {
  if (route.opens && !ids.length) return 0;
  const input = inputOf(c);
  const byId = new Map([...c.jobs, ...c.routes.flatMap((x) => x.stops)].map((s) => [s.id, s]));
  const rates = route.costs ?? input.costs!;
  let t = route.startAt;
  let m = 0;
  let here = route.from;
  for (const id of ids) {
    const s = byId.get(id)!;
    t += input.travel(here, s.location) + s.service;
    m += input.distance!(here, s.location);
    here = s.location;
  }
  if (route.end != null) {
    t += input.travel(here, route.end);
    m += input.distance!(here, route.end);
  }
  if (route.endBy != null && t > route.endBy + 1e-9) return Infinity;
  return rates.perSecond * (t - route.startAt) + rates.perMetre * m + (route.opens ? (rates.fixed ?? 0) : 0);
}

describe("amendRoutes: each van's own rates, drivers on shift with no route yet, collections still to make", () => {
  const office = { perSecond: 40 / 3600, perMetre: 0.5 / 1000 };

  it('gives a parcel to the van whose own rates make it cheaper, not to the one the office rate would pick', () => {
    // Two vans out east with one stop left each; the new parcel is on van 1's way home, a little off van 2's.
    const points: P[] = [
      [0, 0],
      [5, 0],
      [5, 3],
      [5, 1],
    ];
    const routes: AmendRoute[] = [
      { id: 1, from: 1, startAt: 39_600, end: 0, stops: [stop(11, 1)], costs: { perSecond: 90 / 3600, perMetre: 1.2 / 1000 } },
      { id: 2, from: 2, startAt: 39_600, end: 0, stops: [stop(21, 2)], costs: { perSecond: 30 / 3600, perMetre: 0.3 / 1000 } },
    ];
    const c: Case = { points, routes, jobs: [stop(99, 3)], extra: { costs: office } };
    const r = amendRoutes(inputOf(c));
    replay(c, r);
    expect(r.routes.find((x) => x.id === 2)!.stops).toContain(99);
    // At the office's rate for both, the nearer van takes it.
    const flat: Case = { ...c, routes: routes.map(({ costs: _c, ...x }) => x) };
    expect(amendRoutes(inputOf(flat)).routes.find((x) => x.id === 1)!.stops).toContain(99);
  });

  it('opens a route for a driver with none yet only where that is cheaper, or where no route on the road can take the parcel', () => {
    // Van 1 is out east; the idle driver's depot is 20 km west, where the new parcel is.
    const points: P[] = [
      [0, 0],
      [10, 0],
      [-20, 0],
      [-21, 0],
    ];
    const onRoad: AmendRoute = { id: 1, from: 1, startAt: 39_600, end: 0, endBy: 39_600 + 8 * 3600, stops: [stop(11, 1)] };
    const idle = (fixed: number): AmendRoute => ({
      id: 2,
      from: 2,
      startAt: 39_600,
      end: 2,
      endBy: 39_600 + 8 * 3600,
      stops: [],
      opens: true,
      costs: { ...office, fixed },
    });
    const cheap: Case = { points, routes: [onRoad, idle(20)], jobs: [stop(99, 3)], extra: { costs: office } };
    const a = amendRoutes(inputOf(cheap));
    replay(cheap, a);
    expect(a.routes.find((x) => x.id === 2)!.stops).toEqual([99]);
    // A van that costs 500 to send out is not worth the 40 km van 1 drives for it.
    const dear: Case = { ...cheap, routes: [onRoad, idle(500)] };
    const b = amendRoutes(inputOf(dear));
    replay(dear, b);
    expect(b.routes.find((x) => x.id === 1)!.stops).toContain(99);
    expect(b.routes.find((x) => x.id === 2)!.stops).toEqual([]);
    // Van 1 cannot get there and back within its shift: the dear route opens rather than leave the parcel.
    const late: Case = { ...dear, routes: [{ ...onRoad, endBy: 39_600 + 1800 }, idle(500)] };
    const l = amendRoutes(inputOf(late));
    replay(late, l);
    expect(l.routes.find((x) => x.id === 2)!.stops).toEqual([99]);
    expect(l.unassigned).toEqual([]);
  });

  it('places one parcel where the courier pays least, as brute force over every route and place finds (own rates, routes to open)', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rng = createRng(1000 + seed);
      const rnd = () => rng.next();
      const points: P[] = Array.from({ length: 30 }, () => [rnd() * 30 - 15, rnd() * 30 - 15]);
      let id = 1;
      const routes: AmendRoute[] = Array.from({ length: 2 + Math.floor(rnd() * 3) }, (_, k) => {
        const opens = rnd() < 0.4;
        const own = rnd() < 0.6;
        return {
          id: k + 1,
          from: Math.floor(rnd() * 30),
          startAt: 36_000,
          end: Math.floor(rnd() * 30),
          endBy: 36_000 + 2 * 3600 + Math.floor(rnd() * 4 * 3600),
          stops: opens ? [] : Array.from({ length: Math.floor(rnd() * 6) }, () => stop(id++, Math.floor(rnd() * 30))),
          ...(opens ? { opens: true } : {}),
          ...(own || opens
            ? { costs: { perSecond: (20 + rnd() * 60) / 3600, perMetre: (0.2 + rnd()) / 1000, fixed: opens ? rnd() * 80 : 0 } }
            : {}),
        };
      });
      const c: Case = { points, routes, jobs: [stop(999, Math.floor(rnd() * 30))], extra: { costs: office, movePenalty: 1e9 } };
      const r = amendRoutes(inputOf(c));
      replay(c, r);
      const before = routes.reduce(
        (sum, x) =>
          sum +
          routeCost(
            c,
            x,
            x.stops.map((s) => s.id),
          ),
        0,
      );
      let best = Infinity;
      for (const x of routes)
        for (let at = 0; at <= x.stops.length; at++) {
          const ids = x.stops.map((s) => s.id);
          ids.splice(at, 0, 999);
          best = Math.min(
            best,
            routeCost(c, x, ids) -
              routeCost(
                c,
                x,
                x.stops.map((s) => s.id),
              ),
          );
        }
      if (best === Infinity) {
        expect(r.unassigned).toEqual([999]);
        continue;
      }
      const after = r.routes.reduce(
        (sum, x) =>
          sum +
          routeCost(
            c,
            routes.find((y) => y.id === x.id)!,
            x.stops,
          ),
        0,
      );
      expect(after - before, `seed ${seed}`).toBeCloseTo(best, 6);
    }
  });

  it('keeps a collection still to make before its delivery, even where moving the delivery first would save time', () => {
    // The van is at the depot; it collects at 10 km east and delivers 1 km east; another stop at 2 km.
    const points: P[] = [
      [0, 0],
      [10, 0],
      [1, 0],
      [2, 0],
      [3, 0],
    ];
    const route: AmendRoute = {
      id: 1,
      from: 0,
      startAt: 36_000,
      end: 0,
      stops: [stop(-5, 1, { pickupFor: 5 }), stop(5, 2), stop(6, 3)],
    };
    const c: Case = { points, routes: [route], jobs: [stop(7, 4)], extra: { movePenalty: 0 } };
    const r = amendRoutes(inputOf(c));
    replay(c, r);
    const out = r.routes[0].stops;
    expect(out.indexOf(-5)).toBeLessThan(out.indexOf(5));
    // Without the pair the delivery would go first (the check above can fail).
    const loose: Case = { ...c, routes: [{ ...route, stops: [stop(-5, 1), stop(5, 2), stop(6, 3)] }] };
    const free = amendRoutes(inputOf(loose)).routes[0].stops;
    expect(free.indexOf(5)).toBeLessThan(free.indexOf(-5));
  });

  it('places a new parcel still to collect as a pair: its collection and then its delivery on the one route where that costs least', () => {
    // Route 1 runs east along y = 0, route 2 along y = 10; the parcel waits at (4, 9), for (6, 9).
    const points: P[] = [
      [0, 0],
      [2, 0],
      [5, 0],
      [8, 0],
      [0, 10],
      [2, 10],
      [5, 10],
      [8, 10],
      [4, 9],
      [6, 9],
    ];
    const east = (id: number, from: number, at: number[]): AmendRoute => ({
      id,
      from,
      startAt: 36_000,
      end: from,
      stops: at.map((l, k) => stop(id * 10 + k, l, { demand: [1] })),
    });
    const c: Case = {
      points,
      routes: [east(1, 0, [1, 2, 3]), east(2, 4, [5, 6, 7])],
      jobs: [stop(99, 9, { demand: [1] }), stop(-99, 8, { pickupFor: 99 })],
    };
    const r = amendRoutes(inputOf(c));
    replay(c, r);
    expect(r.unassigned).toEqual([]);
    const two = r.routes.find((x) => x.id === 2)!.stops;
    expect(two.indexOf(-99)).toBeGreaterThanOrEqual(0);
    expect(two.indexOf(-99)).toBeLessThan(two.indexOf(99));
    expect(r.routes.find((x) => x.id === 1)!.stops).toEqual([10, 11, 12]);
    // The delivery alone would go where it is cheapest for itself; with no place for the pair, neither goes.
    const noRoom = amendRoutes(inputOf({ ...c, routes: c.routes.map((x) => ({ ...x, maxStops: 4 })) }));
    expect(noRoom.unassigned.sort((a, b) => a - b)).toEqual([-99, 99]);
  });

  it("counts a van's load along its route: a full van takes a pair collected after its first delivery, not before", () => {
    // Room for two parcels, two on board; the collection is between the two doors, the delivery after both.
    const points: P[] = [
      [0, 0],
      [2, 0],
      [3, 0],
      [4, 0],
      [6, 0],
    ];
    const route: AmendRoute = {
      id: 1,
      from: 0,
      startAt: 36_000,
      capacity: [2],
      stops: [stop(1, 1, { demand: [1] }), stop(2, 3, { demand: [1] })],
    };
    const c: Case = { points, routes: [route], jobs: [stop(99, 4, { demand: [1] }), stop(-99, 2, { pickupFor: 99 })] };
    const r = amendRoutes(inputOf(c));
    replay(c, r);
    // Counted on the route's total (3 parcels for room for 2) it would be refused.
    expect(r.unassigned).toEqual([]);
    expect(r.routes[0].stops).toEqual([1, -99, 2, 99]);
    // Two parcels' worth collected after the first door is one too many until the second: collected after both.
    const heavy: Case = { ...c, jobs: [stop(99, 4, { demand: [2] }), stop(-99, 2, { pickupFor: 99 })] };
    const h = amendRoutes(inputOf(heavy));
    replay(heavy, h);
    expect(h.routes[0].stops).toEqual([1, 2, -99, 99]);
    // Three is more than the van holds anywhere: refused, both stops.
    const tooBig: Case = { ...c, jobs: [stop(99, 4, { demand: [3] }), stop(-99, 2, { pickupFor: 99 })] };
    expect(amendRoutes(inputOf(tooBig)).unassigned.sort((a, b) => a - b)).toEqual([-99, 99]);
  });
});
