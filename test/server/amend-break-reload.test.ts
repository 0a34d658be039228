/**
 * Two rules of the day after the plan (issue 32), as plain functions: a break's window counts from
 * when the van really left, and the trip back to the depot for parcels that joined after it left
 * is in the arrival times (over the stored road legs too).
 */
import { describe, expect, it } from 'vitest';
import { roadEtas } from '../../shared/routing/roadEta';
import { applyPlanRules, breakWindow } from '../../server/services/dispatch/rules';
import { withReload } from '../../server/services/dispatch/reload';
import type { PlanDriver } from '../../server/services/dispatch/planTypes';
import type { DayProblem } from '../../server/services/dispatch/solveDay';

const DAY = '2026-01-05';
const at = (hhmm: string) => Date.parse(`${DAY}T${hhmm}:00Z`);

const driver = (startedAt: number | null): PlanDriver => ({
  id: 1,
  name: 'D',
  vehicleId: null,
  vehicleName: null,
  shiftStart: '08:00',
  shiftEnd: '17:00',
  departAt: at('08:00'),
  start: null,
  end: null,
  startWarehouse: null,
  zone: 'UTC',
  capacity: { kg: null, m3: null, parcels: null },
  skills: [],
  rates: { per_km: null, per_hour: null, fixed: null },
  break: null,
  startedAt,
});

describe("a break's window", () => {
  it('counts from the real departure where known, else from the rostered shift start', () => {
    const pause = { minutes: 30, after_min: 240, after_max: 300 };
    expect(breakWindow(pause, at('08:00'))).toEqual([at('12:00'), at('13:00')]);
    expect(breakWindow(pause, at('08:00'), at('09:40'))).toEqual([at('13:40'), at('14:40')]);
    const plan = (startedAt: number | null) => {
      const problem = {
        vehicles: [{ id: 1, start: 0, shift: [0, 9 * 3600] }],
        jobs: [],
        points: [],
        travel: { speedKmh: 30, detourFactor: 1.3 },
        road: null,
      } as unknown as DayProblem;
      applyPlanRules(
        problem,
        { break: { minutes: 30, after_min: 240, after_max: 300 } },
        {
          date: DAY,
          dayStart: at('08:00'),
          drivers: [driver(startedAt)],
          parcels: [],
        },
      );
      return problem.vehicles[0].breaks;
    };
    expect(plan(null)).toEqual([{ duration: 1800, window: [4 * 3600, 5 * 3600] }]);
    // Left at 09:40 for an 08:00 shift: lunch 13:40-14:40, 1 h 40 later.
    expect(plan(at('09:40'))).toEqual([{ duration: 1800, window: [4 * 3600 + 6000, 5 * 3600 + 6000] }]);
  });
});

describe('the trip back to the depot', () => {
  const depot = { latitude: -33.87, longitude: 151.2 };
  const stop = (id: number, dLat: number) => ({ id, latitude: depot.latitude + dLat, longitude: depot.longitude, serviceS: 60 });
  const model = { speedKmh: 30, detourFactor: 1.3 };

  it('goes before the stop the office chose, if no later than the first parcel waiting, and is in the times', () => {
    const stops = [stop(1, 0.03), stop(2, 0.04), stop(3, 0.05)];
    const wait = { ids: new Set([3]), before: 2 };
    const r = withReload(stops, wait, depot);
    expect(r).toMatchObject({ before: 1, parcels: 1 });
    expect(r.stops[1].via).toEqual({ at: depot, serviceS: 600 });
    // A choice after the first waiting parcel cannot be: the van would not have it yet.
    expect(withReload(stops, { ids: new Set([2, 3]), before: 3 }, depot).before).toBe(1);
    expect(withReload(stops, { ids: new Set(), before: null }, depot).before).toBe(-1);

    // Over stored legs: the leg into the stop after the depot is not the stored one but through the depot.
    const legs = [
      { from: null, to: 1, durationS: 500 },
      { from: 1, to: 2, durationS: 150 },
      { from: 2, to: 3, durationS: 150 },
    ];
    const input = { now: at('09:00'), shiftStart: at('08:00'), origin: { kind: 'start' as const, at: depot }, legs, model };
    const plain = roadEtas({ ...input, stops });
    const viaDepot = roadEtas({ ...input, stops: r.stops });
    expect(viaDepot[0].begin).toBe(plain[0].begin);
    // Out to stop 1 (3 km) and back, ten minutes loading, then out again beyond it: at least 15 minutes more.
    expect(viaDepot[1].begin - plain[1].begin).toBeGreaterThan(15 * 60_000);
    expect(viaDepot[2].begin - viaDepot[1].begin).toBe(plain[2].begin - plain[1].begin);
  });
});
