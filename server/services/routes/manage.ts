import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { Deps } from '../../deps';
import { deliveryRoute, pkg, warehouse } from '../../db/schema/index';
import { ApiError, badRequest, conflict, forbidden } from '../../errors';
import { isFinal, type PackageStatus } from '../../../shared/lifecycle';
import type { RouteCreate, RouteKind, RouteStatus, RouteUpdate } from '../../../shared/schemas/routes';
import type { SessionUser } from '../auth/session';
import { activeDriver } from '../packages/assign';
import { updatePackage, type ActionMeta } from '../packages/lifecycle';
import type { PackageRow } from '../packages/shape';
import { handOver } from './assign';
import { isOpen, kindOf, LIVE_ROUTE, openParcels, openStatuses, routeParcels, type RouteRow } from './shape';

const STATUS_FLOW: Record<RouteStatus, readonly RouteStatus[]> = {
  planned: ['in_progress', 'cancelled'],
  in_progress: ['completed', 'cancelled'],
  completed: [],
  // Staff may reopen a cancelled plan.
  cancelled: ['planned'],
};
/** What a driver may do to their own route from the phone. */
const DRIVER_MOVES: readonly string[] = ['planned>in_progress', 'in_progress>completed'];

function checkStart(lat: number | null | undefined, lng: number | null | undefined): void {
  if ((lat == null) !== (lng == null)) {
    throw badRequest('Give both start_latitude and start_longitude, or neither', [
      { path: lat == null ? 'start_latitude' : 'start_longitude', message: 'required with the other coordinate' },
    ]);
  }
}

async function checkWarehouse(deps: Deps, id: number | null | undefined): Promise<void> {
  if (id == null) return;
  const row = await deps.db.select({ id: warehouse.id, deleted: warehouse.deleted_at }).from(warehouse).where(eq(warehouse.id, id)).get();
  if (!row) throw badRequest(`Warehouse ${id} does not exist`, [{ path: 'warehouse', message: 'unknown warehouse' }]);
  if (row.deleted != null) throw badRequest(`Warehouse ${id} is archived`, [{ path: 'warehouse', message: 'archived' }]);
}

/**
 * The parcels a route may take, all or nothing: live, in a state the route's kind works on, and
 * on no other planned or running route (moving a parcel between live routes is explicit).
 */
async function eligibleParcels(deps: Deps, kind: RouteKind, routeId: number | null, ids: number[]): Promise<PackageRow[]> {
  if (!ids.length) return [];
  const wanted = [...new Set(ids)];
  if (wanted.length !== ids.length) throw badRequest('A parcel is named twice', [{ path: 'packages', message: 'duplicate ids' }]);
  const rows = await deps.db
    .select()
    .from(pkg)
    .where(and(inArray(pkg.id, wanted), isNull(pkg.deleted_at)))
    .all();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = wanted.filter((id) => !byId.has(id));
  if (missing.length) {
    throw new ApiError(
      400,
      'validation_error',
      `Unknown package ids: ${missing.join(', ')}`,
      missing.map((id) => ({ path: 'packages', message: `no package ${id}` })),
    );
  }
  const wrong = rows.filter((r) => !isOpen(kind, r.status));
  if (wrong.length) {
    throw new ApiError(
      400,
      'validation_error',
      `A ${kind} route takes parcels that are ${openStatuses(kind).join(', ')}`,
      wrong.map((r) => ({ path: 'packages', message: `${r.hawb} is ${r.status}` })),
    );
  }
  const onRoutes = rows.filter((r) => r.route_id != null && r.route_id !== routeId).map((r) => r.route_id as number);
  if (onRoutes.length) {
    const live = new Set(
      (
        await deps.db
          .select({ id: deliveryRoute.id })
          .from(deliveryRoute)
          .where(and(inArray(deliveryRoute.id, [...new Set(onRoutes)]), inArray(deliveryRoute.status, [...LIVE_ROUTE])))
          .all()
      ).map((r) => r.id),
    );
    const taken = rows.filter((r) => r.route_id != null && live.has(r.route_id) && r.route_id !== routeId);
    if (taken.length) {
      throw conflict(`Parcels already on another route: ${taken.map((r) => r.hawb).join(', ')}`, {
        packages: taken.map((r) => ({ package: r.id, route: r.route_id })),
      });
    }
  }
  return wanted.map((id) => byId.get(id) as PackageRow);
}

