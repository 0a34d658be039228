import { and, asc, desc, eq, inArray, type SQL } from 'drizzle-orm';
import { pageOf } from '../../../shared/schemas/common';
import { DriverQuery, DriverRoutesAnswer, ROUTE_STATUSES, RouteCountAnswer, RouteNamesAnswer, RouteRecord, type RouteStatus } from '../../../shared/schemas/routes';
import { z } from 'zod';
import { deliveryRoute } from '../../db/schema/index';
import { badRequest } from '../../errors';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { routeCounts } from '../../services/routes/dashboard';
import { LIVE_ROUTE, routeRecords, routesWithPackages } from '../../services/routes/shape';
import { whichDriver } from './common';

const tags = ['Driver Routes'];
const MAX_ROUTES = 200;

/** `?status=` of the driver views; by default the routes still to be driven. */
function statusesOf(raw: string | undefined): RouteStatus[] {
  if (!raw) return [...LIVE_ROUTE];
  const values = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = values.filter((v) => !(ROUTE_STATUSES as readonly string[]).includes(v));
  if (bad.length) throw badRequest(`Unknown status: ${bad.join(', ')}`, [{ path: 'status', message: 'unknown status' }]);
  return values as RouteStatus[];
}

const driverRoutesWhere = (driverId: number, q: z.output<typeof DriverQuery>): SQL | undefined => and(
  eq(deliveryRoute.driver_id, driverId), inArray(deliveryRoute.status, statusesOf(q.status)), q.date ? eq(deliveryRoute.date, q.date) : undefined,
);

export function mobileRouteRoutes(app: App): void {
  defineRoute(app, {
    method: 'get', path: '/route/driver-routes/', tags, access: 'route.view', query: DriverQuery, response: pageOf(RouteRecord),
    catalogue: [...ops('mobile/Assign Route', 'Assigned Routes List by Driver'), ...ops('mobile/Dashboard', 'Driver Route List')],
    summary: 'A driver\'s routes (a driver: their own; staff: ?driver=), by default planned and in progress, earliest day first',
  }, async ({ deps, user, query }) => {
    const driver = (await whichDriver(deps.db, user, query.driver)) as { id: number };
    const rows = await deps.db.select().from(deliveryRoute).where(driverRoutesWhere(driver.id, query))
      .orderBy(asc(deliveryRoute.date), asc(deliveryRoute.id)).limit(MAX_ROUTES).all();
    return { count: rows.length, next: null, previous: null, results: await routeRecords(deps.db, rows) };
  });

  defineRoute(app, {
    method: 'get', path: '/route/driver-packages/', tags, access: 'route.view', query: DriverQuery, response: DriverRoutesAnswer,
    catalogue: [...ops('web/Optimize Route List of Package', 'Package By Driver Route'), ...ops('mobile/Dashboard', 'Driver Route Packages')],
    summary: 'A driver\'s routes, each with its parcels in sequence order',
  }, async ({ deps, user, query }) => {
    const driver = (await whichDriver(deps.db, user, query.driver)) as { id: number; name: string };
    const rows = await deps.db.select().from(deliveryRoute).where(driverRoutesWhere(driver.id, query))
      .orderBy(asc(deliveryRoute.date), asc(deliveryRoute.id)).limit(MAX_ROUTES).all();
    return { success: true, driver, results: await routesWithPackages(deps.db, rows, user) };
  });

  defineRoute(app, {
    method: 'get', path: '/route/names/', tags, access: 'route.view', query: DriverQuery, response: RouteNamesAnswer,
    catalogue: ops('web/Optimize Route List of Package', 'Route Name by Driver'),
    summary: 'Id and name of a driver\'s routes (for pickers), newest day first; ?status= defaults to every status',
  }, async ({ deps, user, query }) => {
    const driver = (await whichDriver(deps.db, user, query.driver)) as { id: number };
    const rows = await deps.db.select({ id: deliveryRoute.id, name: deliveryRoute.name, date: deliveryRoute.date, status: deliveryRoute.status, kind: deliveryRoute.kind })
      .from(deliveryRoute)
      .where(and(eq(deliveryRoute.driver_id, driver.id), query.status ? inArray(deliveryRoute.status, statusesOf(query.status)) : undefined,
        query.date ? eq(deliveryRoute.date, query.date) : undefined))
      .orderBy(desc(deliveryRoute.date), desc(deliveryRoute.id)).limit(1000).all();
    return {
      success: true,
      results: rows.map((r) => ({ ...r, status: r.status as RouteStatus, kind: r.kind === 'pickup' ? 'pickup' as const : 'delivery' as const })),
    };
  });

  defineRoute(app, {
    method: 'get', path: '/route/count/', tags, access: 'route.view', query: DriverQuery.omit({ status: true }), response: RouteCountAnswer,
    catalogue: [...ops('mobile/Dashboard', 'Assigned Routes Count'), ...ops('web/Optimize Route List of Package', 'Dashboard Count')],
    summary: 'Routes by status and their parcels counted (a driver: their own; staff: every driver or ?driver=), for a ?date= or all days',
  }, async ({ deps, user, query }) => {
    const driver = await whichDriver(deps.db, user, query.driver, true);
    return { success: true, driver, date: query.date ?? null, ...await routeCounts(deps.db, { driver: driver?.id, date: query.date }) };
  });
}
