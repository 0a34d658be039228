import { IdParams, pageOf } from '../../shared/schemas/common';
import { CurrentDateQuery, HistoryDetail, HistoryItem, HistoryQuery, PackagesAnswer } from '../../shared/schemas/delivery';
import { forbidden } from '../errors';
import { ops } from '../http/catalogue';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import type { SessionUser } from '../services/auth/session';
import { driverHistory, historyDriver, historyVisible, packagesForDay, packageStory, pickupPackages } from '../services/packages/history';
import { findPackage } from '../services/packages/lifecycle';
import { storyFor } from '../services/geo/senderView';
import { businessZone } from '../services/time/zones';
import { fixedOffsetZone, localDay, localDayRange } from '../../shared/time/zone';

const driverOnly = (user: SessionUser) => {
  if (user.role !== 'driver') throw forbidden('This list is for the logged-in driver');
  return user.id;
};

export function historyRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/history/',
      tags: ['History'],
      access: 'package.view',
      query: HistoryQuery,
      response: pageOf(HistoryItem),
      catalogue: [...ops('mobile/History', 'History'), ...ops('mobile/History', 'Driver Package History Filter')],
      summary: "Parcels a driver moved along (scanned, delivered, failed, returned), with the driver's latest action, newest first",
      description:
        "Filters: status (comma-separated), date_from/date_to (local days of the business's time zone, of the latest action), search (tracking number or customer name). Drivers see their own; staff pass ?driver=.",
    },
    ({ deps, user, query, c }) => driverHistory(deps, historyDriver(user, query.driver), query, c.req.url),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/history/{id}/',
      tags: ['History'],
      access: 'package.view',
      params: IdParams,
      response: HistoryDetail,
      catalogue: ops('mobile/History', 'History Detail'),
      summary: 'The whole story of one parcel: every event (who, device time, received time, position), attempts and proof',
    },
    async ({ deps, user, params }) => ({
      success: true,
      ...(await storyFor(
        deps.db,
        user,
        await packageStory(deps.db, await historyVisible(deps.db, user, await findPackage(deps.db, params.id), params.id)),
      )),
    }),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/driver-package/current-date/',
      tags: ['Other'],
      access: 'package.view',
      query: CurrentDateQuery,
      response: PackagesAnswer,
      catalogue: ops('mobile/Other', 'Package By Current Date'),
      summary: "The logged-in driver's packages for today: due today (delivery_date) or assigned today",
      description:
        "`date` (YYYY-MM-DD) is a local day of the business's time zone (default today there, daylight saving included). " +
        'An older app may send `utc_offset` (minutes east of UTC, e.g. 600) instead: the day is then counted at that fixed offset.',
    },
    async ({ deps, user, query }) => {
      const me = driverOnly(user);
      const now = deps.clock.now();
      const zone = query.utc_offset != null ? fixedOffsetZone(query.utc_offset) : await businessZone(deps);
      const date = query.date ?? localDay(now, zone);
      const packages = await packagesForDay(deps.db, me, date, localDayRange(date, zone));
      return { success: true, message: `${packages.length} package(s) for ${date}`, count: packages.length, packages };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/driver-package/pickup/',
      tags: ['Other'],
      access: 'package.view',
      response: PackagesAnswer,
      catalogue: ops('mobile/Other', 'Login Driver Pickup Driver Package'),
      summary: "The logged-in driver's pickups: pickup_requested or picked_up parcels assigned to them",
    },
    async ({ deps, user }) => {
      const packages = await pickupPackages(deps.db, driverOnly(user));
      return { success: true, message: `${packages.length} pickup package(s)`, count: packages.length, packages };
    },
  );
}
