import { travelSeconds, type TravelModel } from '../../../shared/routing/eta';
import type { LatLng } from '../../../shared/routing/haversine';
import { haversineDistance } from '../../../shared/routing/haversine';
import {
  optimizeFleet,
  unassignedDetails,
  type FleetInput,
  type FleetResult,
  type FleetRunOptions,
  type UnassignedReason,
} from '../../../shared/routing/fleet/index';

/**
 * The part of planning a day that grows with the square of the parcels: the travel matrix, the
 * search, and why each parcel was left out. It runs in the fleet worker (server/services/planning),
 * never on the thread that answers requests: with 1,200 parcels it used to hold every other
 * request for 20 s, at 5,000 for minutes (security issue 30). Plain data in, plain data out.
 */

/** A road matrix fetched before the plan's transaction (OSRM `table`, or its great-circle stand-in), over the points it was asked for. */
export interface RoadTravel {
  points: LatLng[];
  matrix: number[][];
}

/** A day's fleet problem before its matrix: locations as points, the rest as `optimizeFleet` takes it. */
export interface DayProblem extends Omit<FleetInput, 'matrix'> {
  points: LatLng[];
  travel: TravelModel;
  road: RoadTravel | null;
  /** Build a distance matrix in metres (for a per-km cost): great-circle x the model's detour factor. */
  distances?: boolean;
}

export interface DaySolution {
  result: FleetResult;
  /** Why each of `result.unassigned` was left out, in its order. */
  reasons: UnassignedReason[];
  /** Per entry of `reasons`: the skills missing, where a skill kept the parcel out. */
  missingSkills?: (string[] | null)[];
  /** Per route of `result.routes`: travel seconds into each of its stops. */
  legs: number[][];
  /** Per route of `result.routes`: travel seconds from its last stop back to its end depot (0 for an open route). */
  returns?: number[];
}

const pointKey = (p: LatLng) => `${p.latitude.toFixed(6)},${p.longitude.toFixed(6)}`;

/**
 * Travel seconds between the points: the road matrix where it knows both ends, else the
 * great-circle estimate. Each point is looked up in the road matrix once (one key per point, not
 * one string per cell as before), so the n x n fill is arithmetic only.
 */
export function dayMatrix(points: LatLng[], model: TravelModel, road: RoadTravel | null): number[][] {
  const roadIndex = new Int32Array(points.length).fill(-1);
  if (road) {
    const at = new Map<string, number>();
    road.points.forEach((p, i) => {
      if (!at.has(pointKey(p))) at.set(pointKey(p), i);
    });
    points.forEach((p, i) => {
      roadIndex[i] = at.get(pointKey(p)) ?? -1;
    });
  }
  return points.map((a, i) => {
    const ri = roadIndex[i];
    const roadRow = road && ri >= 0 ? road.matrix[ri] : undefined;
    return points.map((b, j) => {
      const rj = roadIndex[j];
      const v = roadRow && rj >= 0 ? roadRow[rj] : undefined;
      return Math.round(v != null && Number.isFinite(v) ? v : travelSeconds(a, b, model));
    });
  });
}

/** Builds the matrix, plans, and says why each parcel left out was: one model for all the reasons. */
export function solveDay(problem: DayProblem, run: FleetRunOptions = {}): DaySolution {
  const { points, travel, road, distances, ...rest } = problem;
  const input: FleetInput = { ...rest, matrix: dayMatrix(points, travel, road) };
  if (distances) input.distance = points.map((a) => points.map((b) => Math.round(haversineDistance(a, b) * travel.detourFactor)));
  const result = optimizeFleet(input, run);
  const details = result.unassigned.length ? unassignedDetails(input, result.unassigned) : [];
  const reasons = details.map((d) => d.reason);
  const missingSkills = details.map((d) => d.missingSkills ?? null);
  const vehicleAt = new Map(input.vehicles.map((v) => [v.id, v]));
  const jobAt = new Map(input.jobs.map((j) => [j.id, j]));
  const returns: number[] = [];
  const legs = result.routes.map((r) => {
    const vehicle = vehicleAt.get(r.vehicle) as FleetInput['vehicles'][number];
    let here = vehicle.start;
    const into = r.jobs.map((id) => {
      const to = (jobAt.get(id) as FleetInput['jobs'][number]).location;
      const s = input.matrix[here][to];
      here = to;
      return s;
    });
    returns.push(vehicle.end != null && r.jobs.length ? input.matrix[here][vehicle.end] : 0);
    return into;
  });
  return { result, reasons, missingSkills, legs, returns };
}
