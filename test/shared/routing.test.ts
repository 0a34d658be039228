import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { euc2dMatrix, haversineMatrix, haversineProvider, optimizeRoute, parseTsplib, routeCost } from '../../shared/routing';
import { bruteForce, endFor, expectValidRoute, randomMatrix, type Mode } from './routing-helpers';

const MODES: Mode[] = ['closed', 'fixed', 'open'];

describe('optimizeRoute validity', () => {
  for (const symmetric of [true, false]) {
    for (const mode of MODES) {
      for (const n of [1, 2, 3, 4, 5, 9, 13, 17, 30, 60]) {
        it(`${symmetric ? 'sym' : 'asym'} ${mode} n=${n}`, () => {
          const m = randomMatrix(n, 1000 + n, symmetric);
          for (const start of new Set([0, n - 1, Math.floor(n / 2)])) {
            const end = endFor(mode, start, n);
            const { order, cost } = optimizeRoute({ matrix: m, start, end, maxIterations: 300 });
            expect(expectValidRoute(order, n, start, end)).toBeNull();
            expect(cost).toBeCloseTo(routeCost(m, order, end), 6);
          }
        });
      }
    }
  }

  it('accepts typed-array rows', () => {
    const m = randomMatrix(20, 5, true).map((row) => Float64Array.from(row));
    const { order, cost } = optimizeRoute({ matrix: m, start: 3, end: 3, maxIterations: 100 });
    expect(expectValidRoute(order, 20, 3, 3)).toBeNull();
    expect(cost).toBeCloseTo(routeCost(m, order, 3), 6);
  });

  it('n=1 and n=2 are trivial', () => {
    expect(optimizeRoute({ matrix: [[0]], start: 0, end: 0 })).toEqual({ order: [0], cost: 0 });
    expect(optimizeRoute({ matrix: [[0]], start: 0, end: null })).toEqual({ order: [0], cost: 0 });
    const m = [
      [0, 5],
      [7, 0],
    ];
    expect(optimizeRoute({ matrix: m, start: 1, end: 1 })).toEqual({ order: [1, 0], cost: 12 });
    expect(optimizeRoute({ matrix: m, start: 1, end: 0 })).toEqual({ order: [1, 0], cost: 7 });
    expect(optimizeRoute({ matrix: m, start: 0, end: null })).toEqual({ order: [0, 1], cost: 5 });
  });

  it('respects one-way costs in a 3-stop loop', () => {
    // 0->2->1->0 costs 3; the reverse direction costs 300.
    const m = [
      [0, 100, 1],
      [1, 0, 100],
      [100, 1, 0],
    ];
    expect(optimizeRoute({ matrix: m, start: 0, end: 0 })).toEqual({ order: [0, 2, 1], cost: 3 });
  });
});

describe('optimizeRoute optimality on small instances', () => {
  for (const symmetric of [true, false]) {
    for (const mode of MODES) {
      it(`${symmetric ? 'sym' : 'asym'} ${mode} matches brute force for n<=8`, () => {
        for (let n = 4; n <= 8; n++) {
          for (let trial = 0; trial < 3; trial++) {
            const m = randomMatrix(n, n * 31 + trial, symmetric);
            const start = trial % n;
            const end = endFor(mode, start, n);
            const { cost } = optimizeRoute({ matrix: m, start, end, maxIterations: 500 });
            expect(cost).toBeCloseTo(bruteForce(m, start, end), 6);
          }
        }
      });
    }
  }
});

describe('optimizeRoute determinism', () => {
  it('same seed and iteration budget give the same route', () => {
    for (const symmetric of [true, false]) {
      const m = randomMatrix(80, 77, symmetric);
      const run = (seed: number) => optimizeRoute({ matrix: m, start: 4, end: null, seed, maxIterations: 400 });
      expect(run(11)).toEqual(run(11));
      expect(run(12)).toEqual(run(12));
    }
  });

  it('default seed is fixed', () => {
    const m = randomMatrix(40, 9, false);
    const a = optimizeRoute({ matrix: m, start: 0, end: 7, maxIterations: 200 });
    const b = optimizeRoute({ matrix: m, start: 0, end: 7, maxIterations: 200 });
    expect(a).toEqual(b);
  });

  it('more iterations never make the result worse', () => {
    const m = randomMatrix(120, 3, true);
    const short = optimizeRoute({ matrix: m, start: 0, end: 0, maxIterations: 10 });
    const long = optimizeRoute({ matrix: m, start: 0, end: 0, maxIterations: 3000 });
    expect(long.cost).toBeLessThanOrEqual(short.cost + 1e-9);
  });
});

