/**
 * Held-Karp dynamic programme. For a dozen stops it is cheaper than one heuristic pass and
 * removes any doubt about optimality for the routes couriers most often plan.
 */
export const EXACT_MAX_STOPS = 12;

export function solveExact(d: Float64Array, n: number, start: number, end: number | null): number[] {
  if (n === 1) return [start];
  const others: number[] = [];
  for (let i = 0; i < n; i++) if (i !== start) others.push(i);
  const m = others.length;
  const full = (1 << m) - 1;
  const dp = new Float64Array((full + 1) * m).fill(Infinity);
  const parent = new Int8Array((full + 1) * m).fill(-1);
  for (let j = 0; j < m; j++) dp[(1 << j) * m + j] = d[start * n + others[j]];
  for (let mask = 1; mask <= full; mask++) {
    for (let j = 0; j < m; j++) {
      if (!(mask & (1 << j))) continue;
      const base = dp[mask * m + j];
      if (base === Infinity) continue;
      const from = others[j] * n;
      for (let k = 0; k < m; k++) {
        if (mask & (1 << k)) continue;
        const next = mask | (1 << k);
        const v = base + d[from + others[k]];
        if (v < dp[next * m + k]) {
          dp[next * m + k] = v;
          parent[next * m + k] = j;
        }
      }
    }
  }
  let last = -1;
  let bestCost = Infinity;
  for (let j = 0; j < m; j++) {
    if (end !== null && end !== start && others[j] !== end) continue;
    const closing = end === start ? d[others[j] * n + start] : 0;
    const v = dp[full * m + j] + closing;
    if (v < bestCost) {
      bestCost = v;
      last = j;
    }
  }
  const reversed: number[] = [];
  let mask = full;
  while (last >= 0) {
    reversed.push(others[last]);
    const prev = parent[mask * m + last];
    mask &= ~(1 << last);
    last = prev;
  }
  reversed.push(start);
  return reversed.reverse();
}
