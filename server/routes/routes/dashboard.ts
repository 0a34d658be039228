import { z } from 'zod';
import { HistoryItem, HistoryQuery } from '../../../shared/schemas/delivery';
import { pageOf } from '../../../shared/schemas/common';
import {
  CompletedQuery,
  DashboardCountAnswer,
  DashboardListQuery,
  MapAnswer,
  MapQuery,
  pageOfPackages,
  SequenceWiseAnswer,
  SequenceWiseQuery,
} from '../../../shared/schemas/routes';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { driverHistory } from '../../services/packages/history';
import {
  assignedDeliveries,
  completedDeliveries,
  dashboardCount,
  dashboardMap,
  pendingDeliveries,
  routableParcels,
  routesOfDay,
} from '../../services/routes/dashboard';
import { routesWithPackages } from '../../services/routes/shape';
import { businessZone } from '../../services/time/zones';
import { localDay } from '../../../shared/time/zone';
import { STAFF, STAFF_AND_DRIVERS, whichDriver } from './common';

const tags = ['Dashboard'];
const web = (op: string) => ops('web/Dashboard API', op);

export function dashboardRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/dashboard/count/',
      tags,
      access: { roles: STAFF },
      query: z.object({ date: z.iso.date().optional() }),
      response: DashboardCountAnswer,
      catalogue: web('Dashboard Count'),
      summary: 'Office dashboard counts: parcels (pending, with drivers, delivered and failed on the day), routes of the day, drivers',
      description:
        "`date` (a local day of the business's time zone, default today there; `time_zone` names it) applies to delivered_today, failed_today (attempts received that day) and the routes. `drivers.reporting` = drivers whose phone reported a position in the last 15 minutes.",
    },
    async ({ deps, query }) => {
      const zone = await businessZone(deps);
      return dashboardCount(deps.db, deps.clock.now(), query.date ?? localDay(deps.clock.now(), zone), zone);
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/dashboard/driver-history/',
      tags,
      access: { roles: STAFF },
      query: HistoryQuery,
      response: pageOf(HistoryItem),
      catalogue: web('Driver History'),
      summary: 'The parcels a driver (?driver=, required) moved, each with their latest action, newest first',
      description: 'Filters: status (comma-separated), date_from/date_to (UTC days of the action), search (hawb, customer name).',
    },
    async ({ deps, user, query, c }) => {
      const driver = (await whichDriver(deps.db, user, query.driver)) as { id: number };
      return driverHistory(deps, driver.id, query, c.req.url);
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/dashboard/pending-delivery/',
      tags,
      access: { roles: STAFF_AND_DRIVERS },
      query: DashboardListQuery,
      response: pageOfPackages,
      catalogue: [...web('Pending Delivery List'), ...ops('mobile/Dashboard', 'Pending Delivery List')],
      summary:
        'Parcels still to be delivered (created, received, assigned, out for delivery, failed), in route sequence (a driver: their own)',
      description: 'Filters: driver (staff), route, zone.',
    },
    async ({ deps, user, query, c }) => {
      const driver = await whichDriver(deps.db, user, query.driver, true);
      return pendingDeliveries(deps.db, { ...query, driver: driver?.id }, c.req.url);
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/dashboard/assigned-delivery/',
      tags,
      access: { roles: STAFF },
      query: DashboardListQuery,
      response: pageOfPackages,
      catalogue: web('Assigned Delivery List'),
      summary: 'Parcels with a driver and not yet attempted (assigned, out for delivery), by driver then sequence',
    },
    ({ deps, query, c }) => assignedDeliveries(deps.db, query, c.req.url),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/dashboard/completed-delivery/',
      tags,
      access: { roles: STAFF_AND_DRIVERS },
      query: CompletedQuery,
      response: pageOfPackages,
      catalogue: ops('mobile/Dashboard', 'Completed Delivery List'),
      summary: 'Parcels a driver delivered, newest first (a driver: their own; staff: ?driver= or everyone)',
      description: "date_from/date_to: local days (the business's time zone) of the delivery.",
    },
    async ({ deps, user, query, c }) => {
      const driver = await whichDriver(deps.db, user, query.driver, true);
      return completedDeliveries(deps.db, deps.clock.now(), await businessZone(deps), driver?.id, query, c.req.url);
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/dashboard/optimize-route-packages/',
      tags,
      access: { roles: STAFF },
      query: DashboardListQuery.omit({ route: true }),
      response: pageOfPackages,
      catalogue: web('Optimize Route Package List'),
      summary: 'Parcels a planner can put on a route: created, received or assigned, on no planned or running route',
      description: 'Filters: driver (the parcels a driver holds), zone.',
    },
    ({ deps, query, c }) => routableParcels(deps.db, query, c.req.url),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/dashboard/sequence-wise-route/',
      tags,
      access: { roles: STAFF },
      query: SequenceWiseQuery,
      response: SequenceWiseAnswer,
      catalogue: web('Sequence Wise Route'),
      summary: "The routes of a day (default today, in the business's time zone), each with its parcels in sequence order",
    },
    async ({ deps, query }) => {
      const date = query.date ?? localDay(deps.clock.now(), await businessZone(deps));
      return { success: true, date, results: await routesWithPackages(deps.db, await routesOfDay(deps.db, date, query)) };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/dashboard/map/',
      tags,
      access: { roles: STAFF },
      query: MapQuery,
      response: MapAnswer,
      catalogue: ops('web/Optimize Route List of Package', 'Dashboard Map API'),
      summary: "Map data: each active driver's last position, current route and open parcels with status; open parcels nobody holds",
    },
    ({ deps, query }) => dashboardMap(deps.db, query.driver),
  );
}
