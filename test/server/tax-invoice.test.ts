import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, company } from '../../server/db/schema/index';
import { hawb, moneyWorld, shipper, type Json } from './money-fixtures';

const DAY = 86_400_000;
const PROFILE = {
  legal_name: 'Swift Parcels Pty Ltd',
  trading_name: 'Swift Courier',
  abn: '51 824 753 556',
  address: '1 Depot Rd, Alexandria NSW 2015',
  email: 'accounts@swift.example',
  phone: '02 9000 0000',
  bank_account_name: 'Swift Parcels Pty Ltd',
  bank_bsb: '062-000',
  bank_account_number: '12345678',
  payment_instructions: 'Quote the invoice number with your payment.',
};

/** The PDF's text as pdftotext lays it out (the words a reader sees). */
function pdfText(bytes: Buffer, dir: string): string {
  const file = join(dir, 'invoice.pdf');
  writeFileSync(file, bytes);
  const r = spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
}

describe('tax invoice (issue 18)', () => {
  it('admins keep a business profile; ABN checksum, roles and the audit trail hold', async () => {
    const { t, admin } = await moneyWorld();
    const co = await shipper(t, 'postpaid');
    const supervisor = await t.login('supervisor');
    const get = await t.json<Json>('GET', '/api/settings/business-profile/', admin.token);
    expect(get.status).toBe(200);
    expect(get.body).toMatchObject({ legal_name: '', gst_rate_bp: 1000, prices_include_gst: true, updated_at: null });
    expect((await t.json('GET', '/api/settings/business-profile/', co.token)).status).toBe(403);
    expect((await t.json('GET', '/api/settings/business-profile/', supervisor.token)).status).toBe(403);
    expect((await t.json('PATCH', '/api/settings/business-profile/', supervisor.token, { legal_name: 'X' })).status).toBe(403);
    expect((await t.json('GET', '/api/settings/business-profile/', null)).status).toBe(401);

    for (const bad of [
      { abn: '51 824 753 557' },
      { abn: '1234' },
      { bank_bsb: '12345' },
      { gst_rate_bp: 10_001 },
      { gst_rate_bp: 10.5 },
      { email: 'nope' },
      { colour: 'red' },
    ]) {
      expect((await t.json('PATCH', '/api/settings/business-profile/', admin.token, bad)).status, JSON.stringify(bad)).toBe(400);
    }
    const exclusive = await t.json<Json>('PATCH', '/api/settings/business-profile/', admin.token, { prices_include_gst: false });
    expect(exclusive.status).toBe(409);

    const saved = await t.json<Json>('PATCH', '/api/settings/business-profile/', admin.token, PROFILE);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      ...PROFILE,
      abn: '51824753556',
      bank_bsb: '062000',
      gst_rate_bp: 1000,
      updated_at: expect.any(String),
    });
    const partial = await t.json<Json>('PATCH', '/api/settings/business-profile/', admin.token, { phone: '02 9111 1111' });
    expect(partial.body).toMatchObject({ legal_name: PROFILE.legal_name, phone: '02 9111 1111' });
    const trail = (await t.db.select().from(auditLog).all()).filter((a) => a.action === 'settings.business_profile');
    expect(trail).toHaveLength(2);
  });

  it('a statement is a tax invoice: seller, ABNs, due date from the terms, GST per line and in totals, how to pay', async () => {
    const { t, admin } = await moneyWorld();
    await t.json('POST', '/api/delivery-rate/', admin.token, { base_cents: 1234 });
    const co = await shipper(t, 'postpaid');
    await t.db
      .update(company)
      .set({ name: 'Acme Widgets', abn: '53004085616', address: '9 Buyer St, Sydney' })
      .where(eq(company.id, co.companyId))
      .run();
    expect((await t.json('PATCH', '/api/settings/business-profile/', admin.token, PROFILE)).status).toBe(200);
    expect((await t.json('PATCH', `/api/company/${co.companyId}/terms/`, admin.token, { payment_terms_days: 30 })).status).toBe(200);

    t.clock.set(Date.UTC(2026, 0, 5, 9));
    for (let i = 0; i < 2; i++) {
      expect((await t.json('POST', '/api/package/', co.token, { hawb: hawb() })).status).toBe(201);
      t.clock.advance(DAY);
    }
    t.clock.set(Date.UTC(2026, 1, 2, 9));
    const inv = await t.json<Json>('POST', '/api/invoice/generate-invoice/', admin.token, {
      company: co.companyId,
      period_from: '2026-01-01',
      period_to: '2026-01-31',
    });
    expect(inv.status).toBe(201);
    // 1234 incl. GST: GST 1234/11 = 112.18 -> 112 per line; totals are sums of lines.
    expect(inv.body).toMatchObject({
      total_cents: 2468,
      due_date: '2026-03-04',
      gst_rate_bp: 1000,
      prices_include_gst: true,
      gst: { excl_cents: 2244, gst_cents: 224, incl_cents: 2468 },
    });
    expect((inv.body.lines as Json[]).map((l) => l.gst)).toEqual([
      { excl_cents: 1122, gst_cents: 112, incl_cents: 1234 },
      { excl_cents: 1122, gst_cents: 112, incl_cents: 1234 },
    ]);

    // Later changes to the terms or the GST rate do not change an issued invoice.
    await t.json('PATCH', `/api/company/${co.companyId}/terms/`, admin.token, { payment_terms_days: 7 });
    await t.json('PATCH', '/api/settings/business-profile/', admin.token, { gst_rate_bp: 1500 });
    const id = inv.body.id as number;
    expect((await t.json<Json>('GET', `/api/invoice/${id}/`, co.token)).body).toMatchObject({
      due_date: '2026-03-04',
      gst: { gst_cents: 224 },
    });

    const res = await t.call('GET', `/api/invoice/${id}/pdf/`, co.token);
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    const dir = mkdtempSync(join(tmpdir(), 'tax-invoice-'));
    const text = pdfText(bytes, dir);
    const flat = text.replace(/\s+/g, ' ');
    for (const words of [
      'TAX INVOICE',
      'Swift Parcels Pty Ltd',
      'Trading as Swift Courier',
      'ABN 51 824 753 556',
      '1 Depot Rd, Alexandria NSW 2015',
      'Tax invoice number: INV-2026-000001',
      'Issue date: 2026-02-02',
      'Due date: 2026-03-04 (30 days)',
      'Bill to Acme Widgets',
      'ABN 53 004 085 616',
      'Excl. GST GST Total',
      '11.22 1.12 12.34',
      'Totals 22.44 2.24 24.68',
      'Total excluding GST: 22.44 AUD',
      'GST (10%): 2.24 AUD',
      'Total amount payable (incl. GST): 24.68 AUD',
      'GST is calculated on each line and rounded half-up to the cent; totals are the sums of the lines.',
      'BSB: 062-000 Account: 12345678',
      'Reference: INV-2026-000001',
      'Quote the invoice number with your payment.',
    ])
      expect(flat, words).toContain(words);

    // Page 1 as an image, for a person to look at.
    const png = spawnSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', join(dir, 'invoice.pdf'), join(dir, 'page')]);
    expect(png.status).toBe(0);

    // The seller renames and moves, the buyer renames: the issued tax invoice reprints as it was issued.
    expect(
      (
        await t.json('PATCH', '/api/settings/business-profile/', admin.token, {
          legal_name: 'Renamed Freight Pty Ltd',
          address: '2 Other Rd, Mascot NSW 2020',
        })
      ).status,
    ).toBe(200);
    await t.db.update(company).set({ name: 'Acme Renamed', address: '1 New St, Sydney' }).where(eq(company.id, co.companyId)).run();
    const again = await t.call('GET', `/api/invoice/${id}/pdf/`, co.token);
    const reprint = pdfText(Buffer.from(await again.arrayBuffer()), mkdtempSync(join(tmpdir(), 'tax-invoice-'))).replace(/\s+/g, ' ');
    for (const words of ['Swift Parcels Pty Ltd', '1 Depot Rd, Alexandria NSW 2015', 'Bill to Acme Widgets', '9 Buyer St, Sydney'])
      expect(reprint, words).toContain(words);
    for (const words of ['Renamed Freight', 'Mascot', 'Acme Renamed']) expect(reprint, words).not.toContain(words);
  });

  it('without a profile the PDF says what is missing instead of inventing it', async () => {
    const { t, admin } = await moneyWorld();
    await t.json('POST', '/api/delivery-rate/', admin.token, { base_cents: 1100 });
    const co = await shipper(t, 'postpaid');
    t.clock.set(Date.UTC(2026, 0, 5, 9));
    await t.json('POST', '/api/package/', co.token, { hawb: hawb() });
    t.clock.set(Date.UTC(2026, 1, 2, 9));
    const inv = await t.json<Json>('POST', '/api/invoice/generate-invoice/', admin.token, {
      company: co.companyId,
      period_from: '2026-01-01',
      period_to: '2026-01-31',
    });
    expect(inv.body).toMatchObject({ due_date: '2026-02-16', gst: { gst_cents: 100 } });
    const res = await t.call('GET', `/api/invoice/${inv.body.id as number}/pdf/`, co.token);
    const flat = pdfText(Buffer.from(await res.arrayBuffer()), mkdtempSync(join(tmpdir(), 'tax-invoice-'))).replace(/\s+/g, ' ');
    expect(flat).toContain('(business legal name not set)');
    expect(flat).toContain('ABN not set');
    expect(flat).toContain('Payment details not set');
    expect(flat).toContain('Due date: 2026-02-16 (14 days)');
  });
});
