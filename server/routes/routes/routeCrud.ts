import { IdParams, pageOf, SuccessMessage } from '../../../shared/schemas/common';
import {
  PodAnswer,
  RouteAnswer,
  RouteCreate,
  RouteListQuery,
  RoutePackagesAnswer,
  RouteRecord,
  RouteStatusBody,
  RouteUpdate,
} from '../../../shared/schemas/routes';
import { deliveryRoute } from '../../db/schema/index';
import type { Db } from '../../db/client';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { csvFile } from '../../http/csvFile';
import { defineRoute } from '../../http/route';
import { today } from '../../services/time/zones';
import { proofsOf } from '../../services/packages/proof';
import { routesCsv } from '../../services/routes/csv';
import { routePage, routesForCsv } from '../../services/routes/list';
import { changeStatus, createRoute, deleteRoute, updateRoute } from '../../services/routes/manage';
import { findRoute, routePackages, routeRecord, shownRouteParcels } from '../../services/routes/shape';
import { requireRouteWriter, STAFF } from './common';

const tags = ['Route'];
const answer = async (db: Db, row: typeof deliveryRoute.$inferSelect, message: string) => ({
  success: true,
  message,
  route: await routeRecord(db, row),
});

export function routeCrudRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/route/',
      tags,
      access: 'route.view',
      query: RouteListQuery,
      response: pageOf(RouteRecord),
      catalogue: [...ops('web/Route', 'Get'), ...ops('mobile/Dashboard', 'Route List')],
      summary: 'Routes, newest day first (a driver: their own)',
      description:
        'Filters: status and kind (comma-separated), driver, date, date_from/date_to (inclusive), search (name). Companies have no access to routes.',
    },
    ({ deps, user, query, c }) => routePage(deps.db, user, query, c.req.url),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/route/csv-download/',
      tags,
      access: 'route.manage',
      query: RouteListQuery,
      produces: 'text/csv',
      catalogue: ops('web/Route', 'Route CSV Download'),
      summary: 'Routes as CSV, one line per parcel in sequence order (same filters as the list)',
    },
    async ({ deps, user, query }) => {
      const rows = await routesForCsv(deps.db, user, query);
      return csvFile(await routesCsv(deps.db, rows), `routes-${await today(deps)}.csv`);
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/route/',
      tags,
      access: 'route.manage',
      body: RouteCreate,
      response: RouteAnswer,
      status: 201,
      catalogue: ops('web/Route', 'Create'),
      summary: 'Create a route from parcels (order = the order given); with a driver, the parcels are assigned to them',
      description:
        'A parcel can be on one planned or running route at a time (409 otherwise). Delivery routes take created, received, assigned, out_for_delivery or failed parcels; pickup routes take pickup_requested ones.',
    },
    async ({ deps, user, body }) => {
      const { route } = await createRoute(deps, user, body);
      return answer(deps.db, route, `Route ${route.name} created`);
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/route/{id}/',
      tags,
      access: 'route.view',
      params: IdParams,
      response: RouteRecord,
      catalogue: ops('web/Route', 'Retrieve'),
      summary: 'A route (a driver: only their own, others 404)',
    },
    async ({ deps, user, params }) => routeRecord(deps.db, await findRoute(deps.db, user, params.id)),
  );

  defineRoute(
    app,
    {
      method: ['patch', 'put'],
      path: '/route/{id}/',
      tags,
      access: 'route.manage',
      params: IdParams,
      body: RouteUpdate,
      response: RouteAnswer,
      catalogue: ops('web/Route', 'Update'),
      summary: 'Partial update: name, date, warehouse, start point, status, and the ordered list of its open parcels',
      description:
        '`packages` replaces the open parcels (in that order); open parcels left out leave the route but keep their driver. The driver changes only through assign-driver / assign-other-driver.',
    },
    async ({ deps, user, params, body }) => {
      const row = await updateRoute(deps, user, await findRoute(deps.db, user, params.id), body);
      return answer(deps.db, row, `Route ${row.name} updated`);
    },
  );

  defineRoute(
    app,
    {
      method: 'delete',
      path: '/route/{id}/',
      tags,
      access: 'route.manage',
      params: IdParams,
      response: SuccessMessage,
      catalogue: ops('web/Route', 'Delete'),
      summary: 'Delete a planned or cancelled route with no worked parcel (its parcels leave it); otherwise 409',
    },
    async ({ deps, user, params }) => {
      const route = await findRoute(deps.db, user, params.id);
      await deleteRoute(deps, user, route);
      return { success: true, message: `Route ${route.name} deleted` };
    },
  );

  defineRoute(
    app,
    {
      method: ['post', 'patch'],
      path: '/route/{id}/status-change/',
      tags,
      access: 'route.view',
      params: IdParams,
      body: RouteStatusBody,
      response: RouteAnswer,
      catalogue: [...ops('mobile/Assign Route', 'Route Status Change'), ...ops('mobile/Route Status Change', 'Status Change')],
      summary: "Change a route's status (drivers: start or complete their own route; staff: any allowed move)",
      description:
        'planned -> in_progress | cancelled, in_progress -> completed | cancelled, cancelled -> planned. The same status again answers 200 unchanged.',
    },
    async ({ deps, user, params, body }) => {
      requireRouteWriter(user);
      const row = await changeStatus(deps, user, await findRoute(deps.db, user, params.id), body.status);
      return answer(deps.db, row, `Route ${row.name} is ${row.status.replace('_', ' ')}`);
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/route/{id}/packages/',
      tags,
      access: 'route.view',
      params: IdParams,
      response: RoutePackagesAnswer,
      catalogue: [
        ...ops('mobile/Assign Route', 'Package by Route Sequence'),
        ...ops('web/Optimize Route List of Package', 'Route Package List'),
      ],
      summary: "The route's parcels in sequence order (spec 2.1 shape)",
    },
    async ({ deps, user, params }) => {
      const route = await findRoute(deps.db, user, params.id);
      return { success: true, route: await routeRecord(deps.db, route), packages: await routePackages(deps.db, route.id, user) };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/route/{id}/pod/',
      tags,
      access: { roles: STAFF },
      params: IdParams,
      response: PodAnswer,
      catalogue: ops('web/Optimize Route List of Package', 'POD'),
      summary: "Proof of delivery of the route's delivered parcels (recipient, photos, signature), in sequence order",
    },
    async ({ deps, user, params }) => {
      const route = await findRoute(deps.db, user, params.id);
      // A route run long ago shows its parcels moved to history too.
      const parcels = await shownRouteParcels(deps.db, route.id);
      const delivered = parcels.filter((p) => p.status === 'delivered');
      return {
        success: true,
        route: await routeRecord(deps.db, route),
        delivered: delivered.length,
        failed: parcels.filter((p) => p.status === 'failed').length,
        results: await proofsOf(deps.db, delivered),
      };
    },
  );
}
