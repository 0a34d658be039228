import { z } from 'zod';
import { ListQuery, pageOf } from '../../shared/schemas/common';
import { STAFF_ROLES } from '../../shared/roles';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import { csvFile } from '../http/csvFile';
import { pageLinks } from '../resources/list';
import { auditCsv, auditPage, type AuditFilter } from '../services/audit/record';
import { businessZone } from '../services/time/zones';
import { addDays, startOfLocalDay } from '../../shared/time/zone';

const AuditQuery = ListQuery.pick({ page: true, page_size: true }).extend({
  action: z.string().max(100).optional(),
  target: z.string().max(100).optional(),
  entity: z
    .string()
    .regex(/^[a-z_]+$/)
    .max(60)
    .optional(),
  actor: z.coerce.number().int().positive().optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
});

const AuditEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  actor: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  action: z.string(),
  target: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
});

/** `from`/`to` are the business's local days (issue 31), turned into instants here. */
const filterOf = (q: z.output<typeof AuditQuery>, zone: string): AuditFilter => ({
  action: q.action,
  target: q.target,
  entity: q.entity,
  actor: q.actor,
  from: q.from ? startOfLocalDay(q.from, zone) : undefined,
  to: q.to ? startOfLocalDay(addDays(q.to, 1), zone) : undefined,
});

/** Kept beside the service (not in server/routes/) only because that directory has other owners; it holds no rules. */
export function auditRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/audit-log/',
      tags: ['Audit'],
      access: { roles: STAFF_ROLES },
      catalogue: [],
      query: AuditQuery,
      response: pageOf(AuditEntry),
      summary: 'The admin audit trail, newest first (staff only)',
      description:
        'Force delivery and failure, wallet adjustments, permission and group changes, company and employee status changes. ' +
        'Every create, update, archive, restore, delete and status change of a resource carries `before`/`after` (changed fields only). ' +
        'Filters: `action` (e.g. `package.force_deliver`), `target` (`package:12`), `entity` (`company`, `user`, `wallet`...), `actor` (user id), `from`/`to` (UTC dates, `to` inclusive).',
    },
    async ({ deps, query, c }) => {
      const page = await auditPage(deps.db, filterOf(query, await businessZone(deps)), query.page, query.page_size);
      return { count: page.count, ...pageLinks(c.req.url, query.page, query.page_size, page.count), results: page.results };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/audit-log/csv-download/',
      tags: ['Audit'],
      access: { roles: STAFF_ROLES },
      catalogue: [],
      query: AuditQuery.omit({ page: true, page_size: true }),
      produces: 'text/csv',
      summary: 'The admin audit trail as CSV (staff only)',
      description:
        'The same filters as the list, every matching line newest first; `before` and `after` are JSON text. 400 past 50,000 lines.',
    },
    async ({ deps, query }) =>
      csvFile(await auditCsv(deps.db, filterOf({ ...query, page: 1, page_size: 1 }, await businessZone(deps))), 'audit-log.csv'),
  );
}
