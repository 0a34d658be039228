import { describe, expect, it } from 'vitest';
import { hawb, moneyWorld, shipper, type Json, type Page } from './money-fixtures';

/**
 * Issue 31, section 1: money's days are the business's local days. In Sydney, New Year's Day 2026
 * starts at 2025-12-31T13:00Z (AEDT, +11); 5 April 2026 (clocks back at 03:00) runs from
 * 4 April 13:00Z to 5 April 14:00Z (25 hours); 4 October 2026 (clocks forward at 02:00) runs from
 * 3 October 14:00Z to 4 October 13:00Z (23 hours).
 */
describe("wallet and invoice days are Sydney's", () => {
  it("statement period, invoice number year, due date and the invoice and wallet filters follow Sydney's days", async () => {
    const { t, admin } = await moneyWorld();
    t.clock.set(Date.parse('2025-12-30T00:00:00Z'));
    expect((await t.json('PATCH', '/api/settings/business-profile/', admin.token, { time_zone: 'Australia/Sydney' })).status).toBe(200);
    await t.json('POST', '/api/delivery-rate/', admin.token, { base_cents: 1000 });
    const co = await shipper(t, 'postpaid');
    const parcelAt = async (when: string) => {
      t.clock.set(Date.parse(when));
      // A fresh login each time: the clock walks months and sessions expire.
      const { token } = await t.login('company', { companyId: co.companyId });
      const p = await t.json<Json>('POST', '/api/package/', token, { hawb: hawb() });
      expect(p.status, JSON.stringify(p.body)).toBe(201);
      return p.body.id as number;
    };
    const lastOfDecember = await parcelAt('2025-12-31T12:30:00Z'); // 31 Dec 23:30 in Sydney
    const newYear = await parcelAt('2025-12-31T13:30:00Z'); // 1 Jan 00:30 in Sydney, still 31 Dec in UTC

    // Issued at 09:00 on 1 January in Sydney (22:00 UTC on 31 December): December's statement, numbered in 2026.
    t.clock.set(Date.parse('2025-12-31T22:00:00Z'));
    const inv = await t.json<Json>('POST', '/api/invoice/generate-invoice/', admin.token, {
      company: co.companyId,
      period_from: '2025-12-01',
      period_to: '2025-12-31',
    });
    expect(inv.status, JSON.stringify(inv.body)).toBe(201);
    expect(inv.body).toMatchObject({
      number: 'INV-2026-000001',
      period_from: '2025-12-01',
      period_to: '2025-12-31',
      due_date: '2026-01-15',
    });
    expect((inv.body.lines as Json[]).map((l) => l.package)).toEqual([lastOfDecember]);

    const invoices = async (q: string) => (await t.json<Page>('GET', `/api/invoice/?${q}`, admin.token)).body.results.map((i) => i.number);
    expect(await invoices('from=2026-01-01&to=2026-01-01')).toEqual(['INV-2026-000001']);
    expect(await invoices('to=2025-12-31')).toEqual([]);
    const csv = await (await t.call('GET', '/api/invoice/csv-download/?from=2026-01-01', admin.token)).text();
    expect(csv).toContain('INV-2026-000001');

    // Two more charges, one each side of the end of Sydney's 25-hour 5 April and of its 23-hour 4 October.
    const lateApril5 = await parcelAt('2026-04-05T13:30:00Z'); // 5 April 23:30 AEST
    await parcelAt('2026-04-05T14:30:00Z'); // 6 April 00:30 AEST, still 5 April in UTC
    const earlyOct4 = await parcelAt('2026-10-03T14:30:00Z'); // 4 October 00:30 AEST, still 3 October in UTC
    await parcelAt('2026-10-04T13:30:00Z'); // 5 October 00:30 AEDT, still 4 October in UTC
    const { token } = await t.login('company', { companyId: co.companyId });
    const txns = async (q: string) =>
      (await t.json<Page>('GET', `/api/wallet/login-company-transaction/?kind=charge&${q}`, token)).body.results
        .map((x) => x.package)
        .sort((a, b) => Number(a) - Number(b));
    expect(await txns('from=2026-01-01&to=2026-01-01')).toEqual([newYear]);
    expect(await txns('from=2026-04-05&to=2026-04-05')).toEqual([lateApril5]);
    expect(await txns('from=2026-10-04&to=2026-10-04')).toEqual([earlyOct4]);
    expect(await txns('to=2025-12-31')).toEqual([lastOfDecember]);
  }, 60_000);

  it("a driver rate's start day and the audit log's days are Sydney's", async () => {
    const { t } = await moneyWorld();
    // 07:00 on 1 February in Sydney, 20:00 on 31 January in UTC.
    t.clock.set(Date.parse('2026-01-31T20:00:00Z'));
    const admin = await t.login('admin');
    expect((await t.json('PATCH', '/api/settings/business-profile/', admin.token, { time_zone: 'Australia/Sydney' })).status).toBe(200);
    const rate = await t.json<Json>('POST', '/api/driver-delivery-rate/', admin.token, {
      name: 'February',
      amount_cents: 500,
      effective_from: '2026-02-01',
    });
    expect(rate.status, JSON.stringify(rate.body)).toBe(201);
    // The rate starts at Sydney's midnight, not UTC's (which is 11:00 there).
    expect(Date.parse(String(rate.body.effective_from))).toBe(Date.parse('2026-01-31T13:00:00Z'));
    const actions = async (q: string) =>
      (await t.json<Page<{ action: string }>>('GET', `/api/audit-log/?${q}`, admin.token)).body.results.map((e) => e.action);
    expect(await actions('from=2026-02-01&to=2026-02-01')).toContain('driver_rate.create');
    expect(await actions('to=2026-01-31')).not.toContain('driver_rate.create');
  }, 60_000);
});
