import { and, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import { canChangeInvoice, invoiceNumber, type InvoiceKind, type InvoiceStatus } from '../../../shared/money';
import type { Db } from '../../db/client';
import { invoice, invoiceCounter, invoiceLine, packageHistory, pkg, walletTxn } from '../../db/schema/index';
import { badRequest, conflict, invalidTransition } from '../../errors';
import type { SessionUser } from '../auth/session';
import { inScope } from './access';
import { getBusinessProfile, type BusinessProfileRow } from './businessProfile';
import type { InvoiceParties } from './documents';
import { companyPolicy } from './parcelPricing';
import type { InvoiceRow } from './shape';
import { billingOf, findCompany, type CompanyRow, type TxnRow, type Ledger } from './wallets';
import type { Deps } from '../../deps';
import { businessZone } from '../time/zones';
import { addDays, daysBetween, localDay, localDaysRange, startOfLocalDay } from '../../../shared/time/zone';

const MAX_PERIOD_DAYS = 366;
const LINE_BATCH = 500;

/**
 * The next number of the issuing year, the business's local year (issue 31: an invoice issued at 09:00 on
 * 1 January in Sydney is that year's, though it is still 31 December in UTC). The counter moves in the
 * transaction that inserts the invoice, so a rolled-back issue gives its number back and numbers never skip.
 */
export async function allocateNumber(db: Db, now: number, zone: string): Promise<string> {
  const year = Number(localDay(now, zone).slice(0, 4));
  const row = await db
    .insert(invoiceCounter)
    .values({ year, last: 1 })
    .onConflictDoUpdate({ target: invoiceCounter.year, set: { last: sql`${invoiceCounter.last} + 1` } })
    .returning()
    .get();
  return invoiceNumber(year, row.last);
}

export interface LineInput {
  txn: TxnRow;
  description: string;
  amount_cents: number;
}
export interface IssueInput {
  companyId: number;
  kind: InvoiceKind;
  status: InvoiceStatus;
  currency: string;
  lines: LineInput[];
  periodFrom?: number | null;
  periodTo?: number | null;
  correctsId?: number | null;
  createdBy: number | null;
}

/** The seller and buyer blocks a document prints. */
function partiesOf(profile: BusinessProfileRow, co: CompanyRow): InvoiceParties {
  const { id: _id, updated_at: _u, gst_rate_bp: _r, prices_include_gst: _g, ...seller } = profile;
  return { seller, buyer: { name: co.name, abn: co.abn, address: co.address } };
}

/**
 * Who sold and who was billed, as at issue (a tax invoice reprinted after the profile or the company
 * changed must not change). Invoices issued before the seller was set up print the current blocks.
 */
export async function invoiceParties(db: Db, row: InvoiceRow): Promise<InvoiceParties> {
  if (row.parties) return JSON.parse(row.parties) as InvoiceParties;
  return partiesOf(await getBusinessProfile(db), await findCompany(db, row.company_id));
}

/** Writes an invoice and its lines once; nothing here is ever updated except the status columns. */
export async function issueInvoice(deps: Ledger & Pick<Deps, 'config'>, input: IssueInput): Promise<InvoiceRow> {
  const { db } = deps;
  const now = deps.clock.now();
  const zone = await businessZone(deps);
  const total = input.lines.reduce((s, l) => s + l.amount_cents, 0);
  // GST settings and the due day are fixed at issue, so the document never changes when the profile or terms do.
  const profile = await getBusinessProfile(db);
  // Due: the start of the local day `payment_terms_days` after the local issue day.
  const dueAt =
    input.kind === 'statement'
      ? startOfLocalDay(addDays(localDay(now, zone), (await companyPolicy(db, input.companyId)).payment_terms_days), zone)
      : null;
  // The parties are frozen once the seller can stand on a tax invoice (legal name and ABN). Until then the
  // document follows the profile, so setting it up completes what was issued before (as the invoice's notice says).
  const parties = profile.legal_name && profile.abn ? JSON.stringify(partiesOf(profile, await findCompany(db, input.companyId))) : null;
  const row = await db
    .insert(invoice)
    .values({
      due_at: dueAt,
      gst_rate_bp: profile.gst_rate_bp,
      prices_include_gst: profile.prices_include_gst,
      parties,
      number: await allocateNumber(db, now, zone),
      company_id: input.companyId,
      kind: input.kind,
      status: input.status,
      currency: input.currency,
      period_from: input.periodFrom ?? null,
      period_to: input.periodTo ?? null,
      total_cents: total,
      issued_at: now,
      paid_at: input.status === 'paid' ? now : null,
      corrects_invoice_id: input.correctsId ?? null,
      created_by: input.createdBy,
      created_at: now,
      updated_at: now,
    })
    .returning()
    .get();
  // In slices: a busy month has more lines than SQLite takes bound values in one statement.
  for (let i = 0; i < input.lines.length; i += LINE_BATCH) {
    await db
      .insert(invoiceLine)
      .values(
        input.lines.slice(i, i + LINE_BATCH).map((l) => ({
          invoice_id: row.id,
          txn_id: l.txn.id,
          package_id: l.txn.package_id,
          description: l.description,
          amount_cents: l.amount_cents,
          created_at: now,
        })),
      )
      .run();
  }
  return row;
}

export async function findInvoice(db: Db, user: SessionUser, id: number): Promise<InvoiceRow> {
  return inScope(user, await db.select().from(invoice).where(eq(invoice.id, id)).get(), `Invoice ${id}`);
}

/** What a statement lists: charges and their corrections, and cash on delivery collected and paid out (issue 34), which it nets. */
const STATEMENT_KINDS = ['charge', 'refund', 'reprice', 'cod_collected', 'cod_payout'];
const LINE_WORDS: Record<string, string> = {
  charge: 'Delivery',
  reprice: 'Re-priced',
  refund: 'Refund',
  cod_collected: 'Cash collected on delivery',
};
function lineDescription(t: TxnRow, hawb: string | null): string {
  if (t.kind === 'cod_payout') return `Cash on delivery paid out${t.reference ? ` (${t.reference})` : ''}`;
  return `${LINE_WORDS[t.kind] ?? t.kind} ${hawb ?? t.reference}`;
}

/**
 * A postpaid company's statement for a period: every charge and refund made in it, while it was
 * postpaid, that no earlier statement documents (prepaid charges were settled from the wallet). Each charge is billed once; a later refund of an earlier-billed parcel is a
 * negative line of the statement of its own period.
 */
export async function generateStatement(
  deps: Ledger & Pick<Deps, 'config'>,
  user: SessionUser,
  companyId: number,
  from: string,
  to: string,
): Promise<InvoiceRow> {
  const { db } = deps;
  const co = await findCompany(db, companyId);
  if (billingOf(co) !== 'postpaid') {
    throw conflict(`${co.name} is prepaid: its charges are settled from the wallet and each recharge has its receipt`);
  }
  // The period's days are the business's local days (issue 31): from its first local midnight to the one after `to`.
  if (daysBetween(from, to) + 1 > MAX_PERIOD_DAYS) {
    throw badRequest(`A statement covers at most ${MAX_PERIOD_DAYS} days`, [{ path: 'period_to', message: 'period too long' }]);
  }
  const { start, end } = localDaysRange(from, to, await businessZone(deps));

  const rows = await db
    .select({ t: walletTxn, hawb: sql<string | null>`coalesce(${pkg.hawb}, ${packageHistory.hawb})` })
    .from(walletTxn)
    .leftJoin(invoiceLine, eq(invoiceLine.txn_id, walletTxn.id))
    .leftJoin(pkg, eq(pkg.id, walletTxn.package_id))
    // A parcel moved to history keeps its tracking number on its lines.
    .leftJoin(packageHistory, eq(packageHistory.id, walletTxn.package_id))
    .where(
      and(
        eq(walletTxn.company_id, companyId),
        inArray(walletTxn.kind, STATEMENT_KINDS),
        eq(walletTxn.billing, 'postpaid'),
        gte(walletTxn.created_at, start),
        lt(walletTxn.created_at, end),
        isNull(invoiceLine.id),
      ),
    )
    .orderBy(walletTxn.id)
    .all();
  if (!rows.length) throw conflict(`Nothing to invoice for ${co.name} from ${from} to ${to}`);
  return issueInvoice(deps, {
    companyId,
    kind: 'statement',
    status: 'issued',
    currency: rows[0].t.currency,
    periodFrom: start,
    periodTo: end,
    createdBy: user.id,
    lines: rows.map(({ t, hawb }) => ({
      txn: t,
      description: lineDescription(t, hawb),
      // A statement shows what the company owes: a charge (a debit of the wallet) is a positive line.
      amount_cents: -t.amount_cents,
    })),
  });
}

/** issued -> paid | void; amounts and lines stay as issued. */
export async function setInvoiceStatus(
  deps: Ledger,
  row: InvoiceRow,
  to: InvoiceStatus,
  extra: { paymentTxnId?: number | null; reason?: string },
): Promise<InvoiceRow> {
  if (!canChangeInvoice(row.status as InvoiceStatus, to)) {
    throw invalidTransition(`Invoice ${row.number} is ${row.status}; it cannot become ${to}`, { invoice: row.id, status: row.status });
  }
  const now = deps.clock.now();
  const patch =
    to === 'paid'
      ? { status: to, paid_at: now, payment_txn_id: extra.paymentTxnId ?? null, updated_at: now }
      : { status: to, voided_at: now, void_reason: extra.reason ?? '', updated_at: now };
  const updated = await deps.db
    .update(invoice)
    .set(patch)
    .where(and(eq(invoice.id, row.id), eq(invoice.status, 'issued')))
    .returning()
    .get();
  if (!updated) throw invalidTransition(`Invoice ${row.number} changed meanwhile`, { invoice: row.id });
  return updated;
}

export async function invoiceOfTxn(db: Db, txnId: number): Promise<InvoiceRow | undefined> {
  return (
    await db
      .select({ i: invoice })
      .from(invoiceLine)
      .innerJoin(invoice, eq(invoice.id, invoiceLine.invoice_id))
      .where(eq(invoiceLine.txn_id, txnId))
      .get()
  )?.i;
}
