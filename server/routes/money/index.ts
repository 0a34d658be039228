import type { App } from '../../http/env';
import { adjustmentRoutes } from './adjustment';
import { driverRateRoutes } from './driverRates';
import { earningRoutes } from './earnings';
import { invoiceRoutes } from './invoice';
import { rateRoutes } from './rates';
import { unitRoutes } from './units';
import { walletRoutes } from './wallet';

/** Rates, wallets, invoices and driver earnings (issue 9). */
export function moneyRoutes(app: App): void {
  unitRoutes(app);
  rateRoutes(app);
  driverRateRoutes(app);
  walletRoutes(app);
  invoiceRoutes(app);
  adjustmentRoutes(app);
  earningRoutes(app);
}
