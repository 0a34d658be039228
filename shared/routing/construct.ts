import type { TourProblem } from './problem';

/**
 * Nearest-neighbour tour from the start. Local search repairs its long closing edges quickly;
 * what matters here is that the dummy sits in a legal place from the outset, so the tour
 * never has to climb out of a prohibitive-cost state.
 */
export function nearestNeighbourTour(problem: TourProblem): Int32Array {
  const { n, d, dummy, start, end } = problem;
  const pinnedEnd = dummy >= 0 && end !== null ? end : -1;
  const used = new Uint8Array(n);
  const order = new Int32Array(n);
  let size = 0;
  const take = (v: number): void => {
    used[v] = 1;
    order[size++] = v;
  };
  if (dummy >= 0) used[dummy] = 1;
  if (pinnedEnd >= 0) used[pinnedEnd] = 1;
  take(start);
  const free = n - (dummy >= 0 ? 1 : 0) - (pinnedEnd >= 0 ? 1 : 0);
  let cur = start;
  while (size < free) {
    let best = -1;
    let bestW = Infinity;
    const row = cur * n;
    for (let j = 0; j < n; j++) {
      if (!used[j] && d[row + j] < bestW) {
        bestW = d[row + j];
        best = j;
      }
    }
    take(best);
    cur = best;
  }
  if (pinnedEnd >= 0) order[size++] = pinnedEnd;
  if (dummy >= 0) order[size++] = dummy;
  return order;
}
