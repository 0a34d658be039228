import { formatMinor } from '../../../shared/money';
import { conflict } from '../../errors';
import type { SessionUser } from '../auth/session';
import type { Deps } from '../../deps';
import { requireMoneyStaff } from './access';
import { findInvoice, issueInvoice, setInvoiceStatus } from './invoices';
import type { InvoiceRow } from './shape';
import { append, billingOf, ensureWallet, findCompany, type TxnRow, type WalletRow, type Ledger } from './wallets';

export interface PaymentInput {
  amount_cents: number;
  reference: string;
  note: string;
  /** Postpaid only: the statement this payment settles. */
  invoice?: number;
}

export interface PaymentResult {
  wallet: WalletRow;
  transaction: TxnRow;
  receipt: InvoiceRow;
  settled: InvoiceRow | null;
}

/**
 * Money received from a company: a prepaid recharge or a postpaid payment, each with its receipt,
 * all in one transaction. The mode must match the company's billing type, so a prepaid top-up is
 * never booked as a postpaid settlement or the other way round.
 */
export async function receivePayment(
  deps: Ledger & Pick<Deps, 'config'>,
  user: SessionUser,
  companyId: number,
  mode: 'prepaid' | 'postpaid',
  input: PaymentInput,
): Promise<PaymentResult> {
  requireMoneyStaff(user);
  const co = await findCompany(deps.db, companyId);
  // A statement issued while the company was postpaid can still be settled after it switched.
  if (input.invoice == null && billingOf(co) !== mode) {
    throw conflict(`${co.name} is ${billingOf(co)}; use the ${billingOf(co)} recharge`, { billing_type: billingOf(co) });
  }
  let statement: InvoiceRow | null = null;
  if (input.invoice != null) {
    if (mode !== 'postpaid') throw conflict('Only a postpaid payment settles an invoice');
    statement = await findInvoice(deps.db, user, input.invoice);
    if (statement.company_id !== companyId) throw conflict(`Invoice ${statement.number} belongs to another company`);
    if (statement.kind !== 'statement' || statement.status !== 'issued') {
      throw conflict(`Invoice ${statement.number} is not an open statement (it is a ${statement.status} ${statement.kind})`);
    }
    if (statement.total_cents !== input.amount_cents) {
      throw conflict(
        `Invoice ${statement.number} totals ${formatMinor(statement.total_cents, statement.currency)} ${statement.currency}; ` +
          `a payment settling it must be exactly that`,
        { total_cents: statement.total_cents },
      );
    }
  }
  const w = await ensureWallet(deps, companyId, user.id);
  const transaction = await append(deps, w.id, {
    kind: mode === 'prepaid' ? 'recharge' : 'payment',
    amount_cents: input.amount_cents,
    created_by: user.id,
    reference: input.reference,
    reason: input.note || (statement ? `Payment of ${statement.number}` : mode === 'prepaid' ? 'Wallet recharge' : 'Payment on account'),
  });
  const receipt = await issueInvoice(deps, {
    companyId,
    kind: 'receipt',
    status: 'paid',
    currency: w.currency,
    createdBy: user.id,
    correctsId: null,
    lines: [
      {
        txn: transaction,
        amount_cents: input.amount_cents,
        description: statement
          ? `Payment received for ${statement.number}`
          : mode === 'prepaid'
            ? 'Prepaid wallet recharge'
            : 'Payment received on account',
      },
    ],
  });
  const settled = statement ? await setInvoiceStatus(deps, statement, 'paid', { paymentTxnId: transaction.id }) : null;
  return { wallet: await ensureWallet(deps, companyId), transaction, receipt, settled };
}

/**
 * Marking a statement paid records the payment that paid it, so the wallet and the invoice never
 * disagree; other documents (receipts, notes) are settled when issued.
 */
export async function markPaid(
  deps: Ledger & Pick<Deps, 'config'>,
  user: SessionUser,
  row: InvoiceRow,
  reference: string,
  note: string,
): Promise<InvoiceRow> {
  requireMoneyStaff(user);
  if (row.kind === 'statement' && row.total_cents > 0 && row.status === 'issued') {
    return (
      (await receivePayment(deps, user, row.company_id, 'postpaid', { amount_cents: row.total_cents, reference, note, invoice: row.id }))
        .settled ?? row
    );
  }
  return await setInvoiceStatus(deps, row, 'paid', {});
}
