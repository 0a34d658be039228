import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { gstForLines } from '../../../shared/gst';
import type { InvoiceQuery } from '../../../shared/schemas/money';
import type { Db } from '../../db/client';
import { invoice } from '../../db/schema/index';
import { containsText, listPage } from '../../resources/list';
import type { SessionUser } from '../auth/session';
import { companyConds } from './access';
import { dayStart, DAY_MS } from './invoices';
import { invoiceLines, invoicesApi, type InvoiceRow } from './shape';

export type InvoiceFilter = z.output<typeof InvoiceQuery>;
/** A CSV download stops here: one request must not render an unbounded file. */
const CSV_MAX_ROWS = 50_000;

/** Where-clause of an invoice list: the caller's scope, then the filters. */
export function invoiceWhere(user: SessionUser, q: Partial<InvoiceFilter>, ...more: (SQL | undefined)[]): SQL | undefined {
  return and(
    ...companyConds(user, invoice.company_id, q.company),
    q.kind ? eq(invoice.kind, q.kind) : undefined,
    q.status ? eq(invoice.status, q.status) : undefined,
    q.from ? gte(invoice.issued_at, dayStart(q.from)) : undefined,
    q.to ? lt(invoice.issued_at, dayStart(q.to) + DAY_MS) : undefined,
    q.search?.trim() ? containsText(invoice.number, q.search.trim()) : undefined,
    ...more,
  );
}

/** One page of the caller's invoices, newest first. */
export function invoicePage(db: Db, user: SessionUser, q: InvoiceFilter, url: string) {
  return listPage(db, invoice, invoiceWhere(user, q), [desc(invoice.id)], q, url, (rows) => invoicesApi(db, rows));
}

/** The invoices a CSV download holds, oldest first. */
export async function invoicesForCsv(db: Db, user: SessionUser, q: Partial<InvoiceFilter>) {
  return invoicesApi(db, await db.select().from(invoice).where(invoiceWhere(user, q)).orderBy(invoice.id).limit(CSV_MAX_ROWS).all());
}

/** An invoice with its lines, GST worked out line by line as the document prints it. */
export async function invoiceDetails(db: Db, row: InvoiceRow) {
  const api = (await invoicesApi(db, [row]))[0];
  const lines = await invoiceLines(db, row.id);
  const gst = gstForLines(
    lines.map((l) => l.amount_cents),
    api.gst_rate_bp,
    api.prices_include_gst,
  );
  return { ...api, lines: lines.map((l, i) => ({ ...l, gst: gst.lines[i] })), gst: gst.total };
}
