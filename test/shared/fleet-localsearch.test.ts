import { describe, expect, it } from 'vitest';
import type { FleetInput, FleetResult } from '../../shared/routing/fleet/index';
import { LocalSearch } from '../../shared/routing/fleet/localSearch';
import { buildModel, type FleetModel } from '../../shared/routing/fleet/model';
import { solveFleetModel } from '../../shared/routing/fleet/search';
import { Solution } from '../../shared/routing/fleet/solution';
import { createRng } from '../../shared/routing/rng';
import { checkPlan, randomFleet } from './fleet-helpers';

/**
 * The local search on rich models (issue 32 §3): costs, a distance matrix, breaks, maximum
 * durations and stops, balance and pickup-and-delivery pairs. A first plan is improved by the
 * local search alone; the independent checker (fleet-helpers.ts) then replays every route, and
 * the objective it computes must be the one the search reports, never above the first plan's.
 */
type Variant = (input: FleetInput, seed: number) => FleetInput;

const VARIANTS: Variant[] = [
  (input, seed) => {
    const rng = createRng(seed);
    return {
      ...input,
      distance: input.matrix.map((row) => row.map((x) => Math.round(x * (1 + rng.next())))),
      vehicles: input.vehicles.map((v) => ({ ...v, costs: { fixed: rng.int(60), perDistance: rng.next(), perTime: rng.next() } })),
    };
  },
  (input, seed) => {
    const rng = createRng(seed);
    return {
      ...input,
      vehicles: input.vehicles.map((v) => {
        const a = (v.shift?.[0] ?? 0) + 20 + rng.int(60);
        return {
          ...v,
          costs: { perTime: 1, perDistance: 0.5 },
          maxDuration: 250 + rng.int(200),
          maxStops: 6 + rng.int(8),
          breaks: [
            { duration: 10 + rng.int(20), window: [a, a + rng.int(40)] as [number, number] },
            { duration: 5, window: [a + 80, a + 160] as [number, number] },
          ],
        };
      }),
    };
  },
  (input) => ({
    ...input,
    balance: { by: 'duration', weight: 0.01 },
    vehicles: input.vehicles.map((v) => ({ ...v, costs: { perDistance: 1 } })),
  }),
  (input, seed) => {
    // Pairs: the first jobs two by two (pickup, delivery), capacities tight enough that the load on each leg matters.
    const rng = createRng(seed);
    const pairs = Math.floor(input.jobs.length / 3);
    const jobs = input.jobs.map((j, k) => (k < 2 * pairs && k % 2 === 1 ? { ...j, demand: undefined } : j));
    return {
      ...input,
      balance: { by: 'stops', weight: 2 },
      vehicles: input.vehicles.map((v) => ({
        ...v,
        capacity: [10 + rng.int(10), 3 + rng.int(3)],
        costs: { perDistance: 1, perTime: 0.3 },
      })),
      jobs,
      pairs: Array.from({ length: pairs }, (_, i) => ({ pickup: jobs[2 * i].id, delivery: jobs[2 * i + 1].id })),
    };
  },
];

/** Every job's other jobs, nearest first (there and back, then index): the search's neighbour lists. */
function neighbours(m: FleetModel): Int32Array[] {
  const key = (a: number, b: number): number => m.d[m.loc[a] * m.n + m.loc[b]] + m.d[m.loc[b] * m.n + m.loc[a]];
  return Array.from({ length: m.J }, (_, a) =>
    Int32Array.from(
      Array.from({ length: m.J }, (__, b) => b)
        .filter((b) => b !== a)
        .sort((x, y) => key(a, x) - key(a, y) || x - y),
    ),
  );
}

function asResult(m: FleetModel, sol: Solution): FleetResult {
  const served = new Set<number>();
  const routes = sol.routes
    .filter((r) => r.jobs.length > 0)
    .map((r) => {
      for (const j of r.jobs) served.add(j);
      return { vehicle: m.vehicleIds[r.v], jobs: r.jobs.map((j) => m.jobIds[j]) };
    });
  const unassigned = m.jobIds.filter((_, j) => !served.has(j));
  return { routes, unassigned };
}

describe('local search on rich models', () => {
  it('random rich instances: every move keeps every rule, and the objective only falls', () => {
    let improved = 0;
    let runs = 0;
    for (let seed = 1; seed <= 32; seed++) {
      const rng = createRng(seed * 7919);
      const base = randomFleet(seed * 7919, { jobs: 20 + rng.int(25), vehicles: 2 + rng.int(4), asymmetric: seed % 2 === 0 });
      const input = VARIANTS[seed % VARIANTS.length](base, seed);
      const m = buildModel(input);
      expect(m.rich).toBe(true);
      // A first plan (one ruin-and-recreate step at most) without the local search.
      const first = solveFleetModel(m, { seed, work: 1, timeLimitMs: 1e9, localSearch: false });
      const sol = new Solution(m);
      first.routes.forEach((jobs, r) => {
        sol.routes[r].jobs.push(...jobs);
        sol.routes[r].update(m);
        sol.index(r);
      });
      const before = sol.cost();
      expect(checkPlan(input, asResult(m, sol)).violations, `seed ${seed}, first plan`).toEqual([]);
      const ls = new LocalSearch(m, neighbours(m));
      const touched = new Set<number>();
      ls.run(
        sol,
        sol.routes.map((_, r) => r),
        (r) => touched.add(r),
      );
      const after = sol.cost();
      runs++;
      const check = checkPlan(input, asResult(m, sol));
      expect(check.violations, `seed ${seed}`).toEqual([]);
      expect(check.cost, `seed ${seed}`).toBeCloseTo(after, 6);
      expect(after, `seed ${seed}`).toBeLessThanOrEqual(before + 1e-9);
      if (after < before - 1e-6) {
        improved++;
        expect(touched.size, `seed ${seed}`).toBeGreaterThan(0);
      }
    }
    // The search does move on rich models (it was off for them before).
    expect(improved).toBeGreaterThan(runs / 4);
  }, 120_000);

  it('the search with it stays a function of seed and work budget on rich models with pairs', () => {
    const input = VARIANTS[3](randomFleet(4243, { jobs: 40, vehicles: 4 }), 7);
    const solve = (): number[][] => solveFleetModel(buildModel(input), { seed: 3, work: 300_000, timeLimitMs: 1e9 }).routes;
    const a = solve();
    expect(solve()).toEqual(a);
    expect(a.some((r) => r.length > 0)).toBe(true);
  }, 60_000);
});
