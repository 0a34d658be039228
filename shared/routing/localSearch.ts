import { tryOrOpt } from './orOpt';
import type { SearchState } from './state';
import { tryTwoOpt } from './twoOpt';

/**
 * Runs 2-opt + Or-opt until no queued node has an improving move. Every applied move lowers
 * the cost, so this terminates; the step cap is a fuse so that a future pricing bug shows up
 * as a poor route rather than a frozen browser tab. Returns false if the fuse blew.
 */
export function runLocalSearch(s: SearchState): boolean {
  let fuse = 1000 * s.n + 100_000;
  for (let a = s.pop(); a >= 0; a = s.pop()) {
    if (--fuse === 0) {
      s.clearQueue();
      return false;
    }
    // A successful move re-queues its endpoints (a included), so a is revisited later.
    if (!tryTwoOpt(s, a)) tryOrOpt(s, a);
  }
  return true;
}
