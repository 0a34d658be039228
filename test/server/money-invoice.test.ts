import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { atomically } from '../../server/db/atomically';
import { company, invoice, invoiceLine, pkg } from '../../server/db/schema/index';
import { append, ensureWallet } from '../../server/services/money/wallets';
import { transition } from '../../server/services/packages/lifecycle';
import { hawb, moneyWorld, shipper, type Json, type Page } from './money-fixtures';

const DAY = 86_400_000;

async function postpaidJanuary() {
  const world = await moneyWorld();
  const { t, admin } = world;
  await t.json('POST', '/api/delivery-rate/', admin.token, { base_cents: 1000 });
  const co = await shipper(t, 'postpaid');
  const ids: number[] = [];
  for (let i = 0; i < 3; i++) {
    const p = await t.json<Json>('POST', '/api/package/', co.token, { hawb: hawb() });
    expect(p.status).toBe(201);
    ids.push(p.body.id as number);
    t.clock.advance(DAY);
  }
  const row = await t.db.select().from(pkg).where(eq(pkg.id, ids[2])).get();
  if (!row) throw new Error('package missing');
  await atomically(t.app.deps, () => transition(t.db, t.clock.now(), row, 'cancelled', 'cancel', { userId: admin.id }));
  t.clock.set(Date.UTC(2026, 1, 2, 9));
  return { ...world, co, ids };
}

