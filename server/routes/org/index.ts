import type { App } from '../../http/env';
import { companyExtraRoutes } from './companyExtras';
import { employeeExtraRoutes } from './employeeExtras';
import { permissionGroupRoutes } from './permissions';
import { pickupQrRoutes } from './pickupQr';
import { profileRoutes } from './profile';
import { supportRoutes } from './support';
import { webhookKeyRoutes } from './webhookKey';

/** Organisation master data beyond the plain CRUD of people.ts and places.ts. */
export function orgRoutes(app: App): void {
  companyExtraRoutes(app);
  employeeExtraRoutes(app);
  permissionGroupRoutes(app);
  profileRoutes(app);
  supportRoutes(app);
  webhookKeyRoutes(app);
  pickupQrRoutes(app);
}
