import { z } from 'zod';
import { IdParams } from '../../shared/schemas/common';
import {
  AssignDriverBody,
  AssignSingleBody,
  DashboardCountAnswer,
  HealthAnswer,
  Package,
  PackageIdsBody,
  PackageListAnswer,
  PackagesChanged,
  LIST_FILTERS_DOC,
  PackageListQuery,
  ScanPackageQuery,
} from '../../shared/schemas/package';
import { iso } from '../clock';
import { ApiError } from '../errors';
import { ops } from '../http/catalogue';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import { ASSIGNABLE, assignDriver, assignListFilters, unassignPackages } from '../services/packages/assign';
import { packageCounts } from '../services/packages/counts';
import { findByBarcode } from '../services/packages/lifecycle';
import { visiblePackage } from '../services/packages/scope';
import { packagesByIds } from '../services/packages/shape';
import { packageListWhere, packagePage, withZone } from '../services/packages/list';
import { livePackage } from '../services/history/live';

const tags = ['Assign Package To Driver'];
const ap = (...names: string[]) => ops('web/Assign Package To Driver', ...names);

const changed = async (verb: string, db: Parameters<typeof packagesByIds>[0], ids: number[]) => ({
  success: true,
  message: `${ids.length} package(s) ${verb}`,
  count: ids.length,
  packages: await packagesByIds(db, ids),
});

export function assignRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/assign-package/',
      tags,
      access: 'assign.view',
      response: PackageListAnswer,
      query: PackageListQuery.extend({ assigned: z.enum(['true', 'false']).optional() }),
      catalogue: ap('Get'),
      summary: 'Packages for the assignment screen',
      description: `Without a status filter: ${ASSIGNABLE.join(', ')}. \`assigned=true|false\` keeps those with or without a driver. ${LIST_FILTERS_DOC}`,
    },
    async ({ deps, user, query, c }) =>
      packagePage(deps.db, user, packageListWhere(user, await withZone(deps, query), false, ...assignListFilters(query)), query, c.req.url),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/assign-package/assign-driver/',
      tags,
      access: 'assign.manage',
      body: AssignDriverBody,
      response: PackagesChanged,
      catalogue: ap('Assign Driver'),
      summary: 'Assign packages to a driver (all or nothing)',
      description:
        'Unknown package ids answer 400 naming them; a package whose state cannot be assigned (final, or failed past its attempts) 409.',
    },
    async ({ deps, user, body }) =>
      changed(
        'assigned',
        deps.db,
        (await assignDriver(deps, user, body.driver, body.packages)).map((r) => r.id),
      ),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/assign-package/{id}/assign-driver/',
      tags,
      access: 'assign.manage',
      params: IdParams,
      body: AssignSingleBody,
      response: Package,
      catalogue: ap('Assign Single Package Driver'),
      summary: 'Assign one package to a driver',
    },
    async ({ deps, user, params, body }) => {
      await livePackage(deps.db, user, params.id);
      return (
        await packagesByIds(deps.db, [(await assignDriver(deps, user, body.driver, [params.id], { note: body.note ?? null }))[0].id])
      )[0];
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/assign-package/unassign-package/',
      tags,
      access: 'assign.manage',
      body: PackageIdsBody,
      response: PackagesChanged,
      catalogue: ap('Unassign Package'),
      summary: 'Take packages back from their drivers (all or nothing)',
      description:
        'Only assigned parcels not yet on the van (409 otherwise). Each goes back to `received` if it had landed at the depot, else to `created`.',
    },
    async ({ deps, user, body }) =>
      changed(
        'unassigned',
        deps.db,
        (await unassignPackages(deps, user, body.packages)).map((r) => r.id),
      ),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/package/{id}/unassign/',
      tags,
      access: 'assign.manage',
      params: IdParams,
      response: Package,
      catalogue: [...ap('Unassign Single Package'), ...ops('web/Package Model', 'Unassign')],
      summary: 'Take one package back from its driver',
      description: 'Only an assigned parcel not yet on the van (409 otherwise); back to `received` if it had landed, else `created`.',
    },
    async ({ deps, user, params }) => {
      await livePackage(deps.db, user, params.id);
      return (await packagesByIds(deps.db, [(await unassignPackages(deps, user, [params.id]))[0].id]))[0];
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/assign-package/scan-package/',
      tags,
      access: 'assign.view',
      query: ScanPackageQuery,
      response: Package,
      catalogue: ap('Scan Package'),
      summary: 'Look a package up by its barcode (hawb) to assign it',
      description: 'For a hardware scanner on the assignment screen. An unknown code answers 404 naming it.',
    },
    async ({ deps, user, query }) => {
      const row = await findByBarcode(deps.db, query.barcode);
      if (!row || row.deleted_at != null) {
        throw new ApiError(404, 'not_found', `No parcel has the barcode ${query.barcode}`, [{ path: 'barcode', message: 'unknown code' }], {
          barcode: query.barcode,
        });
      }
      visiblePackage(user, row, query.barcode);
      return (await packagesByIds(deps.db, [row.id]))[0];
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/assign-package/dashboard-count/',
      tags,
      access: 'package.view',
      response: DashboardCountAnswer,
      catalogue: ap('Dash Board Count'),
      summary: 'Package counts by status (a company: its own; a driver: theirs)',
      description:
        'Archived packages are not counted. `unassigned`: created, received or returned without a driver; ' +
        '`assigned_not_scanned`: assigned but not yet on the van; `flagged`: waiting for a supervisor.',
    },
    async ({ deps, user }) => ({ success: true, ...(await packageCounts(deps.db, user)) }),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/assign-package/testing/',
      tags,
      access: 'authenticated',
      response: HealthAnswer,
      catalogue: ap('Testing'),
      summary: 'Health check of the assignment service',
    },
    ({ deps }) => ({ success: true, status: 'ok' as const, time: iso(deps.clock.now()) ?? '' }),
  );
}