describe('postpaid invoices', () => {
  it('issues a gap-free numbered statement once, with lines, PDF and CSV; refuses what must not happen', async () => {
    const { t, admin, co, ids } = await postpaidJanuary();
    const rival = await shipper(t, 'postpaid');
    const prepaid = await shipper(t, 'prepaid');
    const gen = (body: Json, token = admin.token) => t.json<Json>('POST', '/api/invoice/generate-invoice/', token, body);

    expect((await gen({ company: prepaid.companyId, period_from: '2026-01-01', period_to: '2026-01-31' })).status).toBe(409);
    expect((await gen({ company: co.companyId, period_from: '2026-01-01', period_to: '2026-01-31' }, co.token)).status).toBe(403);
    expect((await gen({ company: co.companyId, period_from: '2026-01-31', period_to: '2026-01-01' })).status).toBe(400);
    expect((await gen({ company: co.companyId, period_from: '2026-13-01', period_to: '2026-01-31' })).status).toBe(400);
    expect((await gen({ company: rival.companyId, period_from: '2026-01-01', period_to: '2026-01-31' })).status).toBe(409);

    const inv = await gen({ company: co.companyId, period_from: '2026-01-01', period_to: '2026-01-31' });
    expect(inv.status).toBe(201);
    expect(inv.body).toMatchObject({
      number: 'INV-2026-000001',
      kind: 'statement',
      status: 'issued',
      total_cents: 2000,
      total: '20.00',
      currency: 'AUD',
      period_from: '2026-01-01',
      period_to: '2026-01-31',
      company: co.companyId,
    });
    const lines = inv.body.lines as Json[];
    expect(lines.map((l) => [l.package, l.amount_cents])).toEqual([
      [ids[0], 1000],
      [ids[1], 1000],
      [ids[2], 1000],
      [ids[2], -1000],
    ]);
    expect((await gen({ company: co.companyId, period_from: '2026-01-01', period_to: '2026-01-31' })).status).toBe(409);

    const id = inv.body.id as number;
    expect((await t.json<Json>('GET', `/api/invoice/${id}/`, co.token)).body).toMatchObject({
      number: 'INV-2026-000001',
      lines: expect.any(Array),
    });
    expect((await t.json('GET', `/api/invoice/${id}/`, rival.token)).status).toBe(404);
    expect((await t.json<Page>('GET', '/api/invoice/', rival.token)).body.count).toBe(0);
    expect((await t.json<Page>('GET', '/api/invoice/?kind=statement&status=issued', co.token)).body.count).toBe(1);
    expect((await t.json('GET', '/api/invoice/?status=lost', co.token)).status).toBe(400);
    const charge = lines[0].transaction as number;
    expect((await t.json<Json>('GET', `/api/wallet/transaction/${charge}/invoice/`, co.token)).body).toMatchObject({ id });

    const pdf = await t.call('GET', `/api/invoice/${id}/pdf/`, co.token);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.toString('latin1')).toContain('INV-2026-000001');
    expect((await t.call('GET', `/api/invoice/${id}/pdf/`, rival.token)).status).toBe(404);

    // Paying marks it paid and records the payment (and its receipt) in the wallet.
    expect((await t.json('POST', `/api/invoice/${id}/status-change/`, co.token, { status: 'paid' })).status).toBe(403);
    expect((await t.json('POST', `/api/invoice/${id}/status-change/`, admin.token, { status: 'void' })).status).toBe(400);
    expect((await t.json('POST', `/api/invoice/${id}/status-change/`, admin.token, { status: 'issued' })).status).toBe(400);
    const paid = await t.json<Json>('POST', `/api/invoice/${id}/status-change/`, admin.token, { status: 'paid', reference: 'EFT 1' });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'paid', payment_transaction: expect.any(Number), total_cents: 2000 });
    const again = await t.json<Json>('PATCH', `/api/invoice/${id}/status-change/`, admin.token, { status: 'void', reason: 'late' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('invalid_transition');
    const details = await t.json<Json>('GET', '/api/wallet/login-company-wallet-details/', co.token);
    expect(details.body).toMatchObject({ wallet: { balance_cents: 0 }, outstanding_invoices: 0 });

    // Numbers stay consecutive across refused attempts.
    const numbers = (await t.db.select({ n: invoice.number }).from(invoice).orderBy(invoice.id).all()).map((r) => r.n);
    expect(numbers).toEqual(['INV-2026-000001', 'INV-2026-000002']);
    expect((await t.db.select().from(invoiceLine).where(eq(invoiceLine.invoice_id, id)).all()).length).toBe(4);
  });

  it('a void statement is corrected by an adjustment; the adjustment list and CSV downloads show it, formula-safe', async () => {
    const { t, admin, co } = await postpaidJanuary();
    await t.db.update(company).set({ name: '=HYPERLINK("http://x")' }).where(eq(company.id, co.companyId)).run();
    const inv = await t.json<Json>('POST', '/api/invoice/generate-invoice/', admin.token, {
      company: co.companyId,
      period_from: '2026-01-01',
      period_to: '2026-01-31',
    });
    const id = inv.body.id as number;
    const voided = await t.json<Json>('POST', `/api/invoice/${id}/status-change/`, admin.token, {
      status: 'void',
      reason: 'Rate entered wrong',
    });
    expect(voided.body).toMatchObject({ status: 'void', void_reason: 'Rate entered wrong', total_cents: 2000 });
    expect((voided.body.lines as Json[]).length).toBe(4);

    const adj = (body: Json, token = admin.token) => t.json<Json>('POST', '/api/wallet-adjustment/', token, body);
    expect((await adj({ company: co.companyId, direction: 'credit', amount_cents: 500, reason: 'x' }, co.token)).status).toBe(403);
    expect((await adj({ company: co.companyId, direction: 'credit', amount_cents: 500 })).status).toBe(400);
    expect((await adj({ company: co.companyId, direction: 'sideways', amount_cents: 500, reason: 'x' })).status).toBe(400);
    const credit = await adj({
      company: co.companyId,
      direction: 'credit',
      amount_cents: 500,
      reason: 'Overcharged in January',
      invoice: id,
    });
    expect(credit.status).toBe(201);
    expect(credit.body).toMatchObject({
      transaction: {
        kind: 'adjustment',
        amount_cents: 500,
        reason: 'Overcharged in January',
        created_by: admin.id,
        balance_after_cents: -1500,
      },
      note: { kind: 'adjustment', status: 'paid', total_cents: -500, corrects_invoice: id },
      wallet: { balance_cents: -1500 },
    });
    const other = await shipper(t, 'postpaid');
    expect((await adj({ company: other.companyId, direction: 'credit', amount_cents: 1, reason: 'x', invoice: id })).status).toBe(400);

    const list = await t.json<Page<{ transaction: Json; note: Json }>>('GET', '/api/wallet-adjustment/', co.token);
    expect(list.body.count).toBe(1);
    expect(list.body.results[0].note.corrects_invoice).toBe(id);
    expect((await t.json<Page>('GET', '/api/wallet-adjustment/', other.token)).body.count).toBe(0);

    const csv = await t.call('GET', '/api/invoice/login-company-csv-download/', co.token);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const text = await csv.text();
    const rows = text.trim().split('\n');
    expect(rows[0]).toContain('number,company,company_name');
    expect(rows.length).toBe(3);
    expect(text).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(text).not.toMatch(/,=HYPERLINK/);
    expect(text).toContain(',-5,-500,');
    const all = await t.call('GET', `/api/invoice/csv-download/?company=${co.companyId}&kind=adjustment`, admin.token);
    expect((await all.text()).trim().split('\n').length).toBe(2);
    expect((await (await t.call('GET', '/api/invoice/csv-download/', other.token)).text()).trim().split('\n').length).toBe(1);
    expect((await t.call('GET', '/api/invoice/login-company-csv-download/', admin.token)).status).toBe(403);
  });

  it('a busy month makes one statement of every charge', async () => {
    const { t, admin } = await moneyWorld();
    const co = await shipper(t, 'postpaid');
    await atomically(t.app.deps, async () => {
      const w = await ensureWallet(t, co.companyId);
      for (let i = 0; i < 640; i++) await append(t, w.id, { kind: 'charge', amount_cents: -(100 + (i % 7)), reference: `B${i}` });
    });
    const inv = await t.json<Json>('POST', '/api/invoice/generate-invoice/', admin.token, {
      company: co.companyId,
      period_from: '2026-01-01',
      period_to: '2026-01-31',
    });
    expect(inv.status).toBe(201);
    const lines = inv.body.lines as Json[];
    expect(lines.length).toBe(640);
    expect(inv.body.total_cents).toBe(lines.reduce((s, l) => s + (l.amount_cents as number), 0));
  });

  it('a debit adjustment never takes a prepaid wallet below zero', async () => {
    const { t, admin } = await moneyWorld();
    const co = await shipper(t, 'prepaid');
    await t.json('POST', '/api/wallet/prepaid-recharge-by-company/', admin.token, { company: co.companyId, amount_cents: 300 });
    const over = await t.json<Json>('POST', '/api/wallet-adjustment/', admin.token, {
      company: co.companyId,
      direction: 'debit',
      amount_cents: 301,
      reason: 'fee',
    });
    expect(over.status).toBe(409);
    const ok = await t.json<Json>('POST', '/api/wallet-adjustment/', admin.token, {
      company: co.companyId,
      direction: 'debit',
      amount_cents: 300,
      reason: 'fee',
    });
    expect(ok.body).toMatchObject({ wallet: { balance_cents: 0 }, note: { total_cents: 300 } });
  });

  it('a postpaid payment settles a statement only for its exact total', async () => {
    const { t, admin, co } = await postpaidJanuary();
    const inv = await t.json<Json>('POST', '/api/invoice/generate-invoice/', admin.token, {
      company: co.companyId,
      period_from: '2026-01-01',
      period_to: '2026-01-31',
    });
    const id = inv.body.id as number;
    const wrong = await t.json('POST', '/api/wallet/postpaid-recharge-by-company/', admin.token, {
      company: co.companyId,
      amount_cents: 1999,
      invoice: id,
    });
    expect(wrong.status).toBe(409);
    const w = await t.json<Page>('GET', '/api/wallet/', admin.token);
    const walletId = w.body.results[0].id as number;
    const pay = await t.json<Json>('POST', `/api/wallet/${walletId}/postpaid-recharge/`, admin.token, { amount_cents: 2000, invoice: id });
    expect(pay.status).toBe(201);
    expect(pay.body).toMatchObject({
      transaction: { kind: 'payment', amount_cents: 2000 },
      wallet: { balance_cents: 0 },
      receipt: { kind: 'receipt' },
    });
    expect((await t.json<Json>('GET', `/api/invoice/${id}/`, co.token)).body).toMatchObject({ status: 'paid' });
    expect(
      (await t.json('POST', `/api/wallet/${walletId}/postpaid-recharge/`, admin.token, { amount_cents: 2000, invoice: id })).status,
    ).toBe(409);
    const onAccount = await t.json<Json>('POST', `/api/wallet/${walletId}/postpaid-recharge/`, admin.token, { amount_cents: 100 });
    expect(onAccount.body).toMatchObject({ wallet: { balance_cents: 100 } });
  });
});
