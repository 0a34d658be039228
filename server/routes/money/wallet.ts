import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { canDebit, formatMinor } from '../../../shared/money';
import { IdParams, ListQuery, pageOf } from '../../../shared/schemas/common';
import {
  BalanceCheck, BalanceCheckQuery, CompanyPaymentBody, CompanyRechargeBody, Invoice, PaymentBody, RechargeAnswer, RechargeBody,
  Txn, TxnQuery, Wallet, WalletAnswer, WalletCreate, WalletDetails,
} from '../../../shared/schemas/money';
import type { Db } from '../../db/client';
import type { Deps } from '../../deps';
import { audit, changes } from '../../services/audit/record';
import { invoice, wallet, walletTxn } from '../../db/schema/index';
import { conflict, notFound } from '../../errors';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { pageLinks } from '../../resources/list';
import type { SessionUser } from '../../services/auth/session';
import { companyFilter, loginCompany, requireCompanyInScope, requireMoneyStaff } from '../../services/money/access';
import { dayStart, DAY_MS, invoiceOfTxn } from '../../services/money/invoices';
import { receivePayment, type PaymentResult } from '../../services/money/payments';
import { invoicesApi, txnsApi, walletApi } from '../../services/money/shape';
import { ensureWallet, findCompany, stateOf, type WalletRow } from '../../services/money/wallets';

const g = 'web/Wallet';
const tags = ['Wallet'];

async function findWallet(db: Db, user: SessionUser, id: number): Promise<WalletRow> {
  const w = await db.select().from(wallet).where(eq(wallet.id, id)).get();
  if (!w) throw notFound(`Wallet ${id} not found`);
  requireCompanyInScope(user, w.company_id, `Wallet ${id}`);
  return w;
}

async function txnPage(db: Db, where: SQL | undefined, q: z.output<typeof TxnQuery>, url: string) {
  const conds = and(
    where, q.kind ? eq(walletTxn.kind, q.kind) : undefined,
    q.from ? gte(walletTxn.created_at, dayStart(q.from)) : undefined, q.to ? lt(walletTxn.created_at, dayStart(q.to) + DAY_MS) : undefined,
  );
  const count = (await db.select({ n: sql<number>`count(*)` }).from(walletTxn).where(conds).get())?.n ?? 0;
  const rows = await db.select().from(walletTxn).where(conds).orderBy(desc(walletTxn.id)).limit(q.page_size).offset((q.page - 1) * q.page_size).all();
  return { count, ...pageLinks(url, q.page, q.page_size, count), results: await txnsApi(db, rows) };
}

/** Answers a recharge or payment and leaves its audit line (balance before -> after, the statement it settled). */
async function paid(deps: Deps, user: SessionUser, r: PaymentResult, what: string) {
  const { db } = deps;
  const t = r.transaction;
  await audit(db, deps.clock.now(), user.id, what === 'Recharge' ? 'wallet.recharge' : 'wallet.payment', `wallet:${r.wallet.id}`, {
    company: r.wallet.company_id, amount_cents: t.amount_cents, transaction: t.id, receipt: r.receipt.id, settled_invoice: r.settled?.id,
    before: { balance_cents: r.wallet.balance_cents - t.amount_cents, ...(r.settled ? { invoice_status: 'issued' } : {}) },
    after: { balance_cents: r.wallet.balance_cents, ...(r.settled ? { invoice_status: r.settled.status } : {}) },
  });
  return {
    success: true, message: `${what} of ${formatMinor(r.transaction.amount_cents, r.transaction.currency)} ${r.transaction.currency} recorded`,
    wallet: await walletApi(db, r.wallet), transaction: (await txnsApi(db, [r.transaction]))[0], receipt: (await invoicesApi(db, [r.receipt]))[0],
  };
}

