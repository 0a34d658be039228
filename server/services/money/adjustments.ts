import { and, desc, eq, inArray } from 'drizzle-orm';
import { invoice, invoiceLine, walletTxn } from '../../db/schema/index';
import { badRequest } from '../../errors';
import { listPage, type ListOptions } from '../../resources/list';
import type { SessionUser } from '../auth/session';
import type { Deps } from '../../deps';
import type { ZoneDeps } from '../time/zones';
import { companyConds, requireMoneyStaff } from './access';
import { findInvoice, issueInvoice } from './invoices';
import { invoicesApi, txnsApi, type InvoiceRow } from './shape';
import { append, ensureWallet, findCompany, type TxnRow, type WalletRow, type Ledger } from './wallets';

export interface AdjustmentInput {
  company: number;
  direction: 'credit' | 'debit';
  amount_cents: number;
  reason: string;
  invoice?: number;
}

/**
 * The one way to correct money after the fact (a void invoice, a goodwill credit, a missed charge):
 * an appended transaction that names who and why, documented by a numbered note. A debit never
 * takes a prepaid wallet below zero; a postpaid one may go past its limit, since staff decided it.
 */
export async function createAdjustment(
  deps: Ledger & Pick<Deps, 'config'>,
  user: SessionUser,
  input: AdjustmentInput,
): Promise<{ wallet: WalletRow; transaction: TxnRow; note: InvoiceRow }> {
  requireMoneyStaff(user);
  const co = await findCompany(deps.db, input.company);
  let corrects: InvoiceRow | null = null;
  if (input.invoice != null) {
    corrects = await findInvoice(deps.db, user, input.invoice);
    if (corrects.company_id !== co.id) {
      throw badRequest(`Invoice ${corrects.number} belongs to another company`, [
        { path: 'invoice', message: "another company's invoice" },
      ]);
    }
  }
  const signed = input.direction === 'credit' ? input.amount_cents : -input.amount_cents;
  const w = await ensureWallet(deps, co.id, user.id);
  const transaction = await append(
    deps,
    w.id,
    {
      kind: 'adjustment',
      amount_cents: signed,
      created_by: user.id,
      reason: input.reason,
      reference: corrects?.number ?? '',
    },
    co.billing_type !== 'postpaid',
  );
  const note = await issueInvoice(deps, {
    companyId: co.id,
    kind: 'adjustment',
    status: 'paid',
    currency: w.currency,
    createdBy: user.id,
    correctsId: corrects?.id ?? null,
    lines: [
      {
        txn: transaction,
        amount_cents: -signed,
        description: `${input.direction === 'credit' ? 'Credit' : 'Debit'} adjustment${corrects ? ` to ${corrects.number}` : ''}: ${input.reason}`,
      },
    ],
  });
  return { wallet: await ensureWallet(deps, co.id), transaction, note };
}

/** One page of adjustments, newest first: each note with the transaction it documents (a company sees its own). */
export function adjustmentPage(deps: ZoneDeps, user: SessionUser, q: ListOptions & { company?: number }, url: string) {
  const { db } = deps;
  const where = and(eq(invoice.kind, 'adjustment'), ...companyConds(user, invoice.company_id, q.company));
  return listPage(db, invoice, where, [desc(invoice.id)], q, url, async (notes) => {
    const links = notes.length
      ? await db
          .select({ invoice: invoiceLine.invoice_id, t: walletTxn })
          .from(invoiceLine)
          .innerJoin(walletTxn, eq(walletTxn.id, invoiceLine.txn_id))
          .where(
            inArray(
              invoiceLine.invoice_id,
              notes.map((n) => n.id),
            ),
          )
          .all()
      : [];
    const txnOf = new Map(links.map((l) => [l.invoice, l.t]));
    const shapedNotes = await invoicesApi(deps, notes);
    const results = [];
    for (const [i, n] of notes.entries()) {
      const t = txnOf.get(n.id);
      if (t) results.push({ transaction: (await txnsApi(db, [t]))[0], note: shapedNotes[i] });
    }
    return results;
  });
}
