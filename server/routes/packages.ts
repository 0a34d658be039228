import { and, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { ArchiveBody, IdParams, ListQuery, restoreEnvelope, SuccessMessage } from '../../shared/schemas/common';
import {
  AreaByPostcodeAnswer, AreaByPostcodeQuery, Package, PackageCreate, PackageListAnswer, PackageStatusChangeBody, PackageUpdate,
  PriceAnswer, PriceQuoteBody,
} from '../../shared/schemas/package';
import { PACKAGE_STATUSES } from '../../shared/lifecycle';
import { isStaff, STAFF_ROLES } from '../../shared/roles';
import type { Db } from '../db/client';
import { area, pincode, pkg, state, suburb, zone } from '../db/schema/index';
import { badRequest, forbidden } from '../errors';
import { ops } from '../http/catalogue';
import type { App } from '../http/env';
import { rawArray, rawObject, type RawJson } from '../http/rawJson';
import { defineRoute } from '../http/route';
import { listConditions, orderBy, pageLinks, type ListSpec } from '../resources/list';
import type { SessionUser } from '../services/auth/session';
import { setPackagesArchived } from '../services/packages/archive';
import { createPackage } from '../services/packages/create';
import { changeStatus, deletePackage, editPackage } from '../services/packages/edit';
import { findPackage } from '../services/packages/lifecycle';
import { priceFor, type PriceQuote } from '../services/packages/price';
import { packageScope, visiblePackage } from '../services/packages/scope';
import { packageJson, packageJsonByIds, packageJsonWhere } from '../services/packages/json';
import { livePackage } from '../services/history/live';
import { countHistory, frozenAnswer, unionPage, visibleInHistory } from '../services/history/read';

const tags = ['Package'];
const pm = (...names: string[]) => ops('web/Package Model', ...names);

export const PackageListQuery = ListQuery.extend({
  status: z.string().max(500).optional(),
  company: z.string().max(500).optional(),
  zone: z.string().max(2000).optional(),
  driver: z.string().max(500).optional(),
  route: z.string().max(500).optional(),
  is_scanned: z.enum(['true', 'false']).optional(),
  created_from: z.iso.date().optional(),
  created_to: z.iso.date().optional(),
// Unknown filters answer 400 (issue 18: `?hawb=X` used to be ignored and returned every parcel); use `search` for a tracking number.
}).strict();
export type PackageListQuery = z.output<typeof PackageListQuery>;

export const PACKAGE_LIST: ListSpec = {
  search: ['hawb', 'customer_name', 'customer_phone', 'customer_address', 'customer_code'],
  ordering: ['created_at', 'hawb', 'status', 'sequence_no', 'customer_name', 'updated_at', 'delivery_date'],
  filters: { status: 'status', company: 'company_id', zone: 'zone_id', driver: 'assigned_to_id', route: 'route_id', is_scanned: 'is_scanned' },
};

export const LIST_FILTERS_DOC = 'Filters: status, company, zone, driver, route (each comma-separated for several, e.g. `zone=1,2,3`), '
  + `is_scanned, created_from/created_to (dates), search, ordering. Statuses: ${PACKAGE_STATUSES.join(', ')}.`;

/** The list filters of DESIGN.md section 3 within what the caller may see; shared by the list, archive list, CSV and driver views. */
export function packageListWhere(user: SessionUser, q: PackageListQuery, archived = false, ...more: (SQL | undefined)[]): SQL | undefined {
  const dayStart = (d: string) => Date.parse(`${d}T00:00:00Z`);
  return and(
    archived ? isNotNull(pkg.deleted_at) : isNull(pkg.deleted_at), packageScope(user),
    ...listConditions(pkg, PACKAGE_LIST, {
      search: q.search, status: q.status, company: q.company, zone: q.zone, driver: q.driver, route: q.route, is_scanned: q.is_scanned,
    }),
    q.created_from ? sql`${pkg.created_at} >= ${dayStart(q.created_from)}` : undefined,
    q.created_to ? sql`${pkg.created_at} < ${dayStart(q.created_to) + 86_400_000}` : undefined,
    ...more,
  );
}

/** A PackageListAnswer whose results SQLite serialised (packages/json.ts). */
export async function packagePage(db: Db, where: SQL | undefined, q: PackageListQuery, url: string, withHistory = false): Promise<RawJson> {
  const hot = (await db.select({ n: sql<number>`count(*)` }).from(pkg).where(where).get())?.n ?? 0;
  const cold = withHistory ? await countHistory(db, where) : 0;
  const order = orderBy(pkg, PACKAGE_LIST, q.ordering);
  const page = { limit: q.page_size, offset: (q.page - 1) * q.page_size };
  // Parcels in history match the same filter on the same columns; only when some do is the union read.
  const results = cold
    ? await unionPage(db, where, order, page.limit, page.offset)
    : await packageJsonWhere(db, where, { orderBy: order, ...page });
  const count = hot + cold;
  return rawObject({ count, ...pageLinks(url, q.page, q.page_size, count), results: rawArray(results) });
}

const one = packageJson;

const priceAnswer = (packageId: number | null, q: PriceQuote & { zoneId: number | null }) => ({
  success: true, package: packageId, currency: q.currency, amount: q.amount, price: q.amount / 100,
  chargeable_weight: q.chargeableWeight, volumetric_weight: q.volumetricWeight, method: q.method, zone: q.zoneId,
});

export function packageRoutes(app: App): void {
  defineRoute(app, {
    method: 'get', path: '/package/', tags, access: 'package.view', query: PackageListQuery, response: PackageListAnswer,
    catalogue: pm('Get', 'Multiple Zone Filter'),
    summary: 'List packages (companies see their own, drivers theirs)', description: LIST_FILTERS_DOC,
  }, ({ deps, user, query, c }) => packagePage(deps.db, packageListWhere(user, query), query, c.req.url, true));

  defineRoute(app, {
    method: 'post', path: '/package/', tags, access: 'package.manage', body: PackageCreate, response: Package, status: 201,
    catalogue: pm('Create', 'Create Package by Company'),
    summary: 'Create a package (a company user creates for its own company)',
  }, async ({ deps, user, body }) => one(deps.db, (await createPackage(deps, user, body)).id));

  defineRoute(app, {
    method: 'get', path: '/package/archive-package-list/', tags, access: 'package.view', query: PackageListQuery, response: PackageListAnswer,
    catalogue: pm('Archive/Archive List'), summary: 'List archived packages', description: LIST_FILTERS_DOC,
  }, ({ deps, user, query, c }) => packagePage(deps.db, packageListWhere(user, query, true), query, c.req.url));

  for (const archive of [true, false]) {
    defineRoute(app, {
      method: ['post', 'patch'], path: archive ? '/package/archive-package/' : '/package/restore-package/', tags,
      access: 'package.manage', body: ArchiveBody, response: restoreEnvelope(Package),
      catalogue: pm(archive ? 'Archive/Archive' : 'Archive/Restore'),
      summary: archive ? 'Archive packages' : 'Restore archived packages',
      description: 'Body `{ deleted: [ids] }`, all or nothing; unknown ids (or another company\'s) answer 400 naming them. '
        + 'Answers the envelope of spec 4.6 with the packages this call changed. '
        + (archive ? 'A parcel with a driver (assigned, out for delivery, failed) cannot be archived (409).' : ''),
    }, async ({ deps, user, body }) => {
      const data = await packageJsonByIds(deps.db, await setPackagesArchived(deps, user, body.deleted, archive));
      return rawObject({ count: data.length, next: null, previous: null, results: rawObject({ success: true, data: rawArray(data) }) });
    });
  }

  defineRoute(app, {
    method: 'get', path: '/package/area-by-postcode/', tags, access: 'package.view', query: AreaByPostcodeQuery, response: AreaByPostcodeAnswer,
    catalogue: pm('Area by Postcode'),
    summary: 'Suburbs (with their zone and state) and areas for a postcode',
    description: 'Matches suburbs by their own postcode and by the pincode table.',
  }, async ({ deps, query }) => {
    const { db } = deps;
    const viaPincode = (await db.select({ id: pincode.suburb_id }).from(pincode).where(and(eq(pincode.code, query.postcode), isNull(pincode.deleted_at))).all()).map((r) => r.id);
    const suburbs = await db.select({
      id: suburb.id, name: suburb.name, zone: suburb.zone_id, zone_name: zone.name, state: suburb.state_id, state_name: state.name,
    }).from(suburb).leftJoin(zone, eq(zone.id, suburb.zone_id)).leftJoin(state, eq(state.id, suburb.state_id))
      .where(and(isNull(suburb.deleted_at), viaPincode.length ? sql`(${suburb.postcode} = ${query.postcode} or ${inArray(suburb.id, viaPincode)})` : eq(suburb.postcode, query.postcode)))
      .orderBy(suburb.name).all();
    const areas = suburbs.length
      ? await db.select({ id: area.id, name: area.name, suburb: area.suburb_id, suburb_name: suburb.name }).from(area)
        .innerJoin(suburb, eq(suburb.id, area.suburb_id))
        .where(and(inArray(area.suburb_id, suburbs.map((s) => s.id)), isNull(area.deleted_at))).orderBy(area.name).all()
      : [];
    return { success: true, postcode: query.postcode, suburbs, areas };
  });

  defineRoute(app, {
    method: 'post', path: '/package/price/', tags, access: 'package.view', body: PriceQuoteBody, response: PriceAnswer,
    catalogue: pm('Get Price'), transactional: false,
    summary: 'Quote a price for a parcel not yet created',
    description: 'Weight in kg, dimensions in cm. `amount` is in minor units; `price` the same in major units. A company is quoted its own prices. '
      + 'No rate line that fits the parcel answers 404.',
  }, async ({ deps, user, body }) => {
    if (user.role === 'company' && body.company != null && body.company !== user.companyId) throw forbidden('A company is quoted only its own prices');
    const companyId = user.role === 'company' ? user.companyId : body.company;
    return priceAnswer(null, await priceFor(deps.db, {
      companyId, weightKg: body.weight, lengthCm: body.length, widthCm: body.width, heightCm: body.height, zoneId: body.zone, postcode: body.postcode,
      suburbId: body.suburb, postcodeName: body.postcode_name, customerAddress: body.customer_address, pkgType: body.pkg_type,
    }));
  });

  defineRoute(app, {
    method: 'get', path: '/package/{id}/price/', tags, access: 'package.view', params: IdParams, response: PriceAnswer,
    catalogue: pm('Get Price'), summary: 'The price of an existing package', description: 'No rate line that fits the parcel answers 404.',
  }, async ({ deps, user, params }) => {
    const row = (await livePackage(deps.db, user, params.id));
    return priceAnswer(row.id, await priceFor(deps.db, {
      companyId: row.company_id, weightKg: row.weight, lengthCm: row.length, widthCm: row.width, heightCm: row.height,
      zoneId: row.zone_id, postcode: row.postcode, pkgType: row.pkg_type,
    }));
  });

  defineRoute(app, {
    method: 'get', path: '/package/by-driver/', tags, access: { roles: [...STAFF_ROLES, 'driver'] },
    query: PackageListQuery.extend({ driver: z.coerce.number().int().positive().optional() }), response: PackageListAnswer,
    catalogue: pm('Package by Driver'),
    summary: "A driver's packages (staff: `?driver=<employee id>`, required; a driver: their own)",
    description: `Every package assigned to the driver, archived ones left out. ${LIST_FILTERS_DOC}`,
  }, ({ deps, user, query, c }) => {
    let driverId = query.driver;
    if (isStaff(user.role)) {
      if (driverId == null) throw badRequest('Name the driver: ?driver=<employee id>', [{ path: 'driver', message: 'required' }]);
    } else {
      if (driverId != null && driverId !== user.id) throw forbidden('You may only list your own packages');
      driverId = user.id;
    }
    const q = { ...query, driver: undefined };
    return packagePage(deps.db, packageListWhere(user, q, false, eq(pkg.assigned_to_id, driverId)), q, c.req.url, true);
  });

  defineRoute(app, {
    method: 'get', path: '/package/{id}/', tags, access: 'package.view', params: IdParams, response: Package,
    catalogue: pm('Retrieve', 'Get Package by ID'), summary: 'Retrieve a package',
  }, async ({ deps, user, params }) => {
    const row = await findPackage(deps.db, params.id);
    // A parcel moved to history answers what it answered the moment it moved.
    const cold = row ? undefined : await visibleInHistory(deps.db, user, params.id);
    if (cold) return frozenAnswer(deps.db, cold);
    visiblePackage(user, row, params.id);
    return one(deps.db, params.id);
  });

  defineRoute(app, {
    method: ['patch', 'put'], path: '/package/{id}/', tags, access: 'package.manage', params: IdParams, body: PackageUpdate, response: Package,
    catalogue: pm('Update', 'Update Package by Company'),
    summary: 'Update the details of a package that is not final (a company: its own)',
    description: 'Partial: only the fields sent change; PUT is a synonym. Status and driver are not editable here '
      + '(status-change, assign and unassign are). A final package answers 409; the hawb changes only while the package is `created`.',
  }, async ({ deps, user, params, body }) => one(deps.db, (await editPackage(deps, user, params.id, body)).id));

  defineRoute(app, {
    method: 'delete', path: '/package/{id}/', tags, access: 'package.manage', params: IdParams, response: SuccessMessage,
    catalogue: pm('Delete'), summary: 'Delete a package nobody has handled yet',
    description: 'Only while `created` with no scan or transition beyond its creation; afterwards 409 (cancel or archive it instead).',
  }, async ({ deps, user, params }) => {
    const row = await deletePackage(deps, user, params.id);
    return { success: true, message: `Package ${row.hawb} deleted` };
  });

  defineRoute(app, {
    method: ['post', 'patch'], path: '/package/{id}/status-change/', tags, access: { roles: ['super_admin', 'admin', 'supervisor'] },
    params: IdParams, body: PackageStatusChangeBody, response: Package,
    catalogue: pm('Status Change'), summary: 'Set a package status by hand (admins and supervisors)',
    description: 'Goes through the lifecycle table: a change it does not allow answers 409 invalid_transition. `received` also takes the '
      + 'parcel off its driver. Assigning, loading, delivering and failing have their own operations.',
  }, async ({ deps, user, params, body }) => one(deps.db, (await changeStatus(deps, user, params.id, body.status, body.note)).id));
}
