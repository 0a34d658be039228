import { and, eq, isNull, notInArray } from 'drizzle-orm';
import { z } from 'zod';
import { FINAL_STATUSES } from '../../shared/lifecycle';
import { SuccessMessage } from '../../shared/schemas/common';
import { AssignDriverBody, BarcodeBody, Package, RemainingPackagesResponse } from '../../shared/schemas/package';
import { isStaff } from '../../shared/roles';
import { pkg } from '../db/schema/index';
import { forbidden } from '../errors';
import { ops } from '../http/catalogue';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import { assignDriver } from '../services/packages/assign';
import { inboundScan } from '../services/packages/scan';
import { packagesByIds, selectPackages, shapePackages } from '../services/packages/shape';

export const ScanAnswer = SuccessMessage.extend({ already_scanned: z.boolean(), package: Package });

/** Device time and position of an action, from the body (DESIGN.md section 6). */
export function actionMeta(body: { occurred_at?: string; latitude?: number; longitude?: number }) {
  return {
    occurredAt: body.occurred_at ? Date.parse(body.occurred_at) : undefined,
    latitude: body.latitude ?? null,
    longitude: body.longitude ?? null,
  };
}

export function scanRoutes(app: App): void {
  defineRoute(app, {
    method: 'post', path: '/assign-package/assign-driver/', tags: ['Assign Package To Driver'], access: 'assign.manage',
    catalogue: ops('web/Assign Package To Driver', 'Assign Driver'),
    summary: 'Assign packages to a driver (all or nothing)', body: AssignDriverBody,
    response: SuccessMessage.extend({ count: z.number().int(), packages: z.array(Package) }),
  }, ({ deps, user, body }) => {
    const rows = assignDriver(deps, user, body.driver, body.packages);
    return { success: true, message: `${rows.length} package(s) assigned`, count: rows.length, packages: packagesByIds(deps.db, rows.map((r) => r.id)) };
  });

  defineRoute(app, {
    method: 'post', path: '/scan-package-api/inbound-scan/', tags: ['Scan API'], access: { roles: ['driver'] },
    catalogue: ops('mobile/Scan API', 'Inbound Scan (Scan by Driver)'),
    summary: 'Driver scans a parcel onto the van', body: BarcodeBody, response: ScanAnswer,
    description: '404 for an unknown code, 409 for a parcel of another driver or in a state that cannot be loaded (both recorded). A repeat scan answers 200 with already_scanned.',
  }, ({ deps, user, body, device }) => {
    const { row, already } = inboundScan(deps, user, body.barcode, actionMeta(body), device?.id);
    return {
      success: true, message: already ? `Parcel ${row.hawb} is already loaded` : `Parcel ${row.hawb} loaded`,
      already_scanned: already, package: packagesByIds(deps.db, [row.id])[0],
    };
  });

  defineRoute(app, {
    method: 'get', path: '/scan-package-api/{number}/remaining-packages-list/', tags: ['Scan API'], access: 'package.view',
    catalogue: ops('mobile/Scan API', 'Remaining Packages List'), params: z.object({ number: z.coerce.number().int().positive() }),
    summary: "A driver's assigned packages not yet scanned onto the van", response: RemainingPackagesResponse,
    description: '`number` is the driver\'s employee id. A driver may ask only for their own id; supervisors and admins for anyone.',
  }, ({ deps, user, params }) => {
    if (!isStaff(user.role) && user.id !== params.number) throw forbidden('You may only list your own remaining packages');
    const rows = selectPackages(deps.db)
      .where(and(eq(pkg.assigned_to_id, params.number), eq(pkg.is_scanned, false), isNull(pkg.deleted_at), notInArray(pkg.status, [...FINAL_STATUSES])))
      .orderBy(pkg.sequence_no, pkg.id).all();
    const pending = shapePackages(deps.db, rows);
    return { success: true, message: `${pending.length} package(s) remaining`, pending_packages: pending };
  });
}
