/**
 * K cheapest successors (out) and predecessors (in) of every node. Restricting moves to these
 * candidates is what makes local search near-linear instead of quadratic per pass.
 */
export interface Neighbors {
  k: number;
  out: Int32Array;
  in: Int32Array;
}

function nearest(d: Float64Array, n: number, k: number, incoming: boolean): Int32Array {
  const lists = new Int32Array(n * k);
  const keys = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    let size = 0;
    const base = i * k;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const w = incoming ? d[j * n + i] : d[i * n + j];
      if (size === k && w >= keys[k - 1]) continue;
      // Insertion into a short sorted list beats sorting all n candidates for small k.
      let p = size < k ? size++ : k - 1;
      while (p > 0 && keys[p - 1] > w) {
        keys[p] = keys[p - 1];
        lists[base + p] = lists[base + p - 1];
        p--;
      }
      keys[p] = w;
      lists[base + p] = j;
    }
  }
  return lists;
}

export function buildNeighbors(d: Float64Array, n: number, symmetric: boolean, k: number): Neighbors {
  const kk = Math.max(1, Math.min(k, n - 1));
  const out = nearest(d, n, kk, false);
  return { k: kk, out, in: symmetric ? out : nearest(d, n, kk, true) };
}
