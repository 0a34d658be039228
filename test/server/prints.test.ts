/**
 * Prints that look right (issue 36 §5): each server PDF (labels, the driver's manifest, the statement)
 * is drawn to pixels by poppler and read back: barcodes decoded by ZXing, words where they should be
 * (pdftotext -bbox): none over another, the zone inside its banner, the manifest's header above its
 * first row, and the sender named (the shipper and the courier's trading name, not the software's).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { BarcodeFormat } from '@zxing/library';
import { describe, expect, it } from 'vitest';
import { company } from '../../server/db/schema/index';
import { darkRunDown, decodeBarcode, greyPage, overprinted, pdfWords, type Word } from '../helpers/pdfRead';
import { suburbIn, type Json } from './money-fixtures';
import { makeApp } from '../helpers/app';

const OUT = process.env.LABEL_PNG_DIR ?? mkdtempSync(join(tmpdir(), 'courier-prints-'));
const PROFILE = {
  legal_name: 'Swift Parcels Pty Ltd',
  trading_name: 'Swift Courier',
  abn: '51 824 753 556',
  address: '1 Depot Rd, Alexandria NSW 2015',
};

async function saved(res: Response, name: string): Promise<string> {
  expect(res.status, name).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  const file = join(OUT, `${name}.pdf`);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

const line = (words: Word[], page: number) =>
  words
    .filter((w) => w.page === page)
    .map((w) => w.text)
    .join(' ');

describe('prints read back from their pixels and words (issue 36)', () => {
  it('labels, manifest and statement: barcodes scan, the zone fits its banner, nothing overprints, the sender is named', async () => {
    const t = await makeApp({ config: { staffIdleMs: 366 * 24 * 3600_000 } });
    const admin = await t.login('admin');
    const driver = await t.login('driver', { name: 'Dan Driver' });
    const zone = async (name: string) => (await t.json<Json>('POST', '/api/zone/', admin.token, { name })).body.id as number;
    await suburbIn(t, await zone('Eastern Suburbs'), '2026');
    await suburbIn(t, await zone('North Shore and Upper North Shore Beaches'), '2060');
    expect((await t.json('PATCH', '/api/settings/business-profile/', admin.token, PROFILE)).status).toBe(200);
    expect((await t.json('POST', '/api/delivery-rate/', admin.token, { base_cents: 1650 })).status).toBe(201);
    const companyId = await t.company('Acme Widgets');
    await t.db.update(company).set({ billing_type: 'postpaid', abn: '53004085616' }).where(eq(company.id, companyId)).run();
    const shipper = await t.login('company', { companyId });

    t.clock.set(Date.UTC(2026, 0, 5, 9));
    const ids: number[] = [];
    for (const [hawb, postcode, count] of [
      ['PRN-000001', 2026, 2],
      ['PRN-000002', 2060, 1],
    ] as const) {
      const r = await t.json<Json>('POST', '/api/package/', shipper.token, {
        hawb,
        customer_name: 'Rita Recipient',
        customer_address: '12 King St',
        customer_phone: '0400 111 222',
        postcode,
        weight: 2.5,
        count,
      });
      expect(r.status).toBe(201);
      ids.push(r.body.id as number);
    }

    // Labels, 4x6: one page per piece, each scanned as the depot's scanner would.
    const labels = await saved(await t.call('GET', `/api/package/labels/?ids=${ids.join(',')}`, admin.token), 'labels');
    const lw = await pdfWords(labels);
    expect(lw.pages).toHaveLength(3);
    const expected = ['PRN-000001', 'PRN-000001', 'PRN-000002'];
    for (const [i, hawb] of expected.entries()) {
      const img = await greyPage(labels, i + 1);
      expect(decodeBarcode(img, [BarcodeFormat.CODE_128]), `label ${i + 1} Code 128`).toBe(hawb);
      expect(decodeBarcode(img, [BarcodeFormat.QR_CODE]), `label ${i + 1} QR`).toBe(hawb);
      // The shipper sends it and the courier carries it; the software's own name is nowhere.
      expect(line(lw.words, i + 1)).toMatch(/^FROM: Acme Widgets Swift Courier /);
      // The zone, whole, inside the black banner (found in the pixels, not assumed).
      const [top, bottom] = darkRunDown(img, 14);
      expect(bottom - top, 'banner height').toBeGreaterThan(50);
      const zone = i < 2 ? ['EASTERN', 'SUBURBS'] : ['NORTH', 'SHORE', 'AND', 'UPPER', 'NORTH', 'SHORE', 'BEACHES'];
      const inBanner = lw.words.filter((w) => w.page === i + 1 && w.y0 >= top - 1 && w.y0 <= bottom);
      expect(inBanner.map((w) => w.text)).toEqual(zone);
      for (const w of inBanner) {
        expect(w.y1, `${w.text} inside the banner`).toBeLessThanOrEqual(bottom + 0.5);
        expect(w.x0).toBeGreaterThanOrEqual(12);
        expect(w.x1).toBeLessThanOrEqual(276);
      }
    }
    expect(overprinted(lw.words)).toEqual([]);
    for (const w of lw.words) expect(w.x1 <= 288 && w.y1 <= 432, `${w.text} on the label`).toBe(true);

    // The driver's manifest: the header's words sit above the first row's, and nothing overprints.
    expect((await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: ids })).status).toBe(
      200,
    );
    const manifest = await saved(await t.call('GET', `/api/package/manifest/?driver=${driver.id}`, admin.token), 'manifest');
    const mw = (await pdfWords(manifest)).words;
    const header = mw.find((w) => w.text === 'Tracking') as Word;
    const first = mw.find((w) => w.text === 'PRN-000001') as Word;
    expect(header.y1).toBeLessThanOrEqual(first.y0);
    expect(overprinted(mw)).toEqual([]);
    expect(line(mw, 1)).toMatch(/^Swift Courier Driver manifest: Dan Driver /);

    // The statement (a tax invoice): the seller's names and the buyer, nothing overprinted.
    t.clock.set(Date.UTC(2026, 1, 2, 9));
    const inv = await t.json<Json>('POST', '/api/invoice/generate-invoice/', admin.token, {
      company: companyId,
      period_from: '2026-01-01',
      period_to: '2026-01-31',
    });
    expect(inv.status).toBe(201);
    const statement = await saved(await t.call('GET', `/api/invoice/${inv.body.id as number}/pdf/`, shipper.token), 'statement');
    const sw = (await pdfWords(statement)).words;
    const text = line(sw, 1);
    for (const words of [
      'TAX INVOICE Swift Parcels Pty Ltd Trading as Swift Courier',
      'Bill to Acme Widgets',
      'Total amount payable (incl. GST): 33.00 AUD',
    ])
      expect(text).toContain(words);
    expect(overprinted(sw)).toEqual([]);
    const page = await greyPage(statement, 1, 50);
    expect(page.data.some((v) => v < 64)).toBe(true); // drawn, not blank
  }, 180_000);
});
