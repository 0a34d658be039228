import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { atomically } from '../../server/db/atomically';
import { pkg, wallet, walletTxn } from '../../server/db/schema/index';
import { refundPackage } from '../../server/services/money/charges';
import { transition } from '../../server/services/packages/lifecycle';
import { hawb, moneyWorld, shipper, type Json, type Page } from './money-fixtures';

describe('prepaid wallet', () => {
  it('charges parcels on creation, refuses them at zero, refunds a cancelled one, and shows the company only its own', async () => {
    const { t, admin } = await moneyWorld();
    await t.json('POST', '/api/delivery-rate/', admin.token, { base_cents: 1000 });
    const co = await shipper(t, 'prepaid');
    const rival = await shipper(t, 'prepaid');

    const refused = await t.json<Json>('POST', '/api/package/', co.token, { hawb: hawb(), weight: 1 });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      success: false,
      code: 'conflict',
      details: { balance_cents: 0, required_cents: 1000, currency: 'AUD' },
    });
    expect(String(refused.body.message)).toMatch(/Insufficient wallet balance/);
    expect((await t.json<Page>('GET', '/api/package/', co.token)).body.count).toBe(0);

    // A company never credits itself; staff record the money received.
    const self = await t.json('POST', '/api/wallet/prepaid-recharge-by-company/', co.token, { company: co.companyId, amount_cents: 2500 });
    expect(self.status).toBe(403);
    const top = await t.json<Json>('POST', '/api/wallet/prepaid-recharge-by-company/', admin.token, {
      company: co.companyId,
      amount_cents: 2500,
      reference: 'EFT 7781',
    });
    expect(top.status).toBe(201);
    expect(top.body).toMatchObject({
      wallet: { company: co.companyId, balance_cents: 2500, balance: '25.00', billing_type: 'prepaid', available_cents: 2500 },
      transaction: { kind: 'recharge', amount_cents: 2500, balance_after_cents: 2500, reference: 'EFT 7781' },
      receipt: { kind: 'receipt', status: 'paid', total_cents: 2500, number: 'INV-2026-000001' },
    });
    const walletId = (top.body.wallet as Json).id as number;

    const first = await t.json<Json>('POST', '/api/package/', co.token, { hawb: hawb(), weight: 1 });
    expect(first.status).toBe(201);
    expect(first.body.price).toBe(10);
    expect((await t.json('POST', '/api/package/', co.token, { hawb: hawb(), weight: 3 })).status).toBe(201);
    const third = await t.json<Json>('POST', '/api/package/', co.token, { hawb: hawb(), weight: 1 });
    expect(third.status).toBe(409);
    expect(third.body.details).toMatchObject({ balance_cents: 500, required_cents: 1000 });

    const byWallet = await t.json<Page>('GET', `/api/wallet/${walletId}/transaction/`, co.token);
    expect(byWallet.body.results.map((r) => [r.kind, r.amount_cents, r.balance_after_cents])).toEqual([
      ['charge', -1000, 500],
      ['charge', -1000, 1500],
      ['recharge', 2500, 2500],
    ]);
    const mine = await t.json<Page>('GET', '/api/wallet/login-company-transaction/?kind=charge', co.token);
    expect(mine.body.count).toBe(2);
    expect(mine.body.results[0]).toMatchObject({ package: expect.any(Number), invoice: null });

    // Cancelling refunds the charge exactly once.
    const row = await t.db
      .select()
      .from(pkg)
      .where(eq(pkg.id, first.body.id as number))
      .get();
    if (!row) throw new Error('package missing');
    await atomically(t.app.deps, () => transition(t.db, t.clock.now(), row, 'cancelled', 'cancel', { userId: admin.id }));
    expect(await atomically(t.app.deps, () => refundPackage(t, row, admin.id))).toBeNull();
    const details = await t.json<Json>('GET', '/api/wallet/login-company-wallet-details/', co.token);
    expect(details.body).toMatchObject({
      wallet: { id: walletId, balance_cents: 1500 },
      totals: { credited_cents: 3500, debited_cents: 2000, charges_cents: 2000, refunds_cents: 1000, transactions: 4 },
    });

    const check = (q: string, token = co.token) => t.json<Json>('GET', `/api/wallet/balance-check/${q}`, token);
    expect((await check('?amount_cents=1500')).body).toMatchObject({ sufficient: true, balance_cents: 1500 });
    expect((await check('?amount_cents=1501')).body).toMatchObject({ sufficient: false });
    expect((await check(`?company=${co.companyId}&amount_cents=1`, admin.token)).body).toMatchObject({
      sufficient: true,
      company: co.companyId,
    });
    expect((await check(`?company=${rival.companyId}`)).status).toBe(404);
    expect((await check('?amount_cents=-1')).status).toBe(400);

    const recharge = byWallet.body.results[2].id as number;
    const receipt = await t.json<Json>('GET', `/api/wallet/transaction/${recharge}/invoice/`, co.token);
    expect(receipt.body).toMatchObject({ kind: 'receipt', total_cents: 2500 });
    expect((await t.json('GET', `/api/wallet/transaction/${byWallet.body.results[0].id}/invoice/`, co.token)).status).toBe(404);
    expect((await t.json('GET', `/api/wallet/transaction/${recharge}/invoice/`, rival.token)).status).toBe(404);

    // Scope: the rival sees neither the wallet nor its transactions.
    expect((await t.json('GET', `/api/wallet/${walletId}/`, rival.token)).status).toBe(404);
    expect((await t.json('GET', `/api/wallet/${walletId}/transaction/`, rival.token)).status).toBe(404);
    expect((await t.json<Page>('GET', '/api/wallet/', rival.token)).body.count).toBe(0);
    expect((await t.json<Page>('GET', '/api/wallet/', admin.token)).body.count).toBe(1);
    expect((await t.json<Json>('GET', `/api/wallet/${walletId}/`, co.token)).body).toMatchObject({ balance_cents: 1500 });
    const receipts = await t.json<Page>('GET', '/api/invoice/prepaid-recharge/', co.token);
    expect(receipts.body.results.map((r) => r.number)).toEqual(['INV-2026-000001']);
    expect((await t.json<Page>('GET', '/api/invoice/prepaid-recharge/', rival.token)).body.count).toBe(0);

    // The cached balance is the sum of the ledger.
    const w = await t.db.select().from(wallet).where(eq(wallet.id, walletId)).get();
    const sum = (await t.db.select().from(walletTxn).where(eq(walletTxn.wallet_id, walletId)).all()).reduce(
      (s, x) => s + x.amount_cents,
      0,
    );
    expect(w?.balance_cents).toBe(sum);
  });

  it('recharges by wallet id; refuses the wrong billing mode, bad amounts, strangers and duplicate wallets', async () => {
    const { t, admin } = await moneyWorld();
    const co = await shipper(t, 'prepaid');
    const post = await shipper(t, 'postpaid');
    const opened = await t.json<Json>('POST', '/api/wallet/', admin.token, { company: co.companyId });
    expect(opened.status).toBe(201);
    const id = (opened.body.wallet as Json).id as number;
    expect((await t.json('POST', '/api/wallet/', admin.token, { company: co.companyId })).status).toBe(409);
    expect((await t.json('POST', '/api/wallet/', co.token, { company: co.companyId })).status).toBe(403);
    expect((await t.json('POST', '/api/wallet/', admin.token, { company: 999999 })).status).toBe(404);

    const ok = await t.json<Json>('POST', `/api/wallet/${id}/prepaid-recharge/`, admin.token, { amount_cents: 700 });
    expect(ok.status).toBe(201);
    expect(ok.body.wallet).toMatchObject({ balance_cents: 700 });
    expect((await t.json('POST', `/api/wallet/${id}/postpaid-recharge/`, admin.token, { amount_cents: 700 })).status).toBe(409);
    expect(
      (await t.json('POST', '/api/wallet/prepaid-recharge-by-company/', admin.token, { company: post.companyId, amount_cents: 1 })).status,
    ).toBe(409);
    for (const amount of [0, -5, 1.5, '100', 1e15]) {
      const bad = await t.json<Json>('POST', `/api/wallet/${id}/prepaid-recharge/`, admin.token, { amount_cents: amount });
      expect(bad.status, String(amount)).toBe(400);
      expect(bad.body.code).toBe('validation_error');
    }
    expect((await t.json('POST', `/api/wallet/${id}/prepaid-recharge/`, admin.token, {})).status).toBe(400);
    expect((await t.json('POST', '/api/wallet/999999/prepaid-recharge/', admin.token, { amount_cents: 1 })).status).toBe(404);
    expect((await t.json('POST', `/api/wallet/${id}/prepaid-recharge/`, null, { amount_cents: 1 })).status).toBe(401);
    const driver = await t.login('driver');
    expect((await t.json('GET', '/api/wallet/', driver.token)).status).toBe(403);

    const limited = await t.json<Json>('POST', '/api/wallet/', admin.token, { company: post.companyId, credit_limit_cents: 5000 });
    expect(limited.body.wallet).toMatchObject({ billing_type: 'postpaid', credit_limit_cents: 5000, available_cents: 5000 });
    const pid = (limited.body.wallet as Json).id as number;
    const changed = await t.json<Json>('PATCH', `/api/wallet/${pid}/`, admin.token, { credit_limit_cents: null });
    expect(changed.body).toMatchObject({ credit_limit_cents: null, available_cents: null, balance_cents: 0 });
  });

  it('a postpaid company accrues charges down to its credit limit', async () => {
    const { t, admin } = await moneyWorld();
    await t.json('POST', '/api/delivery-rate/', admin.token, { base_cents: 1000 });
    const co = await shipper(t, 'postpaid');
    await t.json('POST', '/api/wallet/', admin.token, { company: co.companyId, credit_limit_cents: 2000 });
    expect((await t.json('POST', '/api/package/', co.token, { hawb: hawb() })).status).toBe(201);
    expect((await t.json('POST', '/api/package/', co.token, { hawb: hawb() })).status).toBe(201);
    const over = await t.json<Json>('POST', '/api/package/', co.token, { hawb: hawb() });
    expect(over.status).toBe(409);
    const w = await t.json<Json>('GET', '/api/wallet/login-company-wallet-details/', co.token);
    expect(w.body.wallet).toMatchObject({ balance_cents: -2000, available_cents: 0 });
  });

  it('parcels no rate covers, or of no company, are accepted uncharged', async () => {
    const { t, admin } = await moneyWorld();
    const co = await shipper(t, 'prepaid');
    const p = await t.json<Json>('POST', '/api/package/', co.token, { hawb: hawb(), weight: 2 });
    expect(p.status).toBe(201);
    expect(p.body.price).toBeNull();
    expect((await t.json('POST', '/api/package/', admin.token, { hawb: hawb(), weight: 2 })).status).toBe(201);
    expect(await t.db.select().from(walletTxn).all()).toEqual([]);
  });
});

