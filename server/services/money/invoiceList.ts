import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { gstForLines } from '../../../shared/gst';
import type { InvoiceQuery } from '../../../shared/schemas/money';
import { invoice } from '../../db/schema/index';
import { containsText, listPage } from '../../resources/list';
import type { SessionUser } from '../auth/session';
import { companyConds } from './access';
import { invoiceLines, invoicesApi, type InvoiceRow } from './shape';
import { businessZone, type ZoneDeps } from '../time/zones';
import { addDays, startOfLocalDay } from '../../../shared/time/zone';

export type InvoiceFilter = z.output<typeof InvoiceQuery>;
/** A CSV download stops here: one request must not render an unbounded file. */
const CSV_MAX_ROWS = 50_000;

/** Where-clause of an invoice list: the caller's scope, then the filters (`from`/`to`: local days in `zone`). */
function invoiceWhere(user: SessionUser, q: Partial<InvoiceFilter>, zone: string): SQL | undefined {
  return and(
    ...companyConds(user, invoice.company_id, q.company),
    q.kind ? eq(invoice.kind, q.kind) : undefined,
    q.status ? eq(invoice.status, q.status) : undefined,
    q.from ? gte(invoice.issued_at, startOfLocalDay(q.from, zone)) : undefined,
    q.to ? lt(invoice.issued_at, startOfLocalDay(addDays(q.to, 1), zone)) : undefined,
    q.search?.trim() ? containsText(invoice.number, q.search.trim()) : undefined,
  );
}

/** One page of the caller's invoices, newest first. */
export async function invoicePage(deps: ZoneDeps, user: SessionUser, q: InvoiceFilter, url: string) {
  const where = invoiceWhere(user, q, await businessZone(deps));
  return listPage(deps.db, invoice, where, [desc(invoice.id)], q, url, (rows) => invoicesApi(deps, rows));
}

/** The invoices a CSV download holds, oldest first. */
export async function invoicesForCsv(deps: ZoneDeps, user: SessionUser, q: Partial<InvoiceFilter>) {
  const where = invoiceWhere(user, q, await businessZone(deps));
  return invoicesApi(deps, await deps.db.select().from(invoice).where(where).orderBy(invoice.id).limit(CSV_MAX_ROWS).all());
}

/** An invoice with its lines, GST worked out line by line as the document prints it. */
export async function invoiceDetails(deps: ZoneDeps, row: InvoiceRow) {
  const api = (await invoicesApi(deps, [row]))[0];
  const lines = await invoiceLines(deps.db, row.id);
  const gst = gstForLines(
    lines.map((l) => l.amount_cents),
    api.gst_rate_bp,
    api.prices_include_gst,
  );
  return { ...api, lines: lines.map((l, i) => ({ ...l, gst: gst.lines[i] })), gst: gst.total };
}
