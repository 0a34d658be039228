import type { Rng } from './rng';
import type { SearchState } from './state';

/**
 * Local double-bridge: swap two adjacent segments B and C of bounded length (A B C D ->
 * A C B D). The three new edges join nodes that were fairly close in tour order, hence
 * usually in space, and the kick keeps every segment's direction, so it is valid for
 * asymmetric costs and out of reach of 2-opt/Or-opt on their own.
 * Returns false (tour untouched) if the chosen cuts would detach the pinned dummy node.
 */
export function localDoubleBridge(s: SearchState, rng: Rng, maxLen: number, dummy: number): boolean {
  const { n, d, tour } = s;
  const t = tour.t;
  const cap = Math.max(1, Math.min(maxLen, (n - 2) >> 1));
  const l1 = 1 + rng.int(cap);
  const l2 = 1 + rng.int(cap);
  const p = rng.int(n);
  const a1 = t[p];
  const b1 = t[(p + 1) % n];
  const b2 = t[(p + l1) % n];
  const c1 = t[(p + l1 + 1) % n];
  const c2 = t[(p + l1 + l2) % n];
  const d1 = t[(p + l1 + l2 + 1) % n];
  if (dummy >= 0 && (a1 === dummy || b1 === dummy || b2 === dummy || c1 === dummy || c2 === dummy || d1 === dummy)) {
    return false;
  }
  s.delta += d[a1 * n + c1] + d[c2 * n + b1] + d[b2 * n + d1] - d[a1 * n + b1] - d[b2 * n + c1] - d[c2 * n + d1];
  // Segment B moves behind C; moveSegment shifts the shorter side, here C (or B).
  tour.moveSegment((p + 1) % n, l1, c2, false);
  s.push(a1);
  s.push(b1);
  s.push(b2);
  s.push(c1);
  s.push(c2);
  s.push(d1);
  return true;
}
