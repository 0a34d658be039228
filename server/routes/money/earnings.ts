import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { STAFF_ROLES } from '../../../shared/roles';
import { CompanyEarning, DriverEarning, EarningsQuery, RouteEarning } from '../../../shared/schemas/money';
import { dayOf, earnedParcels, earningPeriod, groupEarnings } from '../../services/money/earnings';

const g = 'mobile/Dashboard';
const tags = ['Dashboard'];
/** Drivers see their own earnings; staff anyone's. Companies never see what drivers are paid. */
const access = { roles: ['driver', ...STAFF_ROLES] } as const;
const description =
  "Delivered parcels (by delivery time, local days of the business's time zone; default this month there) times the driver rate in force when each was delivered. Amounts in different currencies are never added: rows and totals are per currency; parcels no rate covers are counted in `unrated_count` (currency null).";

export function earningRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/dashboard/driver-earning/',
      tags,
      access,
      catalogue: ops(g, 'Driver Earning'),
      query: EarningsQuery,
      response: DriverEarning,
      summary: "A driver's earnings by day",
      description,
    },
    async ({ deps, user, query }) => {
      const period = await earningPeriod(deps, user, query);
      const parcels = await earnedParcels(deps.db, period);
      return {
        success: true,
        driver: period.driver,
        from: period.from,
        to: period.to,
        totals: groupEarnings(parcels, () => null).map((x) => x.row),
        days: groupEarnings(parcels, (p) => dayOf(p.delivered_at, period.zone)).map(({ key, row }) => ({ date: key, ...row })),
      };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/dashboard/route-wise-earning/',
      tags,
      access,
      catalogue: ops(g, 'Route Wise Earning'),
      query: EarningsQuery,
      response: RouteEarning,
      summary: "A driver's earnings by route",
      description,
    },
    async ({ deps, user, query }) => {
      const period = await earningPeriod(deps, user, query);
      const parcels = await earnedParcels(deps.db, period);
      const names = new Map(parcels.map((p) => [p.route_id, p.route_name]));
      return {
        success: true,
        driver: period.driver,
        from: period.from,
        to: period.to,
        totals: groupEarnings(parcels, () => null).map((x) => x.row),
        routes: groupEarnings(parcels, (p) => p.route_id).map(({ key, row }) => ({
          route: key,
          route_name: names.get(key) ?? null,
          ...row,
        })),
      };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/dashboard/driver-delivered-company/',
      tags,
      access,
      catalogue: ops(g, 'Driver Delivered Company'),
      query: EarningsQuery,
      response: CompanyEarning,
      summary: 'The companies whose parcels a driver delivered, with counts and earnings',
      description,
    },
    async ({ deps, user, query }) => {
      const period = await earningPeriod(deps, user, query);
      const parcels = await earnedParcels(deps.db, period);
      const names = new Map(parcels.map((p) => [p.company_id, p.company_name]));
      return {
        success: true,
        driver: period.driver,
        from: period.from,
        to: period.to,
        totals: groupEarnings(parcels, () => null).map((x) => x.row),
        companies: groupEarnings(parcels, (p) => p.company_id).map(({ key, row }) => ({
          company: key,
          company_name: names.get(key) ?? null,
          ...row,
        })),
      };
    },
  );
}
