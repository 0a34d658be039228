import type { App } from '../../http/env';
import { geoExtraRoutes } from './extras';
import { geoResourceRoutes } from './resources';

/** Geography master data (web/Common): the eight hierarchy groups and their extras. */
export function geoRoutes(app: App): void {
  geoExtraRoutes(app);
  geoResourceRoutes(app);
}
