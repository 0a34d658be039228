import { and, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { IdParams, ListQuery, pageOf } from '../../shared/schemas/common';
import { Package, PackageCreate } from '../../shared/schemas/package';
import { PACKAGE_STATUSES } from '../../shared/lifecycle';
import { pkg } from '../db/schema/index';
import { ops } from '../http/catalogue';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import { listConditions, orderBy, pageLinks, type ListSpec } from '../resources/list';
import { createPackage } from '../services/packages/create';
import { findPackage } from '../services/packages/lifecycle';
import { packageScope, visiblePackage } from '../services/packages/scope';
import { packagesByIds, selectPackages, shapePackages } from '../services/packages/shape';

const tags = ['Package'];

export const PackageListQuery = ListQuery.extend({
  status: z.string().max(500).optional(),
  company: z.string().max(500).optional(),
  zone: z.string().max(2000).optional(),
  driver: z.string().max(500).optional(),
  route: z.string().max(500).optional(),
  is_scanned: z.enum(['true', 'false']).optional(),
  created_from: z.iso.date().optional(),
  created_to: z.iso.date().optional(),
});

export const PACKAGE_LIST: ListSpec = {
  search: ['hawb', 'customer_name', 'customer_phone', 'customer_address', 'customer_code'],
  ordering: ['created_at', 'hawb', 'status', 'sequence_no', 'customer_name', 'updated_at', 'delivery_date'],
  filters: { status: 'status', company: 'company_id', zone: 'zone_id', driver: 'assigned_to_id', route: 'route_id', is_scanned: 'is_scanned' },
};

export function packageRoutes(app: App): void {
  defineRoute(app, {
    method: 'get', path: '/package/', tags, access: 'package.view', query: PackageListQuery, response: pageOf(Package),
    catalogue: [...ops('web/Package Model', 'Get'), ...ops('web/Package Model', 'Multiple Zone Filter')],
    summary: 'List packages',
    description: `Filters: status, company, zone, driver, route (comma-separated for several), is_scanned, created_from/created_to (dates). Statuses: ${PACKAGE_STATUSES.join(', ')}.`,
  }, ({ deps, user, query, c }) => {
    const q = query as Record<string, string | undefined> & z.output<typeof PackageListQuery>;
    const dayStart = (d: string) => Date.parse(`${d}T00:00:00Z`);
    const where = and(
      isNull(pkg.deleted_at), packageScope(user), ...listConditions(pkg, PACKAGE_LIST, q),
      q.created_from ? sql`${pkg.created_at} >= ${dayStart(q.created_from)}` : undefined,
      q.created_to ? sql`${pkg.created_at} < ${dayStart(q.created_to) + 86_400_000}` : undefined,
    );
    const count = deps.db.select({ n: sql<number>`count(*)` }).from(pkg).where(where).get()?.n ?? 0;
    const rows = selectPackages(deps.db).where(where).orderBy(...orderBy(pkg, PACKAGE_LIST, q.ordering))
      .limit(q.page_size).offset((q.page - 1) * q.page_size).all();
    return { count, ...pageLinks(c.req.url, q.page, q.page_size, count), results: shapePackages(deps.db, rows) };
  });

  defineRoute(app, {
    method: 'post', path: '/package/', tags, access: 'package.manage', body: PackageCreate, response: Package, status: 201,
    catalogue: [...ops('web/Package Model', 'Create'), ...ops('web/Package Model', 'Create Package by Company')],
    summary: 'Create a package (a company user creates for its own company)',
  }, ({ deps, user, body }) => packagesByIds(deps.db, [createPackage(deps, user, body).id])[0]);

  defineRoute(app, {
    method: 'get', path: '/package/{id}/', tags, access: 'package.view', params: IdParams, response: Package,
    catalogue: [...ops('web/Package Model', 'Retrieve'), ...ops('web/Package Model', 'Get Package by ID')],
    summary: 'Retrieve a package',
  }, ({ deps, user, params }) => {
    visiblePackage(user, findPackage(deps.db, params.id), params.id);
    return packagesByIds(deps.db, [params.id])[0];
  });
}

