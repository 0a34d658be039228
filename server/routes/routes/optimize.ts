import { IdParams } from '../../../shared/schemas/common';
import {
  AssignRouteAnswer,
  AssignRouteBody,
  OptimizeAnswer,
  OptimizeBody,
  RouteAnswer,
  SequenceBody,
} from '../../../shared/schemas/routes';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { packagesByIds } from '../../services/packages/shape';
import { actionMeta } from '../../services/packages/scan';
import { assignRoute, reassignRoute } from '../../services/routes/assign';
import { optimise, resequence } from '../../services/routes/optimize';
import { findRoute, routeRecord } from '../../services/routes/shape';
import { requireRouteWriter } from './common';
import { refreshRouteEtas } from '../../services/dispatch/eta';

const tags = ['Route'];

export function optimizeRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'post',
      path: '/route/{id}/optimize/',
      tags,
      access: 'route.manage',
      params: IdParams,
      body: OptimizeBody,
      response: OptimizeAnswer,
      catalogue: ops('web/Route', 'Optimize Route'),
      summary: "Order the route's open parcels from its start (great-circle distances, shared optimiser) and write their sequence_no",
      description: [
        'Start: start_latitude/start_longitude of the body, else of the route; with neither, the best path may begin at any stop.',
        'Parcels without coordinates follow the ordered ones. `total_distance_m` is the path from the start through every placed stop (back to the start with return_to_start).',
        'time_limit_ms (1..1000, default 500) bounds the optimiser; up to 12 stops are solved exactly.',
      ].join('\n\n'),
    },
    async ({ deps, user, params, body }) => {
      const result = await optimise(deps, user, await findRoute(deps.db, user, params.id), body);
      await refreshRouteEtas(deps, result.route.id, { replan: true });
      return {
        success: true,
        message: `Route ${result.route.name} ordered: ${result.order.length} parcel(s)`,
        route: await routeRecord(deps.db, result.route),
        order: result.order,
        total_distance_m: Math.round(result.metres),
        unplaced: result.unplaced,
        packages: await packagesByIds(deps.db, result.order),
      };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/route/{id}/sequence/',
      tags,
      access: 'route.view',
      params: IdParams,
      body: SequenceBody,
      response: RouteAnswer,
      catalogue: [],
      summary: "Apply an order made elsewhere (the phone re-optimising offline): exactly the route's open parcels, each once",
      description:
        "The route's driver or staff with route.manage. Idempotent with Idempotency-Key; a list that is not exactly the open parcels is 400 and changes nothing.",
    },
    async ({ deps, user, params, body, device }) => {
      requireRouteWriter(user);
      const result = await resequence(deps, user, await findRoute(deps.db, user, params.id), body, actionMeta(body), device?.id ?? null);
      await refreshRouteEtas(deps, result.route.id);
      return { success: true, message: `Route ${result.route.name} re-sequenced`, route: await routeRecord(deps.db, result.route) };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/route/{id}/assign-driver/',
      tags,
      access: 'route.manage',
      params: IdParams,
      body: AssignRouteBody,
      response: AssignRouteAnswer,
      catalogue: ops('web/Route', 'Assign Route to Driver'),
      summary: 'Give a route without a driver to one; its open parcels are assigned to that driver',
      description:
        'A route that already has another driver answers 409 (use assign-other-driver). Failed parcels that used their attempts are skipped (they go back to the depot).',
    },
    async ({ deps, user, params, body }) => {
      const before = await findRoute(deps.db, user, params.id);
      const result = await assignRoute(deps, user, before, body.driver);
      return {
        success: true,
        message: `Route ${result.route.name} assigned: ${result.moved.length} parcel(s) moved`,
        route: await routeRecord(deps.db, result.route),
        moved: result.moved,
        skipped: result.skipped,
        previous_driver: before.driver_id,
      };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/route/{id}/assign-other-driver/',
      tags,
      access: 'route.manage',
      params: IdParams,
      body: AssignRouteBody,
      response: AssignRouteAnswer,
      catalogue: ops('web/Route', 'Assign Route To Other Driver'),
      summary: "Move a route and its open parcels to another driver; the first driver's devices drop them through the change feed",
    },
    async ({ deps, user, params, body }) => {
      const before = await findRoute(deps.db, user, params.id);
      const result = await reassignRoute(deps, user, before, body.driver);
      return {
        success: true,
        message: `Route ${result.route.name} moved: ${result.moved.length} parcel(s)`,
        route: await routeRecord(deps.db, result.route),
        moved: result.moved,
        skipped: result.skipped,
        previous_driver: before.driver_id,
      };
    },
  );
}