describe('optimizeRoute input validation', () => {
  const ok = randomMatrix(4, 1, true);
  const cases: [string, () => unknown][] = [
    ['empty matrix', () => optimizeRoute({ matrix: [], start: 0, end: 0 })],
    [
      'non-square matrix',
      () =>
        optimizeRoute({
          matrix: [
            [0, 1],
            [1, 0],
            [2, 2],
          ],
          start: 0,
          end: 0,
        }),
    ],
    ['ragged row', () => optimizeRoute({ matrix: [[0, 1], [1]], start: 0, end: 0 })],
    [
      'NaN entry',
      () =>
        optimizeRoute({
          matrix: [
            [0, NaN],
            [1, 0],
          ],
          start: 0,
          end: 0,
        }),
    ],
    [
      'Infinity entry',
      () =>
        optimizeRoute({
          matrix: [
            [0, Infinity],
            [1, 0],
          ],
          start: 0,
          end: 0,
        }),
    ],
    ['start out of range', () => optimizeRoute({ matrix: ok, start: 4, end: null })],
    ['negative start', () => optimizeRoute({ matrix: ok, start: -1, end: null })],
    ['fractional start', () => optimizeRoute({ matrix: ok, start: 0.5, end: null })],
    ['end out of range', () => optimizeRoute({ matrix: ok, start: 0, end: 9 })],
    ['NaN end', () => optimizeRoute({ matrix: ok, start: 0, end: NaN })],
    ['NaN time limit', () => optimizeRoute({ matrix: ok, start: 0, end: 0, timeLimitMs: NaN })],
  ];
  for (const [name, fn] of cases) {
    it(`rejects ${name} with RangeError`, () => {
      expect(fn).toThrow(RangeError);
    });
  }
});

describe('routeCost', () => {
  const m = [
    [0, 1, 10],
    [2, 0, 3],
    [4, 5, 0],
  ];
  it('adds the closing edge only for closed tours', () => {
    expect(routeCost(m, [0, 1, 2], 0)).toBe(1 + 3 + 4);
    expect(routeCost(m, [0, 1, 2], 2)).toBe(1 + 3);
    expect(routeCost(m, [0, 1, 2], null)).toBe(1 + 3);
  });
});

describe('TSPLIB', () => {
  const text = readFileSync(new URL('../../bench/data/tsplib/berlin52.tsp', import.meta.url), 'utf8');

  it('parses berlin52', () => {
    const inst = parseTsplib(text);
    expect(inst.name).toBe('berlin52');
    expect(inst.dimension).toBe(52);
    expect([inst.x[0], inst.y[0]]).toEqual([565, 575]);
    expect([inst.x[51], inst.y[51]]).toEqual([1740, 245]);
  });

  it('solves berlin52 within 5% of the optimum 7542 on an iteration budget', () => {
    const m = euc2dMatrix(parseTsplib(text));
    const { order, cost } = optimizeRoute({ matrix: m, start: 0, end: 0, maxIterations: 2000 });
    expect(expectValidRoute(order, 52, 0, 0)).toBeNull();
    expect(cost).toBeGreaterThanOrEqual(7542);
    expect(cost).toBeLessThanOrEqual(7542 * 1.05);
  });

  it('rejects unsupported weight types', () => {
    expect(() => parseTsplib('NAME: x\nDIMENSION: 1\nEDGE_WEIGHT_TYPE: GEO\nNODE_COORD_SECTION\n1 0 0\nEOF')).toThrow(RangeError);
  });
});

describe('haversine', () => {
  const sydney = { latitude: -33.8688, longitude: 151.2093 };
  const melbourne = { latitude: -37.8136, longitude: 144.9631 };

  it('Sydney to Melbourne is about 713 km', () => {
    const m = haversineMatrix([sydney, melbourne]);
    expect(m[0][1]).toBeGreaterThan(713_000 * 0.99);
    expect(m[0][1]).toBeLessThan(713_000 * 1.01);
  });

  it('is symmetric with a zero diagonal', () => {
    const pts = [sydney, melbourne, { latitude: 51.5, longitude: -0.12 }, { latitude: 0, longitude: 0 }];
    const m = haversineMatrix(pts);
    for (let i = 0; i < pts.length; i++) {
      expect(m[i][i]).toBe(0);
      for (let j = 0; j < pts.length; j++) expect(m[i][j]).toBe(m[j][i]);
    }
  });

  it('rejects non-finite coordinates', () => {
    expect(() => haversineMatrix([{ latitude: NaN, longitude: 0 }])).toThrow(RangeError);
  });

  it('haversineProvider resolves to the same matrix', async () => {
    await expect(haversineProvider.matrix([sydney, melbourne])).resolves.toEqual(haversineMatrix([sydney, melbourne]));
  });
});
