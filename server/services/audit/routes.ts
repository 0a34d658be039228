import { z } from 'zod';
import { ListQuery, pageOf } from '../../../shared/schemas/common';
import { STAFF_ROLES } from '../../../shared/roles';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { pageLinks } from '../../resources/list';
import { auditPage } from './record';

const AuditQuery = ListQuery.pick({ page: true, page_size: true }).extend({
  action: z.string().max(100).optional(),
  target: z.string().max(100).optional(),
  actor: z.coerce.number().int().positive().optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
});

const AuditEntry = z.object({
  id: z.number().int(), at: z.string(), actor: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  action: z.string(), target: z.string(), details: z.record(z.string(), z.unknown()).nullable(),
});

const day = (d: string) => Date.parse(`${d}T00:00:00Z`);

/** Kept beside the service (not in server/routes/) only because that directory has other owners; it holds no rules. */
export function auditRoutes(app: App): void {
  defineRoute(app, {
    method: 'get', path: '/audit-log/', tags: ['Audit'], access: { roles: STAFF_ROLES }, catalogue: [], query: AuditQuery, response: pageOf(AuditEntry),
    summary: 'The admin audit trail, newest first (staff only)',
    description: 'Force delivery and failure, wallet adjustments, permission and group changes, company and employee status changes. '
      + 'Filters: `action` (e.g. `package.force_deliver`), `target` (`package:12`), `actor` (user id), `from`/`to` (UTC dates, `to` inclusive).',
  }, ({ deps, query, c }) => {
    const page = auditPage(deps.db, {
      action: query.action, target: query.target, actor: query.actor,
      from: query.from ? day(query.from) : undefined, to: query.to ? day(query.to) + 86_400_000 : undefined,
    }, query.page, query.page_size);
    return { count: page.count, ...pageLinks(c.req.url, query.page, query.page_size, page.count), results: page.results };
  });
}
