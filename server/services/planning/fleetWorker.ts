/**
 * Worker-thread entry for fleet planning: one plan per worker, so a 30-second plan of a
 * 1,000-parcel day never holds up the event loop that answers requests. A `day` task also builds
 * the travel matrix, the reasons for parcels left out and the proposal's JSON text here (security
 * issue 30).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { optimizeFleet } from '../../../shared/routing';
import { amendRoutes } from '../../../shared/routing/amend';
import { travelSeconds } from '../../../shared/routing/eta';
import { haversineDistance } from '../../../shared/routing/haversine';
import { proposeDay } from '../dispatch/proposal';
import { threadCpuClock } from './threadCpu';
import type { AmendTask, FleetTask, FleetWorkerReply } from './runFleet';

function amend(t: AmendTask) {
  const travel = (a: number, b: number) => {
    const p = t.points[a];
    const q = t.points[b];
    return p && q ? travelSeconds(p, q, t.model) : 0;
  };
  // Metres on the ground for the per-km rate: the same detour the travel times assume.
  const distance = (a: number, b: number) => {
    const p = t.points[a];
    const q = t.points[b];
    return p && q ? haversineDistance(p, q) * t.model.detourFactor : 0;
  };
  return amendRoutes({
    routes: t.routes,
    jobs: t.jobs,
    travel,
    distance,
    movePenalty: t.movePenalty,
    costs: t.costs,
    balance: t.balance,
  });
}

let reply: FleetWorkerReply;
try {
  const task = (workerData as { task: FleetTask }).task;
  // The search's CPU cap counts this thread's time only (issue 32).
  const cpuNow = threadCpuClock();
  reply = {
    ok: true,
    result:
      task.kind === 'day'
        ? proposeDay(task.task, { cpuNow })
        : task.kind === 'amend'
          ? amend(task.task)
          : optimizeFleet(task.input, { cpuNow }),
  };
} catch (err) {
  reply = { ok: false, message: err instanceof Error ? err.message : String(err), range: err instanceof RangeError };
}
parentPort?.postMessage(reply);
