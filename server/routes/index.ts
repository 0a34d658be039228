import type { App } from '../http/env';
import { authRoutes } from './auth';
import { fileRoutes } from './files';
import { packageRoutes } from './packages';
import { peopleRoutes } from './people';
import { placeRoutes } from './places';
import { scanRoutes } from './scan';

/** The one list of route modules; each declares its operations with their catalogue ids. */
export function registerRoutes(app: App): void {
  authRoutes(app);
  fileRoutes(app);
  peopleRoutes(app);
  placeRoutes(app);
  packageRoutes(app);
  scanRoutes(app);
}
