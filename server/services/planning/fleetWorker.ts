/**
 * Worker-thread entry for fleet planning: one plan per worker, so a 30-second plan of a
 * 1,000-parcel day never holds up the event loop that answers requests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { optimizeFleet, type FleetInput } from '../../../shared/routing';
import type { FleetWorkerReply } from './runFleet';

let reply: FleetWorkerReply;
try {
  reply = { ok: true, result: optimizeFleet((workerData as { input: FleetInput }).input) };
} catch (err) {
  reply = { ok: false, message: err instanceof Error ? err.message : String(err), range: err instanceof RangeError };
}
parentPort?.postMessage(reply);
