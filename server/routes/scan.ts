import { z } from 'zod';
import { allowedTransitions, STATUS_LABELS, type PackageStatus } from '../../shared/lifecycle';
import { Package, RemainingPackagesResponse } from '../../shared/schemas/package';
import {
  CheckScanAnswer,
  DayQuery,
  DeliverAnswer,
  NoParcelBody,
  ResolveBody,
  ScanAnswer,
  ScanBody,
  ScanDeliverBody,
  ScannedPackagesResponse,
  ScanException,
  ScanExceptionQuery,
  SupervisorScanItem,
  TrackingDeliverBody,
  ZoneScanAnswer,
} from '../../shared/schemas/delivery';
import { idParam, pageOf, SuccessMessage } from '../../shared/schemas/common';
import type { Role } from '../../shared/roles';
import { DRIVER_ACTIONS } from '../../shared/driverActions';
import { DRIVER_ACTION_BODIES } from '../../shared/schemas/driverActions';
import { ops } from '../http/catalogue';
import type { App } from '../http/env';
import { rawArray, rawObject } from '../http/rawJson';
import { defineRoute } from '../http/route';
import { deliverByCode, deliveryAnswer } from '../services/packages/deliver';
import { checkScans, shapeEvents } from '../services/packages/history';
import { actionMeta, checkScan, inboundScan, resetScan, scanAssignZone, scanContext } from '../services/packages/scan';
import { reportNoParcel, resolveScanException, scanExceptionPage } from '../services/packages/scanExceptions';
import { packageJson } from '../services/packages/json';
import { assertMayListVan, remainingPackages, scannedPackages } from '../services/packages/vanLists';
import { startRouteOfParcel } from '../services/routes/live';

const tags = ['Scan API'];
const DEPOT: readonly Role[] = ['super_admin', 'admin', 'supervisor', 'depot_manager'];
const SUPERVISORS: readonly Role[] = ['super_admin', 'admin', 'supervisor', 'depot_manager'];
const DriverParams = z.object({ number: z.coerce.number().int().positive() });

