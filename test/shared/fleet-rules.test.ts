import { describe, expect, it } from 'vitest';
import { optimizeFleet, unassignedDetails, type FleetInput } from '../../shared/routing/fleet/index';
import { createRng } from '../../shared/routing/rng';
import { bruteForceFleet, checkPlan, randomFleet } from './fleet-helpers';

/**
 * Issue 32's rules, each against the exhaustive optimum of small instances (five or six jobs)
 * replayed by the independent checker in fleet-helpers.ts, plus the reports a dispatcher reads.
 */
type Variant = (input: FleetInput, seed: number) => FleetInput;

const SKILLS = ['fridge', 'two-person'];

const VARIANTS: Record<string, Variant> = {
  'courier cost (fixed, per distance, per time with waits) and a distance matrix': (input, seed) => {
    const rng = createRng(seed);
    return {
      ...input,
      distance: input.matrix.map((row) => row.map((x) => Math.round(x * (1 + rng.next())))),
      vehicles: input.vehicles.map((v) => ({ ...v, costs: { fixed: rng.int(60), perDistance: rng.next(), perTime: rng.next() } })),
    };
  },
  'penalties: a job is left out when serving it costs more': (input, seed) => {
    const rng = createRng(seed);
    return { ...input, jobs: input.jobs.map((j) => (rng.next() < 0.6 ? { ...j, penalty: 20 + rng.int(80) } : j)) };
  },
  skills: (input, seed) => {
    const rng = createRng(seed);
    return {
      ...input,
      vehicles: input.vehicles.map((v, k) => ({ ...v, skills: k === 0 ? [SKILLS[0]] : SKILLS.filter(() => rng.next() < 0.5) })),
      jobs: input.jobs.map((j) => ({ ...j, skills: SKILLS.filter(() => rng.next() < 0.3) })),
    };
  },
  breaks: (input, seed) => {
    const rng = createRng(seed);
    return {
      ...input,
      vehicles: input.vehicles.map((v) => {
        const a = (v.shift?.[0] ?? 0) + 20 + rng.int(60);
        return { ...v, breaks: [{ duration: 10 + rng.int(20), window: [a, a + rng.int(40)] as [number, number] }] };
      }),
    };
  },
  'two breaks, time costs': (input, seed) => {
    const rng = createRng(seed);
    return {
      ...input,
      vehicles: input.vehicles.map((v) => {
        const a = (v.shift?.[0] ?? 0) + 10 + rng.int(40);
        return {
          ...v,
          costs: { perTime: 1, perDistance: 0.5 },
          breaks: [
            { duration: 5 + rng.int(10), window: [a, a + 30] as [number, number] },
            { duration: 5, window: [a + 60, a + 120] as [number, number] },
          ],
        };
      }),
    };
  },
  'maximum route duration and stops': (input, seed) => {
    const rng = createRng(seed);
    return { ...input, vehicles: input.vehicles.map((v) => ({ ...v, maxDuration: 80 + rng.int(120), maxStops: 1 + rng.int(3) })) };
  },
  'balance by duration': (input) => ({ ...input, balance: { by: 'duration', weight: 0.01 } }),
  'balance by stops': (input) => ({ ...input, balance: { by: 'stops', weight: 15 } }),
};

describe('optimizeFleet: every issue-32 rule against the brute-force optimum', () => {
  for (const [name, variant] of Object.entries(VARIANTS)) {
    it(
      name,
      () => {
        for (let seed = 1; seed <= 4; seed++) {
          const base = randomFleet(seed * 104729, { jobs: seed === 4 ? 6 : 5, vehicles: seed === 4 ? 1 : 2, asymmetric: seed % 2 === 0 });
          const input = variant(base, seed);
          const exact = bruteForceFleet(input);
          const res = optimizeFleet({ ...input, timeLimitMs: 10_000, seed });
          const check = checkPlan(input, res);
          expect(check.violations, `seed ${seed}`).toEqual([]);
          expect(check.hardUnserved, `seed ${seed}`).toBe(exact.hardUnserved);
          expect(check.cost, `seed ${seed}`).toBeCloseTo(exact.cost, 6);
          expect(res.cost, `seed ${seed}`).toBeCloseTo(check.cost, 6);
        }
      },
      120_000,
    );
  }
});

