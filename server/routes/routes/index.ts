import type { App } from '../../http/env';
import { dashboardRoutes } from './dashboard';
import { mobileRouteRoutes } from './mobileRoutes';
import { optimizeRoutes } from './optimize';
import { pickupRouteRoutes } from './pickup';
import { positionRoutes } from './positions';
import { routeCrudRoutes } from './routeCrud';

/** Routes, their optimisation and assignment, driver views, dashboards and driver positions (issue 6). */
export function routeRoutes(app: App): void {
  // Fixed paths (`route/count/`, `route/csv-download/`) before `{id}`; ids match digits only anyway.
  mobileRouteRoutes(app);
  routeCrudRoutes(app);
  optimizeRoutes(app);
  pickupRouteRoutes(app);
  dashboardRoutes(app);
  positionRoutes(app);
}
