import { createRng } from '../../shared/routing/rng';

export type Mode = 'closed' | 'fixed' | 'open';

export function randomMatrix(n: number, seed: number, symmetric: boolean): number[][] {
  const rng = createRng(seed);
  const xs = Array.from({ length: n }, () => rng.next() * 1000);
  const ys = Array.from({ length: n }, () => rng.next() * 1000);
  const m: number[][] = [];
  for (let i = 0; i < n; i++) {
    m.push([]);
    for (let j = 0; j < n; j++) {
      const base = Math.hypot(xs[i] - xs[j], ys[i] - ys[j]);
      // Asymmetric: one-way streets / uphill legs modelled as a random surcharge per direction.
      m[i].push(i === j ? 0 : symmetric ? base : base * (1 + rng.next()) + rng.int(200));
    }
  }
  if (symmetric) for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) m[i][j] = m[j][i];
  return m;
}

export function endFor(mode: Mode, start: number, n: number): number | null {
  if (mode === 'closed') return start;
  if (mode === 'open') return null;
  return (start + 1 + Math.floor(n / 2)) % n === start ? (start + 1) % n : (start + 1 + Math.floor(n / 2)) % n;
}

/** Exhaustive search, the ground truth for small n. */
export function bruteForce(m: number[][], start: number, end: number | null): number {
  const n = m.length;
  const rest = Array.from({ length: n }, (_, i) => i).filter((i) => i !== start);
  let best = Infinity;
  const perm: number[] = [];
  const used = new Array<boolean>(n).fill(false);
  const walk = (last: number, cost: number): void => {
    if (cost >= best) return;
    if (perm.length === rest.length) {
      if (end !== null && end !== start && last !== end) return;
      const total = cost + (end === start ? m[last][start] : 0);
      if (total < best) best = total;
      return;
    }
    for (const v of rest) {
      if (used[v]) continue;
      used[v] = true;
      perm.push(v);
      walk(v, cost + m[last][v]);
      perm.pop();
      used[v] = false;
    }
  };
  walk(start, 0);
  return best;
}

export function expectValidRoute(order: number[], n: number, start: number, end: number | null): string | null {
  if (order.length !== n) return `length ${order.length} != ${n}`;
  if (new Set(order).size !== n) return 'repeated stop';
  if (order.some((v) => !Number.isInteger(v) || v < 0 || v >= n)) return 'stop out of range';
  if (order[0] !== start) return `starts at ${order[0]}, expected ${start}`;
  if (end !== null && end !== start && order[n - 1] !== end) return `ends at ${order[n - 1]}, expected ${end}`;
  return null;
}
