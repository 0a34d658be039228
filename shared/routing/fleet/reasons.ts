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
 * A job of a pickup-and-delivery pair is judged with its pair (both halves, pickup first, in one
 * vehicle: 'window' when the delivery cannot be reached in its windows after the pickup), and its
 * detail names the pair.
 */
export type UnassignedReason = 'skill' | 'capacity' | 'window' | 'shift' | 'no_vehicle';

const RANK: Record<UnassignedReason, number> = { skill: -1, capacity: 0, window: 1, shift: 2, no_vehicle: 3 };

export interface UnassignedDetail {
  reason: UnassignedReason;
  /** For 'skill': the skills missing on the vehicle that lacks the fewest of them. */
  missingSkills?: string[];
  /** For a job of a pair: the pair (job ids), which is left out whole. */
  pair?: { pickup: number; delivery: number };
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

/** Why a pair (pickup a, delivery b) cannot be served by vehicle v alone: the two stops in order from the start. */
function pairAloneReason(m: FleetModel, v: number, a: number, b: number): UnassignedReason {
  if (!skilled(m, v, a) || !skilled(m, v, b)) return 'skill';
  if (!fits(m, v, new Float64Array(m.D), a)) return 'capacity';
  const sa = earliestStart(m, a, m.shiftStart[v] + m.d[m.vStart[v] * m.n + m.loc[a]]);
  if (sa === Infinity) return 'window';
  const sb = earliestStart(m, b, sa + m.service[a] + m.d[m.loc[a] * m.n + m.loc[b]]);
  if (sb === Infinity) return 'window';
  const back = m.vEnd[v] >= 0 ? m.d[m.loc[b] * m.n + m.vEnd[v]] : 0;
  if (sb + m.service[b] + back > m.shiftEnd[v] + EPS) return 'shift';
  if (m.vMaxStops[v] < 2 || evaluateRoute(m, v, [a, b], 2) === Infinity) return 'shift';
  return 'no_vehicle';
}

/** Why one job is left out. Builds the model: for several jobs use `unassignedReasons`. */
export function unassignedReason(
  input: Pick<FleetInput, 'matrix' | 'vehicles' | 'jobs'> & Partial<Pick<FleetInput, 'pairs'>>,
  jobId: number,
): UnassignedReason {
  return unassignedReasons(input, [jobId])[0];
}

/**
 * Why each of `jobIds` is left out, in their order. The model (an n x n copy of the matrix) is
 * built once for all of them: rebuilding it per job made a 1,200-parcel plan with few drivers
 * hold the event loop for 20 s and a 5,000-parcel one for minutes (security issue 30).
 */
export function unassignedReasons(
  input: Pick<FleetInput, 'matrix' | 'vehicles' | 'jobs'> & Partial<Pick<FleetInput, 'pairs'>>,
  jobIds: readonly number[],
): UnassignedReason[] {
  return unassignedDetails(input, jobIds).map((x) => x.reason);
}

function missingSkills(m: FleetModel, j: number): string[] {
  let fewest: number[] | null = null;
  // A pair needs what either half needs.
  const need = m.partner[j] >= 0 ? m.jSkills[j] | m.jSkills[m.partner[j]] : m.jSkills[j];
  for (let v = 0; v < m.V; v++) {
    const missing: number[] = [];
    for (let b = 0; b < m.skillNames.length; b++) if ((need >>> b) & 1 && !((m.vSkills[v] >>> b) & 1)) missing.push(b);
    if (fewest === null || missing.length < fewest.length) fewest = missing;
  }
  return (fewest ?? []).map((b) => m.skillNames[b]);
}

/** `unassignedReasons` with the missing skills named where skills keep a job out. */
export function unassignedDetails(
  input: Pick<FleetInput, 'matrix' | 'vehicles' | 'jobs'> & Partial<Pick<FleetInput, 'distance' | 'balance' | 'pairs'>>,
  jobIds: readonly number[],
): UnassignedDetail[] {
  const m = buildModel({ ...input });
  const index = new Map(m.jobIds.map((id, j) => [id, j]));
  return jobIds.map((jobId) => {
    const j = index.get(jobId);
    if (j === undefined) throw new RangeError(`unassignedReason: unknown job ${jobId}`);
    const o = m.partner[j];
    const a = m.role[j] === 2 ? o : j;
    let best: UnassignedReason | null = null;
    for (let v = 0; v < m.V; v++) {
      const r = o < 0 ? aloneReason(m, v, j) : pairAloneReason(m, v, a, m.partner[a]);
      if (best === null || RANK[r] > RANK[best]) best = r;
    }
    const reason = best ?? 'no_vehicle';
    const detail: UnassignedDetail = reason === 'skill' ? { reason, missingSkills: missingSkills(m, j) } : { reason };
    if (o >= 0) detail.pair = { pickup: m.jobIds[a], delivery: m.jobIds[m.partner[a]] };
    return detail;
  });
}
