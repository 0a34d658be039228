/**
 * What changed on a route between the order its driver has and a proposed one (issue 32): stops
 * added, removed, and moved. "Moved" is the fewest stops whose taking out and putting back explains
 * the new order: the stops in both lists outside a longest run kept in the same relative order.
 */
export interface RouteDiff {
  added: number[];
  removed: number[];
  moved: number[];
}

export function routeDiff(before: readonly number[], after: readonly number[]): RouteDiff {
  const was = new Map(before.map((id, i) => [id, i]));
  const now = new Set(after);
  const added = after.filter((id) => !was.has(id));
  const removed = before.filter((id) => !now.has(id));
  const common = after.filter((id) => was.has(id));
  // Longest increasing subsequence of the old positions, in the new order (patience sorting, n log n).
  const ranks = common.map((id) => was.get(id) as number);
  const tails: number[] = [];
  const tailAt: number[] = [];
  const prev = new Array<number>(ranks.length).fill(-1);
  ranks.forEach((r, i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tails[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    tails[lo] = r;
    tailAt[lo] = i;
    prev[i] = lo > 0 ? tailAt[lo - 1] : -1;
  });
  const kept = new Set<number>();
  for (let i = tails.length ? tailAt[tails.length - 1] : -1; i >= 0; i = prev[i]) kept.add(common[i]);
  return { added, removed, moved: common.filter((id) => !kept.has(id)) };
}
