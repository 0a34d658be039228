import { describe, expect, it } from 'vitest';
import { routeCost } from '../../shared/routing';
import { solveExact } from '../../shared/routing/exact';
import { solveTour } from '../../shared/routing/ils';
import { flatten, isSymmetric } from '../../shared/routing/matrix';
import { buildProblem, extractOrder } from '../../shared/routing/problem';
import { createRng } from '../../shared/routing/rng';
import { Tour } from '../../shared/routing/tour';
import { bruteForce, endFor, expectValidRoute, randomMatrix, type Mode } from './routing-helpers';

/** Runs the heuristic directly, bypassing the exact solver optimizeRoute uses for small n. */
function heuristic(m: number[][], start: number, end: number | null, maxIterations: number, seed = 1) {
  const n = m.length;
  const flat = flatten(m);
  const problem = buildProblem(flat, n, isSymmetric(flat, n), start, end);
  const result = solveTour(problem, { timeLimitMs: Infinity, maxIterations, seed });
  const order = extractOrder(problem, result.tour);
  return { order, cost: routeCost(m, order, end), internal: result.cost, problem };
}

const MODES: Mode[] = ['closed', 'fixed', 'open'];

describe('iterated local search (heuristic path)', () => {
  for (const symmetric of [true, false]) {
    for (const mode of MODES) {
      it(`${symmetric ? 'sym' : 'asym'} ${mode}: finds the optimum on n=6..9`, () => {
        for (let n = 6; n <= 9; n++) {
          for (let trial = 0; trial < 4; trial++) {
            const m = randomMatrix(n, 500 + n * 7 + trial, symmetric);
            const start = (trial * 3) % n;
            const end = endFor(mode, start, n);
            const { order, cost } = heuristic(m, start, end, 400);
            expect(expectValidRoute(order, n, start, end)).toBeNull();
            expect(cost).toBeCloseTo(bruteForce(m, start, end), 6);
          }
        }
      });

      it(`${symmetric ? 'sym' : 'asym'} ${mode}: matches Held-Karp on n=14`, () => {
        for (let trial = 0; trial < 3; trial++) {
          const n = 14;
          const m = randomMatrix(n, 900 + trial, symmetric);
          const start = trial * 5;
          const end = endFor(mode, start, n);
          const { order, cost } = heuristic(m, start, end, 3000);
          expect(expectValidRoute(order, n, start, end)).toBeNull();
          const exact = solveExact(flatten(m), n, start, end);
          expect(cost).toBeCloseTo(routeCost(m, exact, end), 6);
        }
      });
    }
  }

  it('reports the cost of the tour it returns (including dummy edges)', () => {
    for (const symmetric of [true, false]) {
      const m = randomMatrix(50, 4, symmetric);
      const { problem, internal, order } = heuristic(m, 2, null, 200);
      const closedCost = routeCost(m, order, null);
      // The dummy's edges add a fixed offset for open routes, identical for every legal tour.
      const offset = internal - closedCost;
      const again = heuristic(m, 2, null, 5);
      expect(again.internal - routeCost(m, again.order, null)).toBeCloseTo(offset, 3);
      expect(problem.dummy).toBe(50);
    }
  });
});

describe('Tour moves', () => {
  const naiveCost = (t: Int32Array, d: Float64Array, n: number) => {
    let c = 0;
    for (let i = 0; i < n; i++) c += d[t[i] * n + t[(i + 1) % n]];
    return c;
  };
  const consistent = (tour: Tour) => {
    for (let i = 0; i < tour.n; i++) if (tour.pos[tour.t[i]] !== i) return false;
    return new Set(tour.t).size === tour.n;
  };

  it('moveSegment yields the intended cyclic sequence', () => {
    const rng = createRng(3);
    for (let trial = 0; trial < 500; trial++) {
      const n = 6 + rng.int(20);
      const tour = new Tour(Array.from({ length: n }, (_, i) => i));
      const len = 1 + rng.int(3);
      const i = rng.int(n);
      const seg = Array.from({ length: len }, (_, k) => tour.t[(i + k) % n]);
      const others = Array.from({ length: n - len }, (_, k) => tour.t[(i + len + k) % n]);
      const c = others[rng.int(others.length)];
      const reversed = rng.next() < 0.5;
      tour.moveSegment(i, len, c, reversed);
      expect(consistent(tour)).toBe(true);
      const expected = [...others];
      expected.splice(expected.indexOf(c) + 1, 0, ...(reversed ? [...seg].reverse() : seg));
      const at = tour.pos[expected[0]];
      const actual = Array.from({ length: n }, (_, k) => tour.t[(at + k) % n]);
      expect(actual).toEqual(expected);
    }
  });

  it('twoOptMove keeps direction on request and matches the predicted cost', () => {
    const rng = createRng(8);
    for (let trial = 0; trial < 300; trial++) {
      const n = 6 + rng.int(20);
      const m = randomMatrix(n, trial, false);
      const d = flatten(m);
      const tour = new Tour(Array.from({ length: n }, (_, i) => i));
      const x1 = rng.int(n);
      const x2 = tour.next(x1);
      let y1 = rng.int(n);
      while (y1 === x1 || y1 === x2 || tour.next(y1) === x1) y1 = rng.int(n);
      const y2 = tour.next(y1);
      const before = naiveCost(tour.t, d, n);
      // Expected: x1 -> y1 ... (reversed) ... x2 -> y2.
      let inner = 0;
      let innerRev = 0;
      for (let v = x2; v !== y1; v = tour.next(v)) {
        inner += d[v * n + tour.next(v)];
        innerRev += d[tour.next(v) * n + v];
      }
      const predicted = before - d[x1 * n + x2] - d[y1 * n + y2] + d[x1 * n + y1] + d[x2 * n + y2] - inner + innerRev;
      tour.twoOptMove(x1, x2, y1, y2, true);
      expect(consistent(tour)).toBe(true);
      expect(tour.next(x1)).toBe(y1);
      expect(tour.next(x2)).toBe(y2);
      expect(naiveCost(tour.t, d, n)).toBeCloseTo(predicted, 6);
    }
  });
});
