import { z } from 'zod';
import { canDebit, formatMinor } from '../../../shared/money';
import { IdParams, ListQuery, pageOf } from '../../../shared/schemas/common';
import {
  BalanceCheck,
  BalanceCheckQuery,
  CompanyPaymentBody,
  CompanyRechargeBody,
  Invoice,
  PaymentBody,
  RechargeAnswer,
  RechargeBody,
  Txn,
  TxnQuery,
  Wallet,
  WalletAnswer,
  WalletCreate,
  WalletDetails,
} from '../../../shared/schemas/money';
import type { Deps } from '../../deps';
import { audit, changes } from '../../services/audit/record';
import { notFound } from '../../errors';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import type { SessionUser } from '../../services/auth/session';
import { companyAsked, loginCompany, requireMoneyStaff } from '../../services/money/access';
import { invoiceOfTxn } from '../../services/money/invoices';
import { receivePayment, type PaymentResult } from '../../services/money/payments';
import { invoicesApi, txnsApi, walletApi } from '../../services/money/shape';
import { findTxn, findWallet, openWallet, setCreditLimit, txnPage, walletPage, walletSummary } from '../../services/money/walletAccounts';
import { ensureWallet, findCompany, stateOf } from '../../services/money/wallets';

const g = 'web/Wallet';
const tags = ['Wallet'];

/** Answers a recharge or payment and leaves its audit line (balance before -> after, the statement it settled). */
async function paid(deps: Deps, user: SessionUser, r: PaymentResult, what: string) {
  const { db } = deps;
  const t = r.transaction;
  await audit(db, deps.clock.now(), user.id, what === 'Recharge' ? 'wallet.recharge' : 'wallet.payment', `wallet:${r.wallet.id}`, {
    company: r.wallet.company_id,
    amount_cents: t.amount_cents,
    transaction: t.id,
    receipt: r.receipt.id,
    settled_invoice: r.settled?.id,
    before: { balance_cents: r.wallet.balance_cents - t.amount_cents, ...(r.settled ? { invoice_status: 'issued' } : {}) },
    after: { balance_cents: r.wallet.balance_cents, ...(r.settled ? { invoice_status: r.settled.status } : {}) },
  });
  return {
    success: true,
    message: `${what} of ${formatMinor(r.transaction.amount_cents, r.transaction.currency)} ${r.transaction.currency} recorded`,
    wallet: await walletApi(db, r.wallet),
    transaction: (await txnsApi(db, [r.transaction]))[0],
    receipt: (await invoicesApi(deps, [r.receipt]))[0],
  };
}

