/**
 * Cold storage, the lists across parcels (docs/decisions-data-layer.md, "Cold storage"): the proof
 * lists, the attempts list and an old route's parcels and POD are read before the move, the parcels
 * move, and the same reads answer the same to the same people, mixing hot and cold parcels in one page.
 */
import { describe, expect, it } from 'vitest';
import { DAY_MS, moveToHistory } from '../../server/services/history/move';
import { again, emptyLookups, fillLookups, png, richWorld, type Json, type Page } from '../helpers/historyWorld';

/** richWorld plus a route run the same week: two stops delivered with photos, one failed (it stays hot). */
async function routeWorld() {
  const w = await richWorld();
  const { t, admin, driver, shipper, post } = w;
  const stops: number[] = [];
  for (const hawb of ['ROUTE-1', 'ROUTE-2', 'ROUTE-3']) {
    const r = await post<{ id: number }>('/api/package/', shipper.token, {
      hawb,
      customer_name: `Customer ${hawb}`,
      customer_phone: '0400 000 000',
    });
    expect(r.status).toBe(201);
    stops.push(r.body.id);
    await w.move(r.body.id, 'received', 'receive', admin.id);
  }
  const day = new Date(t.clock.now()).toISOString().slice(0, 10);
  const made = await post<{ route: { id: number } }>('/api/route/', admin.token, {
    name: 'Run A',
    date: day,
    driver: driver.id,
    packages: [stops[2], stops[0], stops[1]],
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  for (const id of stops) await w.move(id, 'out_for_delivery', 'load', driver.id);
  for (const [i, id] of stops.slice(0, 2).entries()) {
    const photo = await t.upload(driver.token, png(20 + i), { client_id: `route-photo-${i}`, kind: 'photo' });
    const r = await post(`/api/package-delivered/${id}/deliver/`, driver.token, { recipient_name: `Rob ${i}`, photo_one: photo });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
  const reason = await post<{ id: number }>('/api/failed-delivery-status/', admin.token, { name: 'Closed' });
  expect((await post(`/api/package-delivered/${stops[2]}/fail/`, driver.token, { failed_delivery_status: reason.body.id })).status).toBe(
    200,
  );
  return { ...w, route: made.body.route.id, stops, day };
}

describe('cold storage: lists across parcels read both sides', () => {
  it('the proof lists, the attempts list and an old route answer as before the move, to the same people', async () => {
    const w = await routeWorld();
    const { t, admin, driver, shipper, other, ids, route, day } = w;
    const get = async <T = Json>(path: string, token = admin.token) => {
      const r = await t.json<T>('GET', path, token);
      expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
      return r.body;
    };
    const hawbs = (p: Page) => p.results.map((r) => r.hawb);

    const reads = async () => ({
      // Parcels with proof: staff, paged, one parcel; the driver; the shipper; another company.
      proofs: await get<Page>('/api/photo-upload/?page_size=50'),
      proofPages: await Promise.all([1, 2, 3, 4].map((n) => get<Page>(`/api/photo-upload/?page_size=3&page=${n}`))),
      proofOne: await get<Page>(`/api/photo-upload/?package=${ids[1]}`),
      proofsByDriver: await get<Page>('/api/photo-upload/?page_size=50', driver.token),
      proofsByShipper: await get<Page>('/api/photo-upload/?page_size=50', shipper.token),
      proofsByOther: await get<Page>('/api/photo-upload/', other.token),
      // Delivered parcels with proof: all, by driver, by day, paged; each caller's own.
      delivered: await get<Page>('/api/package-delivered/?page_size=50'),
      deliveredPages: await Promise.all([1, 2, 3].map((n) => get<Page>(`/api/package-delivered/?page_size=4&page=${n}`))),
      deliveredByDay: await get<Page>(`/api/package-delivered/?date_from=${day}&date_to=${day}&driver=${driver.id}`),
      deliveredByDriver: await get<Page>('/api/package-delivered/', driver.token),
      deliveredByShipper: await get<Page>('/api/package-delivered/?page_size=50', shipper.token),
      // Failed attempts: all, paged, of one parcel, the driver's, the shipper's, another company's.
      attempts: await get<Page>('/api/delivery-attempt/'),
      attemptPages: await Promise.all([1, 2, 3].map((n) => get<Page>(`/api/delivery-attempt/?page_size=1&page=${n}`))),
      attemptsOfOne: await get<Page>(`/api/delivery-attempt/?package=${ids[0]}`),
      attemptsByDriver: await get<Page>(`/api/delivery-attempt/?driver=${driver.id}`, driver.token),
      attemptsByShipper: await get<Page>('/api/delivery-attempt/', shipper.token),
      attemptsByOther: await get<Page>('/api/delivery-attempt/', other.token),
      // The route: its record, its parcels (staff, its driver), its POD, the routes list and the day's routes.
      route: await get(`/api/route/${route}/`),
      routePackages: await get(`/api/route/${route}/packages/`),
      routePackagesByDriver: await get(`/api/route/${route}/packages/`, driver.token),
      pod: await get(`/api/route/${route}/pod/`),
      routes: await get('/api/route/'),
      routesOfDay: await get(`/api/dashboard/sequence-wise-route/?date=${day}`),
      // Routes and their parcels counted: the day's, the driver's over all days.
      routeCount: await get(`/api/route/count/?date=${day}`),
      routeCountByDriver: await get('/api/route/count/', driver.token),
    });

    const before = await reads();
    // Worth comparing: the hot reads found what they should.
    expect(hawbs(before.proofs)).toEqual(['ROUTE-2', 'ROUTE-1', 'OLD-7', 'OLD-5', 'OLD-4', 'OLD-3', 'OLD-2', 'OLD-1']);
    expect(before.proofPages.flatMap(hawbs)).toEqual(hawbs(before.proofs));
    expect(before.proofOne.results).toMatchObject([
      { hawb: 'OLD-2', photo_one: { id: expect.any(Number) }, signature: { id: expect.any(Number) } },
    ]);
    expect(before.proofsByOther.count).toBe(0);
    expect(before.deliveredByDay.count).toBe(7);
    expect(before.deliveredPages.flatMap(hawbs)).toEqual(hawbs(before.delivered));
    expect(before.attempts.results.map((a) => a.hawb)).toEqual(['ROUTE-3', 'OLD-8', 'OLD-1']);
    expect(before.attemptsOfOne.count).toBe(1);
    expect(before.attemptsByOther.count).toBe(0);
    expect(before.route).toMatchObject({ package_count: 3, done_count: 2 });
    expect((before.routePackages as { packages: Json[] }).packages.map((p) => p.hawb)).toEqual(['ROUTE-3', 'ROUTE-1', 'ROUTE-2']);
    expect(before.routeCount).toMatchObject({ total: 1, packages: { total: 3, delivered: 2, failed: 1, open: 1 } });
    expect(before.pod).toMatchObject({
      delivered: 2,
      failed: 1,
      results: [
        { hawb: 'ROUTE-1', recipient_name: 'Rob 0' },
        { hawb: 'ROUTE-2', recipient_name: 'Rob 1' },
      ],
    });

    t.clock.advance(91 * DAY_MS);
    await again(t, [admin, driver, shipper, other], driver);
    // OLD-1..8 and the two delivered stops move; the failed stop stays hot.
    expect(await moveToHistory(t.app.deps, { afterDays: 90 })).toEqual({ moved: 10, batches: 1 });
    expect((await t.json('GET', `/api/package/${w.stops[0]}/`, admin.token)).status).toBe(200);

    expect(await reads()).toEqual(before);
    // A database whose parcels moved before the lookups existed: the migration fills the route tally too.
    await emptyLookups(t);
    await fillLookups(t);
    expect(await reads()).toEqual(before);

    // Seen by no one new: a driver who never carried them, another company.
    const stranger = await t.login('driver', { name: 'Sam Stranger' });
    expect((await get<Page>('/api/photo-upload/', stranger.token)).count).toBe(0);
    expect((await get<Page>('/api/package-delivered/', stranger.token)).count).toBe(0);
    expect((await get<Page>('/api/delivery-attempt/', stranger.token)).count).toBe(0);
    expect((await get<Page>(`/api/photo-upload/?package=${ids[1]}`, other.token)).count).toBe(0);
    expect((await t.json('GET', `/api/route/${route}/packages/`, stranger.token)).status).toBe(404);
    expect((await t.json('GET', `/api/route/${route}/pod/`, driver.token)).status).toBe(403);
  });
});
