import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pkg } from '../../server/db/schema/index';
import { whilePolling } from '../helpers/loopDelay';
import { planDay, routeWorld, type Json } from './routes-helpers';

/**
 * Security issue 30, dispatch: a depot manager plans 1,200 parcels with two small vans, so most
 * are left out. Each left-out parcel's reason used to rebuild the whole n x n model, and the matrix
 * was filled on the request thread with a string key per cell: every other request waited 20-27 s.
 * Now the matrix, the plan, the reasons and the proposal's JSON are made in the fleet worker, and
 * the parcels are read a page per turn; another user polling meanwhile sees the event loop held
 * 50 ms at most (CPU time of this thread, whatever the machine's load).
 */
const DAY = '2026-01-05';
const DEPOT: [number, number] = [-33.87, 151.2];
const PARCELS = 1200;

describe('dispatch plan of a busy day does not freeze other users (security issue 30)', () => {
  it('1,200 parcels, two vans: the poller sees no stall, and every parcel left out has its reason', async () => {
    const w = await routeWorld();
    const { t, admin } = w;
    expect(
      (await t.json('PUT', `/api/warehouse/${w.warehouseId}/position/`, admin.token, { latitude: DEPOT[0], longitude: DEPOT[1] })).status,
    ).toBe(200);
    for (const d of [w.d1.id, w.d2.id]) {
      const van = await t.json<{ id: number }>('POST', '/api/vehicle/', admin.token, {
        name: `Van ${d}`,
        type: 'van',
        capacity_kg: 500,
        capacity_parcels: 30,
      } as Json);
      expect(van.status).toBe(201);
      const r = await t.json('POST', '/api/driver-shift/', admin.token, {
        driver: d,
        date: DAY,
        start_time: '09:00',
        end_time: '17:00',
        start_warehouse: w.warehouseId,
        vehicle: van.body.id,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    // One parcel through the API, the rest as copies of its row (1,200 POSTs would be most of the test).
    const first = await w.parcel('DAY0', { latitude: DEPOT[0] + 0.01, longitude: DEPOT[1], weight: 2 });
    const { id: _id, ...template } = (await t.db.select().from(pkg).where(eq(pkg.id, first)).get())!;
    const rows = [];
    for (let k = 1; k < PARCELS; k++) {
      const a = (2 * Math.PI * k) / PARCELS;
      const r = 0.01 + (0.05 * ((k * 7919) % 1000)) / 1000;
      rows.push({ ...template, hawb: `DAY${k}`, latitude: DEPOT[0] + r * Math.cos(a), longitude: DEPOT[1] + r * Math.sin(a) });
    }
    for (let i = 0; i < rows.length; i += 100)
      await t.db
        .insert(pkg)
        .values(rows.slice(i, i + 100))
        .run();

    const other = await t.login('supervisor');
    const {
      result: plan,
      maxMs,
      p99Ms,
      busyMs,
      polls,
    } = await whilePolling(
      async () => {
        return planDay(t, w.depot.token, { date: DAY, time_limit_ms: 500, drivers: [w.d1.id, w.d2.id], include_undated: true });
      },
      async () => expect((await t.call('GET', '/api/profile/', other.token)).status).toBe(200),
    );

    expect(plan.status, plan.message ?? '').toBe('done');
    const proposal = plan.proposal!;
    const served = proposal.routes.reduce((s, r) => s + r.stops.length, 0);
    expect(served).toBeLessThanOrEqual(60);
    expect(served + proposal.unassigned.length).toBe(PARCELS);
    expect(new Set(proposal.unassigned.map((u) => u.reason))).toEqual(new Set(['fleet_full']));
    expect(polls).toBeGreaterThan(5);
    // Before: 20-27 s with nothing answered; then 70-130 ms (the pool read and the proposal's shaping on
    // this thread). Now read a page per turn and shaped in the worker: 10-20 ms.
    console.log(
      `dispatch 1,200 parcels: event-loop delay max ${maxMs.toFixed(0)} ms, p99 ${p99Ms.toFixed(0)} ms, loop held ${busyMs} ms at most, ${polls} polls`,
    );
    expect(busyMs).toBeLessThanOrEqual(50);
  }, 180_000);

  it('amending a busy day searches in the planning worker: the poller sees no stall', async () => {
    const w = await routeWorld();
    const { t, admin } = w;
    expect(
      (await t.json('PUT', `/api/warehouse/${w.warehouseId}/position/`, admin.token, { latitude: DEPOT[0], longitude: DEPOT[1] })).status,
    ).toBe(200);
    for (const d of [w.d1.id, w.d2.id]) {
      const van = await t.json<{ id: number }>('POST', '/api/vehicle/', admin.token, { name: `Van ${d}`, capacity_parcels: 400 } as Json);
      const r = await t.json('POST', '/api/driver-shift/', admin.token, {
        driver: d,
        date: DAY,
        start_time: '06:00',
        end_time: '23:00',
        start_warehouse: w.warehouseId,
        vehicle: van.body.id,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    // Two routes of 150 stops, then 200 parcels due today (the most one amendment takes) to fit in.
    const first = await w.parcel('AM0', { latitude: DEPOT[0] + 0.01, longitude: DEPOT[1], weight: 1, delivery_date: DAY });
    const { id: _id, ...template } = (await t.db.select().from(pkg).where(eq(pkg.id, first)).get())!;
    const spot = (k: number) => {
      const a = (2 * Math.PI * k) / 500;
      const r = 0.01 + (0.04 * ((k * 7919) % 1000)) / 1000;
      return { latitude: DEPOT[0] + r * Math.cos(a), longitude: DEPOT[1] + r * Math.sin(a) };
    };
    const rows = Array.from({ length: 499 }, (_, i) => ({ ...template, hawb: `AM${i + 1}`, ...spot(i + 1) }));
    for (let i = 0; i < rows.length; i += 100)
      await t.db
        .insert(pkg)
        .values(rows.slice(i, i + 100))
        .run();
    const ids = (await t.db.select({ id: pkg.id }).from(pkg).all()).map((r) => r.id).sort((a, b) => a - b);
    for (const [n, d] of [
      [0, w.d1],
      [1, w.d2],
    ] as const) {
      const r = await t.json<{ id: number }>('POST', '/api/route/', admin.token, {
        name: `Run ${n}`,
        date: DAY,
        driver: d.id,
        warehouse: w.warehouseId,
        start_latitude: DEPOT[0],
        start_longitude: DEPOT[1],
        packages: ids.slice(n * 150, n * 150 + 150),
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    const other = await t.login('supervisor');
    const { result, maxMs, p99Ms, busyMs, polls } = await whilePolling(
      () => t.json<{ routes: { added: number[] }[]; unassigned: number[] }>('POST', '/api/dispatch/amend/', admin.token, { date: DAY }),
      async () => expect((await t.call('GET', '/api/profile/', other.token)).status).toBe(200),
    );
    expect(result.status, JSON.stringify(result.body).slice(0, 300)).toBe(200);
    const added = result.body.routes.reduce((s, r) => s + r.added.length, 0);
    expect(added + result.body.unassigned.length).toBe(200);
    console.log(
      `amend 2 x 150 stops + 200 parcels: event-loop delay max ${maxMs.toFixed(0)} ms, p99 ${p99Ms.toFixed(0)} ms, loop held ${busyMs} ms at most, ${polls} polls`,
    );
    // Searched on the request thread (checked) the worst delay was 1.3 s on this busy machine; in the worker 0.2-0.4 s.
    expect(busyMs).toBeLessThan(800);
    expect(polls).toBeGreaterThan(5);
  }, 180_000);
});
