import type { App } from '../../http/env';
import { pickupPackageRoutes } from './packages';
import { pickupScanRoutes } from './scan';
import { pickupWebhookRoutes } from './webhook';

export function pickupRoutes(app: App): void {
  pickupPackageRoutes(app);
  pickupWebhookRoutes(app);
  pickupScanRoutes(app);
}
