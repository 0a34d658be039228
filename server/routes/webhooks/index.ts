import type { App } from '../../http/env';
import { companyApiRoutes } from './companyApi';
import { webhookEndpointRoutes } from './endpoints';

export function webhookRoutes(app: App): void {
  webhookEndpointRoutes(app);
  companyApiRoutes(app);
}
