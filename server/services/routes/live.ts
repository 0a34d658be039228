import { and, asc, eq, max } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { deliveryRoute, stopEta } from '../../db/schema/index';
import type { SessionUser } from '../auth/session';
import { refreshRouteEtas } from '../dispatch/eta';
import { today as localToday } from '../time/zones';
import { changeStatus, setRouteStatus } from './manage';
import type { RouteRow } from './shape';

/**
 * A running route's ETAs are recomputed from a position at most this often: a phone reports every
 * few seconds while driving, and a minute is finer than any arrival band a recipient is told.
 */
export const POSITION_ETA_EVERY_MS = 60_000;

/**
 * Starts the driver's planned delivery route: the office then sees it running, and ETAs start from
 * the van's position (server/services/dispatch/eta.ts reads positions of running routes only).
 */
async function start(deps: Deps, driver: SessionUser, route: RouteRow): Promise<void> {
  const started = await changeStatus(deps, driver, route, 'in_progress');
  if (started.status === 'in_progress') await refreshRouteEtas(deps, started.id);
}

const startable = (route: RouteRow | undefined, driverId: number): route is RouteRow =>
  route != null && route.status === 'planned' && route.kind === 'delivery' && route.driver_id === driverId;

/**
 * The driver loaded a parcel (issue 31): its planned route starts, unless it is a later day's
 * (a van loaded the evening before does not start tomorrow's route).
 */
export async function startRouteOfParcel(deps: Deps, driver: SessionUser, parcel: { route_id: number | null }): Promise<void> {
  if (parcel.route_id == null) return;
  const route = await deps.db.select().from(deliveryRoute).where(eq(deliveryRoute.id, parcel.route_id)).get();
  if (!startable(route, driver.id) || route.date > (await localToday(deps, route.warehouse_id))) return;
  await start(deps, driver, route);
}

/**
 * The route's driver worked a stop on it (delivered or failed, by whatever path: a scan, the phone's
 * queue, the office on their behalf is not them): a planned route of today or earlier is under way
 * (issue 36: routes said "Planned" all day when the driver delivered without a load scan).
 */
export async function startRouteWorked(deps: Deps, driverId: number, routeId: number): Promise<boolean> {
  const route = await deps.db.select().from(deliveryRoute).where(eq(deliveryRoute.id, routeId)).get();
  if (!startable(route, driverId) || route.date > (await localToday(deps, route.warehouse_id))) return false;
  await setRouteStatus(deps, route, 'in_progress');
  return true;
}

/**
 * The phone reports positions only while its driver is on duty (client/driver/positions.ts): the
 * first one starts today's first planned delivery route, when none of theirs is running yet.
 */
export async function startRouteOnPosition(deps: Deps, driver: SessionUser): Promise<number | null> {
  const mine = await deps.db
    .select()
    .from(deliveryRoute)
    .where(and(eq(deliveryRoute.driver_id, driver.id), eq(deliveryRoute.kind, 'delivery')))
    .orderBy(asc(deliveryRoute.date), asc(deliveryRoute.id))
    .all();
  if (mine.some((r) => r.status === 'in_progress')) return null;
  for (const route of mine) {
    if (!startable(route, driver.id) || route.date !== (await localToday(deps, route.warehouse_id))) continue;
    await start(deps, driver, route);
    return route.id;
  }
  return null;
}

/**
 * New positions move the remaining stops of the driver's running routes (today's and earlier days'
 * left open), each route at most once per POSITION_ETA_EVERY_MS: the stored `computed_at` of its
 * ETAs says when it was last done (by a position, a stop worked or a plan), so no state is kept here
 * and every server process agrees. Answers the routes refreshed.
 */
export async function refreshEtasFromPosition(deps: Deps, driverId: number): Promise<number[]> {
  const now = deps.clock.now();
  const running = await deps.db
    .select()
    .from(deliveryRoute)
    .where(and(eq(deliveryRoute.driver_id, driverId), eq(deliveryRoute.status, 'in_progress'), eq(deliveryRoute.kind, 'delivery')))
    .all();
  const done: number[] = [];
  for (const route of running) {
    if (route.date > (await localToday(deps, route.warehouse_id))) continue;
    const last = (
      await deps.db
        .select({ at: max(stopEta.computed_at) })
        .from(stopEta)
        .where(eq(stopEta.route_id, route.id))
        .get()
    )?.at;
    if (last != null && now - last < POSITION_ETA_EVERY_MS) continue;
    await refreshRouteEtas(deps, route.id);
    done.push(route.id);
  }
  return done;
}
