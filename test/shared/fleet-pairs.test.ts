import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { optimizeFleet, routeSchedule, unassignedDetails, type FleetInput } from '../../shared/routing/fleet/index';
import { parseLiLim } from '../../shared/routing/fleet/lilim';
import { createRng } from '../../shared/routing/rng';
import { bruteForceFleet, checkPlan, randomFleet } from './fleet-helpers';

/**
 * Issue 32's pickup-and-delivery pairs: both halves on one vehicle, the pickup first, the load
 * counted along the route. Checked by the independent replay in fleet-helpers.ts and against the
 * exhaustive optimum of small random instances.
 */

/** The first 2 x `pairs` jobs become pairs (pickup, delivery); capacities tight enough that the load along the route matters. */
function withPairs(input: FleetInput, seed: number, pairs: number): FleetInput {
  const rng = createRng(seed);
  const jobs = input.jobs.map((j, k) => (k < 2 * pairs && k % 2 === 1 ? { ...j, demand: undefined } : j));
  return {
    ...input,
    vehicles: input.vehicles.map((v) => ({ ...v, capacity: [6 + rng.int(8), 2 + rng.int(3)] })),
    jobs,
    pairs: Array.from({ length: pairs }, (_, i) => ({ pickup: jobs[2 * i].id, delivery: jobs[2 * i + 1].id })),
  };
}

describe('pickup-and-delivery pairs against the brute-force optimum', () => {
  it('3 pairs and 2 deliveries, 2 vehicles: the optimiser reaches the optimum and keeps every pair rule', () => {
    let capacityBound = 0;
    for (let seed = 1; seed <= 4; seed++) {
      const paired = withPairs(randomFleet(seed * 6151, { jobs: 8, vehicles: 2, asymmetric: seed % 2 === 0 }), seed, 3);
      // Even seeds: the rich evaluation (costs per distance and time, a break) decides each pair's place.
      const input: FleetInput =
        seed % 2 === 0
          ? {
              ...paired,
              vehicles: paired.vehicles.map((v) => ({
                ...v,
                costs: { perDistance: 1, perTime: 0.5 },
                breaks: [{ duration: 10, window: [(v.shift?.[0] ?? 0) + 40, (v.shift?.[0] ?? 0) + 90] as [number, number] }],
              })),
            }
          : paired;
      const exact = bruteForceFleet(input);
      const res = optimizeFleet({ ...input, timeLimitMs: 10_000, seed });
      const check = checkPlan(input, res);
      expect(check.violations, `seed ${seed}`).toEqual([]);
      expect(check.hardUnserved, `seed ${seed}`).toBe(exact.hardUnserved);
      expect(check.cost, `seed ${seed}`).toBeCloseTo(exact.cost, 6);
      // The same plan with every pair dropped (loads summed from the start) would break a capacity: the rule did bind.
      const unpaired = checkPlan({ ...input, pairs: undefined, jobs: input.jobs.map((j) => ({ ...j, demand: j.demand ?? [] })) }, res);
      if (unpaired.violations.some((x) => x.includes('capacity'))) capacityBound++;
    }
    expect(capacityBound).toBeGreaterThan(0);
  }, 300_000);
});

describe('pairs in plans of any size', () => {
  it('random instances with pairs: no rule broken, a pair left out whole with a reason that names it', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const rng = createRng(seed);
      const jobs = 4 + rng.int(20);
      const input = withPairs(
        randomFleet(seed * 31, { jobs, vehicles: 1 + rng.int(3), asymmetric: seed % 3 === 0 }),
        seed,
        Math.floor(jobs / 3),
      );
      const res = optimizeFleet({ ...input, timeLimitMs: 20, seed });
      expect(checkPlan(input, res).violations, `seed ${seed}`).toEqual([]);
      const out = new Set(res.unassigned);
      const details = unassignedDetails(input, res.unassigned);
      res.unassigned.forEach((id, k) => {
        const pair = input.pairs?.find((p) => p.pickup === id || p.delivery === id);
        if (!pair) return expect(details[k].pair).toBeUndefined();
        expect(details[k].pair).toEqual(pair);
        expect(out.has(pair.pickup) && out.has(pair.delivery)).toBe(true);
      });
    }
  }, 120_000);

  it('Li & Lim lc101 (53 pairs): every task served, every pair whole and in order, load within capacity', () => {
    const inst = parseLiLim(readFileSync(join(__dirname, '../../bench/data/li-lim-100/lc101.txt'), 'utf8'));
    const res = optimizeFleet({ ...inst.input, timeLimitMs: 300, seed: 1 });
    const check = checkPlan(inst.input, res);
    expect(check.violations).toEqual([]);
    expect(res.unassigned).toEqual([]);
    for (const r of res.routes) {
      const s = routeSchedule(inst.input, r);
      expect(s.feasible).toBe(true);
      expect(s.load[0]).toBeLessThanOrEqual(inst.capacity);
    }
  }, 60_000);
});

