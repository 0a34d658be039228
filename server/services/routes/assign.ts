import { mustReturn } from '../../../shared/lifecycle';
import { conflict, badRequest } from '../../errors';
import { deliveryRoute } from '../../db/schema/index';
import { eq } from 'drizzle-orm';
import type { Deps } from '../../deps';
import type { SessionUser } from '../auth/session';
import { activeDriver, assignDriver } from '../packages/assign';
import { updatePackage, type ActionMeta } from '../packages/lifecycle';
import type { PackageRow } from '../packages/shape';
import { kindOf, openParcels, type RouteRow } from './shape';

export interface Handover {
  moved: number[];
  skipped: { package: number; reason: string }[];
}

/**
 * Gives a route's open parcels to `driverId` through the package lifecycle. Parcels the driver
 * already holds are left alone (one on their van stays on it); a failed parcel that used its
 * attempts must go back to the depot, so it is skipped rather than blocking the whole route.
 */
export async function handOver(
  deps: Deps,
  actor: SessionUser,
  route: RouteRow,
  driverId: number,
  parcels: PackageRow[],
  meta: ActionMeta = {},
): Promise<Handover> {
  const out: Handover = { moved: [], skipped: [] };
  const take: PackageRow[] = [];
  for (const p of parcels) {
    if (p.assigned_to_id === driverId) continue;
    if (p.status === 'failed' && mustReturn(p.attempts, deps.config.maxAttempts))
      out.skipped.push({ package: p.id, reason: 'must_return' });
    else take.push(p);
  }
  if (!take.length) return out;
  const data = { ...meta.data, route: route.id };
  if (kindOf(route) === 'pickup') {
    // A pickup is not in the delivery lifecycle yet: the driver only becomes the collector.
    const now = deps.clock.now();
    for (const p of take)
      await updatePackage(
        deps.db,
        now,
        p,
        { assigned_to_id: driverId },
        'assign_pickup',
        { userId: actor.id },
        { ...meta, data: { ...data, driver: driverId } },
      );
  } else {
    await assignDriver(
      deps,
      actor,
      driverId,
      take.map((p) => p.id),
      { ...meta, data },
    );
  }
  out.moved = take.map((p) => p.id);
  return out;
}

/** Assign Route to Driver: a route without a driver (or already that driver's) gets one; its parcels follow. */
export async function assignRoute(
  deps: Deps,
  actor: SessionUser,
  route: RouteRow,
  driverId: number,
): Promise<Handover & { route: RouteRow }> {
  await activeDriver(deps, driverId);
  if (route.status === 'completed' || route.status === 'cancelled')
    throw conflict(`Route ${route.name} is ${route.status}`, { status: route.status });
  if (route.driver_id != null && route.driver_id !== driverId) {
    throw conflict(`Route ${route.name} already has a driver; use assign-other-driver to move it`, { driver: route.driver_id });
  }
  const handover = await handOver(deps, actor, route, driverId, await openParcels(deps.db, route));
  return { ...handover, route: await setDriver(deps, route, driverId) };
}

/** Assign Route To Other Driver: the route and its open parcels move; the first driver's devices drop them. */
export async function reassignRoute(
  deps: Deps,
  actor: SessionUser,
  route: RouteRow,
  driverId: number,
): Promise<Handover & { route: RouteRow }> {
  await activeDriver(deps, driverId);
  if (route.status === 'completed' || route.status === 'cancelled')
    throw conflict(`Route ${route.name} is ${route.status}`, { status: route.status });
  if (route.driver_id == null) throw conflict(`Route ${route.name} has no driver yet; use assign-driver`);
  if (route.driver_id === driverId) throw badRequest('The route is already with this driver', [{ path: 'driver', message: 'same driver' }]);
  const handover = await handOver(deps, actor, route, driverId, await openParcels(deps.db, route), {
    data: { from_driver: route.driver_id },
  });
  return { ...handover, route: await setDriver(deps, route, driverId) };
}

async function setDriver(deps: Deps, route: RouteRow, driverId: number): Promise<RouteRow> {
  return (
    (await deps.db
      .update(deliveryRoute)
      .set({ driver_id: driverId, updated_at: deps.clock.now() })
      .where(eq(deliveryRoute.id, route.id))
      .returning()
      .get()) ?? route
  );
}
