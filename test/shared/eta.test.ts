import { describe, expect, it } from 'vitest';
import { etaBand, stopEtas, travelSeconds } from '../../shared/routing/eta';
import { commitBody, moveStop, replanBody } from '../../client/admin/dispatch/board';
import type { PlanRoute, Proposal } from '../../shared/schemas/dispatch';

const T0 = Date.UTC(2026, 0, 5, 9, 0);
const A = { latitude: -33.87, longitude: 151.2 };
const B = { latitude: -33.88, longitude: 151.2 };

describe('stopEtas (the one ETA function of server, board and phone)', () => {
  it('drives, waits for a window, serves, and says when a window is missed', () => {
    const leg = travelSeconds(A, B);
    // 1.11 km × 1.3 at 30 km/h: a little under 3 minutes.
    expect(leg).toBeGreaterThan(160);
    expect(leg).toBeLessThan(190);
    const [s1, s2, s3] = stopEtas({
      from: A,
      startAt: T0,
      stops: [
        { id: 1, ...B, serviceS: 120, window: [T0 + 30 * 60_000, T0 + 60 * 60_000] },
        { id: 2, latitude: null, longitude: null, serviceS: 60 },
        { id: 3, ...A, serviceS: 0, window: [T0, T0 + 10 * 60_000] },
      ],
    });
    expect(s1!.arrive).toBe(T0 + Math.round(leg * 1000));
    expect(s1!.begin).toBe(T0 + 30 * 60_000);
    expect(s1!.waitS).toBe(Math.round((30 * 60_000 - Math.round(leg * 1000)) / 1000));
    expect(s1!.depart).toBe(s1!.begin + 120_000);
    // No coordinates: no travel, still its service time.
    expect(s2!.arrive).toBe(s1!.depart);
    expect(s2!.depart).toBe(s2!.arrive + 60_000);
    // Measured from the last known place (B), and after its window closed.
    expect(s3!.arrive).toBe(s2!.depart + Math.round(leg * 1000));
    expect(s3!.late).toBe(true);
  });

  it('uses the road matrix legs when given', () => {
    const [s1, s2] = stopEtas({
      from: A,
      startAt: T0,
      legs: [600, 300],
      stops: [
        { id: 1, ...B, serviceS: 60 },
        { id: 2, ...A, serviceS: 60 },
      ],
    });
    expect(s1!.arrive).toBe(T0 + 600_000);
    expect(s2!.arrive).toBe(T0 + 600_000 + 60_000 + 300_000);
  });

  it('tells recipients a half-hour band rounded to five minutes', () => {
    const [from, to] = etaBand(Date.UTC(2026, 0, 5, 14, 27));
    expect(new Date(from).toISOString().slice(11, 16)).toBe('14:10');
    expect(new Date(to).toISOString().slice(11, 16)).toBe('14:40');
  });

  it('never starts the band before the window opens (a van early for 18:00 waits and rings at 18:00)', () => {
    const opens = Date.UTC(2026, 0, 5, 18, 0);
    const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
    expect(etaBand(opens, opens).map(hhmm)).toEqual(['18:00', '18:30']);
    expect(etaBand(opens + 5 * 60_000, opens).map(hhmm)).toEqual(['18:00', '18:30']);
    // Well inside the window, or no window known: centred as before.
    expect(etaBand(opens + 40 * 60_000, opens).map(hhmm)).toEqual(['18:25', '18:55']);
    expect(etaBand(opens).map(hhmm)).toEqual(['17:45', '18:15']);
  });
});

describe('board edits', () => {
  const stop = (pkg: number, lat: number) => ({
    package: pkg,
    hawb: `H${pkg}`,
    customer_name: null,
    address: '',
    latitude: lat,
    longitude: 151.2,
    window_start: null,
    window_end: null,
    service_s: 180,
    time_zone: 'Australia/Sydney',
    kg: 2,
    m3: 0,
    eta: '',
    late: false,
    locked: false,
  });
  const route = (driver: number, stops: ReturnType<typeof stop>[]): PlanRoute => ({
    driver,
    driver_name: `D${driver}`,
    vehicle: null,
    vehicle_name: null,
    shift_start: '09:00',
    shift_end: '17:00',
    time_zone: 'Australia/Sydney',
    depart: new Date(T0).toISOString(),
    start: A,
    end: null,
    capacity: { kg: null, m3: null, parcels: 3 },
    load: { kg: 0, m3: 0, parcels: 0 },
    distance_m: 0,
    duration_s: 0,
    fixed: false,
    stops,
  });
  const p: Proposal = {
    date: '2026-01-05',
    routes: [route(1, [stop(10, -33.88), stop(11, -33.89)]), route(2, [stop(20, -33.86)])],
    unassigned: [],
    parcels: 3,
    distance_m: 0,
    solve_ms: 1,
  };

  it('moves a stop before another, locks it, retimes both routes, and builds the re-plan and commit bodies', () => {
    const next = moveStop(p, 11, 2, 20);
    expect(next.routes[0]!.stops.map((s) => s.package)).toEqual([10]);
    expect(next.routes[1]!.stops.map((s) => s.package)).toEqual([11, 20]);
    expect(next.routes[1]!.stops[0]!.locked).toBe(true);
    expect(next.routes[1]!.load).toEqual({ kg: 4, m3: 0, parcels: 2 });
    expect(Date.parse(next.routes[1]!.stops[1]!.eta)).toBeGreaterThan(Date.parse(next.routes[1]!.stops[0]!.eta));
    expect(replanBody(next, new Set([1]))).toEqual({ locks: [{ package: 11, driver: 2 }], fixed_routes: [{ driver: 1, packages: [10] }] });
    expect(commitBody(moveStop(next, 10, 2)).routes).toEqual([{ driver: 2, packages: [11, 20, 10] }]);
  });
});
