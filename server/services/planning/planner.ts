import type { FleetInput, FleetResult } from '../../../shared/routing';
import { runFleet } from './runFleet';

/**
 * Queues fleet plans so at most `concurrency` worker threads plan at once: each plan keeps a core
 * busy for up to its time limit, and on a small server several at once would starve the thread
 * that answers requests. One planner hangs off the app (no module state); a queued plan whose
 * signal aborts leaves the queue without ever starting.
 */
export interface FleetPlanner {
  plan(input: FleetInput, options?: { signal?: AbortSignal }): Promise<FleetResult>;
  /** Plans running now / waiting for a slot. */
  readonly running: number;
  readonly queued: number;
}

export function createFleetPlanner(options: { concurrency?: number } = {}): FleetPlanner {
  const concurrency = Math.max(1, options.concurrency ?? 1);
  let running = 0;
  const waiting: (() => void)[] = [];
  const next = (): void => {
    while (running < concurrency && waiting.length > 0) waiting.shift()!();
  };
  return {
    get running() {
      return running;
    },
    get queued() {
      return waiting.length;
    },
    plan(input, opts = {}) {
      return new Promise<FleetResult>((resolve, reject) => {
        const start = (): void => {
          opts.signal?.removeEventListener('abort', onAbort);
          running++;
          runFleet(input, opts).then(resolve, reject).finally(() => {
            running--;
            next();
          });
        };
        const onAbort = (): void => {
          const i = waiting.indexOf(start);
          if (i >= 0) waiting.splice(i, 1);
          reject(new Error('fleet planning aborted'));
        };
        if (opts.signal?.aborted) {
          reject(new Error('fleet planning aborted'));
          return;
        }
        opts.signal?.addEventListener('abort', onAbort, { once: true });
        waiting.push(start);
        next();
      });
    },
  };
}
