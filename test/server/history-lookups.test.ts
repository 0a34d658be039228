/**
 * Cold storage, the reads served by the mover's lookups (docs/decisions-data-layer.md, "Cold
 * storage"): a recipient's page by its token, the all-time counts and a driver's history list. Each
 * is read before the move, the parcels move, and the same read answers the same to the same people;
 * then the lookups are emptied and refilled by the migration that fills them on an older database.
 */
import { describe, expect, it } from 'vitest';
import { messageOptOut, packageHistoryToken } from '../../server/db/schema/index';
import { DAY_MS, moveToHistory } from '../../server/services/history/move';
import { again, emptyLookups, fillLookups, richWorld, rows, type Json, type Page } from '../helpers/historyWorld';

describe('cold storage: reads served by the lookups the mover keeps', () => {
  it("a recipient's tracking page, the all-time counts and a driver's history answer as before the move", async () => {
    const w = await richWorld();
    const { t, admin, driver, shipper, other, ids, back } = w;
    const get = <T = Json>(path: string, token: string | null = admin.token) => t.json<T>('GET', path, token);
    const post = async (path: string, body: Json = {}) => {
      const r = await t.json<Json>('POST', path, null, body);
      return { status: r.status, body: r.body };
    };

    // Tracking links of a delivered parcel with proof (not rated), a rated one, a cancelled one and one returned to its sender.
    const tokens: string[] = [];
    for (const id of [ids[1], ids[2], ids[5], back]) {
      const link = await get<{ token: string }>(`/api/package/${id}/tracking-link/`, shipper.token);
      expect(link.status).toBe(200);
      tokens.push(link.body.token);
    }
    const [proofToken, ratedToken, cancelledToken] = tokens as [string, string, string, string];
    // The cancelled parcel's recipient stops messages while it is hot.
    expect((await post(`/api/public/track/${cancelledToken}/opt-out/`)).status).toBe(200);
    const page = async (token: string) => {
      const r = await get<Json>(`/api/public/track/${token}/`, null);
      return [r.status, r.body];
    };
    const photoUrl = async () =>
      (await get<{ proof: { photos: { url: string }[] } }>(`/api/public/track/${proofToken}/`, null)).body.proof.photos[0]?.url ?? '';
    const file = async (url: string) => {
      const r = await t.call('GET', url, null);
      return [r.status, Buffer.from(await r.arrayBuffer()).toString('hex')];
    };
    const tomorrow = () => new Date(t.clock.now() + DAY_MS).toISOString().slice(0, 10);
    /** What a recipient's changes answer: those that change nothing on a final parcel. */
    const refusals = async () => ({
      instructions: await post(`/api/public/track/${proofToken}/instructions/`, { instructions: 'behind the gate' }),
      reschedule: await post(`/api/public/track/${proofToken}/reschedule/`, { date: tomorrow() }),
      rateAgain: await post(`/api/public/track/${ratedToken}/rating/`, { rating: 1 }),
      rateCancelled: await post(`/api/public/track/${cancelledToken}/rating/`, { rating: 1 }),
      optOutAgain: await post(`/api/public/track/${cancelledToken}/opt-out/`),
      badToken: await post('/api/public/track/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/rating/', { rating: 5 }),
    });

    const deliveredDay = new Date(t.clock.now()).toISOString().slice(0, 10);
    const history = async (q: string, token = driver.token) => (await get<Page>(`/api/history/?${q}`, token)).body;
    const reads = async () => ({
      pages: await Promise.all(tokens.map(page)),
      photo: await file(await photoUrl()),
      noPage: await page('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
      // All-time counts: the office dashboard and each caller's own.
      total: (await get<{ packages: { total: number } }>('/api/dashboard/count/')).body.packages.total,
      counts: await Promise.all(
        [admin, shipper, driver, other].map(async (p) => (await get('/api/assign-package/dashboard-count/', p.token)).body),
      ),
      // A driver's history: theirs, paged, filtered; staff's views of it.
      history: await history('page_size=50'),
      historyPages: await Promise.all([1, 2, 3].map((n) => history(`page_size=3&page=${n}`))),
      historyDelivered: await history('status=delivered&search=old-'),
      historyDays: await history(`date_from=${deliveredDay}&date_to=${deliveredDay}&page_size=2`),
      historyBefore: await history(`date_to=${new Date(Date.parse(deliveredDay) - DAY_MS).toISOString().slice(0, 10)}`),
      historySearch: await history('search=OLD-8'),
      historyByStaff: await history(`driver=${driver.id}&page_size=4`, admin.token),
      dashboardHistory: (await get<Page>(`/api/dashboard/driver-history/?driver=${driver.id}&page_size=50`)).body,
      adminHistory: await history(`driver=${admin.id}&page_size=50`, admin.token),
      // Everyone's deliveries of all days: counted from the tally once they are history.
      completedAll: (await get<Page>('/api/dashboard/completed-delivery/?page_size=4&page=2', admin.token)).body,
    });

    const before = await reads();
    const refusedBefore = await refusals();
    // Worth comparing: the hot reads found what they should.
    expect(before.pages.map((p) => p[0])).toEqual([200, 200, 200, 200]);
    expect(before.pages[0]?.[1]).toMatchObject({
      hawb: 'OLD-2',
      can_rate: true,
      proof: { recipient_name: 'Rita', photos: [{ mime: 'image/png' }] },
    });
    expect(before.pages[1]?.[1]).toMatchObject({ rating: { rating: 4, comment: 'Kind and quick' }, can_rate: false });
    expect(before.pages[2]?.[1]).toMatchObject({ status: 'cancelled', opted_out: true });
    expect(before.photo[0]).toBe(200);
    expect(before.noPage[0]).toBe(404);
    expect(before.total).toBe(9);
    expect(before.counts[0]).toMatchObject({ total: 9, by_status: { delivered: 6, cancelled: 1, returned_to_sender: 1, received: 1 } });
    expect((before.counts as { total: number }[]).map((c) => c.total)).toEqual([9, 9, 5, 0]);
    expect(before.history.count).toBe(6);
    expect(before.historyPages.flatMap((p) => p.results).map((r) => (r.package as Json).hawb)).toEqual(
      before.history.results.map((r) => (r.package as Json).hawb),
    );
    expect(before.historyDelivered.count).toBe(5);
    expect([before.historyDays.count, before.historyDays.results.length, before.historyBefore.count]).toEqual([6, 2, 0]);
    expect(before.historySearch.results.map((r) => [(r.package as Json).hawb, r.last_action])).toEqual([['OLD-8', 'return_scan']]);
    expect(before.adminHistory.count).toBe(9);
    expect([before.completedAll.count, before.completedAll.results.length]).toEqual([6, 2]);
    expect(Object.values(refusedBefore).map((r) => r.status)).toEqual([409, 409, 409, 409, 200, 404]);

    t.clock.advance(91 * DAY_MS);
    await again(t, [admin, driver, shipper, other], driver);
    expect(await moveToHistory(t.app.deps, { afterDays: 90 })).toEqual({ moved: 8, batches: 1 });
    // Every moved parcel had a recipient row (made when it first needed a link or a message): each token is indexed.
    expect(await rows(t, packageHistoryToken)).toBe(8);

    const after = await reads();
    // The same answers, but that the unrated delivery's page no longer offers a rating (it would be refused).
    const asMoved = (r: typeof before) => ({
      ...r,
      pages: r.pages.map((p, i) => (i === 0 ? [p[0], { ...(p[1] as Json), can_rate: false }] : p)),
    });
    expect(after).toEqual(asMoved(before));
    expect(await refusals()).toEqual(refusedBefore);
    // Rating the unrated delivery is refused: the parcel is history and is never changed.
    const rate = await post(`/api/public/track/${proofToken}/rating/`, { rating: 5 });
    expect([rate.status, rate.body.code, (rate.body.details as Json).reason]).toEqual([409, 'conflict', 'in_history']);
    // Stopping messages from an old link still works: the company's opt-out list gets the number (for the
    // next parcel), the parcel in history stays as it was, and its page says messages are stopped.
    await t.app.deps.db.delete(messageOptOut).run();
    expect((await page(proofToken))[1]).toMatchObject({ opted_out: false });
    const stop = await post(`/api/public/track/${proofToken}/opt-out/`);
    expect(stop.status).toBe(200);
    expect((await t.app.deps.db.select({ address: messageOptOut.address }).from(messageOptOut).all()).map((r) => r.address)).toEqual([
      '+61400000000',
    ]);
    expect(await page(proofToken)).toEqual([after.pages[0]?.[0], { ...(after.pages[0]?.[1] as Json), opted_out: true }]);
    // Another parcel's file is not on this page, hot or cold.
    expect((await t.call('GET', `/api/public/track/${ratedToken}/file/${(await photoUrl()).split('/').at(-2)}/`, null)).status).toBe(404);
    // Still nobody else's: another driver's history, a company's.
    expect((await get(`/api/history/?driver=${admin.id}`, driver.token)).status).toBe(403);
    expect((await get('/api/history/', shipper.token)).status).toBe(403);
    const stranger = await t.login('driver', { name: 'Sam Stranger' });
    expect((await history('page_size=50', stranger.token)).count).toBe(0);
    expect((await get('/api/assign-package/dashboard-count/', stranger.token)).body).toMatchObject({ total: 0 });

    // A database whose parcels moved before the lookups existed: the migration fills them to the same answers.
    await emptyLookups(t);
    expect((await page(proofToken))[0]).toBe(404);
    expect((await get<Page>('/api/dashboard/completed-delivery/', admin.token)).body.count).toBe(0);
    await fillLookups(t);
    expect(await reads()).toEqual(asMoved(before));
  });
});
