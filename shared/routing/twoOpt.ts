import type { SearchState } from './state';

/**
 * Best-first-found 2-opt from node a over its candidate lists, trying both tour neighbours of
 * a. Stops scanning a list once the new edge alone is no cheaper than the edge it replaces
 * (the standard gain criterion). Applies the first improving move and returns true.
 */
export function tryTwoOpt(s: SearchState, a: number): boolean {
  const { n, d, eps, tour, symmetric } = s;
  const { k, out, in: inn } = s.nb;

  const b = tour.next(a);
  const dab = d[a * n + b];
  for (let q = 0; q < k; q++) {
    const c = out[a * k + q];
    const dac = d[a * n + c];
    if (dac >= dab - eps) break;
    const dd = tour.next(c);
    if (c === b || dd === a) continue;
    let delta = dac + d[b * n + dd] - dab - d[c * n + dd];
    if (!symmetric) delta += s.reversalDelta(b, c);
    if (delta < -eps) {
      apply(s, a, b, c, dd, delta);
      return true;
    }
  }

  const p = tour.prev(a);
  const dpa = d[p * n + a];
  for (let q = 0; q < k; q++) {
    const c = inn[a * k + q];
    const dca = d[c * n + a];
    if (dca >= dpa - eps) break;
    const pc = tour.prev(c);
    if (c === p || pc === a) continue;
    // Removes (pc,c),(p,a); adds (pc,p),(c,a) by reversing c..p.
    let delta = dca + d[pc * n + p] - dpa - d[pc * n + c];
    if (!symmetric) delta += s.reversalDelta(c, p);
    if (delta < -eps) {
      apply(s, pc, c, p, a, delta);
      return true;
    }
  }
  return false;
}

function apply(s: SearchState, x1: number, x2: number, y1: number, y2: number, delta: number): void {
  s.tour.twoOptMove(x1, x2, y1, y2, !s.symmetric);
  s.delta += delta;
  s.push(x1);
  s.push(x2);
  s.push(y1);
  s.push(y2);
}
