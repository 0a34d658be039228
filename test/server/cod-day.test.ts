import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, driverCashTxn, pkg, wallet, walletTxn } from '../../server/db/schema/index';
import { atomically } from '../../server/db/atomically';
import { transition } from '../../server/services/packages/lifecycle';
import { withCodDue } from '../../server/services/cod/parcel';
import { parcelRequirements } from '../../server/services/door/rules';
import { makeApp } from '../helpers/app';
import { shipper, type Json } from './money-fixtures';

/**
 * A cash-on-delivery day (issue 34) through the real API, in Sydney time: three parcels with amounts,
 * one short-paid and waived, the depot's hand-over with a difference, and the shipper's statement
 * showing what it is owed and its settlement (paid out and netted against charges).
 */
async function codWorld() {
  const t = await makeApp({ config: { timeZone: 'Australia/Sydney', staffIdleMs: 30 * 24 * 3600_000 } });
  // 10 March 2026, 11:00 in Sydney (daylight time, UTC+11).
  t.clock.set(Date.UTC(2026, 2, 10, 0));
  const admin = await t.login('admin');
  const supervisor = await t.login('supervisor');
  const driver = await t.login('driver');
  await t.json('POST', '/api/delivery-rate/', admin.token, { base_cents: 1000 });
  const co = await shipper(t, 'postpaid');
  const parcel = async (hawb: string, cod?: number) => {
    const res = await t.json<Json>('POST', '/api/package/', co.token, {
      hawb,
      customer_name: 'R',
      customer_address: '1 George St',
      ...(cod ? { cod_amount_cents: cod } : {}),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.id as number;
    expect((await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: [id] })).status).toBe(
      200,
    );
    expect((await t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, { barcode: hawb })).status).toBe(200);
    return id;
  };
  const deliver = (id: number, collection?: { amount_cents: number; method: 'cash' | 'card' }) =>
    t.json<Json>('POST', `/api/package-delivered/${id}/deliver/`, driver.token, {
      note: 'Handed over',
      recipient_name: 'R',
      ...(collection ? { collection } : {}),
    });
  return { t, admin, supervisor, driver, co, parcel, deliver };
}

