import { Worker } from 'node:worker_threads';
import type { FleetInput, FleetResult } from './fleetTypes';

const WORKER = new URL('./workerEntry.mjs', import.meta.url);

/** Runs one fleet problem in its own worker thread; the thread ends with the answer (or the time limit plus a margin). */
export function runFleetInWorker(input: FleetInput, hardLimitMs: number): Promise<FleetResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER);
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`The optimiser did not answer within ${Math.round(hardLimitMs / 1000)} s`))), hardLimitMs);
    worker.once('message', (msg: { ok: true; result: FleetResult } | { ok: false; message: string }) => {
      finish(() => (msg.ok ? resolve(msg.result) : reject(new Error(msg.message))));
    });
    worker.once('error', (err) => finish(() => reject(err)));
    worker.once('exit', (code) => finish(() => reject(new Error(`The optimiser stopped (exit ${code})`))));
    worker.postMessage(input);
  });
}
