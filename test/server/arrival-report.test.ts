import { describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import type { ArrivalRow } from '../../shared/schemas/reports';
import { etaBand, timeOnDay } from '../../shared/routing/eta';
import type { LatLng } from '../../shared/routing/haversine';
import { deliveryRecord, routeLeg } from '../../server/db/schema/index';
import { arrivalStats, percentile } from '../../server/services/reports/arrivalStats';
import { planDay, routeWorld, type RouteJson } from './routes-helpers';

const DAY = '2026-01-06';
const DEPOT: LatLng = { latitude: -33.87, longitude: 151.2 };
const STOPS: LatLng[] = [0, 1, 2, 3].map((k) => ({ latitude: DEPOT.latitude + 0.01 * (k + 1), longitude: DEPOT.longitude }));
const MIN = 60_000;

describe('arrival statistics (plain)', () => {
  it('nearest-rank percentile, mean absolute and signed error, window and band shares', () => {
    expect(percentile([5, 1, 4, 2, 3, 10, 9, 8, 7, 6], 90)).toBe(9);
    expect(percentile([3], 90)).toBe(3);
    expect(percentile([], 90)).toBeNull();
    const p = Date.parse('2026-01-05T00:00:00Z');
    const s = arrivalStats([
      { planned: p, actual: p + 4 * MIN, window: [p - 60 * MIN, p + 60 * MIN] },
      { planned: p, actual: p - 20 * MIN, window: [p, p + 60 * MIN] },
      { planned: p, actual: p + 10 * MIN, window: null },
    ]);
    expect(s).toMatchObject({
      stops: 3,
      mean_abs_error_min: 11.33,
      p90_abs_error_min: 20,
      mean_error_min: -2,
      windowed: 2,
      in_window: 0.5,
      in_band: 0.67,
    });
  });
});

describe('GET report/arrival-accuracy/ (issue 31)', () => {
  it('compares each worked stop with its promise, per route, driver and day, on screen and as CSV; staff only', async () => {
    const w = await routeWorld();
    const { t, admin, d1 } = w;
    t.clock.set(Date.parse('2026-01-05T12:00:00Z'));
    expect((await t.json('PUT', `/api/warehouse/${w.warehouseId}/position/`, admin.token, DEPOT)).status).toBe(200);
    expect(
      (
        await t.json('POST', '/api/driver-shift/', admin.token, {
          driver: d1.id,
          date: DAY,
          start_time: '08:00',
          end_time: '18:00',
          start_warehouse: w.warehouseId,
        })
      ).status,
    ).toBe(201);
    const ids: number[] = [];
    for (const [k, p] of STOPS.entries()) ids.push(await w.parcel(`AR${k}`, { ...p, weight: 1 }));
    // A window on the second parcel (09:00-09:30 local) the van will miss.
    expect(
      (await t.json('PUT', `/api/package/${ids[1]}/window/`, admin.token, { window_start: '08:00', window_end: '08:20' })).status,
    ).toBe(200);
    const plan = await planDay(t, admin.token, {
      date: DAY,
      include_undated: true,
      time_limit_ms: 200,
      drivers: [d1.id],
    });
    const order = plan.proposal!.routes[0].stops.map((x) => x.package);
    const c = await t.json<{ routes: RouteJson[] }>('POST', `/api/dispatch/plan/${plan.id}/commit/`, admin.token, {
      routes: [{ driver: d1.id, packages: order }],
    });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const routeId = c.body.routes[0].id;
    const legs = await t.db.select().from(routeLeg).where(eq(routeLeg.route_id, routeId)).orderBy(asc(routeLeg.seq)).all();
    expect(legs.every((l) => l.source === 'estimate' && l.planned_at > 0)).toBe(true);

    // The driver works three stops: 3 min early, 12 min late, 40 min late (recorded at the end of the
    // 3-minute stop); the fourth is never worked and is left out.
    expect((await t.json('POST', `/api/route/${routeId}/status-change/`, d1.token, { status: 'in_progress' })).status).toBe(200);
    const offsets = [-3, 12, 40];
    const hawb = (id: number) => `AR${ids.indexOf(id)}`;
    for (const [k, off] of offsets.entries()) {
      t.clock.set(legs[k].planned_at + off * MIN + 180_000);
      const r = await t.json('POST', '/api/scan-package-api/scan-deliver/', d1.token, {
        barcode: hawb(order[k]),
        recipient_name: 'At the door',
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const actual = await Promise.all(
      order
        .slice(0, 3)
        .map(
          async (id) => (await t.db.select().from(deliveryRecord).where(eq(deliveryRecord.package_id, id)).get())!.occurred_at - 180_000,
        ),
    );
    const errors = actual.map((a, k) => (a - legs[k].planned_at) / MIN);
    const abs = errors.map(Math.abs);
    // Windows are the depot's wall clock (the route's zone).
    const zone = (await t.json<{ time_zone: string }>('GET', `/api/route/${routeId}/eta/`, d1.token)).body.time_zone;
    const windowed = order.slice(0, 3).indexOf(ids[1]);
    const inWindow =
      windowed < 0 ? null : actual[windowed] >= timeOnDay(DAY, '08:00', zone) && actual[windowed] <= timeOnDay(DAY, '08:20', zone) ? 1 : 0;
    const inBand =
      actual.filter((a, k) => {
        const [f, to] = etaBand(legs[k].planned_at);
        return a >= f && a <= to;
      }).length / 3;

    // The office comes back to it the next morning (its session idled out overnight).
    const office = await t.login('admin');
    const q = `from=${DAY}&to=${DAY}`;
    const byRoute = await t.json<{ by: string; results: ArrivalRow[] }>('GET', `/api/report/arrival-accuracy/?${q}&by=route`, office.token);
    expect(byRoute.status, JSON.stringify(byRoute.body)).toBe(200);
    expect(byRoute.body.results).toHaveLength(1);
    const row = byRoute.body.results[0];
    expect(row).toMatchObject({ date: DAY, driver: d1.id, route: routeId, stops: 3, windowed: windowed < 0 ? 0 : 1 });
    expect(row.mean_abs_error_min).toBeCloseTo(abs.reduce((a, b) => a + b, 0) / 3, 1);
    expect(row.p90_abs_error_min).toBeCloseTo(Math.max(...abs), 1);
    expect(row.mean_error_min).toBeCloseTo(errors.reduce((a, b) => a + b, 0) / 3, 1);
    expect(row.in_window).toBe(inWindow);
    expect(row.in_band).toBeCloseTo(inBand, 2);
    const byDriver = await t.json<{ results: ArrivalRow[] }>('GET', `/api/report/arrival-accuracy/?${q}&by=driver`, office.token);
    expect(byDriver.body.results[0]).toMatchObject({ date: null, driver: d1.id, route: null, stops: 3 });
    const byDay = await t.json<{ results: ArrivalRow[] }>('GET', `/api/report/arrival-accuracy/?${q}&by=day`, office.token);
    expect(byDay.body.results[0]).toMatchObject({ date: DAY, driver: null, stops: 3 });
    // Another day has nothing; bad input is a 400; drivers and companies are refused.
    expect(
      (await t.json<{ results: ArrivalRow[] }>('GET', '/api/report/arrival-accuracy/?from=2026-01-07&to=2026-01-07', office.token)).body
        .results,
    ).toEqual([]);
    expect((await t.json('GET', '/api/report/arrival-accuracy/?by=week', office.token)).status).toBe(400);
    expect((await t.json('GET', '/api/report/arrival-accuracy/', d1.token)).status).toBe(403);
    expect((await t.json('GET', '/api/report/arrival-accuracy/', (await t.login('company')).token)).status).toBe(403);

    const csv = await t.call('GET', `/api/report/arrival-accuracy/export/?${q}&by=route`, office.token);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = (await csv.text()).trim().split(/\r?\n/);
    expect(lines[0]).toContain('P90 |error| (min)');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(String(routeId));
  }, 120_000);
});
