import { pageOf } from '../../../shared/schemas/common';
import { DriverQuery, DriverRoutesAnswer, RouteCountAnswer, RouteNamesAnswer, RouteRecord } from '../../../shared/schemas/routes';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { routeCounts } from '../../services/routes/dashboard';
import { driverRouteNames, driverRoutes } from '../../services/routes/driverRoutes';
import { routeRecords, routesWithPackages } from '../../services/routes/shape';
import { whichDriver } from './common';

const tags = ['Driver Routes'];

export function mobileRouteRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/route/driver-routes/',
      tags,
      access: 'route.view',
      query: DriverQuery,
      response: pageOf(RouteRecord),
      catalogue: [...ops('mobile/Assign Route', 'Assigned Routes List by Driver'), ...ops('mobile/Dashboard', 'Driver Route List')],
      summary: "A driver's routes (a driver: their own; staff: ?driver=), by default planned and in progress, earliest day first",
    },
    async ({ deps, user, query }) => {
      const driver = (await whichDriver(deps.db, user, query.driver)) as { id: number };
      const rows = await driverRoutes(deps.db, driver.id, query);
      return { count: rows.length, next: null, previous: null, results: await routeRecords(deps.db, rows) };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/route/driver-packages/',
      tags,
      access: 'route.view',
      query: DriverQuery,
      response: DriverRoutesAnswer,
      catalogue: [
        ...ops('web/Optimize Route List of Package', 'Package By Driver Route'),
        ...ops('mobile/Dashboard', 'Driver Route Packages'),
      ],
      summary: "A driver's routes, each with its parcels in sequence order",
    },
    async ({ deps, user, query }) => {
      const driver = (await whichDriver(deps.db, user, query.driver)) as { id: number; name: string };
      const rows = await driverRoutes(deps.db, driver.id, query);
      return { success: true, driver, results: await routesWithPackages(deps.db, rows, user) };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/route/names/',
      tags,
      access: 'route.view',
      query: DriverQuery,
      response: RouteNamesAnswer,
      catalogue: ops('web/Optimize Route List of Package', 'Route Name by Driver'),
      summary: "Id and name of a driver's routes (for pickers), newest day first; ?status= defaults to every status",
    },
    async ({ deps, user, query }) => {
      const driver = (await whichDriver(deps.db, user, query.driver)) as { id: number };
      return { success: true, results: await driverRouteNames(deps.db, driver.id, query) };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/route/count/',
      tags,
      access: 'route.view',
      query: DriverQuery.omit({ status: true }),
      response: RouteCountAnswer,
      catalogue: [...ops('mobile/Dashboard', 'Assigned Routes Count'), ...ops('web/Optimize Route List of Package', 'Dashboard Count')],
      summary:
        'Routes by status and their parcels counted (a driver: their own; staff: every driver or ?driver=), for a ?date= or all days',
    },
    async ({ deps, user, query }) => {
      const driver = await whichDriver(deps.db, user, query.driver, true);
      return { success: true, driver, date: query.date ?? null, ...(await routeCounts(deps.db, { driver: driver?.id, date: query.date })) };
    },
  );
}