describe('what a dispatcher is told about pairs', () => {
  // Depot 0, places 1..3 on a line, 10 apart.
  const matrix = [0, 1, 2, 3].map((i) => [0, 1, 2, 3].map((j) => Math.abs(i - j) * 10));
  const vehicles = [{ id: 1, start: 0, end: 0, capacity: [5] }];

  it('carries a pickup to its delivery on the same van, pickup first, and counts the load between them', () => {
    // The delivery lies before the pickup on the way out: the van must come back for it.
    const input: FleetInput = {
      matrix,
      vehicles,
      jobs: [
        { id: 10, location: 3, demand: [4] },
        { id: 11, location: 1 },
        { id: 12, location: 2, demand: [1] },
      ],
      pairs: [{ pickup: 10, delivery: 11 }],
    };
    const res = optimizeFleet({ ...input, timeLimitMs: 200 });
    expect(checkPlan(input, res).violations).toEqual([]);
    const jobs = res.routes[0].jobs;
    expect(jobs.indexOf(10)).toBeLessThan(jobs.indexOf(11));
    // Job 12's parcel leaves the depot (1) and the pair's 4 ride to job 11: 5 at most, never 1 + 4 + 4.
    expect(routeSchedule(input, res.routes[0]).load).toEqual([jobs.indexOf(12) < jobs.indexOf(10) ? 4 : 5]);
    // A van of 4 cannot take the pair with job 12's parcel aboard, unless 12 is served before the pickup.
    const small: FleetInput = { ...input, vehicles: [{ ...vehicles[0], capacity: [4] }] };
    const r2 = optimizeFleet({ ...small, timeLimitMs: 200 });
    expect(checkPlan(small, r2).violations).toEqual([]);
    expect(r2.routes[0].jobs).toEqual([12, 10, 11]);
  });

  it('names the pair and why it is left out', () => {
    const input: FleetInput = {
      matrix,
      vehicles: [{ ...vehicles[0], shift: [0, 100] }],
      jobs: [
        { id: 20, location: 3, windows: [[40, 50]] },
        { id: 21, location: 1, windows: [[0, 20]] },
        { id: 22, location: 2, demand: [9] },
      ],
      pairs: [{ pickup: 20, delivery: 21 }],
    };
    const res = optimizeFleet({ ...input, timeLimitMs: 100 });
    expect(res.unassigned).toEqual([20, 21, 22]);
    expect(unassignedDetails(input, [20, 21, 22])).toEqual([
      { reason: 'window', pair: { pickup: 20, delivery: 21 } },
      { reason: 'window', pair: { pickup: 20, delivery: 21 } },
      { reason: 'capacity' },
    ]);
  });

  it('rejects malformed pairs with a RangeError', () => {
    const jobs = [
      { id: 1, location: 1, demand: [2] },
      { id: 2, location: 2 },
      { id: 3, location: 3, demand: [3] },
    ];
    const bad: FleetInput['pairs'][] = [
      [{ pickup: 1, delivery: 9 }],
      [{ pickup: 1, delivery: 1 }],
      [
        { pickup: 1, delivery: 2 },
        { pickup: 3, delivery: 2 },
      ],
      [{ pickup: 1, delivery: 3 }],
    ];
    for (const pairs of bad) expect(() => optimizeFleet({ matrix, vehicles, jobs, pairs, timeLimitMs: 10 })).toThrow(RangeError);
  });
});
