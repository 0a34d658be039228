import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  deliveryAttempt,
  deliveryAttemptHistory,
  deliveryRecord,
  deliveryRecordHistory,
  packageEvent,
  packageHistory,
  packageHistoryActor,
  packageHistoryRow,
  packageHistoryTally,
  packageHistoryToken,
  pkg,
} from '../../server/db/schema/index';
import { atomically } from '../../server/db/atomically';
import { DAY_MS, moveBatch, moveToHistory, parseHistoryAfterDays } from '../../server/services/history/move';
import { again, rows, world, type Json, type Page } from '../helpers/historyWorld';

describe('cold storage (history)', () => {
  it('moves final parcels past the age out of the hot tables; reads answer as before, writes are refused', async () => {
    const w = await world();
    const { t, admin, shipper, other, driver, ids } = w;
    const get = <T = Json>(path: string, token = admin.token) => t.json<T>('GET', path, token);

    const before = new Map<number, Json>();
    for (const id of ids) before.set(id, (await get(`/api/package/${id}/`)).body);
    const listBefore = (await get<Page>('/api/package/?ordering=hawb&page_size=50')).body;
    const companyListBefore = (await get<Page>('/api/package/?page_size=50', shipper.token)).body;
    const day = new Date(t.clock.now()).toISOString().slice(0, 10);
    const period = `from=2025-12-01&to=${day}`;
    const reports = [
      'driver-kpi/',
      'company-kpi/',
      'company/',
      'driver/delivery-report/',
      'delivery/failed-report/',
      'company/package-list/',
    ];
    const reportsOf = async (token: string) =>
      Promise.all(
        reports.map(async (r) => {
          const res = await get(`/api/report/${r}?${period}&page_size=100`, token);
          expect(res.status, r).toBe(200);
          return res.body;
        }),
      );
    const reportsBefore = await reportsOf(admin.token);
    const companyReportsBefore = await reportsOf(shipper.token);
    const trackBefore = (await t.json('GET', '/api/track/OLD-1/', null)).body;
    const invoice = await t.json<{ id: number; lines: Json[] }>('POST', '/api/invoice/generate-invoice/', admin.token, {
      company: w.co,
      period_from: '2026-01-01',
      period_to: '2026-01-31',
    });
    expect(invoice.status).toBe(201);
    expect(invoice.body.lines.map((l) => l.hawb)).toContain('OLD-1');
    const money = async () => ({
      invoice: (await get(`/api/invoice/${invoice.body.id}/`)).body,
      transactions: (await get('/api/wallet/login-company-transaction/?page_size=100', shipper.token)).body,
      earnings: (await get(`/api/dashboard/driver-earning/?from=2026-01-01&to=2026-01-31&driver=${driver.id}`)).body,
      routeEarnings: (await get(`/api/dashboard/route-wise-earning/?from=2026-01-01&to=2026-01-31&driver=${driver.id}`)).body,
      csv: await (await t.call('GET', '/api/package/csv-download/?ordering=hawb', admin.token)).text(),
    });
    const moneyBefore = await money();
    const hotBefore = await rows(t, pkg);

    // Too young: nothing moves.
    expect(await moveToHistory(t.app.deps, { afterDays: 90 })).toEqual({ moved: 0, batches: 0 });
    t.clock.advance(91 * DAY_MS);
    await again(t, [admin, driver, shipper, other], driver);
    const first = await moveToHistory(t.app.deps, { afterDays: 90, batch: 3 });
    expect(first).toEqual({ moved: 7, batches: 3 });
    expect(await rows(t, pkg)).toBe(hotBefore - 7);
    expect(await rows(t, packageHistory)).toBe(7);
    expect(await rows(t, deliveryRecord)).toBe(0);
    expect(await rows(t, deliveryRecordHistory)).toBe(6);
    expect(await rows(t, deliveryAttempt)).toBe(0);
    expect(await rows(t, deliveryAttemptHistory)).toBe(1);
    // Only the open parcel's events stay hot.
    expect((await t.db.select({ n: count() }).from(packageEvent).where(eq(packageEvent.package_id, w.open)).get())?.n).toBe(
      await rows(t, packageEvent),
    );
    expect(
      (await t.db.select({ n: count() }).from(packageHistoryRow).where(eq(packageHistoryRow.source, 'package_event')).get())?.n,
    ).toBeGreaterThan(7);
    // A second run moves nothing more.
    expect(await moveToHistory(t.app.deps, { afterDays: 90 })).toEqual({ moved: 0, batches: 0 });

    // GET by id: the same answer, to whoever could see it.
    for (const id of ids) expect((await get(`/api/package/${id}/`)).body).toEqual(before.get(id));
    expect((await get(`/api/package/${ids[0]}/`, shipper.token)).body).toEqual(before.get(ids[0]!));
    expect((await get(`/api/package/${ids[0]}/`, other.token)).status).toBe(404);
    expect((await get(`/api/package/${ids[0]}/`, driver.token)).status).toBe(200);

    // The list: same count, same page, by search (hawb, customer), status and date filters.
    expect((await get<Page>('/api/package/?ordering=hawb&page_size=50')).body).toEqual(listBefore);
    expect((await get<Page>('/api/package/?page_size=50', shipper.token)).body).toEqual(companyListBefore);
    expect((await get<Page>('/api/package/?search=OLD-3')).body.results.map((p) => p.hawb)).toEqual(['OLD-3']);
    expect((await get<Page>('/api/package/?search=Customer%20OLD-4')).body.results.map((p) => p.hawb)).toEqual(['OLD-4']);
    expect((await get<Page>('/api/package/?status=delivered&ordering=hawb')).body.results.map((p) => p.hawb)).toEqual([
      'OLD-1',
      'OLD-2',
      'OLD-3',
      'OLD-4',
      'OLD-5',
      'OLD-7',
    ]);
    expect((await get<Page>('/api/package/?search=OLD&ordering=-hawb&page=2&page_size=2')).body.results.map((p) => p.hawb)).toEqual([
      'OLD-5',
      'OLD-4',
    ]);
    expect((await get<Page>('/api/package/?search=OLD-3', other.token)).body.count).toBe(0);

    // Reports over the period: the same figures.
    expect(await reportsOf(admin.token)).toEqual(reportsBefore);
    expect(await reportsOf(shipper.token)).toEqual(companyReportsBefore);
    // Money that covered the period is unchanged: the statement, the ledger, the driver's earnings.
    expect(await money()).toEqual(moneyBefore);
    // Public tracking still answers.
    expect((await t.json('GET', '/api/track/OLD-1/', null)).body).toEqual(trackBefore);

    // Writes: refused with 409 and the one error shape; nothing changes.
    const edit = await t.json<Json>('PATCH', `/api/package/${ids[1]}/`, admin.token, { customer_name: 'New' });
    expect(edit.status).toBe(409);
    expect(edit.body).toMatchObject({ success: false, code: 'conflict', details: { reason: 'in_history', package: ids[1] } });
    expect((await t.json('POST', `/api/package/${ids[1]}/status-change/`, admin.token, { status: 'received' })).status).toBe(409);
    expect((await t.json('POST', `/api/package-delivered/${ids[1]}/deliver/`, driver.token, { recipient_name: 'x' })).status).toBe(409);
    // Someone who could never see it still gets 404.
    expect((await t.json('PATCH', `/api/package/${ids[1]}/`, other.token, { customer_name: 'New' })).status).toBe(404);
    expect((await get(`/api/package/${ids[1]}/`)).body).toEqual(before.get(ids[1]!));
  });
});

