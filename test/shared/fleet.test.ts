import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { optimizeFleet, parseSolomon, routeSchedule, unassignedReason, type FleetInput } from '../../shared/routing';
import { buildModel } from '../../shared/routing/fleet/model';
import { solveFleetModel } from '../../shared/routing/fleet/search';
import { bruteForceFleet, checkPlan, randomFleet } from './fleet-helpers';

const SOLOMON = join(__dirname, '..', '..', '..', 'shared', 'benchmarks', 'solomon');

function solomon(name: string): FleetInput {
  return parseSolomon(readFileSync(join(SOLOMON, `${name}.txt`), 'utf8')).input;
}

describe('optimizeFleet on Solomon instances', () => {
  // One per class; short runs: this is about feasibility, quality is the bench's job.
  for (const name of ['C101', 'C201', 'R101', 'R211', 'RC105', 'RC208']) {
    it(`${name}: every job served, every rule kept`, () => {
      const input = solomon(name);
      const res = optimizeFleet({ ...input, timeLimitMs: 300, seed: 7 });
      const check = checkPlan(input, res);
      expect(check.violations).toEqual([]);
      expect(res.unassigned).toEqual([]);
      expect(check.served).toBe(100);
      const bks = (JSON.parse(readFileSync(join(SOLOMON, 'bks-distance.json'), 'utf8')) as Record<string, { best_known_distance: number }>)[
        name
      ];
      expect(check.travel).toBeGreaterThanOrEqual(bks.best_known_distance - 0.01);
    });
  }

  it('the ETA math agrees with the independent checker on a planned route', () => {
    const input = solomon('R101');
    const res = optimizeFleet({ ...input, timeLimitMs: 100, seed: 1 });
    let travel = 0;
    for (const r of res.routes) {
      const s = routeSchedule(input, r);
      expect(s.feasible).toBe(true);
      travel += s.travel;
      for (const stop of s.stops) {
        const job = input.jobs.find((j) => j.id === stop.job)!;
        const [a, b] = job.windows![0];
        expect(stop.start).toBeGreaterThanOrEqual(a);
        expect(stop.start).toBeLessThanOrEqual(b + 1e-6);
        expect(stop.start).toBeGreaterThanOrEqual(stop.arrival);
      }
      expect(s.returnArrival!).toBeLessThanOrEqual(input.vehicles[0].shift![1] + 1e-6);
    }
    expect(travel).toBeCloseTo(checkPlan(input, res).travel, 6);
  });
});

