import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FleetInput, FleetResult } from '../../../shared/routing';
import type { AmendInput, AmendResult, AmendStop, AmendRoute } from '../../../shared/routing/amend';
import type { TravelModel } from '../../../shared/routing/eta';
import type { LatLng } from '../../../shared/routing/haversine';
import type { DayPlanTask } from '../dispatch/proposal';

/**
 * An amendment's search (issue 32) as plain data for the worker: travel between `points` (index,
 * null = unknown place: no travel to or from it) by `model`, as proposeAmend shaped it.
 */
export interface AmendTask {
  routes: AmendRoute[];
  jobs: AmendStop[];
  points: (LatLng | null)[];
  model: TravelModel;
  movePenalty?: number;
  /** The courier's rates and the office's balance (plan settings), as amendRoutes takes them. */
  costs?: AmendInput['costs'];
  balance?: AmendInput['balance'];
}

/** What a worker does: a bare `optimizeFleet`, or a whole day (matrix, plan, reasons and the proposal's JSON text). */
export type FleetTask = { kind: 'fleet'; input: FleetInput } | { kind: 'day'; task: DayPlanTask } | { kind: 'amend'; task: AmendTask };

type FleetAnswer = FleetResult | string | AmendResult;
export type FleetWorkerReply = { ok: true; result: FleetAnswer } | { ok: false; message: string; range: boolean };

/**
 * The worker is TypeScript like the rest of the server. A tiny CommonJS bootstrap loads it
 * through tsx's API (Node 20 does not apply `--import` loader hooks inside workers), so it runs
 * the same under `tsx server/main.ts` and under vitest.
 */
// The ESM build of tsx/esm/api (require.resolve would pick the CommonJS one).
const TSX_API = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
const WORKER_FILE = new URL('./fleetWorker.ts', import.meta.url).href;
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
import(workerData.tsxApi).then((api) => api.tsImport(workerData.file, workerData.file)).catch((err) => {
  setImmediate(() => { throw err; });
});
`;

/**
 * Runs `optimizeFleet` in a worker thread and resolves with its plan. Malformed input rejects
 * with the optimiser's RangeError; a crashed worker rejects with an Error. `signal` aborts
 * (terminates the worker), for a dispatcher who cancels or re-plans.
 */
export function runFleet(input: FleetInput, options: { signal?: AbortSignal } = {}): Promise<FleetResult> {
  return runTask({ kind: 'fleet', input }, options) as Promise<FleetResult>;
}

/**
 * Plans a day in a worker thread: the matrix, the plan, the reasons and the proposal's JSON text
 * all off the request thread (security issue 30: shaping 1,200 parcels' proposal held it ~70 ms).
 */
export function runDay(task: DayPlanTask, options: { signal?: AbortSignal } = {}): Promise<string> {
  return runTask({ kind: 'day', task }, options) as Promise<string>;
}

/** An amendment's search in a worker thread: at 40 routes x 60 stops it held the request thread ~100 ms (security issue 30). */
export function runAmend(task: AmendTask, options: { signal?: AbortSignal } = {}): Promise<AmendResult> {
  return runTask({ kind: 'amend', task }, options) as Promise<AmendResult>;
}

function runTask(task: FleetTask, options: { signal?: AbortSignal }): Promise<FleetAnswer> {
  return new Promise<FleetAnswer>((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new Error('fleet planning aborted'));
      return;
    }
    const worker = new Worker(BOOTSTRAP, { eval: true, workerData: { task, tsxApi: TSX_API, file: WORKER_FILE } });
    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = (): void => {
      finish(() => reject(new Error('fleet planning aborted')));
      void worker.terminate();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (reply: FleetWorkerReply) => {
      finish(() => {
        if (reply.ok) resolve(reply.result);
        else reject(reply.range ? new RangeError(reply.message) : new Error(reply.message));
      });
    });
    worker.once('error', (err) => finish(() => reject(err)));
    worker.once('exit', (code) => finish(() => reject(new Error(`fleet worker exited with code ${code} before answering`))));
  });
}
