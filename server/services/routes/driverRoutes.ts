import { and, asc, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { ROUTE_STATUSES, type DriverQuery, type RouteStatus } from '../../../shared/schemas/routes';
import type { Db } from '../../db/client';
import { deliveryRoute } from '../../db/schema/index';
import { badRequest } from '../../errors';
import { LIVE_ROUTE, type RouteRow } from './shape';

type DriverFilter = z.output<typeof DriverQuery>;
/** A driver's views list at most this many routes: a phone never needs more. */
const MAX_ROUTES = 200;

/** `?status=` of the driver views; by default the routes still to be driven. */
function statusesOf(raw: string | undefined): RouteStatus[] {
  if (!raw) return [...LIVE_ROUTE];
  const values = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = values.filter((v) => !(ROUTE_STATUSES as readonly string[]).includes(v));
  if (bad.length) throw badRequest(`Unknown status: ${bad.join(', ')}`, [{ path: 'status', message: 'unknown status' }]);
  return values as RouteStatus[];
}

const driverRoutesWhere = (driverId: number, q: DriverFilter): SQL | undefined =>
  and(
    eq(deliveryRoute.driver_id, driverId),
    inArray(deliveryRoute.status, statusesOf(q.status)),
    q.date ? eq(deliveryRoute.date, q.date) : undefined,
  );

/** A driver's routes (by default planned and in progress), earliest day first. */
export async function driverRoutes(db: Db, driverId: number, q: DriverFilter): Promise<RouteRow[]> {
  return await db
    .select()
    .from(deliveryRoute)
    .where(driverRoutesWhere(driverId, q))
    .orderBy(asc(deliveryRoute.date), asc(deliveryRoute.id))
    .limit(MAX_ROUTES)
    .all();
}

/** Id and name of a driver's routes (for pickers), newest day first; every status unless `?status=`. */
export async function driverRouteNames(db: Db, driverId: number, q: DriverFilter) {
  const rows = await db
    .select({
      id: deliveryRoute.id,
      name: deliveryRoute.name,
      date: deliveryRoute.date,
      status: deliveryRoute.status,
      kind: deliveryRoute.kind,
    })
    .from(deliveryRoute)
    .where(
      and(
        eq(deliveryRoute.driver_id, driverId),
        q.status ? inArray(deliveryRoute.status, statusesOf(q.status)) : undefined,
        q.date ? eq(deliveryRoute.date, q.date) : undefined,
      ),
    )
    .orderBy(desc(deliveryRoute.date), desc(deliveryRoute.id))
    .limit(1000)
    .all();
  return rows.map((r) => ({
    ...r,
    status: r.status as RouteStatus,
    kind: r.kind === 'pickup' ? ('pickup' as const) : ('delivery' as const),
  }));
}