/** Sequence numbers continue after the parcels already worked, so a day keeps one order. */
export async function sequenceBase(deps: Deps, route: RouteRow): Promise<number> {
  const kind = kindOf(route);
  return (await routeParcels(deps.db, route.id))
    .filter((p) => !isOpen(kind, p.status))
    .reduce((m, p) => Math.max(m, p.sequence_no ?? 0), 0);
}

/**
 * Writes `route_id` and `sequence_no` where they change, through the lifecycle so devices hear of it.
 * `sequences`: the numbers to give, in order (a plan with pickup stops between them, issue 32); else
 * they follow the parcels already worked.
 */
export async function placeParcels(
  deps: Deps,
  actor: SessionUser,
  route: RouteRow,
  ordered: PackageRow[],
  action: string,
  meta: ActionMeta = {},
  deviceId: string | null = null,
  sequences?: number[],
): Promise<void> {
  const now = deps.clock.now();
  const base = await sequenceBase(deps, route);
  for (const [i, p] of ordered.entries()) {
    const seq = sequences?.[i] ?? base + i + 1;
    if (p.route_id === route.id && p.sequence_no === seq) continue;
    await updatePackage(
      deps.db,
      now,
      p,
      { route_id: route.id, sequence_no: seq },
      action,
      { userId: actor.id, deviceId },
      { ...meta, data: { ...meta.data, route: route.id, sequence_no: seq } },
    );
  }
}

async function detach(deps: Deps, actor: SessionUser, route: RouteRow, parcels: PackageRow[]): Promise<void> {
  const now = deps.clock.now();
  for (const p of parcels) {
    await updatePackage(
      deps.db,
      now,
      p,
      { route_id: null, sequence_no: isFinal(p.status as PackageStatus) ? p.sequence_no : null },
      'route_remove',
      { userId: actor.id },
      { data: { route: route.id } },
    );
  }
}

export async function createRoute(deps: Deps, actor: SessionUser, body: z.output<typeof RouteCreate>, sequences?: number[]) {
  checkStart(body.start_latitude, body.start_longitude);
  await checkWarehouse(deps, body.warehouse);
  if (body.driver != null) await activeDriver(deps, body.driver);
  const parcels = await eligibleParcels(deps, body.kind, null, body.packages);
  const now = deps.clock.now();
  const route = await deps.db
    .insert(deliveryRoute)
    .values({
      name: body.name,
      date: body.date,
      kind: body.kind,
      status: 'planned',
      driver_id: body.driver ?? null,
      warehouse_id: body.warehouse ?? null,
      start_latitude: body.start_latitude ?? null,
      start_longitude: body.start_longitude ?? null,
      created_by: actor.id,
      created_at: now,
      updated_at: now,
    })
    .returning()
    .get();
  await placeParcels(deps, actor, route, parcels, 'route_add', {}, null, sequences);
  const handover =
    route.driver_id != null
      ? await handOver(deps, actor, route, route.driver_id, await openParcels(deps.db, route))
      : { moved: [], skipped: [] };
  return { route, handover };
}

export async function updateRoute(deps: Deps, actor: SessionUser, route: RouteRow, body: z.output<typeof RouteUpdate>): Promise<RouteRow> {
  const lat = body.start_latitude !== undefined ? body.start_latitude : route.start_latitude;
  const lng = body.start_longitude !== undefined ? body.start_longitude : route.start_longitude;
  checkStart(lat, lng);
  await checkWarehouse(deps, body.warehouse);
  let row = route;
  if (body.status !== undefined && body.status !== route.status) row = await changeStatus(deps, actor, row, body.status);
  const patch: Partial<typeof deliveryRoute.$inferInsert> = {};
  if (body.name !== undefined) patch.name = body.name;
  if (body.date !== undefined) patch.date = body.date;
  if (body.warehouse !== undefined) patch.warehouse_id = body.warehouse;
  if (body.start_latitude !== undefined || body.start_longitude !== undefined)
    Object.assign(patch, { start_latitude: lat ?? null, start_longitude: lng ?? null });
  if (Object.keys(patch).length) {
    row =
      (await deps.db
        .update(deliveryRoute)
        .set({ ...patch, updated_at: deps.clock.now() })
        .where(eq(deliveryRoute.id, route.id))
        .returning()
        .get()) ?? row;
  }
  if (body.packages !== undefined) await setRouteParcels(deps, actor, row, body.packages);
  return row;
}

