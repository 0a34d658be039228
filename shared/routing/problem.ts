/**
 * Every variant (closed tour, path to a fixed end, path ending anywhere) is turned into a
 * closed tour over at most one extra "dummy" node, so a single tour solver serves them all.
 */
export interface TourProblem {
  /** Node count including the dummy. */
  n: number;
  /** Row-major costs, n * n. */
  d: Float64Array;
  symmetric: boolean;
  /** Improvements smaller than this are rounding noise, not progress. */
  eps: number;
  /** Index of the dummy node, or -1 for a plain closed tour. */
  dummy: number;
  start: number;
  end: number | null;
}

export function buildProblem(flat: Float64Array, n0: number, symmetric: boolean, start: number, end: number | null): TourProblem {
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < flat.length; i++) {
    if (flat[i] < lo) lo = flat[i];
    if (flat[i] > hi) hi = flat[i];
  }
  const scale = Math.max(1, hi - lo);
  if (end === start) {
    return { n: n0, d: flat, symmetric, eps: 1e-9 * scale, dummy: -1, start, end };
  }
  // Large enough that no route using a forbidden dummy edge can beat one that does not.
  const big = scale * (n0 + 2);
  const n = n0 + 1;
  const dummy = n0;
  const d = new Float64Array(n * n);
  for (let i = 0; i < n0; i++) d.set(flat.subarray(i * n0, (i + 1) * n0), i * n);
  for (let j = 0; j < n0; j++) {
    d[dummy * n + j] = big;
    d[j * n + dummy] = big;
  }
  d[dummy * n + start] = 0;
  d[start * n + dummy] = 0;
  if (end !== null) {
    d[end * n + dummy] = 0;
    d[dummy * n + end] = 0;
    if (!symmetric) {
      // Direction matters: the tour must run end -> dummy -> start, never the reverse.
      d[dummy * n + end] = big;
      d[start * n + dummy] = big;
    }
  } else if (!symmetric) {
    // Any stop may be last; only the dummy's successor is pinned to the start.
    for (let j = 0; j < n0; j++) d[j * n + dummy] = 0;
  }
  // The big edges stay within relative double precision of `eps`, so add a term for them.
  return { n, d, symmetric, eps: 1e-9 * scale + big * 1e-13, dummy, start, end };
}

/** Reads the stop order out of a solved tour, dropping the dummy and fixing orientation. */
export function extractOrder(problem: TourProblem, tour: Int32Array): number[] {
  const { n, dummy, start, end, symmetric } = problem;
  let at = 0;
  while (tour[at] !== start) at++;
  let step = 1;
  if (symmetric && dummy >= 0 && tour[(at + 1) % n] === dummy) step = n - 1;
  const order: number[] = [];
  for (let k = 0; k < n; k++) {
    const v = tour[(at + k * step) % n];
    if (v !== dummy) order.push(v);
  }
  if (end !== null && end !== start && order[order.length - 1] !== end) {
    // Cannot happen while dummy edges are priced prohibitively; kept so output is always valid.
    order.splice(order.indexOf(end), 1);
    order.push(end);
  }
  return order;
}
