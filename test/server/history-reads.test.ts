/**
 * Cold storage, the reads that used to answer only for hot parcels (docs/decisions-data-layer.md,
 * "Cold storage"): each is read before the move, the parcels move, and the same read answers the
 * same to the same people; those who could not see a parcel still cannot, and changes are refused.
 */
import { describe, expect, it } from 'vitest';
import { DAY_MS, moveToHistory } from '../../server/services/history/move';
import { formOf } from '../helpers/app';
import { again, png, richWorld, world, type Json, type Page } from '../helpers/historyWorld';

describe('cold storage: every read of a moved parcel answers as before', () => {
  it('its story, proof, refusals, ratings, the returns list and the day it was delivered', async () => {
    const w = await richWorld();
    const { t, admin, driver, shipper, other, ids, back } = w;
    const get = <T = Json>(path: string, token = admin.token) => t.json<T>('GET', path, token);
    const deliveredDay = new Date(t.clock.now()).toISOString().slice(0, 10);
    const failedDay = new Date(t.clock.now() - DAY_MS).toISOString().slice(0, 10);
    const returnsOf = async (token: string, q: Record<string, string>) =>
      (await get<Page>(`/api/return-parcel/?${new URLSearchParams(q)}`, token)).body;

    const reads = async () => ({
      // The parcel's story (staff, its company, the driver who carried it) and the returns detail.
      story: await Promise.all(w.all.map(async (id) => (await get(`/api/history/${id}/`)).body)),
      storyByShipper: (await get(`/api/history/${ids[0]}/`, shipper.token)).body,
      storyByDriver: (await get(`/api/history/${ids[0]}/`, driver.token)).body,
      returnDetail: (await get(`/api/return-parcel/${back}/`)).body,
      // Proof of delivery, by both routes that show it.
      proof: (await get(`/api/photo-upload/${ids[1]}/`)).body,
      proofByDriver: (await get(`/api/photo-upload/${ids[1]}/`, driver.token)).body,
      proofByShipper: (await get(`/api/photo-upload/${ids[1]}/`, shipper.token)).body,
      delivered: (await get(`/api/package-delivered/${ids[1]}/`)).body,
      // Recipients' ratings per driver.
      ratings: (await get('/api/report/driver-ratings/')).body,
      ratingsByShipper: (await get('/api/report/driver-ratings/', shipper.token)).body,
      // The dashboard: the day's completed deliveries (staff, the driver) and the day's counts.
      completed: (await get<Page>(`/api/dashboard/completed-delivery/?date_from=${deliveredDay}&date_to=${deliveredDay}`)).body,
      completedAll: (await get('/api/dashboard/completed-delivery/?page_size=3&page=2')).body,
      completedByDriver: (await get(`/api/dashboard/completed-delivery/?date_from=${deliveredDay}`, driver.token)).body,
      counts: await Promise.all(
        [deliveredDay, failedDay].map(async (d) => {
          const c = (await get<{ packages: Json }>(`/api/dashboard/count/?date=${d}`)).body.packages;
          return [c.delivered_today, c.failed_today];
        }),
      ),
      // The refusal list (the supervisor's) and the returns list (staff, the company, the driver).
      refused: (await get<{ results: Json[] }>(`/api/package-delivered/${ids[4]}/refused/`)).body.results,
      returns: await returnsOf(admin.token, {}),
      returnsToSender: await returnsOf(admin.token, { status: 'returned_to_sender', driver: String(driver.id) }),
      returnsByShipper: await returnsOf(shipper.token, {}),
      returnsByDriver: await returnsOf(driver.token, {}),
    });

    const before = await reads();
    // What is compared is worth comparing: the hot reads found the rows.
    expect(before.proof).toMatchObject({
      recipient_name: 'Rita',
      photo_one: { id: expect.any(Number) },
      signature: { id: expect.any(Number) },
    });
    expect(before.storyByDriver).toMatchObject({ attempts: [{ reason: 'Nobody home' }] });
    expect((before.ratingsByShipper as { results: { count: number }[] }).results.map((r) => r.count)).toEqual([1]);
    expect(before.completed.count).toBe(6);
    // Delivered: OLD-1..5 and OLD-7; failed: OLD-1 the day before, OLD-8 that day.
    expect(before.counts).toEqual([
      [6, 1],
      [0, 1],
    ]);
    expect(before.refused).toHaveLength(1);
    expect(before.returns.results.map((p) => p.hawb)).toEqual(['OLD-8']);
    expect(before.returnsByDriver.count).toBe(1);

    t.clock.advance(91 * DAY_MS);
    await again(t, [admin, driver, shipper, other], driver);
    expect(await moveToHistory(t.app.deps, { afterDays: 90 })).toEqual({ moved: 8, batches: 1 });
    expect((await get(`/api/package/${back}/`)).status).toBe(200);

    expect(await reads()).toEqual(before);

    // Seen by no one new: another company, a driver who never carried them.
    const stranger = await t.login('driver', { name: 'Sam Stranger' });
    for (const token of [other.token, stranger.token]) {
      expect((await get(`/api/history/${ids[0]}/`, token)).status).toBe(404);
      expect((await get(`/api/photo-upload/${ids[1]}/`, token)).status).toBe(404);
      expect((await get(`/api/return-parcel/${back}/`, token)).status).toBe(404);
    }
    expect((await get('/api/report/driver-ratings/', other.token)).body).toEqual({ results: [] });
    expect((await get<Page>(`/api/dashboard/completed-delivery/?date_from=${deliveredDay}`, stranger.token)).body.count).toBe(0);
    expect((await returnsOf(other.token, {})).count).toBe(0);
    expect((await returnsOf(stranger.token, {})).count).toBe(0);
    // Refusals are the supervisors' (403 for others, as for a hot parcel); a parcel without any has none.
    expect((await get(`/api/package-delivered/${ids[4]}/refused/`, shipper.token)).status).toBe(403);
    expect((await get(`/api/package-delivered/${ids[0]}/refused/`)).body).toEqual({ results: [] });
    expect((await get(`/api/package-delivered/999999/refused/`)).status).toBe(404);

    // Proof of a moved parcel is read-only: 409 in_history, nothing changes.
    const edit = await t.json<Json>('PATCH', `/api/photo-upload/${ids[1]}/`, admin.token, {
      photo_two: (before.proof as { photo_one: { id: number } }).photo_one.id,
    });
    expect(edit.status).toBe(409);
    expect(edit.body).toMatchObject({ code: 'conflict', details: { reason: 'in_history', package: ids[1] } });
    expect((await t.json('PATCH', `/api/package-delivered/${ids[1]}/`, admin.token, { recipient_name: 'Changed' })).status).toBe(409);
    expect((await t.json('DELETE', `/api/photo-upload/${ids[1]}/signature/`, admin.token)).status).toBe(409);
    const upload = await t.call(
      'POST',
      `/api/package-delivered/${ids[1]}/photo/`,
      driver.token,
      formOf({ file: png(9), slot: 'photo_three' }),
    );
    expect([upload.status, ((await upload.json()) as { details?: Json }).details?.reason]).toEqual([409, 'in_history']);
    expect((await t.json('PATCH', `/api/photo-upload/${ids[1]}/`, stranger.token, { note: 'x' })).status).toBe(404);
    expect((await get(`/api/photo-upload/${ids[1]}/`)).body).toEqual(before.proof);
  });
});

