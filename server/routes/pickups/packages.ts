import { z } from 'zod';
import { IdParams } from '../../../shared/schemas/common';
import {
  AssignDriverBody,
  AssignSingleBody,
  Package,
  PackageIdsBody,
  PackageListAnswer,
  PackagesChanged,
  UploadAnswer,
  UploadBody,
  UploadQuery,
  UPLOAD_MAX_ROWS,
  LIST_FILTERS_DOC,
  PickupListQuery,
} from '../../../shared/schemas/package';
import { forbidden } from '../../errors';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { checkUploadSize, MAX_UPLOAD_BYTES } from '../../services/packages/sheet';
import { packagesByIds } from '../../services/packages/shape';
import type { UploadResult } from '../../services/packages/upload';
import { assignPickups, unassignPickups } from '../../services/pickups/assign';
import { pickupWhere } from '../../services/pickups/list';
import { importPickups } from '../../services/pickups/upload';
import { packagePage, withZone } from '../../services/packages/list';
import { livePackage } from '../../services/history/live';

const tags = ['Pickup Package'];
const pp = (...names: string[]) => ops('web/Pickup Package', ...names);

export const PickupUploadBody = UploadBody.extend({
  /** All rows wait at this pickup point (the company's own). */
  pickup_point: z.coerce.number().int().positive().optional(),
});

const UPLOAD_DOC =
  `multipart/form-data: \`file\` (at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB, ${UPLOAD_MAX_ROWS} rows), optional \`pickup_point\` ` +
  'where every row waits, and for staff `company` for rows without one. Columns and checks are those of the package upload ' +
  '(package/bulk-upload/): all or nothing unless `?partial=true`. The parcels start as `pickup_requested`.';

const answer = (r: UploadResult) => ({
  success: true,
  message: `${r.created} pickup(s) requested${r.rejected ? `, ${r.rejected} row(s) rejected` : ''}`,
  ...r,
});

const changed = async (verb: string, db: Parameters<typeof packagesByIds>[0], ids: number[]) => ({
  success: true,
  message: `${ids.length} pickup(s) ${verb}`,
  count: ids.length,
  packages: await packagesByIds(db, ids),
});

async function bytesOf(file: File): Promise<Uint8Array> {
  checkUploadSize(file.size);
  return new Uint8Array(await file.arrayBuffer());
}

export function pickupPackageRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/pickup-package/',
      tags,
      access: 'package.view',
      query: PickupListQuery,
      response: PackageListAnswer,
      catalogue: pp('Get'),
      summary: 'Pickup packages (requested or collected)',
      description: `Without \`status\`: pickup_requested and picked_up. \`pickup_point\` filters by pickup point. ${LIST_FILTERS_DOC}`,
    },
    async ({ deps, user, query, c }) => packagePage(deps.db, user, pickupWhere(user, await withZone(deps, query)), query, c.req.url),
  );

  const upload = (path: string, id: string, kind: string, read: 'package-csv' | 'package-xlsx', companyOnly: boolean) =>
    defineRoute(
      app,
      {
        method: 'post',
        path,
        tags,
        access: 'package.manage',
        catalogue: pp(id),
        summary: `Request pickups from a ${kind} file${companyOnly ? ' (company login)' : ''}`,
        description: UPLOAD_DOC,
        bodyKind: 'multipart',
        body: PickupUploadBody,
        query: UploadQuery,
        response: UploadAnswer,
        prepare: async ({ body, user, deps }) => {
          if (companyOnly && user.role !== 'company')
            throw forbidden('This upload is for company logins; staff use pickup-package/bulk-upload/');
          return deps.sheets.parse(read, await bytesOf(body.file));
        },
      },
      async ({ deps, user, body, query, prepared }) =>
        answer(
          await importPickups(deps, user, prepared, {
            partial: query.partial,
            defaultCompany: body.company,
            pickupPoint: body.pickup_point,
          }),
        ),
    );

  upload('/pickup-package/bulk-upload/', 'Bulk Upload', 'UTF-8 CSV', 'package-csv', false);
  upload('/pickup-package/excel-upload/', 'Excel Upload', '.xlsx', 'package-xlsx', false);
  upload('/pickup-package/company/bulk-upload/', 'Bulk Upload by Company', 'UTF-8 CSV', 'package-csv', true);
  upload('/pickup-package/company/excel-upload/', 'Excel Upload by Company', '.xlsx', 'package-xlsx', true);

  const assignDoc =
    "Only parcels still waiting for collection (pickup_requested; 409 otherwise). The status does not change: the driver's scan at the pickup point does that.";
  defineRoute(
    app,
    {
      method: 'post',
      path: '/pickup-package/assign-driver/',
      tags,
      access: 'assign.manage',
      body: AssignDriverBody,
      response: PackagesChanged,
      catalogue: pp('Assign Driver'),
      summary: 'Send a driver to collect pickups (all or nothing)',
      description: `${assignDoc} Unknown ids are a 400 naming them.`,
    },
    async ({ deps, user, body }) =>
      changed(
        'assigned',
        deps.db,
        (await assignPickups(deps, user, body.driver, body.packages)).map((r) => r.id),
      ),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/pickup-package/{id}/assign-driver/',
      tags,
      access: 'assign.manage',
      params: IdParams,
      body: AssignSingleBody,
      response: Package,
      catalogue: pp('Assign Single Package Driver'),
      summary: 'Send a driver to collect one pickup',
      description: assignDoc,
    },
    async ({ deps, user, params, body }) => {
      await livePackage(deps.db, user, params.id);
      return (await packagesByIds(deps.db, [(await assignPickups(deps, user, body.driver, [params.id]))[0].id]))[0];
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/pickup-package/unassign-package/',
      tags,
      access: 'assign.manage',
      body: PackageIdsBody,
      response: PackagesChanged,
      catalogue: pp('Unassign Package'),
      summary: 'Take pickups back from their drivers (all or nothing)',
      description: assignDoc,
    },
    async ({ deps, user, body }) =>
      changed(
        'unassigned',
        deps.db,
        (await unassignPickups(deps, user, body.packages)).map((r) => r.id),
      ),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/pickup-package/{id}/unassign/',
      tags,
      access: 'assign.manage',
      params: IdParams,
      response: Package,
      catalogue: pp('Unassign Single Package'),
      summary: 'Take one pickup back from its driver',
      description: assignDoc,
    },
    async ({ deps, user, params }) => {
      await livePackage(deps.db, user, params.id);
      return (await packagesByIds(deps.db, [(await unassignPickups(deps, user, [params.id]))[0].id]))[0];
    },
  );
}
