import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { packagePhoto, storedFile } from '../../server/db/schema/index';
import { makeApp, type TestApp } from '../helpers/app';
import { reportWorld } from './reports-fixtures';

type Kpi = Record<string, unknown>;
const PERIOD = 'from=2026-01-05&to=2026-01-06';

async function sheetOf(res: Response): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(await res.arrayBuffer());
  const ws = wb.worksheets[0];
  const rows: unknown[][] = [];
  ws?.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return rows;
}
async function csvOf(res: Response): Promise<string[][]> {
  return parse(await res.text(), { bom: true }) as string[][];
}
const get = (t: TestApp, path: string, token: string) => t.call('GET', path, token);

describe('return reports', () => {
  it('driver KPIs by day: delivered, failed, first-attempt and on-time rates, parcels per hour', async () => {
    const t = await makeApp();
    const w = await reportWorld(t);
    const res = await t.json<{ count: number; results: Kpi[]; period: Kpi }>('GET', `/api/report/driver-kpi/?${PERIOD}`, w.admin.token);
    expect(res.status).toBe(200);
    expect(res.body.period).toEqual({ from: '2026-01-05', to: '2026-01-06', time_zone: 'UTC', utc_offset: 0 });
    // Worked out by hand from the fixture's timeline (see reports-fixtures.ts).
    expect(res.body.results).toEqual([
      expect.objectContaining({
        date: '2026-01-05',
        driver: w.a.id,
        driver_name: 'Alice Driver',
        delivered: 2,
        failed: 1,
        first_attempts: 3,
        first_attempt_success_rate: 0.6667,
        on_time_eligible: 2,
        on_time_rate: 0.5,
        parcels_per_hour: 1,
        first_delivery_at: '2026-01-05T09:00:00.000Z',
        last_delivery_at: '2026-01-05T11:00:00.000Z',
      }),
      expect.objectContaining({
        date: '2026-01-05',
        driver: w.b.id,
        delivered: 0,
        failed: 1,
        first_attempts: 1,
        first_attempt_success_rate: 0,
        on_time_eligible: 0,
        on_time_rate: null,
        parcels_per_hour: null,
      }),
      expect.objectContaining({
        date: '2026-01-06',
        driver: w.b.id,
        delivered: 2,
        failed: 1,
        first_attempts: 1,
        first_attempt_success_rate: 1,
        on_time_eligible: 1,
        on_time_rate: 1,
        parcels_per_hour: 0.67,
      }),
    ]);
    expect(res.body.count).toBe(3);

    // Days are the courier's: at UTC+10 Bob's 15:00Z failure falls on the 6th, Alice's morning on the 5th.
    const sydney = await t.json<{ results: Kpi[] }>(
      'GET',
      '/api/report/driver-kpi/?from=2026-01-06&to=2026-01-06&utc_offset=600',
      w.admin.token,
    );
    expect(sydney.body.results).toEqual([
      expect.objectContaining({
        date: '2026-01-06',
        driver: w.b.id,
        delivered: 2,
        failed: 2,
        first_attempts: 2,
        first_attempt_success_rate: 0.5,
      }),
    ]);

    const csv = await get(t, `/api/report/driver-kpi/csv/?${PERIOD}`, w.admin.token);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('x-total-rows')).toBe('3');
    const rows = await csvOf(csv);
    expect(rows[0]?.slice(0, 4)).toEqual(['Date', 'Driver id', 'Driver', 'Delivered']);
    expect(rows.slice(1).map((r) => [r[0], r[2], r[3], r[4], r[6], r[8], r[9]])).toEqual([
      ['2026-01-05', 'Alice Driver', '2', '1', '0.6667', '0.5', '1'],
      ['2026-01-05', 'Bob Driver', '0', '1', '0', '', ''],
      ['2026-01-06', 'Bob Driver', '2', '1', '1', '1', '0.67'],
    ]);
  });

  it('driver report over the period, as JSON and as a spreadsheet', async () => {
    const t = await makeApp();
    const w = await reportWorld(t);
    const res = await t.json<{ results: Kpi[] }>('GET', `/api/report/driver/delivery-report/?${PERIOD}`, w.admin.token);
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      expect.objectContaining({
        date: null,
        driver: w.a.id,
        delivered: 2,
        failed: 1,
        first_attempts: 3,
        first_attempt_success_rate: 0.6667,
        on_time_rate: 0.5,
        parcels_per_hour: 1,
      }),
      expect.objectContaining({
        date: null,
        driver: w.b.id,
        delivered: 2,
        failed: 2,
        first_attempts: 2,
        first_attempt_success_rate: 0.5,
        on_time_rate: 1,
        parcels_per_hour: 0.67,
      }),
    ]);
    const one = await t.json<{ results: Kpi[] }>('GET', `/api/report/driver/delivery-report/?${PERIOD}&driver=${w.b.id}`, w.admin.token);
    expect(one.body.results.map((r) => r.driver)).toEqual([w.b.id]);

    const xlsx = await get(t, `/api/report/driver/excel-download/?${PERIOD}`, w.admin.token);
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-disposition')).toContain('drivers_2026-01-05_2026-01-06.xlsx');
    const rows = await sheetOf(xlsx);
    expect(rows[0]?.[1]).toBe('Driver');
    expect(rows.slice(1).map((r) => [r[1], r[2], r[3]])).toEqual([
      ['Alice Driver', 2, 1],
      ['Bob Driver', 2, 2],
    ]);
  });

  it('delivery report (xlsx and csv) and failed report, filtered, with formulas neutralised', async () => {
    const t = await makeApp();
    const w = await reportWorld(t);
    const xlsx = await get(t, `/api/report/delivery/excel-download/?${PERIOD}`, w.admin.token);
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('x-total-rows')).toBe('4');
    expect(xlsx.headers.get('content-length')).toBeNull();
    const rows = await sheetOf(xlsx);
    expect(rows.length).toBe(5);
    const byHawb = new Map(rows.slice(1).map((r) => [r[2], r]));
    expect([...byHawb.keys()]).toEqual(['P1', 'P2', 'P3', 'P5']);
    expect(byHawb.get('P1')?.[4]).toBe('\'=HYPERLINK("http://evil.example","x")');
    expect(byHawb.get('P1')?.[11]).toBe('yes');
    expect(byHawb.get('P2')?.[11]).toBe('no');
    expect(byHawb.get('P3')?.[13]).toBe(1);

    const csv = await get(t, `/api/report/delivery/excel-download/?${PERIOD}&format=csv&zone=${w.z2}`, w.admin.token);
    const lines = await csvOf(csv);
    expect(lines.slice(1).map((r) => r[2])).toEqual(['P3', 'P5']);

    const failed = await t.json<{ count: number; results: Kpi[] }>('GET', `/api/report/delivery/failed-report/?${PERIOD}`, w.admin.token);
    expect(failed.status).toBe(200);
    expect(failed.body.count).toBe(3);
    expect(failed.body.results.map((r) => [r.hawb, r.attempt_no, r.driver])).toEqual([
      ['P3', 1, w.a.id],
      ['P4', 1, w.b.id],
      ['P4', 2, w.b.id],
    ]);
    const paged = await t.json<{ count: number; next: string | null; results: Kpi[] }>(
      'GET',
      `/api/report/delivery/failed-report/?${PERIOD}&page_size=2&page=2`,
      w.admin.token,
    );
    expect(paged.body.results.map((r) => r.attempt_no)).toEqual([2]);
    const failedXlsx = await sheetOf(
      await get(t, `/api/report/delivery/failed-report/excel-download/?${PERIOD}&driver=${w.b.id}`, w.admin.token),
    );
    expect(failedXlsx.length).toBe(3);

    expect((await t.json('GET', '/api/report/delivery/failed-report/?from=2026-01-06&to=2026-01-05', w.admin.token)).status).toBe(400);
    expect((await t.json('GET', '/api/report/delivery/failed-report/?from=2025-01-01&to=2026-01-05', w.admin.token)).status).toBe(400);
    expect((await t.json('GET', '/api/report/delivery/failed-report/?from=yesterday', w.admin.token)).status).toBe(400);
    expect((await t.json('GET', `/api/report/delivery/failed-report/?${PERIOD}`, w.a.token)).status).toBe(403);
    expect((await t.json('GET', `/api/report/delivery/failed-report/?${PERIOD}`, null)).status).toBe(401);
  });
});

