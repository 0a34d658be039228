import { describe, expect, it } from 'vitest';
import type { PlanJob } from '../../shared/schemas/dispatch';
import { routeWorld, type Json } from './routes-helpers';

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
  const start = await w.t.json<PlanJob>('POST', '/api/dispatch/plan/', w.admin.token, {
    date: DAY,
    include_undated: true,
    time_limit_ms: 200,
    drivers: [w.d1.id, w.d2.id],
    ...body,
  });
  expect(start.status, JSON.stringify(start.body)).toBe(202);
  for (let i = 0; i < 600; i++) {
    const r = await w.t.json<PlanJob>('GET', `/api/dispatch/plan/${start.body.id}/`, w.admin.token);
    if (r.body.status === 'done' || r.body.status === 'failed') return r.body;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error('plan did not finish');
}

describe('plan rules (issue 32)', () => {
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
});