export function walletRoutes(app: App): void {
  defineRoute(app, {
    method: 'get', path: '/wallet/', tags, access: 'wallet.view', catalogue: ops(g, 'Get Wallet'),
    query: ListQuery.extend({ company: z.coerce.number().int().positive().optional() }), response: pageOf(Wallet),
    summary: 'List wallets (a company sees its own)',
  }, async ({ deps, user, query, c }) => {
    const own = companyFilter(user);
    const where = and(own != null ? eq(wallet.company_id, own) : undefined, query.company ? eq(wallet.company_id, query.company) : undefined);
    const count = (await deps.db.select({ n: sql<number>`count(*)` }).from(wallet).where(where).get())?.n ?? 0;
    const rows = await deps.db.select().from(wallet).where(where).orderBy(wallet.id).limit(query.page_size).offset((query.page - 1) * query.page_size).all();
    const results = [];
    for (const w of rows) results.push(await walletApi(deps.db, w));
    return { count, ...pageLinks(c.req.url, query.page, query.page_size, count), results };
  });

  defineRoute(app, {
    method: 'post', path: '/wallet/', tags, access: 'wallet.manage', catalogue: ops(g, 'Create'), body: WalletCreate, response: WalletAnswer,
    status: 201, summary: "Open a company's wallet", description: 'Wallets also open on first use; 409 when the company has one.',
  }, async ({ deps, user, body }) => {
    requireMoneyStaff(user);
    await findCompany(deps.db, body.company);
    if (await deps.db.select({ id: wallet.id }).from(wallet).where(eq(wallet.company_id, body.company)).get()) {
      throw conflict(`Company ${body.company} already has a wallet`);
    }
    const w = await ensureWallet(deps, body.company, user.id);
    const row = body.credit_limit_cents === undefined ? w
      : (await deps.db.update(wallet).set({ credit_limit_cents: body.credit_limit_cents }).where(eq(wallet.id, w.id)).returning().get()) ?? w;
    await audit(deps.db, deps.clock.now(), user.id, 'wallet.create', `wallet:${row.id}`, changes(null, row));
    return { success: true, message: 'Wallet opened', wallet: await walletApi(deps.db, row) };
  });

  defineRoute(app, {
    method: 'get', path: '/wallet/login-company-wallet-details/', tags, access: 'wallet.view', catalogue: ops(g, 'Login Company Wallet Details'),
    response: WalletDetails, summary: "The logged-in company's wallet, its totals and open invoices",
  }, async ({ deps, user }) => {
    const companyId = loginCompany(user);
    const w = await ensureWallet(deps, companyId);
    const sums = await deps.db.select({
      credited: sql<number>`coalesce(sum(case when ${walletTxn.amount_cents} > 0 then ${walletTxn.amount_cents} end), 0)`,
      debited: sql<number>`coalesce(sum(case when ${walletTxn.amount_cents} < 0 then -${walletTxn.amount_cents} end), 0)`,
      charges: sql<number>`coalesce(sum(case when ${walletTxn.kind} = 'charge' then -${walletTxn.amount_cents} end), 0)`,
      refunds: sql<number>`coalesce(sum(case when ${walletTxn.kind} = 'refund' then ${walletTxn.amount_cents} end), 0)`,
      n: sql<number>`count(*)`,
    }).from(walletTxn).where(eq(walletTxn.wallet_id, w.id)).get();
    const open = await deps.db.select({ n: sql<number>`count(*)`, total: sql<number>`coalesce(sum(${invoice.total_cents}), 0)` }).from(invoice)
      .where(and(eq(invoice.company_id, companyId), eq(invoice.status, 'issued'))).get();
    const recent = await deps.db.select().from(walletTxn).where(eq(walletTxn.wallet_id, w.id)).orderBy(desc(walletTxn.id)).limit(10).all();
    return {
      success: true, wallet: await walletApi(deps.db, w),
      totals: {
        credited_cents: sums?.credited ?? 0, debited_cents: sums?.debited ?? 0, charges_cents: sums?.charges ?? 0,
        refunds_cents: sums?.refunds ?? 0, transactions: sums?.n ?? 0,
      },
      outstanding_invoices: open?.n ?? 0, outstanding_cents: open?.total ?? 0, recent_transactions: await txnsApi(deps.db, recent),
    };
  });

  defineRoute(app, {
    method: 'get', path: '/wallet/login-company-transaction/', tags, access: 'wallet.view', catalogue: ops(g, 'Get Login Company Transaction'),
    query: TxnQuery, response: pageOf(Txn), summary: "The logged-in company's wallet transactions, newest first",
  }, ({ deps, user, query, c }) => txnPage(deps.db, eq(walletTxn.company_id, loginCompany(user)), query, c.req.url));

  defineRoute(app, {
    method: 'get', path: '/wallet/balance-check/', tags, access: 'wallet.view', catalogue: ops(g, 'Wallet Balance Check'),
    query: BalanceCheckQuery, response: BalanceCheck,
    summary: 'Whether a company can pay an amount now', description: 'A company checks its own wallet; staff name `company`.',
  }, async ({ deps, user, query }) => {
    const own = companyFilter(user);
    const companyId = own ?? query.company;
    if (companyId == null) throw notFound('Name the company to check');
    if (own != null && query.company != null && query.company !== own) throw notFound(`Company ${query.company} not found`);
    const co = await findCompany(deps.db, companyId);
    const w = await ensureWallet(deps, companyId);
    const amount = query.amount_cents ?? 0;
    const state = stateOf(w, co);
    const sufficient = canDebit(state, amount);
    return {
      success: true, message: sufficient ? 'The wallet covers this amount' : 'Insufficient balance: recharge the wallet',
      company: co.id, billing_type: state.billing, currency: w.currency, balance_cents: w.balance_cents,
      available_cents: (await walletApi(deps.db, w)).available_cents, amount_cents: amount, sufficient,
    };
  });

  defineRoute(app, {
    method: 'get', path: '/wallet/transaction/{id}/invoice/', tags, access: 'wallet.view', catalogue: ops(g, 'Invoice by Transaction'),
    params: IdParams, response: Invoice, summary: 'The invoice, receipt or note that documents a transaction',
    description: '404 while a postpaid charge is not yet on a statement.',
  }, async ({ deps, user, params }) => {
    const t = await deps.db.select().from(walletTxn).where(eq(walletTxn.id, params.id)).get();
    if (!t) throw notFound(`Transaction ${params.id} not found`);
    requireCompanyInScope(user, t.company_id, `Transaction ${params.id}`);
    const inv = await invoiceOfTxn(deps.db, t.id);
    if (!inv) throw notFound(`Transaction ${params.id} is not on an invoice yet`);
    return (await invoicesApi(deps.db, [inv]))[0];
  });

  const recharge = (mode: 'prepaid' | 'postpaid', byCompany: boolean) => {
    const word = mode === 'prepaid' ? 'Recharge' : 'Payment';
    const bodyDesc = mode === 'postpaid' ? ' `invoice` names an issued statement this payment settles (the amount must equal its total).' : '';
    if (byCompany) {
      defineRoute(app, {
        method: 'post', path: `/wallet/${mode}-recharge-by-company/`, tags, access: 'wallet.manage',
        catalogue: ops(g, mode === 'prepaid' ? 'PrePaid Recharge by Company' : 'PostPaid Recharge by Company'),
        body: mode === 'prepaid' ? CompanyRechargeBody : CompanyPaymentBody, response: RechargeAnswer, status: 201,
        summary: `${word} received from a company, addressed by company`, description: `Staff only; issues a receipt.${bodyDesc}`,
      }, async ({ deps, user, body }) => paid(deps, user, await receivePayment(deps, user, body.company, mode, body), word));
    } else {
      defineRoute(app, {
        method: 'post', path: `/wallet/{id}/${mode}-recharge/`, tags, access: 'wallet.manage',
        catalogue: ops(g, mode === 'prepaid' ? 'PrePaid Recharge Wallet' : 'PostPaid Recharge Wallet'),
        params: IdParams, body: mode === 'prepaid' ? RechargeBody : PaymentBody, response: RechargeAnswer, status: 201,
        summary: `${word} received into a wallet`, description: `Staff only; issues a receipt.${bodyDesc}`,
      }, async ({ deps, user, params, body }) => {
        requireMoneyStaff(user);
        const w = await findWallet(deps.db, user, params.id);
        return paid(deps, user, await receivePayment(deps, user, w.company_id, mode, body), word);
      });
    }
  };
  recharge('prepaid', true);
  recharge('postpaid', true);
  recharge('prepaid', false);
  recharge('postpaid', false);

  defineRoute(app, {
    method: 'get', path: '/wallet/{id}/', tags, access: 'wallet.view', catalogue: ops(g, 'Get Wallet'), params: IdParams, response: Wallet,
    summary: 'A wallet and its balance',
  }, async ({ deps, user, params }) => walletApi(deps.db, await findWallet(deps.db, user, params.id)));

  defineRoute(app, {
    method: ['patch', 'put'], path: '/wallet/{id}/', tags, access: 'wallet.manage', catalogue: [], params: IdParams,
    body: z.object({ credit_limit_cents: WalletCreate.shape.credit_limit_cents }), response: Wallet,
    summary: "Set a postpaid wallet's credit limit", description: 'The balance never changes here: only transactions move it.',
  }, async ({ deps, user, params, body }) => {
    requireMoneyStaff(user);
    const w = await findWallet(deps.db, user, params.id);
    if (body.credit_limit_cents === undefined) return walletApi(deps.db, w);
    const row = await deps.db.update(wallet).set({ credit_limit_cents: body.credit_limit_cents, updated_at: deps.clock.now() }).where(eq(wallet.id, w.id)).returning().get();
    if (row && row.credit_limit_cents !== w.credit_limit_cents) await audit(deps.db, deps.clock.now(), user.id, 'wallet.update', `wallet:${w.id}`, changes(w, row));
    return walletApi(deps.db, row ?? w);
  });

  defineRoute(app, {
    method: 'get', path: '/wallet/{id}/transaction/', tags, access: 'wallet.view', catalogue: ops(g, 'Get Wallet Transaction'),
    params: IdParams, query: TxnQuery, response: pageOf(Txn), summary: "A wallet's transactions, newest first",
  }, async ({ deps, user, params, query, c }) => txnPage(deps.db, eq(walletTxn.wallet_id, (await findWallet(deps.db, user, params.id)).id), query, c.req.url));
}
