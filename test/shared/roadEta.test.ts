import { describe, expect, it } from 'vitest';
import { roadEtas, roadFactor, remainingLegs, type RoadEtaInput } from '../../shared/routing/roadEta';
import { DEFAULT_TRAVEL, travelSeconds, type EtaStop } from '../../shared/routing/eta';
import { estimateLegs } from '../../shared/routing/legs';
import type { LatLng } from '../../shared/routing/haversine';

const T0 = Date.parse('2026-01-05T21:00:00Z'); // 08:00 in Sydney (AEDT)
const DEPOT: LatLng = { latitude: -33.87, longitude: 151.2 };
const at = (k: number): LatLng => ({ latitude: DEPOT.latitude + 0.01 * k, longitude: DEPOT.longitude + 0.005 * k });
const stop = (id: number, serviceS = 120, window: [number, number] | null = null): EtaStop => ({ id, ...at(id), serviceS, window });
const min = 60_000;

/** Road legs of 10 minutes each along depot -> 1 -> 2 -> 3 (slower than the estimate). */
const LEGS = [
  { from: null, to: 1, durationS: 600 },
  { from: 1, to: 2, durationS: 600 },
  { from: 2, to: 3, durationS: 600 },
];
const base = (over: Partial<RoadEtaInput> = {}): RoadEtaInput => ({
  now: T0 - 30 * min,
  shiftStart: T0,
  origin: { kind: 'start', at: DEPOT },
  stops: [stop(1), stop(2), stop(3)],
  legs: LEGS,
  model: DEFAULT_TRAVEL,
  ...over,
});

describe('roadEtas: stored road legs, service time and real progress', () => {
  it("walks the stored legs from the shift start, with each stop's time at the door", () => {
    const e = roadEtas(base());
    expect(e.map((x) => (x.arrive - T0) / min)).toEqual([10, 22, 34]);
    expect(e.map((x) => (x.depart - x.arrive) / 1000)).toEqual([120, 120, 120]);
  });

  it('uses the estimate only where no leg is stored (an old route), and equals the old great-circle ETA then', () => {
    const e = roadEtas(base({ legs: [] }));
    const leg1 = travelSeconds(DEPOT, at(1));
    expect(e[0].arrive).toBe(T0 + Math.round(leg1 * 1000));
    // The estimate's own legs give the same minute as no legs at all.
    const est = estimateLegs([DEPOT, at(1), at(2), at(3)], DEFAULT_TRAVEL);
    const stored = est.map((l, i) => ({ from: i === 0 ? null : i, to: i + 1, durationS: l.durationS }));
    expect(roadEtas(base({ legs: stored })).map((x) => x.arrive)).toEqual(e.map((x) => x.arrive));
  });

  it('leaves the last stop worked when it was worked, and never puts an arrival before now', () => {
    const done = T0 + 15 * min;
    const e = roadEtas(base({ now: done + 2 * min, origin: { kind: 'stop', id: 1, at: at(1), since: done }, stops: [stop(2), stop(3)] }));
    expect((e[0].arrive - done) / min).toBe(10);
    expect((e[1].arrive - done) / min).toBe(22);
    // Half an hour later with no news: stop 2 is due now, stop 3 a leg and a door later.
    const late = roadEtas(
      base({ now: done + 30 * min, origin: { kind: 'stop', id: 1, at: at(1), since: done }, stops: [stop(2), stop(3)] }),
    );
    expect(late[0].arrive).toBe(done + 30 * min);
    expect(late[1].arrive - late[0].arrive).toBe(12 * min);
  });

  it("from a position off the plan: the estimate scaled by how slow this route's roads are", () => {
    // Stop 1 was worked: only legs between places still known (2 -> 3) calibrate the estimate.
    const places = new Map<number | null, LatLng>([
      [null, DEPOT],
      [2, at(2)],
      [3, at(3)],
    ]);
    const f = roadFactor(LEGS, places, DEFAULT_TRAVEL);
    expect(f).toBeGreaterThan(1);
    const here = { latitude: (at(1).latitude + at(2).latitude) / 2, longitude: (at(1).longitude + at(2).longitude) / 2 };
    const legs = remainingLegs(
      { origin: { kind: 'position', at: here, since: T0 }, stops: [stop(2), stop(3)], legs: LEGS, model: DEFAULT_TRAVEL },
      DEPOT,
    );
    expect(legs[0]).toBeCloseTo(travelSeconds(here, at(2)) * f, 6);
    // From stop 2 on, the stored leg again.
    expect(legs[1]).toBe(600);
    const e = roadEtas(
      base({ now: T0 + 20 * min, origin: { kind: 'position', at: here, since: T0 + 20 * min }, stops: [stop(2), stop(3)] }),
      DEPOT,
    );
    expect(e[0].arrive).toBe(T0 + 20 * min + Math.round(legs[0] * 1000));
  });

  it('a reordered pair has no stored leg: scaled estimate; windows still make the van wait', () => {
    const open = T0 + 60 * min;
    const e = roadEtas(base({ stops: [stop(1), stop(3, 120, [open, open + 60 * min]), stop(2)] }));
    expect(e[1].arrive).toBeLessThan(open);
    expect(e[1].begin).toBe(open);
    expect(e[1].waitS).toBe(Math.round((open - e[1].arrive) / 1000));
    // 3 -> 2 was planned the other way round only: not a stored pair, so estimated.
    expect(e[2].arrive).toBeGreaterThan(e[1].depart);
  });

  it('an unplaced stop costs no travel but its time at the door', () => {
    const e = roadEtas(base({ stops: [stop(1), { id: 9, latitude: null, longitude: null, serviceS: 300 }, stop(2)] }));
    expect(e[1].arrive).toBe(e[0].depart);
    expect(e[2].arrive).toBe(e[1].depart + 600_000);
  });
});
