import { describe, expect, it } from 'vitest';
import { amendRoutes, amendSchedule, type AmendRoute, type AmendStop } from '../../shared/routing/amend';
import { routeDiff } from '../../shared/routing/routeDiff';

/** Places on a line: location k is at k km; one second per metre-ish unit keeps sums readable. */
const X = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
const line = (a: number, b: number) => Math.abs(X[a] - X[b]) * 60;
const stop = (id: number, location: number, extra: Partial<AmendStop> = {}): AmendStop => ({ id, location, service: 60, ...extra });

describe('amendRoutes: new stops join running routes', () => {
  it("puts a new stop where it adds the least and keeps the driver's order", () => {
    const route: AmendRoute = { id: 1, from: 0, startAt: 0, end: 0, stops: [stop(11, 2), stop(12, 4), stop(13, 8)] };
    const r = amendRoutes({ routes: [route], jobs: [stop(99, 6)], travel: line });
    expect(r.routes[0].stops).toEqual([11, 12, 99, 13]);
    expect(r.moved).toEqual([]);
    expect(r.unassigned).toEqual([]);
  });

  it('chooses the route that adds the least, within capacity, and leaves out what fits nowhere', () => {
    const west: AmendRoute = { id: 1, from: 0, startAt: 0, end: 0, stops: [stop(11, 1, { demand: [1] }), stop(12, 2, { demand: [1] })] };
    const east: AmendRoute = {
      id: 2,
      from: 10,
      startAt: 0,
      end: 10,
      capacity: [3],
      stops: [stop(21, 9, { demand: [1] }), stop(22, 8, { demand: [1] })],
    };
    // 97 is next to west's stops; 96 next to east's; 95 too, but east then has no room (3 parcels), so it goes west.
    const r = amendRoutes({
      routes: [west, east],
      jobs: [stop(97, 3, { demand: [1] }), stop(96, 7, { demand: [1] }), stop(95, 7, { demand: [1] })],
      travel: line,
    });
    expect(r.routes.find((x) => x.id === 1)!.stops).toContain(97);
    const eastStops = r.routes.find((x) => x.id === 2)!.stops;
    expect(eastStops.filter((id) => id > 90)).toHaveLength(1);
    expect(r.routes.flatMap((x) => x.stops).sort()).toEqual([11, 12, 21, 22, 95, 96, 97]);
    const tooBig = amendRoutes({ routes: [east], jobs: [stop(94, 7, { demand: [2] })], travel: line });
    expect(tooBig.unassigned).toEqual([94]);
  });

  it('gives a stop that needs a skill only to a route whose van and driver have it', () => {
    const near: AmendRoute = { id: 1, from: 0, startAt: 0, end: 0, stops: [stop(11, 5)] };
    const fridge: AmendRoute = { id: 2, from: 10, startAt: 0, end: 10, skills: ['refrigerated', 'tail-lift'], stops: [stop(21, 9)] };
    const r = amendRoutes({
      routes: [near, fridge],
      jobs: [stop(97, 5, { skills: ['refrigerated'] }), stop(96, 5), stop(95, 5, { skills: ['two-person'] })],
      travel: line,
    });
    // 97 is beside route 1's stop, yet only route 2 has the fridge; nobody has two people.
    expect(r.routes.find((x) => x.id === 2)!.stops).toContain(97);
    expect(r.routes.find((x) => x.id === 1)!.stops).toContain(96);
    expect(r.unassigned).toEqual([95]);
  });

  it('never makes a stop late that was on time, nor brings the van back after its shift', () => {
    // The existing stop at 20 km must start by 1200 + 60 s; going to 60 km first would break it.
    const route: AmendRoute = { id: 1, from: 0, startAt: 0, end: 0, endBy: 10_000, stops: [stop(11, 2, { window: [0, 1300] })] };
    const r = amendRoutes({ routes: [route], jobs: [stop(99, 6), stop(98, 10, { window: [0, 100] })], travel: line });
    expect(r.routes[0].stops).toEqual([11, 99]);
    expect(r.unassigned).toEqual([98]);
    const tooLong = amendRoutes({ routes: [{ ...route, endBy: 3000 }], jobs: [stop(99, 6)], travel: line });
    expect(tooLong.unassigned).toEqual([99]);
  });

  it('does not make an already late stop later, but still places a stop after it', () => {
    const route: AmendRoute = { id: 1, from: 0, startAt: 5000, end: 0, stops: [stop(11, 2, { window: [0, 100] })] };
    const r = amendRoutes({ routes: [route], jobs: [stop(99, 1)], travel: line });
    // Before the late stop would make it later still; after it is allowed.
    expect(r.routes[0].stops).toEqual([11, 99]);
  });

  it('moves an existing stop only when the gain beats the penalty', () => {
    // The driver's order zigzags 10 -> 90 -> 20 km (an open route); a new stop at 80 km. Moving stop
    // 13 (20 km) to the front saves a lot: it is moved with a small penalty and kept with an enormous one.
    const route: AmendRoute = { id: 1, from: 0, startAt: 0, stops: [stop(11, 1), stop(12, 9), stop(13, 2)] };
    const cheap = amendRoutes({ routes: [route], jobs: [stop(99, 8)], travel: line, movePenalty: 60 });
    expect(cheap.moved.length).toBeGreaterThan(0);
    const before = amendSchedule(route, [...route.stops, stop(99, 8)], line);
    const byId = new Map([...route.stops, stop(99, 8)].map((s) => [s.id, s]));
    const after = amendSchedule(
      route,
      cheap.routes[0].stops.map((id) => byId.get(id)!),
      line,
    );
    expect(after.back).toBeLessThan(before.back);
    const dear = amendRoutes({ routes: [route], jobs: [stop(99, 8)], travel: line, movePenalty: 1e9 });
    expect(dear.moved).toEqual([]);
    expect(dear.routes[0].stops.filter((id) => id !== 99)).toEqual([11, 12, 13]);
    // A route that got nothing new is left exactly as it is, zigzag and all.
    const untouched = amendRoutes({ routes: [route], jobs: [], travel: line, movePenalty: 0 });
    expect(untouched.routes[0].stops).toEqual([11, 12, 13]);
  });

  it("re-homes the stops of a route that cannot run, keeping each remaining route's locks", () => {
    // The caller starts each route after its locked stops: `from` is where the next stop is.
    const a: AmendRoute = { id: 1, from: 3, startAt: 1000, end: 0, endBy: 20_000, stops: [stop(11, 4), stop(12, 5)] };
    const b: AmendRoute = { id: 2, from: 7, startAt: 1000, end: 10, endBy: 20_000, stops: [stop(21, 8)] };
    const sick = [stop(31, 6), stop(32, 9), stop(33, 2)];
    const r = amendRoutes({ routes: [a, b], jobs: sick, travel: line });
    expect(r.unassigned).toEqual([]);
    const all = r.routes.flatMap((x) => x.stops).sort((p, q) => p - q);
    expect(all).toEqual([11, 12, 21, 31, 32, 33]);
    expect(r.routes.find((x) => x.id === 2)!.stops).toContain(32);
  });
});

describe('routeDiff', () => {
  it('names added, removed and the fewest moved stops', () => {
    expect(routeDiff([1, 2, 3, 4], [1, 2, 3, 4])).toEqual({ added: [], removed: [], moved: [] });
    expect(routeDiff([1, 2, 3, 4], [1, 9, 2, 3, 4])).toEqual({ added: [9], removed: [], moved: [] });
    expect(routeDiff([1, 2, 3, 4], [1, 3, 4])).toEqual({ added: [], removed: [2], moved: [] });
    // 4 taken from the end to the front: one move, not three.
    expect(routeDiff([1, 2, 3, 4], [4, 1, 2, 3])).toEqual({ added: [], removed: [], moved: [4] });
    expect(routeDiff([1, 2, 3, 4, 5], [1, 4, 2, 3, 8, 5]).moved).toEqual([4]);
    expect(routeDiff([1, 2, 3], [3, 2, 1]).moved).toHaveLength(2);
  });
});
