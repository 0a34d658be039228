import type { Neighbors } from './neighbors';
import type { TourProblem } from './problem';
import { Tour } from './tour';

/** Reversed paths shorter than this are priced edge by edge. */
const DIRECT_REVERSAL = 24;

/**
 * Everything the local-search moves share. A FIFO of "active" nodes replaces a sweep over
 * don't-look bits: after a kick only the handful of touched nodes need to be re-examined.
 */
export class SearchState {
  readonly n: number;
  readonly d: Float64Array;
  readonly eps: number;
  readonly symmetric: boolean;
  readonly nb: Neighbors;
  readonly tour: Tour;
  /** Sum of move deltas since last reset; lets the caller track cost without O(n) sums. */
  delta = 0;
  private readonly queue: Int32Array;
  private readonly queued: Uint8Array;
  private head = 0;
  private size = 0;
  /** Prefix sums along the tour of forward/backward edge costs, for asymmetric reversals. */
  private readonly fwd: Float64Array;
  private readonly bwd: Float64Array;

  constructor(problem: TourProblem, nb: Neighbors, tour: Tour) {
    this.n = problem.n;
    this.d = problem.d;
    this.eps = problem.eps;
    this.symmetric = problem.symmetric;
    this.nb = nb;
    this.tour = tour;
    this.queue = new Int32Array(this.n);
    this.queued = new Uint8Array(this.n);
    this.fwd = new Float64Array(this.n + 1);
    this.bwd = new Float64Array(this.n + 1);
  }

  push(v: number): void {
    if (this.queued[v]) return;
    this.queued[v] = 1;
    this.queue[(this.head + this.size) % this.n] = v;
    this.size++;
  }

  pop(): number {
    if (this.size === 0) return -1;
    const v = this.queue[this.head];
    this.head = (this.head + 1) % this.n;
    this.size--;
    this.queued[v] = 0;
    return v;
  }

  clearQueue(): void {
    while (this.size > 0) this.pop();
  }

  /** Cost change from reversing the path u..v (forward from u) on an asymmetric matrix. */
  reversalDelta(u: number, v: number): number {
    const { n, fwd, bwd, d, tour } = this;
    const pos = tour.pos;
    const i = pos[u];
    const j = pos[v];
    if ((j - i + n) % n < DIRECT_REVERSAL) {
      // Short paths: summing directly is cheaper than refreshing the prefix sums.
      let diff = 0;
      for (let a = u; a !== v;) {
        const b = tour.next(a);
        diff += d[b * n + a] - d[a * n + b];
        a = b;
      }
      return diff;
    }
    if (tour.dirtyFrom < n) this.refreshPrefix();
    if (i <= j) return bwd[j] - bwd[i] - (fwd[j] - fwd[i]);
    return bwd[n] - bwd[i] + bwd[j] - (fwd[n] - fwd[i] + fwd[j]);
  }

  private refreshPrefix(): void {
    const { n, d, fwd, bwd, tour } = this;
    const t = tour.t;
    // Entry k + 1 covers the edge leaving position k, so it depends on position k + 1 too.
    for (let k = Math.max(0, tour.dirtyFrom - 1); k < n; k++) {
      const a = t[k];
      const b = t[k + 1 === n ? 0 : k + 1];
      fwd[k + 1] = fwd[k] + d[a * n + b];
      bwd[k + 1] = bwd[k] + d[b * n + a];
    }
    tour.dirtyFrom = n;
  }
}