describe('what the plan reports', () => {
  // Depot 0, stops 1 and 2 on a line, 10 apart.
  const matrix = [
    [0, 10, 20],
    [10, 0, 10],
    [20, 10, 0],
  ];

  it('leaves as late as the schedule allows and reports each wait', () => {
    const res = optimizeFleet({
      matrix,
      vehicles: [{ id: 1, start: 0, end: 0, shift: [0, 500] }],
      jobs: [
        { id: 1, location: 1, service: 5, windows: [[100, 120]] },
        { id: 2, location: 2, service: 5, windows: [[150, 160]] },
      ],
    });
    const r = res.routes[0];
    // Leaving at 0 waits 90 at stop 1 and 35 at stop 2; leaving at 110 serves stop 1 at 120 (its
    // window's end) and waits only 15 at stop 2, with the same return at 175.
    expect(r).toMatchObject({ jobs: [1, 2], departure: 110, starts: [120, 150], waits: [0, 15], end: 175, duration: 65, travel: 40 });
  });

  it('takes a break where it fits and reports it on the route', () => {
    const res = optimizeFleet({
      matrix,
      vehicles: [{ id: 1, start: 0, end: 0, shift: [0, 500], breaks: [{ duration: 30, window: [100, 130] }] }],
      jobs: [
        { id: 1, location: 1, service: 5, windows: [[100, 120]] },
        { id: 2, location: 2, service: 5, windows: [[140, 200]] },
      ],
    });
    const r = res.routes[0];
    // Stop 1 at 100-105; the break cannot precede it (its window closes at 120) nor wait until
    // after stop 2 (its own closes at 130): it is taken on arrival at stop 2, 115-145, filling the
    // wait for that stop's window. The van leaves at 90, not at 0.
    expect(r.breaks).toEqual([{ before: 1, start: 115, end: 145 }]);
    expect(r).toMatchObject({ departure: 90, starts: [100, 145], end: 170 });
    expect(
      checkPlan(
        {
          matrix,
          vehicles: [{ id: 1, start: 0, end: 0, shift: [0, 500], breaks: [{ duration: 30, window: [100, 130] }] }],
          jobs: [
            { id: 1, location: 1, service: 5, windows: [[100, 120]] },
            { id: 2, location: 2, service: 5, windows: [[140, 200]] },
          ],
        },
        res,
      ).violations,
    ).toEqual([]);
  });

  it('names the missing skill of a job no vehicle can take', () => {
    const input: FleetInput = {
      matrix,
      vehicles: [
        { id: 1, start: 0, skills: ['tail-lift'] },
        { id: 2, start: 0, skills: ['fridge'] },
      ],
      jobs: [
        { id: 1, location: 1, skills: ['fridge', 'two-person'] },
        { id: 2, location: 2, skills: ['fridge'] },
      ],
    };
    const res = optimizeFleet(input);
    expect(res.unassigned).toEqual([1]);
    expect(res.routes).toMatchObject([{ vehicle: 2, jobs: [2] }]);
    expect(unassignedDetails(input, [1])).toEqual([{ reason: 'skill', missingSkills: ['two-person'] }]);
  });

  it('a CPU clock that never advances leaves the plan a function of seed and budget alone', () => {
    const input = randomFleet(7, { jobs: 20, vehicles: 3 });
    const frozen = () => 0;
    const a = optimizeFleet({ ...input, timeLimitMs: 50, seed: 3 }, { cpuNow: frozen });
    const b = optimizeFleet({ ...input, timeLimitMs: 50, seed: 3 }, { cpuNow: frozen });
    expect(a).toEqual(b);
    // A clock past the cap stops the search after the first plan, which is still feasible.
    let t = 0;
    const racing = () => (t += 1000);
    expect(checkPlan(input, optimizeFleet({ ...input, timeLimitMs: 50, seed: 3 }, { cpuNow: racing })).violations).toEqual([]);
  }, 60_000);
});
