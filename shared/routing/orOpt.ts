import type { SearchState } from './state';

const MAX_SEGMENT = 3;

/**
 * Or-opt from node a: lift a segment of 1..3 nodes that begins or ends at a and reinsert it,
 * in either orientation, next to one of its candidate neighbours. Applies the first
 * improving move and returns true.
 */
export function tryOrOpt(s: SearchState, a: number): boolean {
  const { n, tour } = s;
  for (let len = 1; len <= MAX_SEGMENT && len + 3 <= n; len++) {
    // Segment starting at a, then (for len > 1) the one ending at a.
    let last = a;
    for (let q = 1; q < len; q++) last = tour.next(last);
    if (trySegment(s, a, last, len)) return true;
    if (len === 1) continue;
    let first = a;
    for (let q = 1; q < len; q++) first = tour.prev(first);
    if (trySegment(s, first, a, len)) return true;
  }
  return false;
}

function trySegment(s: SearchState, s1: number, sL: number, len: number): boolean {
  const { n, d, eps, tour, symmetric } = s;
  const { k, out, in: inn } = s.nb;
  const pos = tour.pos;
  const p = tour.prev(s1);
  const nx = tour.next(sL);
  const removeGain = d[p * n + s1] + d[sL * n + nx] - d[p * n + nx];
  if (removeGain <= eps) return false;

  let flipExtra = 0;
  if (!symmetric && len > 1) {
    for (let v = s1; v !== sL;) {
      const w = tour.next(v);
      flipExtra += d[w * n + v] - d[v * n + w];
      v = w;
    }
  }
  const p1 = pos[s1];

  // Each pass picks the candidate list whose edge is fixed by the insertion orientation:
  // 0: c -> s1 (forward), 1: sL -> e (forward), 2: c -> sL (reversed), 3: s1 -> e (reversed).
  for (let pass = 0; pass < 4; pass++) {
    if (len === 1 && pass >= 2) break;
    const reversed = pass >= 2;
    const anchor = pass === 0 ? s1 : pass === 1 ? sL : pass === 2 ? sL : s1;
    const list = pass === 0 || pass === 2 ? inn : out;
    const head = reversed ? sL : s1;
    const tail = reversed ? s1 : sL;
    for (let q = 0; q < k; q++) {
      const x = list[anchor * k + q];
      const fixed = pass === 0 || pass === 2 ? d[x * n + anchor] : d[anchor * n + x];
      if (fixed >= removeGain - eps) break;
      const c = pass === 0 || pass === 2 ? x : tour.prev(x);
      const e = pass === 0 || pass === 2 ? tour.next(x) : x;
      // Either end inside the lifted segment would make the insertion point vanish.
      if ((pos[c] - p1 + n) % n < len || (pos[e] - p1 + n) % n < len) continue;
      let delta = d[c * n + head] + d[tail * n + e] - d[c * n + e] - removeGain;
      if (reversed) delta += flipExtra;
      if (delta < -eps) {
        tour.moveSegment(p1, len, c, reversed);
        s.delta += delta;
        s.push(p);
        s.push(nx);
        s.push(s1);
        s.push(sL);
        s.push(c);
        s.push(e);
        return true;
      }
    }
  }
  return false;
}
