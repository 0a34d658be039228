import { parentPort } from 'node:worker_threads';
import { solveFleet } from './solver';
import type { FleetInput } from './fleetTypes';

/**
 * The optimiser's thread: one problem in, one answer out. Planning a day takes seconds of CPU, so
 * it never runs on the thread that answers requests.
 */
parentPort?.once('message', (input: FleetInput) => {
  void (async () => {
    try {
      const result = await solveFleet(input);
      parentPort?.postMessage({ ok: true, result });
    } catch (err) {
      parentPort?.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) });
    }
  })();
});