describe('retries', () => {
  it('a recharge retried with its Idempotency-Key credits once and answers the same', async () => {
    const { t, admin } = await moneyWorld();
    const co = await shipper(t, 'prepaid');
    const headers = { 'idempotency-key': 'recharge-5b0d1c2e' };
    const body = { company: co.companyId, amount_cents: 1200 };
    const first = await t.json<Json>('POST', '/api/wallet/prepaid-recharge-by-company/', admin.token, body, headers);
    const again = await t.json<Json>('POST', '/api/wallet/prepaid-recharge-by-company/', admin.token, body, headers);
    expect(again.res.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await t.db.select().from(walletTxn).all()).length).toBe(1);
    const other = await t.json('POST', '/api/wallet/prepaid-recharge-by-company/', admin.token, { ...body, amount_cents: 1 }, headers);
    expect(other.status).toBe(422);
  });
});

describe('concurrency', () => {
  it('50 parallel parcels against a prepaid wallet holding 20 never overspend it', async () => {
    const { t, admin } = await moneyWorld();
    await t.json('POST', '/api/delivery-rate/', admin.token, { base_cents: 350 });
    const co = await shipper(t, 'prepaid');
    await t.json('POST', '/api/wallet/prepaid-recharge-by-company/', admin.token, { company: co.companyId, amount_cents: 20 * 350 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => t.json('POST', '/api/package/', co.token, { hawb: hawb(), weight: 1 })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201).length).toBe(20);
    expect(statuses.filter((s) => s === 409).length).toBe(30);
    const w = await t.db.select().from(wallet).where(eq(wallet.company_id, co.companyId)).get();
    expect(w?.balance_cents).toBe(0);
    const txns = await t.db.select().from(walletTxn).where(eq(walletTxn.company_id, co.companyId)).all();
    expect(txns.filter((x) => x.kind === 'charge').length).toBe(20);
    expect(txns.reduce((s, x) => s + x.amount_cents, 0)).toBe(0);
    expect(Math.min(...txns.map((x) => x.balance_after_cents))).toBe(0);
  });
});
