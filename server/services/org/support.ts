import { and, eq, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { SupportTicketCreate } from '../../../shared/schemas/org';
import { iso } from '../../clock';
import type { Db } from '../../db/client';
import { supportTicket, user } from '../../db/schema/index';
import { badRequest, forbidden, notFound } from '../../errors';
import type { ResourceContext, Row } from '../../resources/crud';
import type { SessionUser } from '../auth/session';

const nameOf = async (db: Db, id: number) => (await db.select({ name: user.name }).from(user).where(eq(user.id, id)).get())?.name ?? '';

export const toTicket = async (r: Row, db: Db) => ({
  id: r.id,
  driver: r.driver_id,
  driver_name: await nameOf(db, r.driver_id as number),
  subject: r.subject,
  message: r.message,
  status: r.status,
  response: r.response,
  closed_at: iso(r.closed_at as number | null),
  created_at: iso(r.created_at as number),
  updated_at: iso(r.updated_at as number),
});

/** A driver sees only their own tickets; staff see all. Nobody else holds support.view by default. */
export function ticketScope(u: SessionUser): SQL | undefined {
  return u.role === 'driver' ? eq(supportTicket.driver_id, u.id) : u.companyId != null ? eq(supportTicket.id, -1) : undefined;
}

type TicketInput = Partial<z.output<typeof SupportTicketCreate>> & { status?: string; response?: string };

/**
 * API input -> ticket columns. A driver raises and closes their own tickets; staff raise them for
 * a driver, answer them and reopen them.
 */
export async function ticketRow(
  input: Partial<z.output<typeof SupportTicketCreate>>,
  { deps, user: me, existing }: ResourceContext,
): Promise<Row> {
  const { driver, status, response, ...rest } = input as TicketInput;
  const row: Row = { ...rest };
  if (me.role === 'driver') {
    if (driver != null && driver !== me.id) throw forbidden('A driver raises tickets for themself');
    if (response !== undefined) throw forbidden('Only staff answer a ticket');
    // A driver may close their own ticket, not reopen one staff closed.
    if (status === 'open' && existing?.status === 'closed') throw forbidden('Only staff reopen a ticket');
    if (existing?.status === 'closed' && (rest.subject !== undefined || rest.message !== undefined))
      throw forbidden('A closed ticket cannot be edited');
    if (!existing) row.driver_id = me.id;
  } else {
    if (response !== undefined) row.response = response;
    if (!existing) {
      if (driver == null) throw badRequest('Name the driver the ticket is for', [{ path: 'driver', message: 'required' }]);
      const d = await deps.db
        .select({ id: user.id })
        .from(user)
        .where(and(eq(user.id, driver), eq(user.role, 'driver')))
        .get();
      if (!d) throw notFound(`Driver ${driver} not found`);
      row.driver_id = driver;
    }
  }
  if (status !== undefined) {
    row.status = status;
    row.closed_at = status === 'closed' ? (existing?.status === 'closed' ? existing.closed_at : deps.clock.now()) : null;
  }
  return row;
}
