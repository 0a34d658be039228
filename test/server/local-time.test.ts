import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { RouteEtas } from '../../shared/schemas/dispatch';
import { deliveryRecord, pkg, stopEta, warehouse } from '../../server/db/schema/index';
import type { TestApp } from '../helpers/app';
import { planDay, routeWorld, type Json, type RouteJson } from './routes-helpers';

/**
 * Issue 31: the courier's own time. The test app's configured zone is UTC; each test sets the business
 * zone on its profile (as an admin would), so the days below are Sydney's, Perth's or Adelaide's.
 */
const SYD = 'Australia/Sydney';
const at = (s: string) => Date.parse(s);

async function businessIn(t: TestApp, token: string, zone: string) {
  const r = await t.json<Json>('PATCH', '/api/settings/business-profile/', token, { time_zone: zone });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.time_zone).toBe(zone);
}

async function depotNamed(t: TestApp, name: string): Promise<number> {
  const now = t.clock.now();
  return (
    await t.db
      .insert(warehouse)
      .values({ name, street_address: `1 ${name} Rd`, created_at: now, updated_at: now })
      .returning()
      .get()
  ).id;
}

describe("the business's and the depots' time zones", () => {
  it('are set by admins, checked as IANA names, and a depot without its own follows the business', async () => {
    const w = await routeWorld();
    const { t, admin, d1, depot } = w;
    const before = await t.json<Json>('GET', '/api/settings/business-profile/', admin.token);
    expect(before.body).toMatchObject({ time_zone: null, time_zone_default: 'UTC' });
    // Bad names and fixed offsets are refused, and change nothing.
    for (const bad of ['Mars/Olympus_Mons', '+10:00', '', 'Australia/Sydney; drop table']) {
      const r = await t.json<Json>('PATCH', '/api/settings/business-profile/', admin.token, { time_zone: bad });
      expect(r.status, bad).toBe(400);
      expect(r.body.success).toBe(false);
    }
    expect((await t.json<Json>('GET', '/api/settings/business-profile/', admin.token)).body.time_zone).toBeNull();
    await businessIn(t, admin.token, SYD);

    const perth = await depotNamed(t, 'Perth');
    expect((await t.json<Json>('GET', `/api/warehouse/${perth}/time-zone/`, admin.token)).body).toEqual({
      warehouse: perth,
      time_zone: null,
      effective_time_zone: SYD,
    });
    const set = await t.json<Json>('PUT', `/api/warehouse/${perth}/time-zone/`, admin.token, { time_zone: 'Australia/Perth' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({ warehouse: perth, time_zone: 'Australia/Perth', effective_time_zone: 'Australia/Perth' });
    // Refusals: a driver may read but not set it; unknown depot 404; bad name 400 (nothing changed).
    expect((await t.json('PUT', `/api/warehouse/${perth}/time-zone/`, d1.token, { time_zone: SYD })).status).toBe(403);
    expect((await t.json('PUT', '/api/warehouse/999999/time-zone/', admin.token, { time_zone: SYD })).status).toBe(404);
    expect((await t.json('PUT', `/api/warehouse/${perth}/time-zone/`, admin.token, { time_zone: 'Perth' })).status).toBe(400);
    expect((await t.json<Json>('GET', `/api/warehouse/${perth}/time-zone/`, depot.token)).body.effective_time_zone).toBe('Australia/Perth');
    // Cleared: back to the business's.
    expect((await t.json<Json>('PUT', `/api/warehouse/${perth}/time-zone/`, admin.token, { time_zone: null })).body).toMatchObject({
      time_zone: null,
      effective_time_zone: SYD,
    });
    // The business back to the configured default.
    expect((await t.json<Json>('PATCH', '/api/settings/business-profile/', admin.token, { time_zone: null })).body.time_zone).toBeNull();
  });
});

describe("shifts and windows typed as the depot's wall clock", () => {
  it('plans a Sydney shift from 07:00 AEDT and a Perth shift from 07:00 AWST, waits for a 09:00 Sydney window, and times the route in Sydney', async () => {
    const w = await routeWorld();
    const { t, admin, d1, d2 } = w;
    await businessIn(t, admin.token, SYD);
    const DAY = '2026-01-06';
    // 19:00 on the 5th in Sydney: the 6th has not started anywhere in Australia.
    t.clock.set(at('2026-01-05T08:00:00Z'));
    const perth = await depotNamed(t, 'Perth');
    expect((await t.json('PUT', `/api/warehouse/${perth}/time-zone/`, admin.token, { time_zone: 'Australia/Perth' })).status).toBe(200);
    for (const [id, lat, lng] of [
      [w.warehouseId, -33.87, 151.2],
      [perth, -31.95, 115.86],
    ] as const) {
      expect((await t.json('PUT', `/api/warehouse/${id}/position/`, admin.token, { latitude: lat, longitude: lng })).status).toBe(200);
    }
    for (const [driver, house] of [
      [d1.id, w.warehouseId],
      [d2.id, perth],
    ]) {
      const s = await t.json('POST', '/api/driver-shift/', admin.token, {
        driver,
        date: DAY,
        start_time: '07:00',
        end_time: '15:00',
        start_warehouse: house,
      });
      expect(s.status, JSON.stringify(s.body)).toBe(201);
    }
    const windowed = await w.parcel('WIN', { latitude: -33.88, longitude: 151.21 });
    const plain = await w.parcel('PLAIN', { latitude: -33.86, longitude: 151.19 });
    expect(
      (await t.json('PUT', `/api/package/${windowed}/window/`, admin.token, { window_start: '09:00', window_end: '10:00' })).status,
    ).toBe(200);

    const plan = await planDay(t, admin.token, {
      date: DAY,
      drivers: [d1.id, d2.id],
      time_limit_ms: 300,
      include_undated: true,
      locks: [
        { package: windowed, driver: d1.id },
        { package: plain, driver: d1.id },
      ],
    });
    expect(plan.status, plan.message ?? '').toBe('done');
    const sydney = plan.proposal!.routes.find((r) => r.driver === d1.id)!;
    const west = plan.proposal!.routes.find((r) => r.driver === d2.id)!;
    // 07:00 in Sydney in January is 20:00 UTC the day before (AEDT, +11); in Perth 23:00 UTC (+8, no daylight saving).
    // The van leaves no earlier than its shift and no earlier than it must to be at the 09:00 window
    // (issue 32: vans do not leave early only to wait).
    expect(sydney).toMatchObject({ time_zone: SYD, shift_start: '07:00' });
    expect(Date.parse(sydney.depart)).toBeGreaterThanOrEqual(at('2026-01-05T20:00:00Z'));
    expect(Date.parse(sydney.depart)).toBeLessThan(at('2026-01-05T22:00:00Z'));
    expect(west).toMatchObject({ time_zone: 'Australia/Perth', shift_start: '07:00', depart: '2026-01-05T23:00:00.000Z' });
    const stop = sydney.stops.find((s) => s.package === windowed)!;
    expect(stop).toMatchObject({ time_zone: SYD, window_start: '09:00', window_end: '10:00', late: false });

    const c = await t.json<{ routes: RouteJson[] }>('POST', `/api/dispatch/plan/${plan.id}/commit/`, admin.token, {
      routes: [{ driver: d1.id, packages: sydney.stops.map((s) => s.package) }],
    });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const routeId = c.body.routes[0]!.id;
    // The van reaches the windowed stop long before 09:00 Sydney and waits: service begins at 22:00 UTC exactly,
    // and that is the stop's time (what the recipient is told and the delivery is measured against).
    const eta = (await t.db.select().from(stopEta).where(eq(stopEta.package_id, windowed)).get())!;
    expect(eta.wait_s).toBeGreaterThan(3600);
    expect(Math.abs(eta.eta_at - at('2026-01-05T22:00:00Z'))).toBeLessThanOrEqual(1000);
    const plan2 = await t.json<RouteEtas>('GET', `/api/route/${routeId}/eta/`, d1.token);
    expect(plan2.status).toBe(200);
    expect(plan2.body).toMatchObject({ time_zone: SYD, shift_start: '07:00' });
    // "Today" of the live routes is Sydney's: at 21:00 UTC on the 5th it is already the 6th there.
    t.clock.set(at('2026-01-05T21:00:00Z'));
    const office = await t.login('admin'); // a staff session idles out after 12 hours
    const today = await t.json<{ date: string; results: RouteEtas[] }>('GET', '/api/dispatch/eta/', office.token);
    expect(today.status, JSON.stringify(today.body)).toBe(200);
    expect(today.body.date).toBe(DAY);
    expect(today.body.results.map((r) => r.route)).toContain(routeId);
  });
});

describe("days are the business's local days", () => {
  async function deliveredAt(t: TestApp, driver: number, hawb: string, when: string, extra: Partial<typeof pkg.$inferInsert> = {}) {
    const ms = at(when);
    const id = (
      await t.db
        .insert(pkg)
        .values({
          hawb,
          status: 'delivered',
          customer_name: hawb,
          assigned_to_id: driver,
          delivered_at: ms,
          created_at: ms - 3600_000,
          updated_at: ms,
          ...extra,
        })
        .returning()
        .get()
    ).id;
    await t.db
      .insert(deliveryRecord)
      .values({ package_id: id, driver_id: driver, recipient_name: 'Rita', occurred_at: ms, received_at: ms, updated_at: ms })
      .run();
    return id;
  }

  it("the dashboard's today, the driver's day and report days follow Sydney, not UTC", async () => {
    const w = await routeWorld();
    const { t, d1 } = w;
    // 12:00 on the 6th in Sydney, 01:00 UTC.
    t.clock.set(at('2026-01-06T01:00:00Z'));
    const admin = await t.login('admin');
    await businessIn(t, admin.token, SYD);
    // Local (AEDT, +11):     23:30 on the 5th        09:30 on the 6th       15:00 on the 6th       00:30 on the 7th
    await deliveredAt(t, d1.id, 'C', '2026-01-05T12:30:00Z');
    await deliveredAt(t, d1.id, 'A', '2026-01-05T22:30:00Z');
    await deliveredAt(t, d1.id, 'B', '2026-01-06T04:00:00Z');
    await deliveredAt(t, d1.id, 'D', '2026-01-06T13:30:00Z');

    const count = await t.json<Json & { packages: Json }>('GET', '/api/dashboard/count/', admin.token);
    expect(count.status).toBe(200);
    expect(count.body).toMatchObject({ date: '2026-01-06', time_zone: SYD });
    // A morning and an afternoon delivery on one local day, on two UTC days.
    expect(count.body.packages.delivered_today).toBe(2);
    expect(
      (await t.json<{ packages: Json }>('GET', '/api/dashboard/count/?date=2026-01-07', admin.token)).body.packages.delivered_today,
    ).toBe(1);

    // Report days: Sydney's by default, UTC's when asked for by name.
    type Row = { date: string; delivered: number };
    const kpi = await t.json<{ period: Json; results: Row[] }>(
      'GET',
      `/api/report/driver-kpi/?from=2026-01-05&to=2026-01-07&driver=${d1.id}`,
      admin.token,
    );
    expect(kpi.status, JSON.stringify(kpi.body)).toBe(200);
    expect(kpi.body.period).toEqual({ from: '2026-01-05', to: '2026-01-07', time_zone: SYD, utc_offset: 660 });
    expect(kpi.body.results.map((r) => [r.date, r.delivered])).toEqual([
      ['2026-01-05', 1],
      ['2026-01-06', 2],
      ['2026-01-07', 1],
    ]);
    const utc = await t.json<{ results: Row[] }>(
      'GET',
      `/api/report/driver-kpi/?from=2026-01-05&to=2026-01-07&driver=${d1.id}&time_zone=UTC`,
      admin.token,
    );
    expect(utc.body.results.map((r) => [r.date, r.delivered])).toEqual([
      ['2026-01-05', 2],
      ['2026-01-06', 2],
    ]);
    expect((await t.json('GET', '/api/report/driver-kpi/?time_zone=Sydney', admin.token)).status).toBe(400);

    // The driver's earnings by local day, and "this month" is Sydney's.
    const earned = await t.json<{ from: string; to: string; days: { date: string; delivered_count: number }[] }>(
      'GET',
      '/api/dashboard/driver-earning/?from=2026-01-05&to=2026-01-07',
      d1.token,
    );
    expect(earned.status, JSON.stringify(earned.body)).toBe(200);
    expect(earned.body.days.map((d) => [d.date, d.delivered_count])).toEqual([
      ['2026-01-05', 1],
      ['2026-01-06', 2],
      ['2026-01-07', 1],
    ]);
    const month = await t.json<{ from: string; to: string }>('GET', '/api/dashboard/driver-earning/', d1.token);
    expect([month.body.from, month.body.to]).toEqual(['2026-01-01', '2026-01-31']);

    // The driver's completed deliveries of a local day.
    const done = await t.json<{ count: number; results: { hawb: string }[] }>(
      'GET',
      '/api/dashboard/completed-delivery/?date_from=2026-01-06&date_to=2026-01-06',
      d1.token,
    );
    expect(done.status).toBe(200);
    expect(done.body.results.map((p) => p.hawb).sort()).toEqual(['A', 'B']);

    // The driver's day: Sydney's today without an offset; an older app's fixed offset still counts.
    const now = t.clock.now();
    await t.db
      .insert(pkg)
      .values({ hawb: 'DUE6', status: 'assigned', assigned_to_id: d1.id, delivery_date: '2026-01-06', created_at: now, updated_at: now })
      .run();
    const mine = await t.json<{ message: string; packages: { hawb: string }[] }>('GET', '/api/driver-package/current-date/', d1.token);
    expect(mine.status).toBe(200);
    expect(mine.body.message).toContain('2026-01-06');
    expect(mine.body.packages.map((p) => p.hawb)).toContain('DUE6');
    // 01:00 UTC is 17:00 on the 5th in Los Angeles (-8).
    expect(
      (await t.json<{ message: string }>('GET', '/api/driver-package/current-date/?utc_offset=-480', d1.token)).body.message,
    ).toContain('2026-01-05');
  });

  it('a daylight-saving day is 23 or 25 hours long in reports (Sydney, April and October), and Adelaide counts its half hour', async () => {
    const w = await routeWorld();
    const { t, admin, d1 } = w;
    await businessIn(t, admin.token, SYD);
    // 5 April 2026: 00:30 AEDT (+11) and 23:30 AEST (+10) are 24 hours apart on one 25-hour local day.
    await deliveredAt(t, d1.id, 'APR-EARLY', '2026-04-04T13:30:00Z');
    await deliveredAt(t, d1.id, 'APR-LATE', '2026-04-05T13:30:00Z');
    await deliveredAt(t, d1.id, 'APR-NEXT', '2026-04-05T14:00:00Z'); // 00:00 on the 6th (AEST)
    // 4 October 2026: 00:30 AEST and 23:30 AEDT are 22 hours apart on one 23-hour local day.
    await deliveredAt(t, d1.id, 'OCT-EARLY', '2026-10-03T14:30:00Z');
    await deliveredAt(t, d1.id, 'OCT-LATE', '2026-10-04T12:30:00Z');
    await deliveredAt(t, d1.id, 'OCT-NEXT', '2026-10-04T13:00:00Z'); // 00:00 on the 5th (AEDT)
    type Row = { date: string; delivered: number };
    const days = async (from: string, to: string, zone?: string) =>
      (
        await t.json<{ results: Row[] }>(
          'GET',
          `/api/report/driver-kpi/?from=${from}&to=${to}&driver=${d1.id}${zone ? `&time_zone=${zone}` : ''}`,
          admin.token,
        )
      ).body.results.map((r) => [r.date, r.delivered]);
    expect(await days('2026-04-04', '2026-04-06')).toEqual([
      ['2026-04-05', 2],
      ['2026-04-06', 1],
    ]);
    expect(await days('2026-10-03', '2026-10-05')).toEqual([
      ['2026-10-04', 2],
      ['2026-10-05', 1],
    ]);
    // Adelaide is half an hour behind Sydney: 00:00 on the 6th in Sydney is 23:30 on the 5th there.
    expect(await days('2026-04-04', '2026-04-06', 'Australia/Adelaide')).toEqual([['2026-04-05', 3]]);
  });
});