describe('cold storage: the package list reads history only when its filter can reach it', () => {
  it('a status naming no final state, or a start date after the newest cold parcel, leaves history unread; the answers stay whole', async () => {
    const w = await world();
    const { t, admin, shipper, other, driver } = w;
    t.clock.advance(91 * DAY_MS);
    await again(t, [admin, driver, shipper, other], driver);
    // A parcel created now, after every cold one.
    expect((await w.post('/api/package/', shipper.token, { hawb: 'NEW-1', customer_name: 'Nia New' })).status).toBe(201);
    expect(await moveToHistory(t.app.deps, { afterDays: 90 })).toEqual({ moved: 7, batches: 1 });
    const seen: string[] = [];
    t.db.$engine.onStatement = (text) => {
      seen.push(text);
    };
    /** The list's answer, and how many of its statements read history (by what they read). */
    const list = async (query: string, token = admin.token) => {
      seen.length = 0;
      const res = await t.json<Page>('GET', `/api/package/?${query}`, token);
      expect(res.status).toBe(200);
      return { hawbs: res.body.results.map((p) => p.hawb), count: res.body.count, cold: seen.filter((s) => s.includes('package_history')) };
    };
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);

    // Unfiltered, and any filter naming a final state: both sides (count, then the union page).
    const all = await list('ordering=hawb&page_size=50');
    expect(all.hawbs).toEqual(['NEW-1', ...Array.from({ length: 7 }, (_, i) => `OLD-${i + 1}`), 'OPEN-1']);
    expect(all.cold.length).toBeGreaterThan(0);
    expect((await list('status=received,cancelled&ordering=hawb')).hawbs).toEqual(['OLD-6', 'OPEN-1']);
    // Open states only: history is never asked, and the answer is the hot one.
    const open = await list('status=received,created&ordering=hawb');
    expect([open.hawbs, open.count, open.cold]).toEqual([['NEW-1', 'OPEN-1'], 2, []]);
    // Created today: one look at the newest cold parcel's date (its index), nothing more.
    const recent = await list(`created_from=${today}`);
    expect([recent.hawbs, recent.count, recent.cold.length]).toEqual([['NEW-1'], 1, 1]);
    expect(recent.cold[0]).toMatch(/max\(/);
    // Created since the quarter began: the cold parcels are found.
    expect((await list('created_from=2025-12-01&ordering=hawb&page_size=3')).hawbs).toEqual(['NEW-1', 'OLD-1', 'OLD-2']);
    // Scope holds on the cold side: a company its own, a driver theirs.
    expect((await list('page_size=50', other.token)).count).toBe(0);
    expect((await list('page_size=50', driver.token)).hawbs.sort()).toEqual(['OLD-1', 'OLD-2', 'OLD-3', 'OLD-4', 'OLD-5']);
    expect((await list('page_size=50', shipper.token)).count).toBe(9);
    t.db.$engine.onStatement = null;
  });
});
