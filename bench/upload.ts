import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ExcelJS from 'exceljs';
import { createApp } from '../server/app';
import { systemClock } from '../server/clock';
import { openDatabase } from '../server/db/client';
import { company, country, state, suburb, user, zone } from '../server/db/schema/index';
import { diskFileStore } from '../server/files';
import { hashPasswordSync } from '../server/services/auth/passwords';

/**
 * A company's 10,000-row CSV through POST package/bulk-upload/ on a file database, once without
 * rate cards and once priced and charged to a prepaid wallet (the ledger path per parcel); and the
 * same rows as an .xlsx through POST package/excel-upload/.
 */
async function uploadRun(
  rows: number,
  charged: boolean,
  located = false,
  format: 'csv' | 'xlsx' = 'csv',
): Promise<{ ms: number; created: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'courier-upload-bench-'));
  const db = await openDatabase(join(dir, 'c.db'));
  const app = createApp({ db, files: diskFileStore(join(dir, 'files')), clock: systemClock });
  const now = Date.now();
  const hash = hashPasswordSync('bench-password', 1024);
  const co = await db
    .insert(company)
    .values({ name: 'Bulk Co', code: 'BULK', email: 'bulk@bench.test', billing_type: 'prepaid', created_at: now, updated_at: now })
    .returning()
    .get();
  await db
    .insert(user)
    .values({ name: 'Admin', email: 'a@bench.test', role: 'admin', password_hash: hash, created_at: now, updated_at: now })
    .run();
  const json = async (path: string, token: string | null, body: unknown) => {
    const res = await app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Record<string, unknown>;
  };
  const token = (await json('/api/auth/web-login/', null, { email: 'a@bench.test', password: 'bench-password' })).token as string;
  if (charged) {
    await json('/api/delivery-rate/', token, { name: 'Flat', base_cents: 900 });
    await json('/api/wallet/prepaid-recharge-by-company/', token, { company: co.id, amount_cents: 900 * rows });
  }
  const csv = [
    located
      ? 'hawb,company,customer_name,customer_address,weight,postcode,postcode_name'
      : 'hawb,company,customer_name,customer_address,weight',
  ];
  if (located) {
    // Issue 16: every row names one of 200 master-data suburbs (4 per postcode) and is located by the resolver.
    const au = (await db.insert(country).values({ name: 'Australia', created_at: now, updated_at: now }).returning().get()).id;
    const st = (await db.insert(state).values({ name: 'NSW', country_id: au, created_at: now, updated_at: now }).returning().get()).id;
    const z = (await db.insert(zone).values({ name: 'Metro', created_at: now, updated_at: now }).returning().get()).id;
    for (let s = 0; s < 200; s++) {
      await db
        .insert(suburb)
        .values({
          name: `Suburb ${s}`,
          postcode: String(2000 + Math.floor(s / 4)),
          state_id: st,
          zone_id: z,
          latitude: -33.8 - s / 1000,
          longitude: 151.2 + s / 1000,
          created_at: now,
          updated_at: now,
        })
        .run();
    }
  }
  for (let i = 0; i < rows; i++) {
    const s = i % 200;
    csv.push(
      `UP${String(i).padStart(7, '0')},${co.id},Receiver ${i},${i} Bulk St,${1 + (i % 9)}${located ? `,${2000 + Math.floor(s / 4)},Suburb ${s}` : ''}`,
    );
  }
  const form = new FormData();
  if (format === 'csv') form.append('file', new File([csv.join('\n')], 'bulk.csv', { type: 'text/csv' }));
  else {
    // The same rows as a workbook the way Excel stores one (the sheet before its shared strings).
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Parcels');
    for (const line of csv) sheet.addRow(line.split(','));
    form.append('file', new File([new Uint8Array(await wb.xlsx.writeBuffer())], 'bulk.xlsx'));
  }
  const t0 = performance.now();
  const res = await app.request(`/api/package/${format === 'csv' ? 'bulk' : 'excel'}-upload/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const ms = Math.round(performance.now() - t0);
  const body = (await res.json()) as { created?: number };
  if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  await db.$engine.close();
  return { ms, created: body.created ?? 0 };
}

export async function runUploadBench(): Promise<void> {
  console.log('| 10,000-row CSV upload | ms | rows/s |');
  console.log('|---|---:|---:|');
  for (const charged of [false, true]) {
    const r = await uploadRun(10_000, charged);
    console.log(`| ${charged ? 'priced + charged (prepaid)' : 'no rate card'} | ${r.ms} | ${Math.round((r.created / r.ms) * 1000)} |`);
  }
  {
    const r = await uploadRun(10_000, true, true);
    console.log(`| located from master data (postcode + suburb), priced + charged | ${r.ms} | ${Math.round((r.created / r.ms) * 1000)} |`);
  }
  {
    const r = await uploadRun(10_000, false, false, 'xlsx');
    console.log(`| the same rows as an .xlsx (Excel upload), no rate card | ${r.ms} | ${Math.round((r.created / r.ms) * 1000)} |`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runUploadBench();
