import { eq, inArray, sql } from 'drizzle-orm';
import { DEFAULT_GST_RATE_BP } from '../../../shared/gst';
import { available, formatMinor, type InvoiceKind, type InvoiceStatus, type TxnKind } from '../../../shared/money';
import type { z } from 'zod';
import type { Invoice, InvoiceLine, Txn, Wallet } from '../../../shared/schemas/money';
import { iso } from '../../clock';
import type { Db } from '../../db/client';
import { company, invoice, invoiceLine, packageHistory, pkg } from '../../db/schema/index';
import { businessZone, type ZoneDeps } from '../time/zones';
import { localDay } from '../../../shared/time/zone';
import { billingOf, findCompany, stateOf, type TxnRow, type WalletRow } from './wallets';

export type InvoiceRow = typeof invoice.$inferSelect;
type LineRow = typeof invoiceLine.$inferSelect;

/** The business's local day of an instant (issue 31): a period starting at Sydney's midnight is that day, not the UTC day before. */
const day = (ms: number | null, zone: string) => (ms == null ? null : localDay(ms, zone));

export async function walletApi(db: Db, w: WalletRow): Promise<z.infer<typeof Wallet>> {
  const co = await findCompany(db, w.company_id);
  return {
    id: w.id,
    company: w.company_id,
    company_name: co.name,
    billing_type: billingOf(co),
    currency: w.currency,
    balance_cents: w.balance_cents,
    balance: formatMinor(w.balance_cents, w.currency),
    credit_limit_cents: w.credit_limit_cents,
    available_cents: available(stateOf(w, co)),
    created_at: iso(w.created_at) ?? '',
  };
}

/** Transactions with the invoice that documents each (if any), in one extra query. */
export async function txnsApi(db: Db, rows: TxnRow[]): Promise<z.infer<typeof Txn>[]> {
  const ids = rows.map((r) => r.id);
  const docs = ids.length
    ? new Map(
        (
          await db
            .select({ t: invoiceLine.txn_id, i: invoiceLine.invoice_id })
            .from(invoiceLine)
            .where(inArray(invoiceLine.txn_id, ids))
            .all()
        ).map((r) => [r.t, r.i]),
      )
    : new Map<number, number>();
  return rows.map((r) => ({
    id: r.id,
    wallet: r.wallet_id,
    company: r.company_id,
    kind: r.kind as TxnKind,
    amount_cents: r.amount_cents,
    balance_after_cents: r.balance_after_cents,
    currency: r.currency,
    billing: r.billing === 'postpaid' ? 'postpaid' : 'prepaid',
    package: r.package_id,
    reason: r.reason,
    reference: r.reference,
    created_by: r.created_by,
    created_at: iso(r.created_at) ?? '',
    invoice: docs.get(r.id) ?? null,
  }));
}

/** The names of these companies, by id (one query, none for no id). */
export async function companyNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  return unique.length
    ? new Map(
        (await db.select({ id: company.id, name: company.name }).from(company).where(inArray(company.id, unique)).all()).map((c) => [
          c.id,
          c.name,
        ]),
      )
    : new Map<number, string>();
}

/** Invoices as answered; their days (period, due date) are the business's local days. */
export async function invoicesApi(deps: ZoneDeps, rows: InvoiceRow[]): Promise<z.infer<typeof Invoice>[]> {
  const { db } = deps;
  const zone = rows.length ? await businessZone(deps) : deps.config.timeZone;
  const names = await companyNames(
    db,
    rows.map((r) => r.company_id),
  );
  return rows.map((r) => ({
    id: r.id,
    number: r.number,
    company: r.company_id,
    company_name: names.get(r.company_id) ?? '',
    kind: r.kind as InvoiceKind,
    status: r.status as InvoiceStatus,
    currency: r.currency,
    period_from: day(r.period_from, zone),
    // Stored as the exclusive end; shown as the last day the period covers.
    period_to: r.period_to == null ? null : day(r.period_to - 1, zone),
    total_cents: r.total_cents,
    total: formatMinor(r.total_cents, r.currency),
    issued_at: iso(r.issued_at) ?? '',
    paid_at: iso(r.paid_at),
    payment_transaction: r.payment_txn_id,
    voided_at: iso(r.voided_at),
    void_reason: r.void_reason,
    corrects_invoice: r.corrects_invoice_id,
    due_date: day(r.due_at, zone),
    // Invoices issued before GST was recorded were priced as rate cards always were: 10 %, inclusive.
    gst_rate_bp: r.gst_rate_bp ?? DEFAULT_GST_RATE_BP,
    prices_include_gst: r.prices_include_gst ?? true,
  }));
}

export async function invoiceLines(db: Db, invoiceId: number): Promise<z.infer<typeof InvoiceLine>[]> {
  const rows: { l: LineRow; hawb: string | null }[] = await db
    .select({ l: invoiceLine, hawb: sql<string | null>`coalesce(${pkg.hawb}, ${packageHistory.hawb})` })
    .from(invoiceLine)
    .leftJoin(pkg, eq(pkg.id, invoiceLine.package_id))
    // A parcel moved to history keeps its tracking number on its lines.
    .leftJoin(packageHistory, eq(packageHistory.id, invoiceLine.package_id))
    .where(eq(invoiceLine.invoice_id, invoiceId))
    .orderBy(invoiceLine.id)
    .all();
  return rows.map(({ l, hawb }) => ({
    id: l.id,
    transaction: l.txn_id,
    package: l.package_id,
    hawb,
    description: l.description,
    amount_cents: l.amount_cents,
  }));
}
