import { and, eq } from 'drizzle-orm';
import { SupportTicket, SupportTicketCreate, SupportTicketUpdate } from '../../../shared/schemas/org';
import { iso } from '../../clock';
import type { Db } from '../../db/client';
import { supportTicket, user } from '../../db/schema/index';
import { badRequest, forbidden, notFound } from '../../errors';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineResource, type Row } from '../../resources/crud';
import { filterQuery } from './filters';

const nameOf = async (db: Db, id: number) => (await db.select({ name: user.name }).from(user).where(eq(user.id, id)).get())?.name ?? '';
const toTicket = async (r: Row, db: Db) => ({
  id: r.id, driver: r.driver_id, driver_name: await nameOf(db, r.driver_id as number), subject: r.subject, message: r.message,
  status: r.status, response: r.response, closed_at: iso(r.closed_at as number | null), created_at: iso(r.created_at as number),
  updated_at: iso(r.updated_at as number),
});

export function supportRoutes(app: App): void {
  defineResource(app, {
    path: 'driver-support', table: supportTicket, label: 'Support ticket', tags: ['Driver Support'],
    view: 'support.view', manage: 'support.manage',
    ops: {
      list: ops('web/Driver Support', 'Get'), create: ops('web/Driver Support', 'Create'), retrieve: ops('web/Driver Support', 'Retrieve'),
      update: ops('web/Driver Support', 'Update'), delete: ops('web/Driver Support', 'Delete'),
    },
    record: SupportTicket, create: SupportTicketCreate, update: SupportTicketUpdate, toApi: toTicket,
    // A driver sees only their own tickets; staff see all. Nobody else holds support.view by default.
    scope: (u) => (u.role === 'driver' ? eq(supportTicket.driver_id, u.id) : u.companyId != null ? eq(supportTicket.id, -1) : undefined),
    toRow: async (input, { deps, user: me, existing }) => {
      const { driver, status, response, ...rest } = input as typeof input & { status?: string; response?: string };
      const row: Row = { ...rest };
      if (me.role === 'driver') {
        if (driver != null && driver !== me.id) throw forbidden('A driver raises tickets for themself');
        if (response !== undefined) throw forbidden('Only staff answer a ticket');
        // A driver may close their own ticket, not reopen one staff closed.
        if (status === 'open' && existing?.status === 'closed') throw forbidden('Only staff reopen a ticket');
        if (existing?.status === 'closed' && (rest.subject !== undefined || rest.message !== undefined)) throw forbidden('A closed ticket cannot be edited');
        if (!existing) row.driver_id = me.id;
      } else {
        if (response !== undefined) row.response = response;
        if (!existing) {
          if (driver == null) throw badRequest('Name the driver the ticket is for', [{ path: 'driver', message: 'required' }]);
          const d = await deps.db.select({ id: user.id }).from(user).where(and(eq(user.id, driver), eq(user.role, 'driver'))).get();
          if (!d) throw notFound(`Driver ${driver} not found`);
          row.driver_id = driver;
        }
      }
      if (status !== undefined) {
        row.status = status;
        row.closed_at = status === 'closed' ? (existing?.status === 'closed' ? existing.closed_at : deps.clock.now()) : null;
      }
      return row;
    },
    listQuery: filterQuery('status', 'driver'),
    list: {
      search: ['subject', 'message'], ordering: ['created_at', 'updated_at', 'status'], defaultOrdering: '-created_at',
      filters: { status: 'status', driver: 'driver_id' },
    },
  });
}