describe('company reports', () => {
  it('company report and KPIs; a company sees only its own', async () => {
    const t = await makeApp();
    const w = await reportWorld(t);
    const wide = 'from=2026-01-04&to=2026-01-06';
    const report = await t.json<{ results: Kpi[] }>('GET', `/api/report/company/?${wide}`, w.admin.token);
    expect(report.status).toBe(200);
    expect(report.body.results).toEqual([
      {
        company: w.x,
        company_name: 'Xpress Goods',
        created: 4,
        by_status: { delivered: 3, created: 1 },
        delivered: 3,
        failed: 0,
        first_attempt_success_rate: 1,
        on_time_rate: 0.6667,
      },
      {
        company: w.y,
        company_name: 'Yonder Supplies',
        created: 2,
        by_status: { delivered: 1, failed: 1 },
        delivered: 1,
        failed: 3,
        first_attempt_success_rate: 0,
        on_time_rate: null,
      },
    ]);
    const own = await t.json<{ results: Kpi[] }>('GET', `/api/report/company/?${wide}`, w.coY.token);
    expect(own.body.results.map((r) => r.company)).toEqual([w.y]);
    expect((await t.json('GET', `/api/report/company/?${wide}&company=${w.x}`, w.coY.token)).status).toBe(404);

    const kpi = await t.json<{ results: Kpi[] }>('GET', `/api/report/company-kpi/?${PERIOD}`, w.admin.token);
    expect(kpi.body.results).toEqual([
      expect.objectContaining({
        date: '2026-01-05',
        company: w.x,
        delivered: 2,
        failed: 0,
        first_attempt_success_rate: 1,
        on_time_rate: 0.5,
        parcels_per_hour: 1,
      }),
      expect.objectContaining({
        date: '2026-01-05',
        company: w.y,
        delivered: 0,
        failed: 2,
        first_attempts: 2,
        first_attempt_success_rate: 0,
      }),
      expect.objectContaining({
        date: '2026-01-06',
        company: w.x,
        delivered: 1,
        failed: 0,
        first_attempt_success_rate: 1,
        on_time_rate: 1,
        parcels_per_hour: null,
      }),
      expect.objectContaining({
        date: '2026-01-06',
        company: w.y,
        delivered: 1,
        failed: 1,
        first_attempts: 0,
        first_attempt_success_rate: null,
        on_time_rate: null,
      }),
    ]);
    const kpiX = await sheetOf(await get(t, `/api/report/company-kpi/excel-download/?${PERIOD}`, w.coX.token));
    expect(kpiX.slice(1).map((r) => [r[0], r[2], r[3]])).toEqual([
      ['2026-01-05', 'Xpress Goods', 2],
      ['2026-01-06', 'Xpress Goods', 1],
    ]);

    const companies = await csvOf(await get(t, `/api/report/company/excel-download/?${wide}&format=csv`, w.admin.token));
    expect(companies.slice(1).map((r) => [r[1], r[2]])).toEqual([
      ['Xpress Goods', '4'],
      ['Yonder Supplies', '2'],
    ]);

    // The driver KPI report seen by a company counts only its parcels.
    const driverKpi = await t.json<{ results: Kpi[] }>('GET', `/api/report/driver-kpi/?${PERIOD}`, w.coX.token);
    expect(driverKpi.body.results.map((r) => [r.date, r.driver, r.delivered, r.failed])).toEqual([
      ['2026-01-05', w.a.id, 2, 0],
      ['2026-01-06', w.b.id, 1, 0],
    ]);
  });

  it('package list and package export (csv and xlsx) of the logged-in company', async () => {
    const t = await makeApp();
    const w = await reportWorld(t);
    const wide = 'from=2026-01-04&to=2026-01-06';
    const list = await t.json<{ count: number; results: Kpi[] }>('GET', `/api/report/company/package-list/?${wide}`, w.coX.token);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(4);
    expect(list.body.results.map((p) => p.hawb)).toEqual(['P1', 'P2', 'P5', 'P7']);
    expect((await t.json('GET', `/api/report/company/package-list/?${wide}&company=${w.y}`, w.coX.token)).status).toBe(404);

    const csv = await get(t, `/api/report/company/package-excel-download/?${wide}&format=csv`, w.coX.token);
    expect(csv.headers.get('x-total-rows')).toBe('4');
    const rows = await csvOf(csv);
    const name = rows[0]?.indexOf('customer_name') ?? -1;
    expect(rows.slice(1).map((r) => r[1])).toEqual(['P1', 'P2', 'P5', 'P7']);
    expect(rows[1]?.[name]).toBe('\'=HYPERLINK("http://evil.example","x")');

    const xlsx = await sheetOf(await get(t, `/api/report/company/package-excel-download/?${wide}`, w.admin.token));
    expect(xlsx.slice(1).map((r) => r[1])).toEqual(['P1', 'P2', 'P3', 'P4', 'P5', 'P7']);
    expect(xlsx[1]?.[6]).toBe('\'=HYPERLINK("http://evil.example","x")');
  });

  it('POD report: a PDF with the delivery photos, paged', async () => {
    const t = await makeApp();
    const w = await reportWorld(t);
    const png = new Uint8Array(await QRCode.toBuffer('proof photo', { type: 'png', width: 200 }));
    const key = await t.app.deps.files.put(png);
    const now = t.clock.now();
    const file = await t.db
      .insert(storedFile)
      .values({ key, sha256: 'x'.repeat(64), mime: 'image/png', size: png.byteLength, kind: 'photo', owner_id: w.a.id, created_at: now })
      .returning()
      .get();
    await t.db
      .insert(packagePhoto)
      .values({ package_id: w.ids.p1, slot: 'photo_one', file_id: file.id, added_by: w.a.id, created_at: now })
      .run();
    await t.db
      .insert(packagePhoto)
      .values({ package_id: w.ids.p1, slot: 'signature', file_id: file.id, added_by: w.a.id, created_at: now })
      .run();

    const res = await get(t, `/api/report/company/pod-report/?${PERIOD}`, w.coX.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('x-total-rows')).toBe('3');
    const pdf = Buffer.from(await res.arrayBuffer()).toString('latin1');
    expect(pdf.startsWith('%PDF-')).toBe(true);
    // Two images placed (a PNG with alpha also carries its mask as an image object).
    expect(pdf.match(/\/Subtype \/Image/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);

    const second = await get(t, `/api/report/company/pod-report/?${PERIOD}&page_size=2&page=2`, w.coX.token);
    expect(second.headers.get('x-total-pages')).toBe('2');
    const secondPdf = Buffer.from(await second.arrayBuffer()).toString('latin1');
    expect(secondPdf.includes('/Subtype /Image')).toBe(false);
    expect((await t.json('GET', `/api/report/company/pod-report/?${PERIOD}&company=${w.y}`, w.coX.token)).status).toBe(404);
  });
});
