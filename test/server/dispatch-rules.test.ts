import { describe, expect, it } from 'vitest';
import type { PlanJob } from '../../shared/schemas/dispatch';
import { waitFor } from '../../server/services/dispatch/proposal';
import { planDay, routeWorld, type Json } from './routes-helpers';

/** Issue 32 through the real app: the office's costs, a break, skills, limits reach the optimiser and come back on the proposal. */
const DAY = '2026-01-05';
const DEPOT: [number, number] = [-33.87, 151.2];

async function world() {
  const w = await routeWorld();
  const { t, admin } = w;
  expect(
    (await t.json('PUT', `/api/warehouse/${w.warehouseId}/position/`, admin.token, { latitude: DEPOT[0], longitude: DEPOT[1] })).status,
  ).toBe(200);
  for (const d of [w.d1.id, w.d2.id]) {
    const r = await t.json('POST', '/api/driver-shift/', admin.token, {
      driver: d,
      date: DAY,
      start_time: '09:00',
      end_time: '17:00',
      start_warehouse: w.warehouseId,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  }
  const ids: number[] = [];
  for (let k = 0; k < 6; k++)
    ids.push(await w.parcel(`R${k}`, { latitude: DEPOT[0] + 0.01 * (k + 1), longitude: DEPOT[1] + 0.005 * (k % 2), weight: 2 }));
  return { ...w, ids };
}

async function planned(w: Awaited<ReturnType<typeof world>>, body: Json): Promise<PlanJob> {
  return planDay(w.t, w.admin.token, { date: DAY, include_undated: true, time_limit_ms: 200, drivers: [w.d1.id, w.d2.id], ...body });
}

describe('plan rules (issue 32)', () => {
  it('a van left without stops drives nowhere: no distance, no time, even when its shift ends at another depot', async () => {
    const w = await routeWorld();
    const { t, admin } = w;
    const WEST: [number, number] = [-33.815, 151.0];
    const west = await t.json<{ id: number }>('POST', '/api/warehouse/', admin.token, {
      name: 'Parramatta depot',
      street_address: '2 Depot Rd',
      suburb: 'Parramatta',
      state: 'NSW',
      postcode: '2150',
    });
    expect(west.status).toBe(201);
    for (const [id, at] of [
      [w.warehouseId, DEPOT],
      [west.body.id, WEST],
    ] as const)
      expect((await t.json('PUT', `/api/warehouse/${id}/position/`, admin.token, { latitude: at[0], longitude: at[1] })).status).toBe(200);
    for (const [driver, to] of [
      [w.d1.id, w.warehouseId],
      [w.d2.id, west.body.id],
    ] as const)
      expect(
        (
          await t.json('POST', '/api/driver-shift/', admin.token, {
            driver,
            date: DAY,
            start_time: '08:00',
            end_time: '17:00',
            start_warehouse: w.warehouseId,
            end_warehouse: to,
          })
        ).status,
      ).toBe(201);
    // The one parcel needs the fridge, which only Dana has: Eli's van stays in the yard.
    expect((await t.json('PUT', `/api/dispatch/driver-skills/${w.d1.id}/`, admin.token, { skills: ['refrigerated'] })).status).toBe(200);
    const id = await w.parcel('COLD', { latitude: DEPOT[0] + 0.01, longitude: DEPOT[1], weight: 1 });
    expect((await t.json('PUT', `/api/package/${id}/window/`, admin.token, { skills: ['refrigerated'] })).status).toBe(200);
    const plan = await planned({ ...w, ids: [id] }, {});
    expect(plan.status, plan.message ?? '').toBe('done');
    const eli = plan.proposal!.routes.find((r) => r.driver === w.d2.id)!;
    const dana = plan.proposal!.routes.find((r) => r.driver === w.d1.id)!;
    expect(eli.stops).toEqual([]);
    expect([eli.distance_m, eli.duration_s]).toEqual([0, 0]);
    expect(dana.stops.map((s) => s.package)).toEqual([id]);
    expect(plan.proposal!.distance_m).toBe(dana.distance_m);
  }, 60_000);

  it("a stop's wait is for its window only: a break taken there is shown as the break", () => {
    const sched = { vehicle: 0, jobs: [1, 2], waits: [1800, 2400], breaks: [{ before: 1, start: 100, end: 1900 }] };
    expect([waitFor(sched, 0), waitFor(sched, 1)]).toEqual([1800, 600]);
    expect(waitFor({ vehicle: 0, jobs: [1], breaks: [{ before: 0, start: 0, end: 1800 }], waits: [1800] }, 0)).toBe(0);
  });

  it('skills steer parcels and name what is missing; a break and the waits show on the route; bad rules are 400', async () => {
    const w = await world();
    const { t, admin } = w;
    // A late window, so the fridge van's day spans its break window.
    expect(
      (await t.json('PUT', `/api/package/${w.ids[0]}/window/`, admin.token, { window_start: '13:00', window_end: '13:30' })).status,
    ).toBe(200);
    const plan = await planned(w, {
      costs: { per_hour: 40, per_km: 0.6, per_vehicle: 20 },
      break: { minutes: 30, after_min: 180, after_max: 240 },
      driver_skills: [{ driver: w.d1.id, skills: ['fridge'] }],
      parcel_skills: [
        { package: w.ids[0], skills: ['fridge'] },
        { package: w.ids[1], skills: ['two-person'] },
      ],
      max_stops: 5,
    });
    expect(plan.status, plan.message ?? '').toBe('done');
    const p = plan.proposal!;
    const routeOf = (pkgId: number) => p.routes.find((r) => r.stops.some((s) => s.package === pkgId));
    expect(routeOf(w.ids[0])?.driver).toBe(w.d1.id);
    expect(p.unassigned).toEqual([
      expect.objectContaining({ package: w.ids[1], reason: 'skill', message: expect.stringContaining('two-person') }),
    ]);
    const fridge = routeOf(w.ids[0])!;
    // 12:00-13:00 (Sydney) is the break window; the route runs past 13:00, so it has its break.
    expect(fridge.breaks).toHaveLength(1);
    expect(fridge.stops.every((s) => typeof s.wait_s === 'number')).toBe(true);
    for (const r of p.routes) expect(r.stops.length).toBeLessThanOrEqual(5);
    // The van does not leave at 09:00 (22:00 UTC the day before, in January) only to wait for a 13:00 window.
    expect(Date.parse(fridge.depart)).toBeGreaterThan(Date.parse('2026-01-04T22:00:00Z'));
    for (const s of fridge.stops) expect(Date.parse(s.eta)).toBeGreaterThanOrEqual(Date.parse(fridge.depart));

    const bad = await t.json<Json>('POST', '/api/dispatch/plan/', admin.token, {
      date: DAY,
      drivers: [w.d1.id],
      break: { minutes: 30, after_min: 300, after_max: 100 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
  }, 120_000);

  it("stored settings, van and driver skills, van rates, a shift's own break and a parcel's stored needs steer a plan whose request names no rule", async () => {
    const w = await world();
    const { t, admin } = w;
    // The office's settings: a driver may not change them; the office can, and reads them back.
    const settings = { costs: { per_hour: 40, per_km: 0.6, per_vehicle: 20 }, max_stops: 5 };
    expect((await t.json('PUT', '/api/dispatch/settings/', w.d1.token, settings)).status).toBe(403);
    expect((await t.json('PUT', '/api/dispatch/settings/', admin.token, { max_stops: 0 })).status).toBe(400);
    expect((await t.json('PUT', '/api/dispatch/settings/', admin.token, settings)).status).toBe(200);
    const read = await t.json<Json>('GET', '/api/dispatch/settings/', admin.token);
    expect(read.body).toMatchObject({ max_stops: 5, costs: { per_hour: 40, per_km: 0.6, per_vehicle: 20 } });

    // The fridge van (its skill typed in capitals) with its own hourly rate, on Dana's shift with her own break.
    const van = await t.json<Json>('POST', '/api/vehicle/', admin.token, {
      name: 'Fridge van',
      skills: ['Refrigerated'],
      cost_per_hour: 55,
    });
    expect(van.status, JSON.stringify(van.body)).toBe(201);
    expect(van.body).toMatchObject({ skills: ['refrigerated'], cost_per_hour: 55, cost_per_km: null });
    const shifts = await t.json<{ results: { id: number; driver: number }[] }>('GET', `/api/driver-shift/?date=${DAY}`, admin.token);
    const danas = shifts.body.results.find((s) => s.driver === w.d1.id)!;
    const half = await t.json<Json>('PATCH', `/api/driver-shift/${danas.id}/`, admin.token, { break_minutes: 30 });
    expect(half.status).toBe(400);
    const backwards = { break_minutes: 30, break_after_min: 240, break_after_max: 180 };
    expect((await t.json('PATCH', `/api/driver-shift/${danas.id}/`, admin.token, backwards)).status).toBe(400);
    const shift = await t.json<Json>('PATCH', `/api/driver-shift/${danas.id}/`, admin.token, {
      vehicle: van.body.id,
      break_minutes: 30,
      break_after_min: 180,
      break_after_max: 240,
    });
    expect(shift.status, JSON.stringify(shift.body)).toBe(200);
    expect(shift.body).toMatchObject({ break_minutes: 30, break_after_min: 180, break_after_max: 240 });
    // The other driver can lift with a second person, whatever van he drives.
    expect((await t.json('PUT', `/api/dispatch/driver-skills/${w.d2.id}/`, w.d1.token, { skills: ['two-person'] })).status).toBe(403);
    expect((await t.json('PUT', `/api/dispatch/driver-skills/${w.d2.id}/`, admin.token, { skills: ['two-person'] })).status).toBe(200);
    expect((await t.json('PUT', `/api/dispatch/driver-skills/${w.d2.id}/`, admin.token, { skills: [''] })).status).toBe(400);
    const skills = await t.json<{ results: { driver: number; skills: string[] }[] }>('GET', '/api/dispatch/driver-skills/', admin.token);
    expect(skills.body.results.find((r) => r.driver === w.d2.id)?.skills).toEqual(['two-person']);
    // A chilled parcel in the afternoon; one that needs both skills, which no single driver has.
    const chilled = await t.json<Json>('PUT', `/api/package/${w.ids[0]}/window/`, admin.token, {
      window_start: '13:00',
      window_end: '13:30',
      skills: ['refrigerated'],
    });
    expect(chilled.body).toMatchObject({ skills: ['refrigerated'] });
    await t.json('PUT', `/api/package/${w.ids[1]}/window/`, admin.token, { skills: ['refrigerated', 'two-person'] });
    await t.json('PUT', `/api/package/${w.ids[2]}/window/`, admin.token, { skills: ['two-person'] });

    const p = (await planned(w, {})).proposal!;
    const routeOf = (pkgId: number) => p.routes.find((r) => r.stops.some((s) => s.package === pkgId));
    expect(routeOf(w.ids[0])?.driver).toBe(w.d1.id);
    expect(routeOf(w.ids[2])?.driver).toBe(w.d2.id);
    expect(p.unassigned).toEqual([expect.objectContaining({ package: w.ids[1], reason: 'skill' })]);
    expect(routeOf(w.ids[0])!.breaks).toHaveLength(1);
    for (const r of p.routes) expect(r.stops.length).toBeLessThanOrEqual(5);

    // The request's own limit wins over the stored one.
    const tight = (await planned(w, { max_stops: 2 })).proposal!;
    for (const r of tight.routes) expect(r.stops.length).toBeLessThanOrEqual(2);
  }, 120_000);

  it('several depots in one plan: each van starts and ends where its shift says and takes the parcels near it', async () => {
    const w = await routeWorld();
    const { t, admin } = w;
    const CITY: [number, number] = [-33.87, 151.2];
    const WEST: [number, number] = [-33.815, 151.0];
    const west = await t.json<{ id: number }>('POST', '/api/warehouse/', admin.token, {
      name: 'Parramatta depot',
      street_address: '2 Depot Rd',
      suburb: 'Parramatta',
      state: 'NSW',
      postcode: '2150',
    });
    expect(west.status, JSON.stringify(west.body)).toBe(201);
    for (const [id, at] of [
      [w.warehouseId, CITY],
      [west.body.id, WEST],
    ] as const)
      expect((await t.json('PUT', `/api/warehouse/${id}/position/`, admin.token, { latitude: at[0], longitude: at[1] })).status).toBe(200);
    // Dana works from the city; Eli from Parramatta, 20 km west.
    for (const [driver, from, to] of [
      [w.d1.id, w.warehouseId, w.warehouseId],
      [w.d2.id, west.body.id, west.body.id],
    ] as const) {
      const r = await t.json('POST', '/api/driver-shift/', admin.token, {
        driver,
        date: DAY,
        start_time: '08:00',
        end_time: '17:00',
        start_warehouse: from,
        end_warehouse: to,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    const near = async (prefix: string, at: [number, number]) => {
      const ids: number[] = [];
      for (let k = 0; k < 3; k++)
        ids.push(await w.parcel(`${prefix}${k}`, { latitude: at[0] + 0.004 * (k + 1), longitude: at[1] - 0.003 * k, weight: 1 }));
      return ids;
    };
    const cityIds = await near('C', CITY);
    const westIds = await near('W', WEST);
    // No zones in this world: every zone (both depots) is planned.
    const plan = await planDay(t, admin.token, { date: DAY, include_undated: true, time_limit_ms: 200, drivers: [w.d1.id, w.d2.id] });
    expect(plan.status, plan.message ?? '').toBe('done');
    const routes = plan!.proposal!.routes;
    const dana = routes.find((r) => r.driver === w.d1.id)!;
    const eli = routes.find((r) => r.driver === w.d2.id)!;
    expect(dana.start).toEqual({ latitude: CITY[0], longitude: CITY[1] });
    expect(eli.start).toEqual({ latitude: WEST[0], longitude: WEST[1] });
    expect(eli.end).toEqual({ latitude: WEST[0], longitude: WEST[1] });
    expect(plan!.proposal!.unassigned).toEqual([]);
    // Eli passes the city parcels on his way to the city depot, so he may take some; Dana never drives west.
    expect(dana.stops.map((s) => s.package).filter((id) => westIds.includes(id))).toEqual([]);
    expect(eli.stops.map((s) => s.package)).toEqual(expect.arrayContaining(westIds));
    expect([...dana.stops, ...eli.stops].map((s) => s.package).sort((a, b) => a - b)).toEqual(
      [...cityIds, ...westIds].sort((a, b) => a - b),
    );
  }, 120_000);
});
