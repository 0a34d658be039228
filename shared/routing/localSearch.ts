import { tryOrOpt } from './orOpt';
import type { SearchState } from './state';
import { tryTwoOpt } from './twoOpt';

/** Runs 2-opt + Or-opt until no queued node has an improving move. */
export function runLocalSearch(s: SearchState): void {
  for (let a = s.pop(); a >= 0; a = s.pop()) {
    // A successful move re-queues its endpoints (a included), so a is revisited later.
    if (!tryTwoOpt(s, a)) tryOrOpt(s, a);
  }
}
