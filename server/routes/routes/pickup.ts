import { PickupAutoRouteBody, RouteAnswer, RouteCreate } from '../../../shared/schemas/routes';
import { badRequest } from '../../errors';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { activeDriver } from '../../services/packages/assign';
import { pickupsWaiting } from '../../services/routes/dashboard';
import { createRoute } from '../../services/routes/manage';
import { optimise } from '../../services/routes/optimize';
import { routeRecord } from '../../services/routes/shape';

const tags = ['Pickup Route'];
const PickupCreate = RouteCreate.omit({ kind: true });

export function pickupRouteRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'post',
      path: '/pickup-route/',
      tags,
      access: 'route.manage',
      body: PickupCreate,
      response: RouteAnswer,
      status: 201,
      catalogue: ops('web/Pickup Route', 'Create'),
      summary:
        'Create a pickup route from pickup_requested parcels (order = the order given); with a driver, they become theirs to collect',
    },
    async ({ deps, user, body }) => {
      const { route } = await createRoute(deps, user, { ...body, kind: 'pickup' });
      return { success: true, message: `Pickup route ${route.name} created`, route: await routeRecord(deps.db, route) };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/pickup-route/create-route/',
      tags,
      access: 'route.manage',
      body: PickupAutoRouteBody,
      response: RouteAnswer,
      status: 201,
      catalogue: ops('web/Pickup Route', 'Create Route'),
      summary: "Build a driver's pickup route for a day from every pickup they hold that is on no live route, already optimised",
      description:
        'Ordered from start_latitude/start_longitude when given, otherwise from the best first stop. 400 when the driver has no pickup waiting.',
    },
    async ({ deps, user, body }) => {
      const driver = await activeDriver(deps, body.driver);
      const ids = await pickupsWaiting(deps.db, driver.id);
      if (!ids.length) throw badRequest(`${driver.name} has no pickup waiting for a route`, [{ path: 'driver', message: 'no pickups' }]);
      const { route } = await createRoute(deps, user, {
        name: body.name ?? `Pickups ${driver.name} ${body.date}`,
        date: body.date,
        kind: 'pickup',
        driver: driver.id,
        warehouse: body.warehouse,
        start_latitude: body.start_latitude ?? null,
        start_longitude: body.start_longitude ?? null,
        packages: ids,
      });
      const ordered = await optimise(deps, user, route, { return_to_start: false });
      return {
        success: true,
        message: `Pickup route ${route.name} created with ${ids.length} pickup(s)`,
        route: await routeRecord(deps.db, ordered.route),
      };
    },
  );
}
