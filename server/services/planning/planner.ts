import type { FleetInput, FleetResult } from '../../../shared/routing';
import type { DayPlanTask } from '../dispatch/proposal';
import { createFairQueue } from '../workers/fairQueue';
import type { AmendResult } from '../../../shared/routing/amend';
import { runAmend, runDay, runFleet, type AmendTask } from './runFleet';

/**
 * Queues fleet plans so at most `concurrency` worker threads plan at once: each plan keeps a core
 * busy for up to its time limit, and on a small server several at once would starve the thread
 * that answers requests. The queue is bounded (in all and per key: a company, or a staff member)
 * and serves keys in turn (server/services/workers/fairQueue.ts); a full queue answers 503. One
 * planner hangs off the app (no module state); a queued plan whose signal aborts leaves the queue
 * without ever starting.
 */
export interface FleetPlanner {
  plan(input: FleetInput, options?: PlanOptions): Promise<FleetResult>;
  /** A day: matrix, plan, reasons and the proposal's JSON text, all in the worker. */
  planDay(task: DayPlanTask, options?: PlanOptions): Promise<string>;
  /** An amendment's search (dispatch/amend.ts), in the worker, behind the same queue. */
  amend(task: AmendTask, options?: PlanOptions): Promise<AmendResult>;
  /** Plans running now / waiting for a slot. */
  readonly running: number;
  readonly queued: number;
}

export interface PlanOptions {
  signal?: AbortSignal;
  key?: string;
}

export function createFleetPlanner(options: { concurrency?: number; maxQueued?: number; maxQueuedPerKey?: number } = {}): FleetPlanner {
  const queue = createFairQueue({
    concurrency: options.concurrency ?? 1,
    maxQueued: options.maxQueued ?? 8,
    maxQueuedPerKey: options.maxQueuedPerKey ?? 2,
    busyMessage: 'Other plans are being made right now; plan again in a few seconds',
  });
  return {
    get running() {
      return queue.running;
    },
    get queued() {
      return queue.queued;
    },
    plan: (input, opts = {}) => queue.run(opts.key ?? '', () => runFleet(input, opts), opts).catch(renameAbort),
    planDay: (task, opts = {}) => queue.run(opts.key ?? '', () => runDay(task, opts), opts).catch(renameAbort),
    amend: (task, opts = {}) => queue.run(opts.key ?? '', () => runAmend(task, opts), opts).catch(renameAbort),
  };
}

const renameAbort = (err: unknown): never => {
  throw err instanceof Error && /aborted$/.test(err.message) ? new Error('fleet planning aborted') : err;
};
