import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { company, walletTxn } from '../../server/db/schema/index';
import { companyWithKey, webhookCall } from './webhooks-helpers';
import { csvForm, locateWorld, type Json } from './geo-locate-fixtures';

type Pkg = Json & {
  id: number;
  zone: number | null;
  suburb: number | null;
  state: number | null;
  latitude: number | null;
  longitude: number | null;
  price: number | null;
};

/** The findings of issue 16, section 1, through the endpoints that existed before it: each failed then. */
describe('every parcel gets a place (issue 16 findings)', () => {
  it("a CSV whose addresses name master-data suburbs: every parcel has coordinates, suburb, zone and the zone's price, with no geocoder", async () => {
    const w = await locateWorld();
    const csv = [
      'hawb,customer_name,customer_address,postcode,postcode_name',
      'CSV-1,Ann,12 Campbell Pde,2026,Bondi',
      'CSV-2,Bob,3 Hall St,2026,Bondi',
      'CSV-3,Cy,1 George St,2000,Sydney',
      'CSV-4,Di,9 Hay St,2000,Haymarket',
      'CSV-5,Ed,"40 Roscoe St, Bondi",2026,',
    ].join('\n');
    const up = await w.t.json<Json & { created: number; report: { id: number }[] }>(
      'POST',
      '/api/company-package/csv-upload/',
      w.shipper.token,
      csvForm(csv),
    );
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.created).toBe(5);
    const got: Pkg[] = [];
    for (const r of up.body.report) got.push((await w.t.json<Pkg>('GET', `/api/package/${r.id}/`, w.shipper.token)).body);
    for (const p of got) {
      expect(p.latitude, `${String(p.hawb)} latitude`).not.toBeNull();
      expect(p.longitude).not.toBeNull();
      expect(p.suburb, `${String(p.hawb)} suburb`).not.toBeNull();
      expect(p.zone, `${String(p.hawb)} zone`).not.toBeNull();
      expect(p.state).toBe(w.nsw);
      expect(p.coordinates).toEqual({ latitude: p.latitude, longitude: p.longitude });
    }
    expect(got.map((p) => [p.hawb, p.suburb, p.zone, p.price])).toEqual([
      ['CSV-1', w.bondi, w.east, 18],
      ['CSV-2', w.bondi, w.east, 18],
      ['CSV-3', w.sydney, w.city, 15],
      ['CSV-4', w.haymarket, w.city, 15],
      ['CSV-5', w.bondi, w.east, 18],
    ]);
    // The street with a position places CSV-1 on Campbell Pde, the others at their suburb.
    expect([got[0].latitude, got[0].longitude]).toEqual([-33.8908, 151.2743]);
    expect([got[1].latitude, got[1].longitude]).toEqual([-33.8915, 151.2767]);
    expect([got[3].latitude, got[3].longitude]).toEqual([-33.8793, 151.2049]);

    // A sheet may name the suburb in a `suburb` column, as people write it.
    const named = await w.t.json<Json & { report: { id: number }[] }>(
      'POST',
      '/api/company-package/csv-upload/',
      w.shipper.token,
      csvForm('hawb,postcode,suburb\nCSV-6,2000,Haymarket\n'),
    );
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    const six = (await w.t.json<Pkg>('GET', `/api/package/${named.body.report[0].id}/`, w.shipper.token)).body;
    expect([six.suburb, six.zone, six.price, six.postcode_name]).toEqual([w.haymarket, w.city, 15, 'Haymarket']);
  });

  it('a parcel with a postcode but no suburb is priced in its zone (18.00, not 25.00), as its quote says', async () => {
    const w = await locateWorld();
    const quote = await w.t.json<Json>('POST', '/api/package/price/', w.shipper.token, { weight: 1, postcode: 2026 });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body.price).toBe(18);
    const rateQuote = await w.t.json<Json>('POST', '/api/delivery-rate/quote/', w.shipper.token, { weight: 1, postcode: 2026 });
    expect(rateQuote.body.price).toBe(18);
    const created = await w.t.json<Pkg>('POST', '/api/package/', w.shipper.token, {
      hawb: 'PC-1',
      postcode: 2026,
      customer_address: '5 Hall St',
      weight: 1,
    });
    expect(created.status).toBe(201);
    expect([created.body.zone, created.body.suburb, created.body.price]).toEqual([w.east, w.bondi, 18]);
    expect(created.body.latitude).toBe(-33.8915);
    // A postcode shared by two suburbs of one zone: the zone and its price, at the postcode's centroid.
    const shared = await w.t.json<Pkg>('POST', '/api/package/', w.shipper.token, { hawb: 'PC-2', postcode: 2000, weight: 1 });
    expect([shared.body.zone, shared.body.suburb, shared.body.price]).toEqual([w.city, null, 15]);
    expect(shared.body.latitude).toBeCloseTo((-33.8688 - 33.8793) / 2, 6);
  });

  it('a depot scan that changes the zone re-prices the parcel: quote, creation and scan agree', async () => {
    const w = await locateWorld();
    const created = await w.t.json<Pkg>('POST', '/api/package/', w.shipper.token, { hawb: 'DS-1', postcode: 2026, weight: 1 });
    expect([created.body.zone, created.body.price]).toEqual([w.east, 18]);
    // The office moves Bondi to zone West (30.00) before the parcel reaches the depot.
    await w.t.json('POST', '/api/delivery-rate/', w.admin.token, { currency: 'AUD', name: 'West', zone: w.west, base_cents: 3000 });
    expect((await w.t.json('PATCH', `/api/suburb/${w.bondi}/`, w.admin.token, { zone: w.west })).status).toBe(200);
    const scan = await w.t.json<Json & { package: Pkg }>('POST', '/api/scan-package-api/scan-assign-zone/', w.depot.token, {
      barcode: 'DS-1',
    });
    expect(scan.status, JSON.stringify(scan.body)).toBe(200);
    const after = (await w.t.json<Pkg>('GET', `/api/package/${created.body.id}/`, w.admin.token)).body;
    expect([after.zone, after.price]).toEqual([w.west, 30]);
    const quote = await w.t.json<Json>('POST', '/api/package/price/', w.shipper.token, { weight: 1, postcode: 2026 });
    expect(quote.body.price).toBe(30);
    // The ledger: the charge at acceptance and the difference at the depot; a cancel refunds what it finally cost.
    const ledger = async () =>
      (await w.t.db.select().from(walletTxn).where(eq(walletTxn.package_id, created.body.id)).orderBy(walletTxn.id).all()).map((r) => [
        r.kind,
        r.amount_cents,
      ]);
    expect(await ledger()).toEqual([
      ['charge', -1800],
      ['reprice', -1200],
    ]);
    expect((await w.t.json('POST', `/api/package/${created.body.id}/status-change/`, w.admin.token, { status: 'cancelled' })).status).toBe(
      200,
    );
    expect(await ledger()).toEqual([
      ['charge', -1800],
      ['reprice', -1200],
      ['refund', 3000],
    ]);
    const own = await w.t.json<Json>('GET', `/api/package/${created.body.id}/price/`, w.admin.token);
    expect(own.body.price).toBe(30);
  });

  it('every other path in is located the same way: staff Excel upload, pickup webhook create and update, edit', async () => {
    const w = await locateWorld();
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Parcels');
    ws.addRow(['hawb', 'customer_address', 'postcode', 'postcode_name', 'weight']);
    ws.addRow(['XL-1', '12 Campbell Parade', 2026, 'Bondi', 1]);
    ws.addRow(['XL-2', '9 Hay St', 2000, 'Haymarket', 1]);
    const form = new FormData();
    form.append('file', new File([new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer)], 'parcels.xlsx'));
    form.append('company', String(w.shipperId));
    const xl = await w.t.json<Json & { report: { id: number }[]; located: Json }>(
      'POST',
      '/api/package/excel-upload/',
      w.admin.token,
      form,
    );
    expect(xl.status, JSON.stringify(xl.body)).toBe(200);
    expect(xl.body.located).toMatchObject({ street: 1, suburb: 1 });
    const [a, b] = await Promise.all(
      xl.body.report.map((r) => w.t.json<Pkg>('GET', `/api/package/${r.id}/`, w.admin.token).then((x) => x.body)),
    );
    expect([a.suburb, a.zone, a.price, a.latitude]).toEqual([w.bondi, w.east, 18, -33.8908]);
    expect([b.suburb, b.zone, b.price]).toEqual([w.haymarket, w.city, 15]);

    const co = await companyWithKey(w.t, 'Webhook Co');
    await w.t.db.update(company).set({ billing_type: 'postpaid' }).where(eq(company.id, co.id)).run();
    const hook = await webhookCall(w.t, 'POST', co, { hawb: 'WH-1', customer_address: '3 Hall St', postcode: 2026, weight: 1 });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const hookId = hook.body.package.id as number;
    const viaHook = (await w.t.json<Pkg>('GET', `/api/package/${hookId}/`, w.admin.token)).body;
    expect([viaHook.suburb, viaHook.zone, viaHook.price, viaHook.latitude]).toEqual([w.bondi, w.east, 18, -33.8915]);
    // The company moves the pickup to Haymarket: located again, and priced for City.
    expect((await webhookCall(w.t, 'PATCH', co, { hawb: 'WH-1', postcode: 2000, postcode_name: 'Haymarket' })).status).toBe(200);
    const moved = (await w.t.json<Pkg>('GET', `/api/package/${hookId}/`, w.admin.token)).body;
    expect([moved.suburb, moved.zone, moved.price, moved.latitude]).toEqual([w.haymarket, w.city, 15, -33.8793]);

    // An edit that sends coordinates keeps them (exact); one that changes only the name keeps the caller's point out of it.
    const p = await w.t.json<Pkg>('POST', '/api/package/', w.shipper.token, { hawb: 'ED-1', postcode: 2026, weight: 1 });
    const pinned = await w.t.json<Pkg>('PATCH', `/api/package/${p.body.id}/`, w.shipper.token, { latitude: -33.8899, longitude: 151.2712 });
    expect([pinned.body.latitude, pinned.body.zone, pinned.body.price]).toEqual([-33.8899, w.east, 18]);
    const renamed = await w.t.json<Pkg>('PATCH', `/api/package/${p.body.id}/`, w.shipper.token, { customer_name: 'New name' });
    expect(renamed.body.latitude).toBe(-33.8899);
    const readdressed = await w.t.json<Pkg>('PATCH', `/api/package/${p.body.id}/`, w.shipper.token, {
      postcode: 2000,
      postcode_name: 'Sydney',
    });
    expect([readdressed.body.latitude, readdressed.body.suburb, readdressed.body.zone, readdressed.body.price]).toEqual([
      -33.8688,
      w.sydney,
      w.city,
      15,
    ]);
  });
});
