import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { haversineMatrix, optimizeRoute, routeCost, type LatLng } from '../../../shared/routing/index';
import type { OptimizeBody, SequenceBody } from '../../../shared/schemas/routes';
import type { Deps } from '../../deps';
import { deliveryRoute } from '../../db/schema/index';
import { ApiError, conflict } from '../../errors';
import type { SessionUser } from '../auth/session';
import type { ActionMeta } from '../packages/lifecycle';
import type { PackageRow } from '../packages/shape';
import { placeParcels } from './manage';
import { LIVE_ROUTE, openParcels, type RouteRow } from './shape';

/** The optimiser runs inside the request (and the write transaction): one second at most. */
export const MAX_OPTIMIZE_MS = 1000;
export const DEFAULT_OPTIMIZE_MS = 500;
/** Fixed so the same instance gives the same order on the server and on the phone. */
const SEED = 0x5eed;

const located = (p: PackageRow): p is PackageRow & { latitude: number; longitude: number } => p.latitude != null && p.longitude != null;
const point = (p: { latitude: number; longitude: number }): LatLng => ({ latitude: p.latitude, longitude: p.longitude });

function requireLive(route: RouteRow): void {
  if (!(LIVE_ROUTE as readonly string[]).includes(route.status)) {
    throw conflict(`Route ${route.name} is ${route.status}; only planned or running routes are ordered`, { status: route.status });
  }
}

function startOf(route: RouteRow, body: { start_latitude?: number; start_longitude?: number }): LatLng | null {
  if ((body.start_latitude == null) !== (body.start_longitude == null)) {
    throw new ApiError(400, 'validation_error', 'Give both start_latitude and start_longitude, or neither', [
      { path: body.start_latitude == null ? 'start_latitude' : 'start_longitude', message: 'required with the other coordinate' },
    ]);
  }
  if (body.start_latitude != null && body.start_longitude != null)
    return { latitude: body.start_latitude, longitude: body.start_longitude };
  if (route.start_latitude != null && route.start_longitude != null)
    return { latitude: route.start_latitude, longitude: route.start_longitude };
  return null;
}

/** Metres along `stops` in order, from `start` when known (a path, not a round trip). */
export function pathMetres(start: LatLng | null, stops: LatLng[], back = false): number {
  const points = start ? [start, ...stops] : stops;
  if (points.length < 2) return 0;
  const matrix = haversineMatrix(points);
  const order = points.map((_, i) => i);
  return routeCost(matrix, order, back && start ? 0 : null);
}

/**
 * Orders a route's open parcels from its start with the shared optimiser (the one the phone runs
 * offline). Without a known start the best path may begin at any stop: a free node at distance 0
 * from every stop stands in for it. Parcels without coordinates keep their order after the rest.
 */
export async function optimise(deps: Deps, actor: SessionUser, route: RouteRow, body: z.output<typeof OptimizeBody>) {
  requireLive(route);
  const start = startOf(route, body);
  const open = await openParcels(deps.db, route);
  const placed = open.filter(located);
  const unplaced = open.filter((p) => !located(p));
  let ordered: PackageRow[] = [];
  let metres = 0;
  if (placed.length) {
    const points = placed.map(point);
    const timeLimitMs = Math.min(body.time_limit_ms ?? DEFAULT_OPTIMIZE_MS, MAX_OPTIMIZE_MS);
    if (start) {
      const matrix = haversineMatrix([start, ...points]);
      const result = optimizeRoute({ matrix, start: 0, end: body.return_to_start ? 0 : null, timeLimitMs, seed: SEED });
      ordered = result.order.filter((i) => i !== 0).map((i) => placed[i - 1] as PackageRow);
      metres = result.cost;
    } else {
      const inner = haversineMatrix(points);
      const matrix = [new Array<number>(points.length + 1).fill(0), ...inner.map((row) => [0, ...row])];
      const result = optimizeRoute({ matrix, start: 0, end: null, timeLimitMs, seed: SEED });
      ordered = result.order.filter((i) => i !== 0).map((i) => placed[i - 1] as PackageRow);
      metres = result.cost;
    }
  }
  const all = [...ordered, ...unplaced];
  await placeParcels(deps, actor, route, all, 'route_optimize');
  const row = await saveDistance(deps, route, metres, true);
  return { route: row, order: all.map((p) => p.id), metres, unplaced: unplaced.map((p) => p.id) };
}

/**
 * The phone's own order (re-optimised offline with the same function), applied as an ordinary
 * action: it must name exactly the route's open parcels, each once.
 */
export async function resequence(
  deps: Deps,
  actor: SessionUser,
  route: RouteRow,
  body: z.output<typeof SequenceBody>,
  meta: ActionMeta,
  deviceId: string | null,
) {
  requireLive(route);
  const open = await openParcels(deps.db, route);
  const byId = new Map(open.map((p) => [p.id, p]));
  const seen = new Set<number>();
  const dupes = body.packages.filter((id) => (seen.has(id) ? true : (seen.add(id), false)));
  const extra = body.packages.filter((id) => !byId.has(id));
  const missing = open.filter((p) => !seen.has(p.id)).map((p) => p.id);
  if (dupes.length || extra.length || missing.length) {
    throw new ApiError(400, 'validation_error', 'The order must name every open parcel of the route exactly once', [
      ...dupes.map((id) => ({ path: 'packages', message: `package ${id} named twice` })),
      ...extra.map((id) => ({ path: 'packages', message: `package ${id} is not an open parcel of this route` })),
      ...missing.map((id) => ({ path: 'packages', message: `package ${id} is missing` })),
    ]);
  }
  const ordered = body.packages.map((id) => byId.get(id) as PackageRow);
  await placeParcels(deps, actor, route, ordered, 'route_sequence', meta, deviceId);
  const start = startOf(route, {});
  const stops = ordered.filter(located).map(point);
  const row = await saveDistance(deps, route, pathMetres(start, stops), false);
  return { route: row, order: body.packages };
}

async function saveDistance(deps: Deps, route: RouteRow, metres: number, optimised: boolean): Promise<RouteRow> {
  const now = deps.clock.now();
  return (
    (await deps.db
      .update(deliveryRoute)
      .set({ total_distance_m: metres, updated_at: now, ...(optimised ? { optimized_at: now } : {}) })
      .where(eq(deliveryRoute.id, route.id))
      .returning()
      .get()) ?? route
  );
}
