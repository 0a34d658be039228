import { z } from 'zod';
import { mustReturn } from '../../shared/lifecycle';
import { IdParams } from '../../shared/schemas/common';
import {
  CancelBody,
  DepotReturnBody,
  pageOfPackages,
  ReturnDetailAnswer,
  ReturnInfoAnswer,
  ReturnListQuery,
  ScanAnswer,
  ScanBody,
} from '../../shared/schemas/delivery';
import { Package } from '../../shared/schemas/package';
import type { Role } from '../../shared/roles';
import { ops } from '../http/catalogue';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import { historyVisible, packageStory } from '../services/packages/history';
import { findPackage } from '../services/packages/lifecycle';
import { cancelPackage, depotReturn, returnCounts, returnScan, returnsPage } from '../services/packages/returns';
import { scanContext } from '../services/packages/scan';
import { packagesByIds } from '../services/packages/shape';
import { livePackage } from '../services/history/live';
import { packagesFor, storyFor } from '../services/geo/senderView';
import { businessZone } from '../services/time/zones';

const tags = ['Scan Return Parcel'];
const group = 'mobile/Scan Return Parcel';
const DEPOT: readonly Role[] = ['super_admin', 'admin', 'supervisor', 'depot_manager'];

export function returnRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'post',
      path: '/return-parcel/scan/',
      tags,
      access: 'scan.manage',
      body: ScanBody,
      response: ScanAnswer,
      catalogue: ops(group, 'Return Scan'),
      summary: 'A failed parcel is handed in at the depot (failed -> returned); drivers scan their own, staff any',
      description:
        'It leaves the driver (unassigned). Unknown codes (404), parcels of other drivers and other states (409) are refused and recorded.',
    },
    async ({ deps, user, body, device }) => {
      const { row, already } = await returnScan(deps, scanContext(user, body, device), body.barcode);
      return {
        success: true,
        message: already ? `Parcel ${row.hawb} is already returned` : `Parcel ${row.hawb} returned to the depot`,
        already_scanned: already,
        package: (await packagesByIds(deps.db, [row.id]))[0] as z.infer<typeof Package>,
      };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/return-parcel/depot-manager/',
      tags,
      access: { roles: DEPOT },
      body: DepotReturnBody,
      response: ScanAnswer,
      catalogue: ops(group, 'Return Parcel by Depo Manager'),
      summary:
        'The depot settles a parcel that came back: keep it (returned), send it to the shipper (returned_to_sender), or redeliver with a driver',
      description:
        'A failed parcel is first received back (failed -> returned), except when it goes to the sender: that is one step (failed -> returned_to_sender), ' +
        'no depot receipt recorded. Redelivery (returned -> assigned) starts a fresh count of attempts.',
    },
    async ({ deps, user, body, device }) => {
      const row = await depotReturn(deps, scanContext(user, body, device), body.barcode, body.outcome, body.driver);
      const what = { returned: 'kept at the depot', returned_to_sender: 'returned to the sender', redeliver: 'assigned for redelivery' }[
        body.outcome
      ];
      return {
        success: true,
        message: `Parcel ${row.hawb} ${what}`,
        already_scanned: false,
        package: (await packagesByIds(deps.db, [row.id]))[0] as z.infer<typeof Package>,
      };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/return-parcel/',
      tags,
      access: 'package.view',
      query: ReturnListQuery,
      response: pageOfPackages,
      catalogue: ops(group, 'Returned Packages List'),
      summary: 'Returned parcels (?status=returned|returned_to_sender|failed; default both returned states), latest change first',
      description:
        'Staff see all, a company its own, a driver the parcels they failed or brought back. ?driver= (staff: parcels that driver failed), date_from/date_to on the last change.',
    },
    async ({ deps, user, query, c }) => returnsPage(deps.db, await businessZone(deps), user, query, c.req.url),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/return-parcel/info/',
      tags,
      access: 'package.view',
      response: ReturnInfoAnswer,
      catalogue: ops(group, 'Returned Packages Info'),
      summary: 'Counts: returned, returned to sender, failed parcels that must come back, failed ones awaiting a reattempt',
    },
    async ({ deps, user }) => ({ success: true, ...(await returnCounts(deps, user)) }),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/return-parcel/{id}/',
      tags,
      access: 'package.view',
      params: IdParams,
      response: ReturnDetailAnswer,
      catalogue: ops(group, 'Returned Packages Full Details'),
      summary: 'A returned (or failed) parcel in full: the package, every attempt with its reason and photo, and its history',
    },
    async ({ deps, user, params }) => {
      const row = await historyVisible(deps.db, user, await findPackage(deps.db, params.id), params.id);
      const story = await storyFor(deps.db, user, await packageStory(deps.db, row));
      return {
        success: true,
        package: story.package,
        attempts: story.attempts,
        events: story.events,
        must_return: row.status === 'failed' && mustReturn(row.attempts, deps.config.maxAttempts),
      };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/package/{id}/cancel/',
      tags: ['Package'],
      access: 'package.manage',
      params: IdParams,
      body: CancelBody,
      response: Package,
      catalogue: [],
      summary: 'Cancel a parcel before it leaves on a van (staff, or the company that sent it)',
      description:
        'Allowed from pickup_requested, picked_up, created, received and assigned; otherwise 409 with the current state (recorded).',
    },
    async ({ deps, user, params, body, device }) => {
      const row = await cancelPackage(deps, scanContext(user, body, device), await livePackage(deps.db, user, params.id));
      return (await packagesFor(deps.db, user, await packagesByIds(deps.db, [row.id])))[0] as z.infer<typeof Package>;
    },
  );
}