export function scanRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'post',
      path: '/scan-package-api/scan-assign-zone/',
      tags,
      small: true,
      access: { roles: DEPOT },
      catalogue: ops('mobile/Scan API', 'Scan Package and Assign Zone'),
      body: ScanBody,
      response: ZoneScanAnswer,
      summary: 'Depot inbound: the parcel lands (received) and is given its zone',
      description:
        'created/picked_up -> received with landed=true; the zone comes from the suburb, else the postcode. The answer names the zone so the screen can say which bay. Unknown codes (404) and refused states (409) are recorded.',
    },
    async ({ deps, user, body, device }) => {
      const { row, already, zone } = await scanAssignZone(deps, user, body.barcode, actionMeta(body), device?.id);
      const where = zone ? `zone ${zone.name}` : 'no zone (set the suburb or postcode)';
      // A parcel already given to a driver only lands: say so rather than "Received" while it stays Assigned (issue 18).
      const verb =
        row.status === 'assigned'
          ? already
            ? 'Already at the depot (still assigned to its driver)'
            : 'At the depot, still assigned to its driver:'
          : already
            ? 'Already received'
            : 'Received';
      return rawObject({
        success: true,
        message: `${verb} ${row.hawb}: ${where}`,
        already_scanned: already,
        zone,
        package: await packageJson(deps.db, row.id),
      });
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: DRIVER_ACTIONS.load.route,
      tags,
      small: true,
      access: { roles: ['driver'] },
      catalogue: ops('mobile/Scan API', 'Inbound Scan (Scan by Driver)'),
      summary: 'Driver scans a parcel onto the van',
      body: DRIVER_ACTION_BODIES.load,
      response: ScanAnswer,
      description:
        '404 for an unknown code, 409 for a parcel of another driver or in a state that cannot be loaded (all recorded). A repeat scan answers 200 with already_scanned. A failed parcel scanned again is a reattempt, refused once it must be returned.',
    },
    async ({ deps, user, body, device }) => {
      const { row, already } = await inboundScan(deps, user, body.barcode, actionMeta(body), device?.id);
      // Loading the van starts the route (issue 31).
      if (!already) await startRouteOfParcel(deps, user, row);
      return rawObject({
        success: true,
        message: already ? `Parcel ${row.hawb} is already loaded` : `Parcel ${row.hawb} loaded`,
        already_scanned: already,
        package: await packageJson(deps.db, row.id),
      });
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: DRIVER_ACTIONS.unload.route,
      tags,
      small: true,
      access: { roles: ['driver'] },
      catalogue: ops('mobile/Scan API', 'Reset Scanned Parcel by Driver'),
      body: DRIVER_ACTION_BODIES.unload,
      response: ScanAnswer,
      summary: 'Driver takes a loaded parcel off the van (out_for_delivery -> assigned, is_scanned false)',
    },
    async ({ deps, user, body, device }) => {
      const row = await resetScan(deps, user, body.barcode, actionMeta(body), device?.id);
      return rawObject({
        success: true,
        message: `Parcel ${row.hawb} unloaded`,
        already_scanned: false,
        package: await packageJson(deps.db, row.id),
      });
    },
  );

  for (const [path, op, action, roles] of [
    ['/scan-package-api/super-admin-scan/', 'Scan by Super Admin', 'admin_scan', ['super_admin', 'admin']],
    ['/scan-package-api/supervisor-scan/', 'Scan By Supervisor', 'supervisor_check', SUPERVISORS],
  ] as const) {
    defineRoute(
      app,
      {
        method: 'post',
        path,
        tags,
        small: true,
        access: { roles },
        catalogue: ops('mobile/Scan API', op),
        body: ScanBody,
        response: CheckScanAnswer,
        summary: `${op}: a recorded check of a parcel in hand; its state is unchanged`,
        description: 'Answers the parcel, its state with a label, the states it may go to next and the last thing that happened to it.',
      },
      async ({ deps, user, body, device }) => {
        const { row, before } = await checkScan(deps, user, body.barcode, action, actionMeta(body), device?.id);
        const status = row.status as PackageStatus;
        return rawObject({
          success: true,
          message: `Parcel ${row.hawb} is ${STATUS_LABELS[status].toLowerCase()}`,
          status,
          status_label: STATUS_LABELS[status],
          allowed: [...allowedTransitions(status)],
          package: await packageJson(deps.db, row.id),
          last_event: before ? ((await shapeEvents(deps.db, [before]))[0] ?? null) : null,
        });
      },
    );
  }

  defineRoute(
    app,
    {
      method: 'get',
      path: '/scan-package-api/supervisor-scan/',
      tags,
      access: { roles: SUPERVISORS },
      catalogue: ops('mobile/Scan API', 'Supervisor Scan Package List'),
      query: DayQuery,
      response: pageOf(SupervisorScanItem),
      summary:
        "Parcels checked by supervisors on a day (default today; local days of the business's time zone), newest first; ?supervisor= narrows to one",
    },
    ({ deps, query, c }) => checkScans(deps, query, c.req.url),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/scan-package-api/no-parcel/',
      tags,
      access: 'scan.manage',
      small: true,
      status: 201,
      catalogue: ops('mobile/Scan API', 'Scan Input / No Parcel'),
      body: NoParcelBody,
      response: SuccessMessage.extend({ exception: ScanException, package: Package.nullable() }),
      summary: 'Report a scanned code with no parcel; it waits in the scan-exception list for staff',
      description:
        'If the code does belong to a parcel the answer says so (and includes it when the caller may see it); the report is kept either way.',
    },
    async ({ deps, user, body, device }) => {
      const { row, visible, exception } = await reportNoParcel(deps, scanContext(user, body, device), body.code);
      return rawObject({
        success: true,
        message: row ? `Code ${body.code} is parcel ${row.hawb}; reported anyway` : `Code ${body.code} reported to the depot`,
        exception,
        package: row && visible ? await packageJson(deps.db, row.id) : null,
      });
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/scan-package-api/no-parcel/',
      tags,
      access: { roles: DEPOT },
      catalogue: [],
      query: ScanExceptionQuery,
      response: pageOf(ScanException),
      summary: 'Scan exceptions (unknown codes, no-parcel reports) for staff; ?resolved=false for open ones',
    },
    ({ deps, query, c }) => scanExceptionPage(deps, query, c.req.url),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/scan-package-api/no-parcel/{id}/resolve/',
      tags,
      access: { roles: DEPOT },
      catalogue: [],
      params: z.object({ id: idParam }),
      body: ResolveBody,
      response: ScanException,
      summary: 'Mark a scan exception as sorted out',
    },
    ({ deps, user, params, body }) => resolveScanException(deps, user, params.id, body),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/scan-package-api/scan-deliver/',
      tags,
      small: true,
      access: { roles: ['driver'] },
      catalogue: ops('mobile/Scan API', 'Scan and Deliverd'),
      body: ScanDeliverBody,
      response: DeliverAnswer,
      summary: 'Scan a parcel at the door and deliver it in one step (body as package-delivered/{id}/deliver/ plus barcode)',
    },
    async ({ deps, user, body, device }) =>
      deliveryAnswer(deps.db, await deliverByCode(deps, scanContext(user, body, device), body.barcode, body)),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/scan-package-api/deliver-by-tracking/',
      tags,
      small: true,
      access: { roles: ['driver'] },
      catalogue: ops('mobile/Scan API', 'Package Delivered by Tracking No'),
      body: TrackingDeliverBody,
      response: DeliverAnswer,
      summary: 'Deliver a parcel by its typed tracking number (when the label will not scan)',
    },
    async ({ deps, user, body, device }) =>
      deliveryAnswer(deps.db, await deliverByCode(deps, scanContext(user, body, device), body.tracking_no, body)),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/scan-package-api/{number}/remaining-packages-list/',
      tags,
      access: 'package.view',
      catalogue: ops('mobile/Scan API', 'Remaining Packages List'),
      params: DriverParams,
      summary: "A driver's assigned packages not yet scanned onto the van",
      response: RemainingPackagesResponse,
      description: "`number` is the driver's employee id. A driver may ask only for their own id; supervisors and admins for anyone.",
    },
    async ({ deps, user, params }) => {
      assertMayListVan(user, params.number, 'remaining');
      const pending = await remainingPackages(deps, params.number);
      return rawObject({ success: true, message: `${pending.length} package(s) remaining`, pending_packages: rawArray(pending) });
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/scan-package-api/{number}/scanned-packages-list/',
      tags,
      access: 'package.view',
      catalogue: ops('mobile/Scan API', 'Scanned Packages List'),
      params: DriverParams,
      response: ScannedPackagesResponse,
      summary: "A driver's packages scanned onto the van and not yet in a final state",
      description: 'Same access as the remaining list: a driver only their own id, staff anyone.',
    },
    async ({ deps, user, params }) => {
      assertMayListVan(user, params.number, 'scanned');
      const scanned = await scannedPackages(deps.db, params.number);
      return rawObject({ success: true, message: `${scanned.length} package(s) on the van`, scanned_packages: rawArray(scanned) });
    },
  );
}
