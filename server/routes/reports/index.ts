import type { App } from '../../http/env';
import { arrivalReportRoutes } from './arrivalReport';
import { companyReportRoutes } from './companyReport';
import { returnReportRoutes } from './returnReport';

export function reportRoutes(app: App): void {
  returnReportRoutes(app);
  companyReportRoutes(app);
  arrivalReportRoutes(app);
}
