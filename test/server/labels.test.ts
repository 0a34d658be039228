import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BarcodeFormat } from '@zxing/library';
import { describe, expect, it } from 'vitest';
import { makeApp } from '../helpers/app';
import { decodeBarcode, greyPage } from '../helpers/pdfRead';

const run = promisify(execFile);
const OUT = process.env.LABEL_PNG_DIR ?? mkdtempSync(join(tmpdir(), 'courier-labels-'));

/** Renders page 1 of a PDF to PNG with poppler (pdftoppm), as a person would look at it. */
async function render(bytes: ArrayBuffer, name: string, dpi = 150): Promise<string> {
  const pdf = join(OUT, `${name}.pdf`);
  writeFileSync(pdf, Buffer.from(bytes));
  await run('pdftoppm', ['-png', '-r', String(dpi), '-f', '1', '-l', '1', '-singlefile', pdf, join(OUT, name)]);
  return join(OUT, `${name}.png`);
}

const pages = (pdf: ArrayBuffer) =>
  (
    Buffer.from(pdf)
      .toString('latin1')
      .match(/\/Type \/Page\b/g) ?? []
  ).length;

describe('shipping labels and manifests (PDF)', () => {
  it('prints one 4x6 label per piece with a scannable Code 128 and QR of the tracking number; A4 puts four on a sheet; scope and input are checked', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const co = await t.login('company');
    const other = await t.login('company');
    const driver = await t.login('driver');
    const make = async (token: string, hawb: string, extra: Record<string, unknown> = {}) => {
      const r = await t.json<{ id: number }>('POST', '/api/package/', token, {
        hawb,
        customer_name: 'Rita Recipient',
        customer_address: '12 King St, Newtown',
        customer_phone: '0400 111 222',
        postcode: 2042,
        weight: 2.5,
        ...extra,
      });
      expect(r.status).toBe(201);
      return r.body.id;
    };
    const a = await make(co.token, 'LBL-000123', { count: 2 });
    const b = await make(co.token, 'LBL-000124');
    const theirs = await make(other.token, 'LBL-999');

    const one = await t.call('GET', `/api/package/${a}/label/`, co.token);
    expect(one.status).toBe(200);
    expect(one.headers.get('content-type')).toBe('application/pdf');
    const bytes = await one.arrayBuffer();
    expect(pages(bytes)).toBe(2); // two pieces
    await render(bytes, 'label-4x6');
    const img = await greyPage(join(OUT, 'label-4x6.pdf'));
    expect(decodeBarcode(img, [BarcodeFormat.CODE_128])).toBe('LBL-000123');
    expect(decodeBarcode(img, [BarcodeFormat.QR_CODE])).toBe('LBL-000123');
    expect([img.width, img.height]).toEqual([600, 900]); // 4 x 6 inches at 150 dpi

    const sheet = await t.call('GET', `/api/package/labels/?ids=${a},${b}&layout=a4`, admin.token);
    expect(sheet.status).toBe(200);
    const sheetBytes = await sheet.arrayBuffer();
    expect(pages(sheetBytes)).toBe(1); // three labels on one A4 sheet
    await render(sheetBytes, 'labels-a4', 100);

    expect((await t.call('GET', `/api/package/labels/?ids=${a},${theirs}`, co.token)).status).toBe(404);
    expect((await t.call('GET', `/api/package/${a}/label/`, driver.token)).status).toBe(403);
    expect((await t.call('GET', '/api/package/labels/?ids=1;2', admin.token)).status).toBe(400);
    expect((await t.call('GET', `/api/package/labels/?ids=${a}&layout=letter`, admin.token)).status).toBe(400);

    // A driver's manifest: their open parcels in order, staff only.
    expect((await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: [a, b] })).status).toBe(
      200,
    );
    const man = await t.call('GET', `/api/package/manifest/?driver=${driver.id}`, admin.token);
    expect(man.status).toBe(200);
    const manBytes = await man.arrayBuffer();
    await render(manBytes, 'manifest', 80);
    const text = (await run('pdftotext', ['-layout', join(OUT, 'manifest.pdf'), '-'])).stdout;
    expect(text).toContain('Driver manifest');
    expect(text).toMatch(/LBL-000123[\s\S]*LBL-000124/);
    expect(text).toContain('2 parcel(s), 3 piece(s), 5 kg');
    expect((await t.call('GET', `/api/package/manifest/?driver=${driver.id}`, co.token)).status).toBe(403);
    expect((await t.call('GET', '/api/package/manifest/', admin.token)).status).toBe(400);
    expect((await t.call('GET', '/api/package/manifest/?driver=999999', admin.token)).status).toBe(404);
  }, 60_000);
});