describe('optimizeFleet on random instances (property)', () => {
  it('never breaks a rule: windows, capacities, shift ends, each job at most once', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e9 }),
        fc.integer({ min: 0, max: 25 }),
        fc.integer({ min: 0, max: 4 }),
        fc.boolean(),
        (seed, jobs, vehicles, asymmetric) => {
          const input = randomFleet(seed, { jobs, vehicles, asymmetric });
          const res = optimizeFleet({ ...input, timeLimitMs: 10, seed });
          expect(checkPlan(input, res).violations).toEqual([]);
          // A job the plan leaves out has a reason; one no vehicle can serve alone is never planned.
          for (const id of res.unassigned) expect(['capacity', 'window', 'shift', 'no_vehicle']).toContain(unassignedReason(input, id));
          for (const job of input.jobs) {
            if (unassignedReason(input, job.id) !== 'no_vehicle') expect(res.unassigned).toContain(job.id);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('matches the brute-force optimum on small instances', () => {
    for (let seed = 1; seed <= 24; seed++) {
      // Six jobs with three vans is ~10 s of brute force: keep that case to five jobs.
      const input = randomFleet(seed * 7919, {
        jobs: seed % 3 === 2 ? 5 : 5 + (seed % 2),
        vehicles: 1 + (seed % 3),
        asymmetric: seed % 2 === 0,
      });
      const exact = bruteForceFleet(input);
      const res = optimizeFleet({ ...input, timeLimitMs: 10_000, seed });
      const check = checkPlan(input, res);
      expect(check.violations).toEqual([]);
      expect(check.served, `seed ${seed}`).toBe(exact.served);
      expect(check.travel, `seed ${seed}`).toBeCloseTo(exact.travel, 6);
    }
  }, 180_000);
});

describe('determinism and input rules', () => {
  it('same seed and work budget: same plan; the search is a pure function of them', () => {
    const input = solomon('RC101');
    const model = buildModel(input);
    const a = solveFleetModel(model, { seed: 42, work: 2_000_000, timeLimitMs: Infinity });
    const b = solveFleetModel(buildModel(input), { seed: 42, work: 2_000_000, timeLimitMs: Infinity });
    expect(a.routes).toEqual(b.routes);
    expect(a.cost).toBe(b.cost);
    const c = solveFleetModel(buildModel(input), { seed: 43, work: 2_000_000, timeLimitMs: Infinity });
    expect(c.routes).not.toEqual(a.routes);
  });

  it('optimizeFleet with a seed repeats itself when the search ends on its own', () => {
    const input = randomFleet(99, { jobs: 12, vehicles: 3 });
    const a = optimizeFleet({ ...input, timeLimitMs: 60_000, seed: 5 });
    const b = optimizeFleet({ ...input, timeLimitMs: 60_000, seed: 5 });
    expect(a).toEqual(b);
  });

  it('rejects malformed input with a RangeError', () => {
    const base: FleetInput = {
      matrix: [
        [0, 1],
        [1, 0],
      ],
      vehicles: [{ id: 1, start: 0 }],
      jobs: [{ id: 1, location: 1 }],
    };
    expect(() => optimizeFleet({ ...base, matrix: [[0, 1]] })).toThrow(RangeError);
    expect(() => optimizeFleet({ ...base, jobs: [{ id: 1, location: 2 }] })).toThrow(RangeError);
    expect(() =>
      optimizeFleet({
        ...base,
        jobs: [
          { id: 1, location: 1 },
          { id: 1, location: 0 },
        ],
      }),
    ).toThrow(RangeError);
    expect(() => optimizeFleet({ ...base, jobs: [{ id: 1, location: 1, windows: [[5, 2]] }] })).toThrow(RangeError);
    expect(() => optimizeFleet({ ...base, vehicles: [{ id: 1, start: 0, shift: [10, 5] }] })).toThrow(RangeError);
    expect(() =>
      optimizeFleet({
        ...base,
        matrix: [
          [0, -1],
          [1, 0],
        ],
      }),
    ).toThrow(RangeError);
  });

  it('empty fleet or no jobs', () => {
    const m = [
      [0, 1],
      [1, 0],
    ];
    expect(optimizeFleet({ matrix: m, vehicles: [], jobs: [{ id: 3, location: 1 }] })).toEqual({ routes: [], unassigned: [3], cost: 0 });
    expect(optimizeFleet({ matrix: m, vehicles: [{ id: 1, start: 0 }], jobs: [] })).toEqual({ routes: [], unassigned: [], cost: 0 });
  });
});

describe('unassignedReason and multiple windows', () => {
  const matrix = [
    [0, 10, 50],
    [10, 0, 45],
    [50, 45, 0],
  ];

  it('names the rule that keeps a job out', () => {
    const input: FleetInput = {
      matrix,
      vehicles: [{ id: 1, start: 0, end: 0, capacity: [10], shift: [0, 100] }],
      jobs: [
        { id: 1, location: 1, demand: [20] }, // heavier than the van
        { id: 2, location: 1, windows: [[0, 5]] }, // closes before anyone gets there (10)
        { id: 3, location: 2, service: 10 }, // 50 there + 10 + 50 back > 100
        { id: 4, location: 1, demand: [6] },
        { id: 5, location: 1, demand: [6] }, // fits alone, not beside job 4
      ],
    };
    const res = optimizeFleet({ ...input, timeLimitMs: 200, seed: 1 });
    expect(checkPlan(input, res).violations).toEqual([]);
    expect(res.unassigned.sort()).toEqual([1, 2, 3, 4 + 5 - (res.routes[0].jobs[0] ?? 0)].sort());
    expect(unassignedReason(input, 1)).toBe('capacity');
    expect(unassignedReason(input, 2)).toBe('window');
    expect(unassignedReason(input, 3)).toBe('shift');
    expect(
      unassignedReason(
        input,
        res.unassigned.find((id) => id === 4 || id === 5)!,
      ),
    ).toBe('no_vehicle');
    expect(unassignedReason({ ...input, vehicles: [] }, 4)).toBe('no_vehicle');
  });

  it('waits for the next window when the first one is missed', () => {
    const input: FleetInput = {
      matrix,
      vehicles: [{ id: 9, start: 0, shift: [0, 1000] }],
      jobs: [
        {
          id: 1,
          location: 1,
          service: 5,
          windows: [
            [0, 5],
            [40, 60],
          ],
        },
        { id: 2, location: 2, windows: [[80, 90]] },
      ],
    };
    const res = optimizeFleet({ ...input, timeLimitMs: 200, seed: 1 });
    expect(res).toMatchObject({ routes: [{ vehicle: 9, jobs: [1, 2] }], unassigned: [] });
    const s = routeSchedule(input, res.routes[0]);
    expect(s.stops.map((x) => [x.arrival, x.start, x.departure])).toEqual([
      [10, 40, 45],
      [90, 90, 90],
    ]);
    expect(s.returnArrival).toBeNull();
    expect(s.feasible).toBe(true);
    // Served in the other order, job 1 is late: the schedule says so and still times it.
    const late = routeSchedule(input, { vehicle: 9, jobs: [2, 1] });
    expect(late.feasible).toBe(false);
    expect(late.stops[1].late).toBe(true);
  });
});

describe('mixed fleet', () => {
  it('a heavy job reaches the one big truck even when that truck works far from it', () => {
    // Locations 0 (van depot) .. 40 a cluster near x=0; 41 the truck depot at x=1000; 42..51 jobs near it.
    const xs: number[] = [0];
    for (let k = 0; k < 40; k++) xs.push(1 + (k % 10));
    xs.push(1000);
    for (let k = 0; k < 10; k++) xs.push(990 + k);
    const matrix = xs.map((a) => xs.map((b) => Math.abs(a - b)));
    const vehicles = [
      { id: 1, start: 41, end: 41, capacity: [100] },
      ...Array.from({ length: 8 }, (_, k) => ({ id: 10 + k, start: 0, end: 0, capacity: [6] })),
    ];
    const jobs = [
      ...Array.from({ length: 39 }, (_, k) => ({ id: 100 + k, location: 1 + k, demand: [1] })),
      { id: 999, location: 40, demand: [50] },
      ...Array.from({ length: 10 }, (_, k) => ({ id: 200 + k, location: 42 + k, demand: [5] })),
    ];
    const input: FleetInput = { matrix, vehicles, jobs };
    for (const seed of [1, 2, 3]) {
      const res = optimizeFleet({ ...input, timeLimitMs: 300, seed });
      expect(checkPlan(input, res).violations).toEqual([]);
      expect(res.unassigned).toEqual([]);
      expect(res.routes.find((r) => r.vehicle === 1)?.jobs).toContain(999);
    }
  });
});

describe('unassignedReasons (security issue 30)', () => {
  it('gives, in one pass over one model, the reason unassignedReason gives each job', async () => {
    const { unassignedReasons } = await import('../../shared/routing');
    const input: FleetInput = {
      matrix: [
        [0, 10, 500],
        [10, 0, 500],
        [500, 500, 0],
      ],
      vehicles: [{ id: 7, start: 0, capacity: [5], shift: [0, 100] }],
      jobs: [
        { id: 1, location: 1, demand: [9] },
        { id: 2, location: 1, demand: [1], windows: [[0, 5]] },
        { id: 3, location: 2, demand: [1] },
        { id: 4, location: 1, demand: [1] },
      ],
    };
    const ids = [4, 3, 2, 1];
    expect(unassignedReasons(input, ids)).toEqual(ids.map((id) => unassignedReason(input, id)));
    expect(unassignedReasons(input, ids)).toEqual(['no_vehicle', 'shift', 'window', 'capacity']);
    expect(() => unassignedReasons(input, [99])).toThrow(RangeError);
  });
});