describe('cash on delivery: a day', () => {
  it('collects, refuses what is short until waived, hands over with a difference, and settles the shipper through the ledger', async () => {
    const { t, admin, supervisor, driver, co, parcel, deliver } = await codWorld();
    const a = await parcel('COD-A', 5000);
    const b = await parcel('COD-B', 3000);
    const c = await parcel('COD-C', 2000);
    const plain = await parcel('COD-PLAIN');
    expect((await t.json<Json>('GET', `/api/package/${a}/cod/`, driver.token)).body).toMatchObject({
      cod: { amount_cents: 5000, currency: 'AUD', required_cents: 5000, collected_cents: null },
    });
    expect((await t.json<Json>('GET', `/api/package/${plain}/cod/`, co.token)).body).toEqual({ cod: null });
    // The recipient's tracking page and the label say what to pay.
    expect((await t.json<Json>('GET', '/api/track/COD-A/')).body).toMatchObject({ cash_on_delivery: 'AUD 50.00' });
    expect((await t.json<Json>('GET', '/api/track/COD-PLAIN/')).body).not.toHaveProperty('cash_on_delivery');
    expect(await (await t.call('GET', '/api/track/COD-A/page/')).text()).toContain('To pay on delivery: <strong>AUD 50.00</strong>');
    const label = await t.call('GET', `/api/package/${a}/label/`, co.token);
    expect(label.status).toBe(200);
    expect(label.headers.get('content-type')).toContain('application/pdf');
    const due = await withCodDue(t.db, [{ id: a }, { id: plain }]);
    expect(due.map((p) => p.cod_due)).toEqual(['AUD 50.00', null]);

    // The morning float.
    const float = await t.json<Json>('POST', '/api/cod/float/', supervisor.token, { driver: driver.id, amount_cents: 2000 });
    expect(float.status).toBe(201);
    expect(float.body).toMatchObject({ day: '2026-03-10', float_cents: 2000, cash_held_cents: 2000 });

    // No collection, or a collection on a parcel with nothing due: refused with the one error shape, nothing changes.
    const missing = await deliver(a);
    expect(missing.status).toBe(409);
    expect(missing.body).toMatchObject({ code: 'conflict', details: { reason: 'cod_missing', required_cents: 5000 } });
    expect((await t.db.select().from(pkg).where(eq(pkg.id, a)).get())?.status).toBe('out_for_delivery');
    const over = await deliver(plain, { amount_cents: 100, method: 'cash' });
    expect(over.body).toMatchObject({ code: 'conflict', details: { reason: 'cod_over' } });
    expect(
      (
        await t.json<Json>('POST', `/api/package-delivered/${a}/deliver/`, driver.token, {
          note: 'x',
          collection: { amount_cents: 5.5, method: 'cash' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.json<Json>('POST', `/api/package-delivered/${a}/deliver/`, driver.token, {
          note: 'x',
          collection: { amount_cents: 5000, method: 'cheque' },
        })
      ).status,
    ).toBe(400);

    expect((await deliver(a, { amount_cents: 5000, method: 'cash' })).status).toBe(200);
    expect((await deliver(plain)).status).toBe(200);

    // B: the recipient pays 2000 of 3000. Refused until the office waives the rest (audited); drivers cannot waive.
    const short = await deliver(b, { amount_cents: 2000, method: 'cash' });
    expect(short.body).toMatchObject({ code: 'conflict', details: { reason: 'cod_short', required_cents: 3000, collected_cents: 2000 } });
    expect((await t.json('POST', `/api/package/${b}/cod/waive/`, driver.token, { reason: 'paid short' })).status).toBe(403);
    expect((await t.json('POST', `/api/package/${b}/cod/waive/`, supervisor.token, { reason: '' })).status).toBe(400);
    expect((await t.json('POST', `/api/package/${b}/cod/waive/`, supervisor.token, { reason: 'x', amount_cents: 3001 })).status).toBe(400);
    const waived = await t.json<Json>('POST', `/api/package/${b}/cod/waive/`, supervisor.token, {
      reason: 'Recipient paid 20.00; shipper agreed by phone',
      amount_cents: 1000,
    });
    expect(waived.status).toBe(200);
    expect(waived.body).toMatchObject({ cod: { waived_cents: 1000, required_cents: 2000 } });
    expect((await deliver(b, { amount_cents: 2000, method: 'cash' })).status).toBe(200);
    expect((await t.json('POST', `/api/package/${b}/cod/waive/`, supervisor.token, { reason: 'again' })).status).toBe(409);

    // C is paid by card on the company's terminal: owed to the shipper, never in the driver's cash.
    expect((await deliver(c, { amount_cents: 2000, method: 'card' })).status).toBe(200);

    const cash = await t.json<Json>('GET', '/api/cod/driver-cash/', driver.token);
    expect(cash.body).toMatchObject({
      day: '2026-03-10',
      float_cents: 2000,
      cash_collected_cents: 7000,
      card_collected_cents: 2000,
      cash_held_cents: 9000,
      handed_over: null,
      debt_cents: 0,
    });

    // Evening (18:30 Sydney): the depot counts 85.00 of the 90.00 expected.
    t.clock.set(Date.UTC(2026, 2, 10, 7, 30));
    expect((await t.json('POST', '/api/cod/handover/', driver.token, { driver: driver.id, counted_cents: 8500 })).status).toBe(403);
    const handed = await t.json<Json>('POST', '/api/cod/handover/', supervisor.token, {
      driver: driver.id,
      counted_cents: 8500,
      note: 'one 5 note missing',
    });
    expect(handed.status).toBe(201);
    expect(handed.body).toMatchObject({
      day: '2026-03-10',
      float_cents: 2000,
      cash_collected_cents: 7000,
      expected_cents: 9000,
      counted_cents: 8500,
      difference_cents: -500,
    });
    expect((await t.json('POST', '/api/cod/handover/', supervisor.token, { driver: driver.id, counted_cents: 9000 })).status).toBe(409);
    const debt = await t.db
      .select()
      .from(driverCashTxn)
      .where(and(eq(driverCashTxn.driver_id, driver.id), eq(driverCashTxn.account, 'debt')))
      .all();
    expect(debt.map((d) => [d.kind, d.amount_cents])).toEqual([['shortfall', 500]]);
    expect((await t.json<Json>('GET', '/api/cod/driver-cash/', driver.token)).body).toMatchObject({ cash_held_cents: 0, debt_cents: 500 });
    const trail = await t.db.select().from(auditLog).all();
    expect(trail.map((l) => l.action)).toEqual(expect.arrayContaining(['package.cod_waive', 'cod.float', 'cod.handover']));
    expect(JSON.parse(trail.find((l) => l.action === 'cod.handover')?.details ?? '{}')).toMatchObject({ difference_cents: -500 });

    // Owed to the shipper: 90.00 collected (cash and card); nothing of the waived 10.00.
    expect((await t.json<Json>('GET', `/api/cod/company/${co.companyId}/`, co.token)).body).toMatchObject({
      collected_cents: 9000,
      netted_cents: 0,
      paid_cents: 0,
      owed_cents: 9000,
    });
    expect((await t.json('POST', '/api/cod/payout/', co.token, { company: co.companyId, amount_cents: 100 })).status).toBe(403);
    expect((await t.json('POST', '/api/cod/payout/', admin.token, { company: co.companyId, amount_cents: 9001 })).status).toBe(409);
    const paid = await t.json<Json>('POST', '/api/cod/payout/', admin.token, {
      company: co.companyId,
      amount_cents: 4000,
      reference: 'EFT 123',
    });
    expect(paid.status).toBe(201);
    expect(paid.body).toMatchObject({ amount_cents: -4000, position: { paid_cents: 4000, owed_cents: 5000 } });

    // A COD parcel cancelled before delivery moves no COD money; its charge is refunded.
    const d = (await t.json<Json>('POST', '/api/package/', co.token, { hawb: 'COD-D', cod_amount_cents: 1500 })).body.id as number;
    const row = await t.db.select().from(pkg).where(eq(pkg.id, d)).get();
    await atomically(t.app.deps, () => transition(t.db, t.clock.now(), row!, 'cancelled', 'cancel', { userId: admin.id }));

    // The month's statement nets the rest against the charges: 4 deliveries + 1 cancelled and refunded, less 90.00 collected, plus 40.00 paid out.
    t.clock.set(Date.UTC(2026, 3, 2, 0));
    const inv = await t.json<Json & { lines: { description: string; amount_cents: number }[] }>(
      'POST',
      '/api/invoice/generate-invoice/',
      admin.token,
      { company: co.companyId, period_from: '2026-03-01', period_to: '2026-03-31' },
    );
    expect(inv.status, JSON.stringify(inv.body)).toBe(201);
    expect(inv.body.total_cents).toBe(5 * 1000 - 1000 - 9000 + 4000);
    const shown = await t.json<Json & { lines: { description: string; amount_cents: number }[] }>(
      'GET',
      `/api/invoice/${inv.body.id as number}/`,
      co.token,
    );
    expect(shown.status).toBe(200);
    expect(shown.body.lines.map((l) => [l.description, l.amount_cents])).toEqual(
      expect.arrayContaining([
        ['Cash collected on delivery COD-A', -5000],
        ['Cash collected on delivery COD-B', -2000],
        ['Cash collected on delivery COD-C', -2000],
        ['Cash on delivery paid out (EFT 123)', 4000],
      ]),
    );
    expect((await t.json<Json>('GET', `/api/cod/company/${co.companyId}/`, co.token)).body).toMatchObject({
      collected_cents: 9000,
      netted_cents: 5000,
      paid_cents: 4000,
      owed_cents: 0,
    });

    // The ledger balances: the wallet's cached balance is the sum of its transactions.
    const w = await t.db.select().from(wallet).where(eq(wallet.company_id, co.companyId)).get();
    const txns = await t.db.select().from(walletTxn).where(eq(walletTxn.company_id, co.companyId)).all();
    expect(w?.balance_cents).toBe(txns.reduce((s, x) => s + x.amount_cents, 0));

    // Reports per local day and driver.
    const report = await t.json<{ rows: Json[]; totals: Json[] }>(
      'GET',
      '/api/cod/report/?from=2026-03-10&to=2026-03-10',
      supervisor.token,
    );
    expect(report.status).toBe(200);
    expect(report.body.rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          day: '2026-03-10',
          driver: driver.id,
          collected_cash_cents: 7000,
          collected_card_cents: 2000,
          waived_cents: 1000,
          handed_over_cents: 8500,
          difference_cents: -500,
        }),
        expect.objectContaining({ day: '2026-03-10', driver: null, owed_cents: 9000, paid_cents: 4000 }),
      ]),
    );
    expect((await t.json('GET', '/api/cod/report/', co.token)).status).toBe(403);
  }, 120_000);

  it("the driver's phone gets each parcel's amount from the sync feed, a waiver reaches it, and a cancelled parcel has nothing to waive", async () => {
    const { t, supervisor, driver, co, parcel } = await codWorld();
    const a = await parcel('COD-F1', 4500);
    const plain = await parcel('COD-F2');
    type Feed = { cursor: number; upserts: { packages: (Json & { id: number; cod?: Json })[] } };
    const snap = (await t.json<Feed>('GET', '/api/sync/changes/?cursor=0&limit=1000', driver.token)).body;
    const byId = new Map(snap.upserts.packages.map((p) => [p.id, p]));
    expect(byId.get(a)?.cod).toEqual({ amount_cents: 4500, waived_cents: 0, currency: 'AUD' });
    expect(byId.get(plain)).not.toHaveProperty('cod');
    expect((await t.json('POST', `/api/package/${a}/cod/waive/`, supervisor.token, { reason: 'paid 40', amount_cents: 500 })).status).toBe(
      200,
    );
    const next = (await t.json<Feed>('GET', `/api/sync/changes/?cursor=${snap.cursor}&limit=1000`, driver.token)).body;
    expect(next.upserts.packages.find((p) => p.id === a)?.cod).toEqual({ amount_cents: 4500, waived_cents: 500, currency: 'AUD' });
    // Cancelled: nothing will be collected, so nothing is waived (the property test found this accepted).
    const c = (
      await t.json<Json>('POST', '/api/package/', co.token, { hawb: 'COD-F3', customer_address: '1 George St', cod_amount_cents: 900 })
    ).body.id as number;
    await atomically(t.app.deps, async () => {
      const row = await t.db.select().from(pkg).where(eq(pkg.id, c)).get();
      await transition(t.db, t.clock.now(), row!, 'cancelled', 'cancel', { userId: supervisor.id }, {}, {}, { force: true });
    });
    const refused = await t.json<Json>('POST', `/api/package/${c}/cod/waive/`, supervisor.token, { reason: 'x' });
    expect(refused.status).toBe(409);
    expect((await t.json<Json>('GET', `/api/package/${c}/cod/`, supervisor.token)).body).toMatchObject({ cod: { waived_cents: 0 } });
  }, 60_000);

  it('reads cod_amount_cents and proof_requirements (in words) as upload columns; an unknown word is the row error', async () => {
    const { t, co } = await codWorld();
    const upload = (csv: string) => {
      const form = new FormData();
      form.append('file', new File([csv], 'p.csv', { type: 'text/csv' }));
      return t
        .call('POST', '/api/package/bulk-upload/', co.token, form)
        .then(async (res) => ({ status: res.status, body: (await res.json()) as Json }));
    };
    const bad = await upload(
      'hawb,customer_address,cod_amount_cents,proof_requirements\nU-1,1 George St,4550,signature + age:18\nU-2,2 George St,,signature + fingerprint\n',
    );
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('fingerprint');
    expect(await t.db.select().from(pkg).where(eq(pkg.hawb, 'U-1')).all()).toHaveLength(0);
    const ok = await upload(
      'hawb,customer_address,cod_amount_cents,proof_requirements\nU-1,1 George St,4550,signature + age:18 + code\nU-2,2 George St,,photos:2; scan\n',
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const row = async (hawb: string) => (await t.db.select().from(pkg).where(eq(pkg.hawb, hawb)).get())!;
    const u1 = await row('U-1');
    expect((await t.json<Json>('GET', `/api/package/${u1.id}/cod/`, co.token)).body).toMatchObject({ cod: { amount_cents: 4550 } });
    expect(await parcelRequirements(t.db, u1)).toMatchObject({ signature: true, min_age: 18, code: true });
    expect(await parcelRequirements(t.db, await row('U-2'))).toMatchObject({ photos: 2, scan: true, signature: false });
  }, 60_000);
});