/**
 * `packages` of an update is the wanted list of open parcels, in order. Open parcels left out are
 * taken off the route (they keep their driver); worked parcels stay on it as its record.
 */
async function setRouteParcels(deps: Deps, actor: SessionUser, route: RouteRow, ids: number[]): Promise<void> {
  if (!(LIVE_ROUTE as readonly string[]).includes(route.status))
    throw conflict(`Route ${route.name} is ${route.status}; its parcels no longer change`, { status: route.status });
  const wanted = await eligibleParcels(deps, kindOf(route), route.id, ids);
  const keep = new Set(ids);
  await detach(
    deps,
    actor,
    route,
    (await openParcels(deps.db, route)).filter((p) => !keep.has(p.id)),
  );
  await placeParcels(deps, actor, route, wanted, 'route_add');
  if (route.driver_id != null) await handOver(deps, actor, route, route.driver_id, await openParcels(deps.db, route));
}

export async function changeStatus(deps: Deps, actor: SessionUser, route: RouteRow, to: RouteStatus): Promise<RouteRow> {
  const from = route.status as RouteStatus;
  if (from === to) return route;
  if (!STATUS_FLOW[from].includes(to)) {
    throw new ApiError(
      409,
      'invalid_transition',
      `Route ${route.name} is ${from.replace('_', ' ')}; it cannot become ${to.replace('_', ' ')}`,
      [],
      { route: route.id, status: from, allowed: STATUS_FLOW[from] },
    );
  }
  if (actor.role === 'driver' && !DRIVER_MOVES.includes(`${from}>${to}`))
    throw forbidden('A driver may only start or complete their route');
  if (to === 'in_progress' && route.driver_id == null) throw conflict(`Route ${route.name} has no driver`);
  return await setRouteStatus(deps, route, to);
}

/** Writes a move `changeStatus` (or the route's own driver working a stop) has allowed, with its times. */
export async function setRouteStatus(deps: Pick<Deps, 'db' | 'clock'>, route: RouteRow, to: RouteStatus): Promise<RouteRow> {
  const now = deps.clock.now();
  const patch: Partial<typeof deliveryRoute.$inferInsert> = { status: to, updated_at: now };
  if (to === 'in_progress') patch.started_at = now;
  if (to === 'completed') patch.completed_at = now;
  if (to === 'planned') Object.assign(patch, { started_at: null, completed_at: null });
  return (await deps.db.update(deliveryRoute).set(patch).where(eq(deliveryRoute.id, route.id)).returning().get()) ?? route;
}

/** Only a plan with nothing worked may go; anything else is the record of a run (cancel it instead). */
export async function deleteRoute(deps: Deps, actor: SessionUser, route: RouteRow): Promise<void> {
  if (route.status !== 'planned' && route.status !== 'cancelled') {
    throw conflict(`Route ${route.name} is ${route.status.replace('_', ' ')}; only planned or cancelled routes can be deleted`, {
      status: route.status,
    });
  }
  const parcels = await routeParcels(deps.db, route.id);
  const kind = kindOf(route);
  const worked = parcels.filter((p) => !isOpen(kind, p.status));
  if (worked.length)
    throw conflict(`Route ${route.name} has ${worked.length} worked parcel(s); cancel it instead`, { packages: worked.map((p) => p.id) });
  await detach(deps, actor, route, parcels);
  await deps.db.delete(deliveryRoute).where(eq(deliveryRoute.id, route.id)).run();
}
