import type { App } from '../http/env';
import { assignRoutes } from './assign';
import { authRoutes } from './auth';
import { fileRoutes } from './files';
import { geoRoutes } from './geo/index';
import { moneyRoutes } from './money/index';
import { orgRoutes } from './org/index';
import { packageFileRoutes } from './packageFiles';
import { packageRoutes } from './packages';
import { peopleRoutes } from './people';
import { placeRoutes } from './places';
import { scanRoutes } from './scan';
import { deliveryRoutes } from './delivery';
import { proofRoutes } from './proof';
import { returnRoutes } from './returns';
import { trackingRoutes } from './tracking';
import { historyRoutes } from './history';
import { syncRoutes } from './sync';
import { reportRoutes } from './reports/index';
import { pickupRoutes } from './pickups/index';
import { webhookRoutes } from './webhooks/index';
import { routeRoutes } from './routes/index';
import { auditRoutes } from '../services/audit/routes';
import { sessionRoutes } from './sessions';

/** The one list of route modules; each declares its operations with their catalogue ids. */
export function registerRoutes(app: App): void {
  authRoutes(app);
  fileRoutes(app);
  peopleRoutes(app);
  sessionRoutes(app);
  placeRoutes(app);
  orgRoutes(app);
  geoRoutes(app);
  packageRoutes(app);
  packageFileRoutes(app);
  assignRoutes(app);
  scanRoutes(app);
  deliveryRoutes(app);
  proofRoutes(app);
  returnRoutes(app);
  trackingRoutes(app);
  historyRoutes(app);
  syncRoutes(app);
  routeRoutes(app);
  moneyRoutes(app);
  auditRoutes(app);
  reportRoutes(app); pickupRoutes(app); webhookRoutes(app);
}
