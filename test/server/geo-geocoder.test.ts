import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { geocodeCache, packageEvent } from '../../server/db/schema/index';
import { createGeocodeWorker } from '../../server/services/geo/geocoder';
import type { PackageLocation } from '../../shared/schemas/location';
import { csvForm, locateWorld, type Json, type LocateWorld } from './geo-locate-fixtures';
import { nominatimHouse, sendJson, standIn } from './geo-standins';

type Pkg = Json & { id: number; latitude: number | null; longitude: number | null; zone: number | null; price: number | null };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()?.();
});

/** The worker with a hand-driven clock: rate limits and back-offs are checked without waiting. */
function worker(w: LocateWorld) {
  const clock = { now: 1_000_000, waits: [] as number[] };
  const wk = createGeocodeWorker(w.t.app.deps, {
    now: () => clock.now,
    sleep: async (ms) => {
      clock.waits.push(ms);
      clock.now += ms;
    },
    failureBackoffMs: 30_000,
  });
  return { wk, clock };
}
const loc = (w: LocateWorld, id: number) =>
  w.t.json<PackageLocation>('GET', `/api/package/${id}/location/`, w.admin.token).then((r) => r.body);

describe('the external geocoder (a Nominatim stand-in on loopback)', () => {
  it('an upload answers at once; its parcels fill in in the background, one request per address, cached and rate-limited', async () => {
    const w = await locateWorld();
    const geo = await standIn((url, _req, res) => {
      const q = url.searchParams.get('q') ?? '';
      if (url.pathname !== '/search' || url.searchParams.get('format') !== 'jsonv2') return sendJson(res, 400, { error: 'bad request' });
      if (q.includes('Hall')) return sendJson(res, 200, nominatimHouse(-33.8902, 151.274, '7, Hall Street, Bondi, 2026'));
      if (q.includes('Roscoe')) return sendJson(res, 200, nominatimHouse(-33.8899, 151.2712, '40, Roscoe Street, Bondi, 2026'));
      return sendJson(res, 200, []);
    });
    closers.push(geo.close);
    w.t.app.deps.config.geocoderUrl = `${geo.url}/search`;
    const csv = [
      'hawb,customer_address,postcode,postcode_name,latitude,longitude',
      'GC-1,7 Hall St,2026,Bondi,,',
      'GC-2,7 Hall Street,2026,Bondi,,',
      'GC-3,40 Roscoe St,2026,Bondi,,',
      'GC-4,1 Nowhere Lane,2026,Bondi,,',
      'GC-5,2 Hall St,2026,Bondi,-33.8911,151.2755',
    ].join('\n');
    const up = await w.t.json<Json & { geocode_job: number; located: Json; report: { id: number }[] }>(
      'POST',
      '/api/company-package/csv-upload/',
      w.shipper.token,
      csvForm(csv),
    );
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    // Answered before a single geocoder request: every parcel already has its master-data place, zone and price.
    expect(geo.requests).toHaveLength(0);
    expect(up.body.located).toMatchObject({ suburb: 4, exact: 1 });
    const ids = up.body.report.map((r) => r.id);
    expect(await loc(w, ids[0])).toMatchObject({ precision: 'suburb', pending: true, zone: w.east });
    expect(await loc(w, ids[4])).toMatchObject({ precision: 'exact', source: 'caller', pending: false });
    const progress = () => w.t.json<Json>('GET', `/api/geocode-job/${up.body.geocode_job}/`, w.shipper.token).then((r) => r.body);
    expect(await progress()).toMatchObject({ total: 4, done: 0, pending: 4 });
    expect((await w.t.json('GET', `/api/geocode-job/${up.body.geocode_job}/`, (await w.t.login('company')).token)).status).toBe(404);

    const { wk, clock } = worker(w);
    const run = await wk.runOnce();
    expect(run).toMatchObject({ asked: 3, fromCache: 1, located: 3, notFound: 1, failed: 0, rateLimited: false });
    // One request per configured interval (1 s): the worker waited before the 2nd and 3rd.
    expect(clock.waits).toEqual([1000, 1000]);
    expect(geo.requests.map((u) => u.searchParams.get('q'))).toEqual([
      '7 Hall St, Bondi, 2026',
      '40 Roscoe St, Bondi, 2026',
      '1 Nowhere Lane, Bondi, 2026',
    ]);
    expect(await progress()).toMatchObject({ total: 4, done: 4, pending: 0, located: { exact: 3, suburb: 1 } });
    const one = await loc(w, ids[0]);
    expect(one).toMatchObject({
      precision: 'exact',
      source: 'geocoder',
      latitude: -33.8902,
      longitude: 151.274,
      pending: false,
      zone: w.east,
    });
    expect(await loc(w, ids[3])).toMatchObject({ precision: 'suburb', geocode_status: 'not_found', pending: false });
    // Geocoding moves the point only: zone and price are those of acceptance.
    const p1 = (await w.t.json<Pkg>('GET', `/api/package/${ids[0]}/`, w.admin.token)).body;
    expect([p1.latitude, p1.zone, p1.price]).toEqual([-33.8902, w.east, 18]);
    expect((await w.t.db.select().from(packageEvent).where(eq(packageEvent.package_id, ids[0])).all()).map((e) => e.action)).toContain(
      'geocoded',
    );
    expect(await w.t.db.select().from(geocodeCache).all()).toHaveLength(3);

    // The cache answers the next parcel to a known address inside its own request, and remembers "not found" too.
    const again = await w.t.json<Pkg>('POST', '/api/package/', w.shipper.token, {
      hawb: 'GC-6',
      customer_address: '7 Hall St',
      postcode: 2026,
      postcode_name: 'Bondi',
    });
    expect(await loc(w, again.body.id)).toMatchObject({ precision: 'exact', source: 'geocoder', pending: false });
    const nowhere = await w.t.json<Pkg>('POST', '/api/package/', w.shipper.token, {
      hawb: 'GC-7',
      customer_address: '1 Nowhere Lane',
      postcode: 2026,
      postcode_name: 'Bondi',
    });
    expect(await loc(w, nowhere.body.id)).toMatchObject({ precision: 'suburb', pending: false });
    expect((await wk.runOnce()).asked).toBe(0);
    expect(geo.requests).toHaveLength(3);
  });

  it('survives a geocoder that rate-limits (429), fails (500) or hangs: requests never wait, parcels keep their master-data place', async () => {
    const w = await locateWorld();
    let busy = 0;
    const geo = await standIn((url, _req, res) => {
      const q = url.searchParams.get('q') ?? '';
      if (q.includes('Busy')) {
        busy += 1;
        return busy === 1
          ? sendJson(res, 429, { error: 'Too Many Requests' }, { 'retry-after': '7' })
          : sendJson(res, 200, nominatimHouse(-33.8901, 151.2701, 'Busy Rd'));
      }
      if (q.includes('Fail')) return sendJson(res, 500, { error: 'internal' });
      if (q.includes('Slow')) {
        setTimeout(() => {
          if (!res.writableEnded && !res.destroyed) sendJson(res, 200, []);
        }, 3000);
        return undefined;
      }
      return sendJson(res, 200, 'not a search answer');
    });
    closers.push(geo.close);
    Object.assign(w.t.app.deps.config, { geocoderUrl: `${geo.url}/search`, geocoderTimeoutMs: 200 });
    const mk = async (hawb: string, address: string) => {
      const r = await w.t.json<Pkg>('POST', '/api/package/', w.shipper.token, {
        hawb,
        customer_address: address,
        postcode: 2026,
        weight: 1,
      });
      expect(r.status).toBe(201);
      expect([r.body.zone, r.body.price, r.body.latitude]).toEqual([w.east, 18, -33.8915]);
      return r.body.id;
    };
    const busyId = await mk('GF-1', '1 Busy Rd');
    const failId = await mk('GF-2', '2 Fail St');
    const slowId = await mk('GF-3', '3 Slow St');
    const oddId = await mk('GF-4', '4 Odd St');
    expect(geo.requests).toHaveLength(0);

    const { wk, clock } = worker(w);
    expect(await wk.runOnce()).toMatchObject({ asked: 1, rateLimited: true });
    expect(await loc(w, busyId)).toMatchObject({ pending: true, geocode_status: 'rate_limited', precision: 'suburb' });
    // Paused for Retry-After (7 s): nothing is asked until then.
    clock.now += 6_000;
    expect((await wk.runOnce()).asked).toBe(0);
    expect(geo.requests).toHaveLength(1);
    clock.now += 1_000;
    expect(await wk.runOnce()).toMatchObject({ asked: 2, located: 1, failed: 1 });
    expect(await loc(w, busyId)).toMatchObject({ pending: false, precision: 'exact', source: 'geocoder', latitude: -33.8901 });
    expect(await loc(w, failId)).toMatchObject({ pending: false, geocode_status: 'failed', precision: 'suburb', latitude: -33.8915 });
    // After a failure it backs off before asking again.
    expect((await wk.runOnce()).asked).toBe(0);
    clock.now += 30_000;
    expect(await wk.runOnce()).toMatchObject({ asked: 1, failed: 1 });
    expect(await loc(w, slowId)).toMatchObject({ pending: false, geocode_status: 'timeout', precision: 'suburb' });
    clock.now += 30_000;
    expect(await wk.runOnce()).toMatchObject({ asked: 1, failed: 1 });
    expect(await loc(w, oddId)).toMatchObject({ geocode_status: 'failed' });
    // Failed parcels are listed for review; a failure is not cached, so a later parcel to that address is asked again.
    const review = await w.t.json<{ results: PackageLocation[] }>('GET', '/api/package/location-review/', w.admin.token);
    expect(review.body.results.map((r) => r.package)).toEqual([failId, slowId, oddId]);
    expect((await w.t.db.select().from(geocodeCache).all()).map((c) => c.found)).toEqual([true]);
  });

  it('without GEOCODER_URL nothing is queued and the worker asks nothing', async () => {
    const w = await locateWorld();
    const p = await w.t.json<Pkg>('POST', '/api/package/', w.shipper.token, {
      hawb: 'NG-1',
      customer_address: '1 Hall St',
      postcode: 2026,
    });
    expect(await loc(w, p.body.id)).toMatchObject({ precision: 'suburb', pending: false });
    expect(await worker(w).wk.runOnce()).toMatchObject({ asked: 0 });
  });
});