export function walletRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/wallet/',
      tags,
      access: 'wallet.view',
      catalogue: ops(g, 'Get Wallet'),
      query: ListQuery.extend({ company: z.coerce.number().int().positive().optional() }),
      response: pageOf(Wallet),
      summary: 'List wallets (a company sees its own)',
    },
    ({ deps, user, query, c }) => walletPage(deps.db, user, query, c.req.url),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/wallet/',
      tags,
      access: 'wallet.manage',
      catalogue: ops(g, 'Create'),
      body: WalletCreate,
      response: WalletAnswer,
      status: 201,
      summary: "Open a company's wallet",
      description: 'Wallets also open on first use; 409 when the company has one.',
    },
    async ({ deps, user, body }) => {
      requireMoneyStaff(user);
      const row = await openWallet(deps, user, body.company, body.credit_limit_cents);
      await audit(deps.db, deps.clock.now(), user.id, 'wallet.create', `wallet:${row.id}`, changes(null, row));
      return { success: true, message: 'Wallet opened', wallet: await walletApi(deps.db, row) };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/wallet/login-company-wallet-details/',
      tags,
      access: 'wallet.view',
      catalogue: ops(g, 'Login Company Wallet Details'),
      response: WalletDetails,
      summary: "The logged-in company's wallet, its totals and open invoices",
    },
    async ({ deps, user }) => {
      const companyId = loginCompany(user);
      const w = await ensureWallet(deps, companyId);
      return { success: true, wallet: await walletApi(deps.db, w), ...(await walletSummary(deps.db, w, companyId)) };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/wallet/login-company-transaction/',
      tags,
      access: 'wallet.view',
      catalogue: ops(g, 'Get Login Company Transaction'),
      query: TxnQuery,
      response: pageOf(Txn),
      summary: "The logged-in company's wallet transactions, newest first",
    },
    ({ deps, user, query, c }) => txnPage(deps, { companyId: loginCompany(user) }, query, c.req.url),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/wallet/balance-check/',
      tags,
      access: 'wallet.view',
      catalogue: ops(g, 'Wallet Balance Check'),
      query: BalanceCheckQuery,
      response: BalanceCheck,
      summary: 'Whether a company can pay an amount now',
      description: 'A company checks its own wallet; staff name `company`.',
    },
    async ({ deps, user, query }) => {
      const companyId = companyAsked(user, query.company);
      if (companyId == null) throw notFound('Name the company to check');
      const co = await findCompany(deps.db, companyId);
      const w = await ensureWallet(deps, companyId);
      const amount = query.amount_cents ?? 0;
      const state = stateOf(w, co);
      const sufficient = canDebit(state, amount);
      return {
        success: true,
        message: sufficient ? 'The wallet covers this amount' : 'Insufficient balance: recharge the wallet',
        company: co.id,
        billing_type: state.billing,
        currency: w.currency,
        balance_cents: w.balance_cents,
        available_cents: (await walletApi(deps.db, w)).available_cents,
        amount_cents: amount,
        sufficient,
      };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/wallet/transaction/{id}/invoice/',
      tags,
      access: 'wallet.view',
      catalogue: ops(g, 'Invoice by Transaction'),
      params: IdParams,
      response: Invoice,
      summary: 'The invoice, receipt or note that documents a transaction',
      description: '404 while a postpaid charge is not yet on a statement.',
    },
    async ({ deps, user, params }) => {
      const t = await findTxn(deps.db, user, params.id);
      const inv = await invoiceOfTxn(deps.db, t.id);
      if (!inv) throw notFound(`Transaction ${params.id} is not on an invoice yet`);
      return (await invoicesApi(deps, [inv]))[0];
    },
  );

  const recharge = (mode: 'prepaid' | 'postpaid', byCompany: boolean) => {
    const word = mode === 'prepaid' ? 'Recharge' : 'Payment';
    const bodyDesc =
      mode === 'postpaid' ? ' `invoice` names an issued statement this payment settles (the amount must equal its total).' : '';
    if (byCompany) {
      defineRoute(
        app,
        {
          method: 'post',
          path: `/wallet/${mode}-recharge-by-company/`,
          tags,
          access: 'wallet.manage',
          catalogue: ops(g, mode === 'prepaid' ? 'PrePaid Recharge by Company' : 'PostPaid Recharge by Company'),
          body: mode === 'prepaid' ? CompanyRechargeBody : CompanyPaymentBody,
          response: RechargeAnswer,
          status: 201,
          summary: `${word} received from a company, addressed by company`,
          description: `Staff only; issues a receipt.${bodyDesc}`,
        },
        async ({ deps, user, body }) => paid(deps, user, await receivePayment(deps, user, body.company, mode, body), word),
      );
    } else {
      defineRoute(
        app,
        {
          method: 'post',
          path: `/wallet/{id}/${mode}-recharge/`,
          tags,
          access: 'wallet.manage',
          catalogue: ops(g, mode === 'prepaid' ? 'PrePaid Recharge Wallet' : 'PostPaid Recharge Wallet'),
          params: IdParams,
          body: mode === 'prepaid' ? RechargeBody : PaymentBody,
          response: RechargeAnswer,
          status: 201,
          summary: `${word} received into a wallet`,
          description: `Staff only; issues a receipt.${bodyDesc}`,
        },
        async ({ deps, user, params, body }) => {
          requireMoneyStaff(user);
          const w = await findWallet(deps.db, user, params.id);
          return paid(deps, user, await receivePayment(deps, user, w.company_id, mode, body), word);
        },
      );
    }
  };
  recharge('prepaid', true);
  recharge('postpaid', true);
  recharge('prepaid', false);
  recharge('postpaid', false);

  defineRoute(
    app,
    {
      method: 'get',
      path: '/wallet/{id}/',
      tags,
      access: 'wallet.view',
      catalogue: ops(g, 'Get Wallet'),
      params: IdParams,
      response: Wallet,
      summary: 'A wallet and its balance',
    },
    async ({ deps, user, params }) => walletApi(deps.db, await findWallet(deps.db, user, params.id)),
  );

  defineRoute(
    app,
    {
      method: ['patch', 'put'],
      path: '/wallet/{id}/',
      tags,
      access: 'wallet.manage',
      catalogue: [],
      params: IdParams,
      body: z.object({ credit_limit_cents: WalletCreate.shape.credit_limit_cents }),
      response: Wallet,
      summary: "Set a postpaid wallet's credit limit",
      description: 'The balance never changes here: only transactions move it.',
    },
    async ({ deps, user, params, body }) => {
      requireMoneyStaff(user);
      const w = await findWallet(deps.db, user, params.id);
      if (body.credit_limit_cents === undefined) return walletApi(deps.db, w);
      const row = await setCreditLimit(deps, w, body.credit_limit_cents);
      if (row && row.credit_limit_cents !== w.credit_limit_cents)
        await audit(deps.db, deps.clock.now(), user.id, 'wallet.update', `wallet:${w.id}`, changes(w, row));
      return walletApi(deps.db, row ?? w);
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/wallet/{id}/transaction/',
      tags,
      access: 'wallet.view',
      catalogue: ops(g, 'Get Wallet Transaction'),
      params: IdParams,
      query: TxnQuery,
      response: pageOf(Txn),
      summary: "A wallet's transactions, newest first",
    },
    async ({ deps, user, params, query, c }) =>
      txnPage(deps, { walletId: (await findWallet(deps.db, user, params.id)).id }, query, c.req.url),
  );
}
