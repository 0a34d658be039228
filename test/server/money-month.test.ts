import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { invoiceLine, wallet, walletTxn } from '../../server/db/schema/index';
import { makeApp } from '../helpers/app';
import { deliver, hawb, suburbIn, type Json } from './money-fixtures';

const DAY = 86_400_000;
const jan = (day: number, hour = 9) => Date.UTC(2026, 0, day, hour);

describe('a company through January', () => {
  it('rate card, parcels priced on creation, prepaid top-up and refusal, switch to postpaid, statement with PDF, adjustment, driver earnings', async () => {
    // A month walked on the test clock with one set of logins (idle expiry has its own tests).
    const t = await makeApp({ config: { staffIdleMs: 366 * 24 * 3600_000 } });
    t.clock.set(jan(5));
    const admin = await t.login('admin');
    const driver = await t.login('driver');
    const zone = await t.json<Json>('POST', '/api/zone/', admin.token, { name: 'Metro' });
    const metro = zone.status === 201 ? (zone.body.id as number) : null;
    expect(metro).not.toBeNull();

    // The courier's office sets up Acme with its own card; everyone else pays the default card.
    const acme = await t.json<Json>('POST', '/api/company/', admin.token, {
      name: 'Acme Pty Ltd',
      code: 'ACME',
      email: 'ops@acme.example',
      billing_type: 'prepaid',
      currency: 'AUD',
    });
    expect(acme.status).toBe(201);
    const companyId = acme.body.id as number;
    const acmeLogin = await t.login('company', { companyId });
    const kg = await t.json<Json>('POST', '/api/unit-of-measurement/', admin.token, { name: 'Kilogram', symbol: 'kg', kg_factor: 1 });
    await t.json('POST', '/api/delivery-rate/', admin.token, { name: 'Default', base_cents: 2000 });
    const card = await t.json<Json>('POST', '/api/delivery-rate/', admin.token, {
      name: 'Acme metro',
      company: companyId,
      zone: metro,
      unit: kg.body.id,
      base_cents: 800,
      per_unit_cents: 100,
    });
    expect(card.status).toBe(201);
    const seen = await t.json<Json>('GET', `/api/delivery-rate/rate-card-by-company/${companyId}/`, acmeLogin.token);
    expect(seen.body).toMatchObject({ source: 'company', rates: [{ base_cents: 800, zone: metro }] });
    // Acme's parcels go to a Metro suburb: the zone follows the address.
    await suburbIn(t, metro as number, '3999');
    expect((await t.json<Json>('POST', '/api/delivery-rate/quote/', acmeLogin.token, { postcode: 3999, weight: 2 })).body.price_cents).toBe(
      1000,
    );

    const send = (body: Json) => t.json<Json>('POST', '/api/package/', acmeLogin.token, { hawb: hawb(), postcode: 3999, ...body });
    // Prepaid with nothing in the wallet: refused, nothing created.
    expect((await send({ weight: 1 })).status).toBe(409);
    await t.json('POST', '/api/wallet/prepaid-recharge-by-company/', admin.token, {
      company: companyId,
      amount_cents: 3000,
      reference: 'EFT 1001',
    });
    const parcels: number[] = [];
    for (const body of [{ weight: 2 }, { weight: 1 }, { weight: 0.5, length: 20, width: 20, height: 20 }]) {
      const p = await send(body);
      expect(p.status).toBe(201);
      parcels.push(p.body.id as number);
    }
    const prices = await Promise.all(
      parcels.map(async (id) => (await t.json<Json>('GET', `/api/package/${id}/`, acmeLogin.token)).body.price),
    );
    expect(prices).toEqual([10, 9, 10]);
    const refused = await send({ weight: 1 });
    expect(refused.status).toBe(409);
    expect(refused.body.details).toMatchObject({ balance_cents: 100, required_cents: 900 });

    // Mid-month Acme moves to postpaid: charges now accrue and are invoiced.
    t.clock.set(jan(15));
    expect((await t.json('PATCH', `/api/company/${companyId}/`, admin.token, { billing_type: 'postpaid' })).status).toBe(200);
    for (let d = 0; d < 3; d++) {
      const p = await send({ weight: 3 });
      expect(p.status).toBe(201);
      parcels.push(p.body.id as number);
      t.clock.advance(DAY);
    }
    const mid = await t.json<Json>('GET', '/api/wallet/login-company-wallet-details/', acmeLogin.token);
    expect(mid.body.wallet).toMatchObject({ billing_type: 'postpaid', balance_cents: 100 - 3 * 1100 });

    // The driver delivers four of them during the month.
    await t.json('POST', '/api/driver-delivery-rate/', admin.token, { amount_cents: 450, effective_from: '2026-01-01' });
    for (const [i, id] of parcels.slice(0, 4).entries()) await deliver(t, id, driver.id, jan(10 + i * 5, 14), i < 2 ? 1 : 2);

    // February 1st: January's statement lists only the postpaid charges.
    t.clock.set(Date.UTC(2026, 1, 1, 8));
    const inv = await t.json<Json>('POST', '/api/invoice/generate-invoice/', admin.token, {
      company: companyId,
      period_from: '2026-01-01',
      period_to: '2026-01-31',
    });
    expect(inv.status).toBe(201);
    expect(inv.body).toMatchObject({
      number: 'INV-2026-000002',
      total_cents: 3300,
      status: 'issued',
      period_from: '2026-01-01',
      period_to: '2026-01-31',
    });
    expect((inv.body.lines as Json[]).map((l) => l.package)).toEqual(parcels.slice(3));
    const pdf = Buffer.from(await (await t.call('GET', `/api/invoice/${inv.body.id}/pdf/`, acmeLogin.token)).arrayBuffer());
    expect(pdf.subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(pdf.toString('latin1')).toContain('INV-2026-000002');

    // One parcel arrived damaged: a credit with its reason, documented by a numbered note.
    const adj = await t.json<Json>('POST', '/api/wallet-adjustment/', admin.token, {
      company: companyId,
      direction: 'credit',
      amount_cents: 550,
      reason: 'Damaged parcel, half refund',
      invoice: inv.body.id,
    });
    expect(adj.body).toMatchObject({ note: { number: 'INV-2026-000003', total_cents: -550 }, wallet: { balance_cents: -3200 + 550 } });

    // Acme pays the statement in full; the invoice itself never changes.
    const paid = await t.json<Json>('POST', `/api/invoice/${inv.body.id}/status-change/`, admin.token, {
      status: 'paid',
      reference: 'EFT 2001',
    });
    expect(paid.body).toMatchObject({ status: 'paid', total_cents: 3300, lines: inv.body.lines });
    const end = await t.json<Json>('GET', '/api/wallet/login-company-wallet-details/', acmeLogin.token);
    expect(end.body.wallet).toMatchObject({ balance_cents: 100 - 3300 + 550 + 3300 });

    const earned = await t.json<Json>('GET', '/api/dashboard/driver-earning/?from=2026-01-01&to=2026-01-31', driver.token);
    expect(earned.body.totals).toEqual([{ currency: 'AUD', delivered_count: 4, unrated_count: 0, amount_cents: 1800 }]);
    const byRoute = await t.json<Json>('GET', '/api/dashboard/route-wise-earning/?from=2026-01-01&to=2026-01-31', driver.token);
    expect((byRoute.body.routes as Json[]).map((r) => [r.route, r.amount_cents])).toEqual([
      [1, 900],
      [2, 900],
    ]);
    const byCompany = await t.json<Json>('GET', '/api/dashboard/driver-delivered-company/?from=2026-01-01&to=2026-01-31', driver.token);
    expect(byCompany.body.companies).toEqual([
      { company: companyId, company_name: 'Acme Pty Ltd', currency: 'AUD', delivered_count: 4, unrated_count: 0, amount_cents: 1800 },
    ]);

    // The ledger adds up: the cached balance is the sum of its transactions; no line was touched.
    const w = await t.db.select().from(wallet).where(eq(wallet.company_id, companyId)).get();
    const txns = await t.db.select().from(walletTxn).where(eq(walletTxn.company_id, companyId)).all();
    expect(w?.balance_cents).toBe(txns.reduce((s, x) => s + x.amount_cents, 0));
    expect(
      (
        await t.db
          .select()
          .from(invoiceLine)
          .where(eq(invoiceLine.invoice_id, inv.body.id as number))
          .all()
      ).map((l) => l.amount_cents),
    ).toEqual([1100, 1100, 1100]);
  });
});
