import { evaluateRoute } from './evaluate';
import { buildModel, fits, earliestStart, EPS, skilled, type FleetModel } from './model';
import { Route } from './route';
import type { FleetInput } from './types';

/**
 * Why a job is left out:
 * - 'skill': no vehicle carries every skill it needs (`unassignedDetails` names the missing ones);
 * - 'capacity': its demand exceeds every vehicle's capacity;
 * - 'window': no vehicle that can carry it can reach it before its windows close;
 * - 'shift': it can be reached in a window, but no vehicle could then be back by its shift end
 *   (or keep its maximum route duration, or fit its breaks);
 * - 'no_vehicle': some vehicle could serve it alone, but the fleet has no room or time left for it
 *   in this plan (or there are no vehicles at all).
 */
export type UnassignedReason = 'skill' | 'capacity' | 'window' | 'shift' | 'no_vehicle';

const RANK: Record<UnassignedReason, number> = { skill: -1, capacity: 0, window: 1, shift: 2, no_vehicle: 3 };

export interface UnassignedDetail {
  reason: UnassignedReason;
  /** For 'skill': the skills missing on the vehicle that lacks the fewest of them. */
  missingSkills?: string[];
}

function aloneReason(m: FleetModel, v: number, j: number): UnassignedReason {
  const empty = new Route(v, m.D);
  if (!skilled(m, v, j)) return 'skill';
  if (!fits(m, v, empty.load, j)) return 'capacity';
  const arrival = m.shiftStart[v] + m.d[m.vStart[v] * m.n + m.loc[j]];
  const start = earliestStart(m, j, arrival);
  if (start === Infinity) return 'window';
  const done = start + m.service[j];
  const back = m.vEnd[v] >= 0 ? m.d[m.loc[j] * m.n + m.vEnd[v]] : 0;
  if (done + back > m.shiftEnd[v] + EPS) return 'shift';
  if (m.vMaxStops[v] < 1 || evaluateRoute(m, v, [j], 1) === Infinity) return 'shift';
  return 'no_vehicle';
}

/** Why one job is left out. Builds the model: for several jobs use `unassignedReasons`. */
export function unassignedReason(input: Pick<FleetInput, 'matrix' | 'vehicles' | 'jobs'>, jobId: number): UnassignedReason {
  return unassignedReasons(input, [jobId])[0];
}

/**
 * Why each of `jobIds` is left out, in their order. The model (an n x n copy of the matrix) is
 * built once for all of them: rebuilding it per job made a 1,200-parcel plan with few drivers
 * hold the event loop for 20 s and a 5,000-parcel one for minutes (security issue 30).
 */
export function unassignedReasons(input: Pick<FleetInput, 'matrix' | 'vehicles' | 'jobs'>, jobIds: readonly number[]): UnassignedReason[] {
  return unassignedDetails(input, jobIds).map((x) => x.reason);
}

function missingSkills(m: FleetModel, j: number): string[] {
  let fewest: number[] | null = null;
  for (let v = 0; v < m.V; v++) {
    const missing: number[] = [];
    for (let b = 0; b < m.skillNames.length; b++) if ((m.jSkills[j] >>> b) & 1 && !((m.vSkills[v] >>> b) & 1)) missing.push(b);
    if (fewest === null || missing.length < fewest.length) fewest = missing;
  }
  return (fewest ?? []).map((b) => m.skillNames[b]);
}

/** `unassignedReasons` with the missing skills named where skills keep a job out. */
export function unassignedDetails(
  input: Pick<FleetInput, 'matrix' | 'vehicles' | 'jobs'> & Partial<Pick<FleetInput, 'distance' | 'balance'>>,
  jobIds: readonly number[],
): UnassignedDetail[] {
  const m = buildModel({ ...input });
  const index = new Map(m.jobIds.map((id, j) => [id, j]));
  return jobIds.map((jobId) => {
    const j = index.get(jobId);
    if (j === undefined) throw new RangeError(`unassignedReason: unknown job ${jobId}`);
    let best: UnassignedReason | null = null;
    for (let v = 0; v < m.V; v++) {
      const r = aloneReason(m, v, j);
      if (best === null || RANK[r] > RANK[best]) best = r;
    }
    const reason = best ?? 'no_vehicle';
    return reason === 'skill' ? { reason, missingSkills: missingSkills(m, j) } : { reason };
  });
}