describe('cold storage job', () => {
  it('moves in bounded units: a run stopped between batches, or a batch that fails, leaves every parcel whole on one side', async () => {
    const w = await world();
    const { t, admin, driver, ids } = w;
    const feed = await t.json<{ cursor: number; upserts: { packages: Json[] } }>('GET', '/api/sync/changes/?cursor=0', driver.token);
    expect(feed.body.upserts.packages.map((p) => p.id).sort()).toEqual(ids.slice(0, 5).sort());
    const before = new Map<number, Json>();
    for (const id of ids) before.set(id, (await t.json(`GET`, `/api/package/${id}/`, admin.token)).body);
    t.clock.advance(91 * DAY_MS);
    await again(t, [admin, driver], driver);
    const total = await rows(t, pkg);

    // A batch whose unit fails after moving (a crash before COMMIT) leaves nothing moved.
    const now = t.clock.now();
    await expect(
      atomically(t.app.deps, async () => {
        expect(await moveBatch(t.db, now, now - 90 * DAY_MS, 3)).toBe(3);
        throw new Error('power cut');
      }),
    ).rejects.toThrow('power cut');
    expect([
      await rows(t, pkg),
      await rows(t, packageHistory),
      await rows(t, packageHistoryRow),
      await rows(t, deliveryRecordHistory),
    ]).toEqual([total, 0, 0, 0]);
    // The lookups are written in the same unit: nothing of them either, so the all-time counts stay exact.
    expect([await rows(t, packageHistoryToken), await rows(t, packageHistoryTally), await rows(t, packageHistoryActor)]).toEqual([0, 0, 0]);
    const allTime = async () => (await t.json<{ total: number }>('GET', '/api/assign-package/dashboard-count/', admin.token)).body.total;
    expect(await allTime()).toBe(total);

    // Stopped after one batch of two: two parcels moved with all their rows, the rest untouched.
    expect(await moveToHistory(t.app.deps, { afterDays: 90, batch: 2, maxBatches: 1 })).toEqual({ moved: 2, batches: 1 });
    const cold = (await t.db.select({ id: packageHistory.id }).from(packageHistory).all()).map((r) => r.id);
    expect(cold).toHaveLength(2);
    expect(ids).toEqual(expect.arrayContaining(cold));
    expect((await rows(t, pkg)) + (await rows(t, packageHistory))).toBe(total);
    expect(await allTime()).toBe(total);
    for (const id of ids) {
      const isCold = cold.includes(id);
      const hotEvents = (await t.db.select({ n: count() }).from(packageEvent).where(eq(packageEvent.package_id, id)).get())?.n ?? 0;
      const coldEvents =
        (await t.db.select({ n: count() }).from(packageHistoryRow).where(eq(packageHistoryRow.package_id, id)).get())?.n ?? 0;
      expect(isCold ? hotEvents : coldEvents, `parcel ${id} split between sides`).toBe(0);
      expect(isCold ? coldEvents : hotEvents).toBeGreaterThan(0);
      // Either way it answers as it did.
      expect((await t.json('GET', `/api/package/${id}/`, admin.token)).body).toEqual(before.get(id));
    }
    expect((await t.json<Page>('GET', '/api/package/?search=OLD&page_size=50', admin.token)).body.count).toBe(7);

    // The next run carries on; the open parcel stays hot.
    expect(await moveToHistory(t.app.deps, { afterDays: 90, batch: 2 })).toEqual({ moved: 5, batches: 3 });
    expect((await t.db.select({ id: pkg.id }).from(pkg).all()).map((r) => r.id)).toEqual([w.open]);
    expect(await allTime()).toBe(total);

    // The driver's device: a parcel in history is never sent again, and one it still held is removed
    // (as it would be once out of scope anyway); a fresh device gets none of them.
    const next = await t.json<{ upserts: { packages: Json[] }; removes: { packages: number[] } }>(
      'GET',
      `/api/sync/changes/?cursor=0`,
      driver.token,
    );
    expect(next.body.upserts.packages).toEqual([]);
    const later = await t.json<{ upserts: { packages: Json[] }; removes: { packages: number[] } }>(
      'GET',
      `/api/sync/changes/?cursor=1`,
      driver.token,
    );
    expect(later.body.upserts.packages).toEqual([]);
    expect(later.body.removes.packages).toEqual(expect.arrayContaining(ids.slice(0, 5)));
  });

  it('HISTORY_AFTER_DAYS: 90 by default, 0 turns it off, too short or not a number refuses to start', () => {
    expect(parseHistoryAfterDays(undefined)).toBe(90);
    expect(parseHistoryAfterDays('0')).toBe(0);
    expect(parseHistoryAfterDays('365')).toBe(365);
    for (const bad of ['2', '-1', '1.5', 'ninety']) expect(() => parseHistoryAfterDays(bad), bad).toThrow(/HISTORY_AFTER_DAYS/);
  });
});
