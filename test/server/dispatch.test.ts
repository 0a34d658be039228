import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { PlanJob, RouteEtas } from '../../shared/schemas/dispatch';
import { pkg, stopEta } from '../../server/db/schema/index';
import { etaFor } from '../../server/services/dispatch/eta';
import { phoneEtas } from '../../client/driver/etaMath';
import { planDay, routeWorld, type Json, type PackageJson, type RouteJson } from './routes-helpers';

const DAY = '2026-01-05';
const DEPOT: [number, number] = [-33.87, 151.2];
/** Parcels on a ring around the depot, ~2-6 km out. */
const ring = (k: number, n: number): [number, number] => [
  DEPOT[0] + 0.03 * Math.cos((2 * Math.PI * k) / n) * (1 + (k % 3) * 0.5),
  DEPOT[1] + 0.03 * Math.sin((2 * Math.PI * k) / n) * (1 + (k % 3) * 0.5),
];

async function world() {
  const w = await routeWorld();
  const { t, admin } = w;
  expect(
    (await t.json('PUT', `/api/warehouse/${w.warehouseId}/position/`, admin.token, { latitude: DEPOT[0], longitude: DEPOT[1] })).status,
  ).toBe(200);
  const van = async (name: string, capacity: Json) => {
    const r = await t.json<{ id: number }>('POST', '/api/vehicle/', admin.token, { name, type: 'van', ...capacity });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.id;
  };
  const v1 = await van('Van 1', { capacity_kg: 500, capacity_parcels: 8 });
  const v2 = await van('Van 2', { capacity_kg: 500, capacity_parcels: 8 });
  for (const [d, v] of [
    [w.d1.id, v1],
    [w.d2.id, v2],
  ]) {
    const r = await t.json('POST', '/api/driver-shift/', admin.token, {
      driver: d,
      date: DAY,
      start_time: '09:00',
      end_time: '17:00',
      start_warehouse: w.warehouseId,
      vehicle: v,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  }
  const ids: number[] = [];
  for (let k = 0; k < 12; k++) {
    const [latitude, longitude] = ring(k, 12);
    ids.push(await w.parcel(`D${k}`, { latitude, longitude, weight: 5 }));
  }
  const nowhere = await w.parcel('NOWHERE', {});
  const heavy = await w.parcel('HEAVY', { latitude: DEPOT[0] + 0.01, longitude: DEPOT[1], weight: 900 });
  return { ...w, v1, v2, ids, nowhere, heavy };
}

async function planned(w: Awaited<ReturnType<typeof world>>, body: Json): Promise<PlanJob> {
  return planDay(w.t, w.admin.token, { date: DAY, time_limit_ms: 300, include_undated: true, ...body });
}

describe('vehicles, shifts, depots, windows', () => {
  it('keeps vehicles and shifts for office staff, checks them, and refuses others', async () => {
    const w = await world();
    const { t, admin, shipper, d1 } = w;
    const list = await t.json<{ count: number; results: { driver: number; vehicle_name: string; start_time: string }[] }>(
      'GET',
      `/api/driver-shift/?date=${DAY}`,
      admin.token,
    );
    expect(list.body.count).toBe(2);
    expect(list.body.results.map((s) => s.vehicle_name).sort()).toEqual(['Van 1', 'Van 2']);
    // Refusals: company and driver cannot manage the fleet; bad shifts change nothing.
    expect((await t.json('POST', '/api/vehicle/', shipper.token, { name: 'Mine' })).status).toBe(403);
    expect((await t.json('POST', '/api/vehicle/', d1.token, { name: 'Mine' })).status).toBe(403);
    expect((await t.json('GET', '/api/vehicle/', shipper.token)).status).toBe(403);
    const bad = async (body: Json, status: number) => {
      const r = await t.json<Json>('POST', '/api/driver-shift/', admin.token, {
        driver: d1.id,
        date: '2026-01-06',
        start_time: '09:00',
        end_time: '17:00',
        ...body,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(r.body.success).toBe(false);
    };
    await bad({ end_time: '08:00' }, 400);
    await bad({ start_time: '9am' }, 400);
    await bad({ driver: shipper.id }, 400);
    await bad({ start_warehouse: 9999 }, 400);
    await bad({ date: DAY }, 409); // already on shift that day
    await bad({ vehicle: w.v2, driver: w.d2.id, date: DAY }, 409);
    expect((await t.json<{ count: number }>('GET', '/api/driver-shift/', admin.token)).body.count).toBe(2);
    // A driver sees only their own shifts.
    const mine = await t.json<{ count: number; results: { driver: number }[] }>('GET', '/api/driver-shift/', d1.token);
    expect(mine.body.results.map((s) => s.driver)).toEqual([d1.id]);
  });

  it('stores windows and times at the door beside the package, with company defaults', async () => {
    const w = await world();
    const { t, admin, shipper } = w;
    const id = w.ids[0];
    const before = await t.json<Json>('GET', `/api/package/${id}/window/`, shipper.token);
    expect(before.body).toMatchObject({ window_start: null, window_end: null, service_s: 180, service_source: 'default' });
    const companyId = (await t.db.select().from(pkg).where(eq(pkg.id, id)).get())?.company_id as number;
    expect((await t.json('PUT', `/api/company/${companyId}/service-time/`, admin.token, { service_s: 240 })).status).toBe(200);
    expect((await t.json('PUT', `/api/company/${companyId}/service-time/`, shipper.token, { service_s: 1 })).status).toBe(403);
    const set = await t.json<Json>('PUT', `/api/package/${id}/window/`, shipper.token, { window_start: '10:00', window_end: '11:00' });
    expect(set.body).toMatchObject({ window_start: '10:00', window_end: '11:00', service_s: 240, service_source: 'company' });
    expect((await t.json('PUT', `/api/package/${id}/window/`, shipper.token, { window_start: '12:00', window_end: '11:00' })).status).toBe(
      400,
    );
    expect((await t.json('PUT', `/api/package/${id}/window/`, shipper.token, { window_start: '25:00' })).status).toBe(400);
    expect((await t.json<Json>('GET', `/api/package/${id}/window/`, admin.token)).body).toMatchObject({ window_start: '10:00' });
    // Another company's parcel is not there for them.
    const other = await t.login('company');
    expect((await t.json('PUT', `/api/package/${id}/window/`, other.token, { service_s: 10 })).status).toBe(404);
    // The Package answer keeps its exact spec shape.
    const p = await t.json<Json>('GET', `/api/package/${id}/`, admin.token);
    expect(p.body).not.toHaveProperty('window_start');
  });

  it('takes window_start, window_end and service_s as upload columns, refusing bad ones', async () => {
    const w = await routeWorld();
    const { t, shipper } = w;
    const upload = async (csv: string, partial = false) => {
      const form = new FormData();
      form.append('file', new File([csv], 'p.csv', { type: 'text/csv' }));
      return t.call('POST', `/api/package/bulk-upload/${partial ? '?partial=true' : ''}`, shipper.token, form);
    };
    const bad = await upload('hawb,customer_name,window_start,window_end,service_s\nW-1,Ann,9:30,11:00,120\nW-2,Bob,12:00,11:00,\n');
    expect(bad.status).toBe(400);
    expect(await t.db.select().from(pkg).all()).toHaveLength(0);
    const ok = await upload(
      'hawb,customer_name,window_start,window_end,service_s\nW-1,Ann,9:30,11:00,120\nW-2,Bob,,,\nW-3,Cy,14:00,,\n',
      true,
    );
    expect(ok.status).toBe(200);
    const byHawb = new Map((await t.db.select().from(pkg).all()).map((r) => [r.hawb, r.id]));
    expect([...byHawb.keys()].sort()).toEqual(['W-1', 'W-2']);
    expect((await t.json('GET', `/api/package/${byHawb.get('W-1')}/window/`, shipper.token)).body).toMatchObject({
      window_start: '09:30',
      window_end: '11:00',
      service_s: 120,
      service_source: 'package',
    });
    expect((await t.json('GET', `/api/package/${byHawb.get('W-2')}/window/`, shipper.token)).body).toMatchObject({
      window_start: null,
      service_source: 'default',
    });
  });
});

describe('planning the day', () => {
  it('only office roles plan: companies and drivers are refused, bad input is 400', async () => {
    const w = await world();
    const { t, shipper, d1, admin } = w;
    const body = { date: DAY, drivers: [d1.id] };
    expect((await t.json('POST', '/api/dispatch/plan/', shipper.token, body)).status).toBe(403);
    expect((await t.json('POST', '/api/dispatch/plan/', d1.token, body)).status).toBe(403);
    expect((await t.json('POST', '/api/dispatch/plan/', null, body)).status).toBe(401);
    expect((await t.json('POST', '/api/dispatch/plan/', admin.token, { date: DAY, drivers: [] })).status).toBe(400);
    expect((await t.json('POST', '/api/dispatch/plan/', admin.token, { date: DAY, drivers: [shipper.id] })).status).toBe(400);
    expect(
      (
        await t.json('POST', '/api/dispatch/plan/', admin.token, {
          date: DAY,
          drivers: [d1.id],
          locks: [{ package: w.ids[0], driver: w.d2.id }],
        })
      ).status,
    ).toBe(400);
    expect((await t.json('GET', '/api/dispatch/plan/1/', shipper.token)).status).toBe(403);
    expect((await t.json('GET', '/api/dispatch/plan/999/', admin.token)).status).toBe(404);
    // At most two plans solve at once (each takes a core); a third waits its turn.
    const slow = { date: DAY, drivers: [d1.id], time_limit_ms: 1500, include_undated: true };
    expect((await t.json('POST', '/api/dispatch/plan/', admin.token, slow)).status).toBe(202);
    expect((await t.json('POST', '/api/dispatch/plan/', admin.token, slow)).status).toBe(202);
    const third = await t.json<Json>('POST', '/api/dispatch/plan/', admin.token, slow);
    expect(third.status).toBe(409);
    expect(third.body).toMatchObject({ success: false, code: 'conflict' });
  });

  it("takes the parcels due that day (undated ones only when asked) and counts the drive back in the route's time", async () => {
    const w = await world();
    const { t, admin, d1 } = w;
    // The world's 12 ring parcels are undated; these four are dated.
    const today = await w.parcel('DUE', { latitude: DEPOT[0] + 0.02, longitude: DEPOT[1], delivery_date: DAY });
    const overdue = await w.parcel('OVERDUE', { latitude: DEPOT[0], longitude: DEPOT[1] + 0.02, delivery_date: '2026-01-02' });
    const tomorrow = await w.parcel('TOMORROW', { latitude: DEPOT[0] - 0.02, longitude: DEPOT[1], delivery_date: '2026-01-06' });
    const run = async (body: Json) => {
      const plan = await planDay(t, admin.token, { date: DAY, time_limit_ms: 200, drivers: [d1.id], ...body });
      expect(plan.status, plan.message ?? '').toBe('done');
      return plan.proposal!;
    };
    const dated = await run({});
    const all = (p: typeof dated) =>
      [...p.routes.flatMap((r) => r.stops.map((s) => s.package)), ...p.unassigned.map((u) => u.package)].sort((a, b) => a - b);
    expect(all(dated)).toEqual([today, overdue]);
    const withUndated = await run({ include_undated: true });
    expect(all(withUndated)).toContain(today);
    expect(all(withUndated)).toContain(w.ids[0]);
    expect(all(withUndated)).not.toContain(tomorrow);
    // A bad flag is refused like any bad field.
    expect((await t.json('POST', '/api/dispatch/plan/', admin.token, { date: DAY, drivers: [d1.id], include_undated: 'yes' })).status).toBe(
      400,
    );

    // The van returns to its depot: duration and "back" include that last leg (2 km or more out, at 30 km/h).
    const r = dated.routes[0];
    const last = r.stops.at(-1)!;
    const lastDone = Date.parse(last.eta) + last.service_s * 1000;
    expect(r.end).toEqual({ latitude: DEPOT[0], longitude: DEPOT[1] });
    expect(Date.parse(r.back!)).toBeGreaterThan(lastDone + 3 * 60_000);
    expect(r.duration_s).toBe(Math.round((Date.parse(r.back!) - Date.parse(r.depart)) / 1000));
  });

  it('proposes one route per driver within capacity, windows and shifts; locks hold on re-plan; commit assigns like route/', async () => {
    const w = await world();
    const { t, admin, d1, d2 } = w;
    // One parcel must be served late in the day.
    expect(
      (await t.json('PUT', `/api/package/${w.ids[3]}/window/`, admin.token, { window_start: '15:00', window_end: '15:30' })).status,
    ).toBe(200);
    const plan = await planned(w, { warehouses: [], drivers: [d1.id, d2.id] });
    expect(plan.status, plan.message ?? '').toBe('done');
    const p = plan.proposal!;
    expect(p.routes).toHaveLength(2);
    const placedIds = p.routes.flatMap((r) => r.stops.map((s) => s.package));
    expect(new Set(placedIds).size).toBe(placedIds.length);
    // 12 light parcels, 8 per van: both vans are used, none over capacity.
    expect(placedIds.sort((a, b) => a - b)).toEqual([...w.ids].sort((a, b) => a - b));
    for (const r of p.routes) {
      expect(r.load.parcels).toBeLessThanOrEqual(8);
      expect(r.load.parcels).toBeGreaterThan(0);
      expect(r.start).toEqual({ latitude: DEPOT[0], longitude: DEPOT[1] });
      // ETAs increase along the route and start after the shift.
      const etas = r.stops.map((s) => Date.parse(s.eta));
      expect(etas[0]).toBeGreaterThan(Date.parse(`${DAY}T09:00:00Z`));
      for (let i = 1; i < etas.length; i++) expect(etas[i]).toBeGreaterThan(etas[i - 1]);
    }
    const windowed = p.routes.flatMap((r) => r.stops).find((s) => s.package === w.ids[3])!;
    expect(Date.parse(windowed.eta)).toBeLessThanOrEqual(Date.parse(`${DAY}T15:30:00Z`));
    expect(windowed.late).toBe(false);
    const reasons = Object.fromEntries(p.unassigned.map((u) => [u.hawb, u.reason]));
    expect(reasons).toEqual({ NOWHERE: 'no_coordinates', HEAVY: 'capacity' });

    // Lock a parcel of driver 1 to driver 2, re-plan: it moves and stays there.
    const r1 = p.routes.find((r) => r.driver === d1.id)!;
    const moved = r1.stops[0].package;
    const again = await planned(w, { drivers: [d1.id, d2.id], locks: [{ package: moved, driver: d2.id }] });
    const r2 = again.proposal!.routes.find((r) => r.driver === d2.id)!;
    expect(r2.stops.find((s) => s.package === moved)?.locked).toBe(true);
    expect(again.proposal!.routes.find((r) => r.driver === d1.id)!.stops.some((s) => s.package === moved)).toBe(false);
    // A fixed route is kept exactly; the other driver gets the rest.
    const fixedOrder = [w.ids[5], w.ids[1], w.ids[9]];
    const fixed = await planned(w, { drivers: [d1.id, d2.id], fixed_routes: [{ driver: d1.id, packages: fixedOrder }] });
    const f1 = fixed.proposal!.routes.find((r) => r.driver === d1.id)!;
    expect(f1.fixed).toBe(true);
    expect(f1.stops.map((s) => s.package)).toEqual(fixedOrder);
    expect(fixed.proposal!.routes.find((r) => r.driver === d2.id)!.stops.some((s) => fixedOrder.includes(s.package))).toBe(false);

    // Commit the re-planned proposal: routes exist, parcels assigned, drivers' phones get them.
    const routes = again.proposal!.routes.map((r) => ({ driver: r.driver, packages: r.stops.map((s) => s.package) }));
    const c = await t.json<{ routes: RouteJson[] }>('POST', `/api/dispatch/plan/${again.id}/commit/`, admin.token, { routes });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    expect(c.body.routes).toHaveLength(2);
    for (const r of c.body.routes) {
      const want = routes.find((x) => x.driver === r.driver)!;
      expect(r.packages).toEqual(want.packages);
      expect(r.status).toBe('planned');
      expect(r.total_distance_m).toBeGreaterThan(0);
      const sync = await t.json<{ upserts: { packages: PackageJson[] } }>(
        'GET',
        '/api/sync/changes/?cursor=0',
        r.driver === d1.id ? d1.token : d2.token,
      );
      const mine = sync.body.upserts.packages.filter((x) => want.packages.includes(x.id));
      expect(mine).toHaveLength(want.packages.length);
      expect(mine.every((x) => x.assigned_to_id === r.driver && x.status === 'assigned')).toBe(true);
      const seqs = want.packages.map((id) => mine.find((x) => x.id === id)!.sequence_no);
      expect(seqs).toEqual(want.packages.map((_, i) => i + 1));
      // Every stop has a stored ETA that recipients can read.
      const eta = await t.json<RouteEtas>('GET', `/api/route/${r.id}/eta/`, admin.token);
      expect(eta.body.stops.map((s) => s.package)).toEqual(want.packages);
      expect(await etaFor(t.db, want.packages[0])).toMatchObject({ route: r.id, sequence_no: 1 });
    }
    // Same events as the assign endpoint: an assign event per parcel.
    // Committing twice, or a second plan over the same parcels, is refused and changes nothing.
    expect((await t.json('POST', `/api/dispatch/plan/${again.id}/commit/`, admin.token, { routes })).status).toBe(409);
    expect((await t.json('POST', `/api/dispatch/plan/${fixed.id}/commit/`, admin.token, { routes })).status).toBe(409);
    expect((await t.json('GET', '/api/route/', admin.token)).body).toMatchObject({ count: 2 });
    // A driver cannot read another driver's ETAs; a company cannot read routes at all.
    const other = c.body.routes.find((r) => r.driver === d2.id)!;
    expect((await t.json('GET', `/api/route/${other.id}/eta/`, d1.token)).status).toBe(404);
    expect((await t.json('GET', `/api/route/${other.id}/eta/`, w.shipper.token)).status).toBe(403);
  });

  it('a committed route says it is optimised, and is under way once its driver works a stop, scanned onto the van or not (issue 36)', async () => {
    const w = await world();
    const { t, admin, d1 } = w;
    const plan = await planned(w, { drivers: [d1.id] });
    const order = plan.proposal!.routes[0].stops.map((s) => s.package);
    const c = await t.json<{ routes: (RouteJson & { optimized_at: string | null })[] }>(
      'POST',
      `/api/dispatch/plan/${plan.id}/commit/`,
      admin.token,
      { routes: [{ driver: d1.id, packages: order }] },
    );
    expect(c.status).toBe(201);
    const routeId = c.body.routes[0].id;
    expect(c.body.routes[0]).toMatchObject({ status: 'planned', optimized_at: expect.any(String) });
    const route = async () =>
      (await t.json<{ status: string; optimized_at: string | null }>('GET', `/api/route/${routeId}/`, admin.token)).body;
    t.clock.set(Date.parse(`${DAY}T00:30:00Z`));
    // The office failing a stop is not the driver starting the route.
    expect((await t.json('POST', `/api/package-delivered/${order[0]}/force-fail/`, admin.token, { note: 'closed' })).status).toBe(200);
    expect((await route()).status).toBe('planned');
    // The driver delivers the next stop at the door without a load scan: the route is in progress.
    const hawb = (await t.json<PackageJson>('GET', `/api/package/${order[1]}/`, admin.token)).body.hawb;
    const done = await t.json('POST', '/api/scan-package-api/scan-deliver/', d1.token, { barcode: hawb, recipient_name: 'At the door' });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await route()).toMatchObject({ status: 'in_progress', optimized_at: expect.any(String) });
  });

  it('moves ETAs when the driver reports positions and when stops are worked', async () => {
    const w = await world();
    const { t, admin, d1 } = w;
    const plan = await planned(w, { drivers: [d1.id] });
    const r = plan.proposal!.routes[0];
    const order = r.stops.map((s) => s.package);
    const c = await t.json<{ routes: RouteJson[] }>('POST', `/api/dispatch/plan/${plan.id}/commit/`, admin.token, {
      routes: [{ driver: d1.id, packages: order }],
    });
    expect(c.status).toBe(201);
    const routeId = c.body.routes[0].id;
    const etaOf = async (id: number) => (await t.db.select().from(stopEta).where(eq(stopEta.package_id, id)).get())!;
    const first = (await etaOf(order[1])).eta_at;
    expect((await t.json('POST', `/api/route/${routeId}/status-change/`, d1.token, { status: 'in_progress' })).status).toBe(200);
    // The van is 20 km away at 10:00: every remaining stop moves later.
    t.clock.set(Date.parse(`${DAY}T10:00:00Z`));
    const pos = await t.json('POST', '/api/driver-position/', d1.token, {
      positions: [{ latitude: DEPOT[0] - 0.18, longitude: DEPOT[1], occurred_at: `${DAY}T10:00:00Z` }],
    });
    expect(pos.status).toBe(200);
    expect((await etaOf(order[1])).eta_at).toBeGreaterThan(first);
    // The phone computes the same minute offline, from its own copy: its parcels, the route's plan and its position.
    const phoneCopy = async () => {
      const plan = await t.json<RouteEtas>('GET', `/api/route/${routeId}/eta/`, d1.token);
      const sync = await t.json<{ upserts: { packages: PackageJson[] } }>('GET', '/api/sync/changes/?cursor=0', d1.token);
      const mine = new Map(
        sync.body.upserts.packages.map((p) => [p.id, p as PackageJson & { latitude: number | null; longitude: number | null }]),
      );
      return { plan: plan.body, ordered: order.map((id) => mine.get(id)!) };
    };
    const copy = await phoneCopy();
    const onPhone = phoneEtas({ date: DAY }, copy.ordered, copy.plan, { latitude: DEPOT[0] - 0.18, longitude: DEPOT[1] }, t.clock.now());
    for (const id of order) expect(onPhone.get(id)).toBe((await etaOf(id)).eta_at);
    const late = await t.json<{ results: RouteEtas[] }>('GET', `/api/dispatch/eta/?date=${DAY}`, admin.token);
    expect(late.body.results[0]).toMatchObject({ route: routeId, running_late: true });
    expect(late.body.results[0].delay_min).toBeGreaterThan(15);
    // The first stop fails (skipped today): it leaves the ETA list, the rest is recomputed.
    const second = (await etaOf(order[1])).eta_at;
    const fail = await t.json('POST', `/api/package-delivered/${order[0]}/force-fail/`, admin.token, { note: 'closed' });
    expect(fail.status, JSON.stringify(fail.body)).toBe(200);
    expect(await t.db.select().from(stopEta).where(eq(stopEta.package_id, order[0])).get()).toBeUndefined();
    // The van no longer goes to stop 1 first, so stop 2 is reached sooner.
    expect((await etaOf(order[1])).eta_at).toBeLessThan(second);
    const after = await phoneCopy();
    const phoneAfter = phoneEtas(
      { date: DAY },
      after.ordered,
      after.plan,
      { latitude: DEPOT[0] - 0.18, longitude: DEPOT[1] },
      t.clock.now(),
    );
    expect(phoneAfter.has(order[0])).toBe(false);
    for (const id of order.slice(1)) expect(phoneAfter.get(id)).toBe((await etaOf(id)).eta_at);
    expect((await t.json('GET', `/api/dispatch/eta/?date=${DAY}`, w.shipper.token)).status).toBe(403);

    // The next stop is delivered by scanning its label at the door: it leaves the list and the stop
    // after it is reached sooner, exactly as a delivery by id does.
    const third = (await etaOf(order[2])).eta_at;
    const hawb = (await t.json<PackageJson>('GET', `/api/package/${order[1]}/`, admin.token)).body.hawb;
    const scanned = await t.json('POST', '/api/scan-package-api/scan-deliver/', d1.token, { barcode: hawb, recipient_name: 'At the door' });
    expect(scanned.status, JSON.stringify(scanned.body)).toBe(200);
    expect(await t.db.select().from(stopEta).where(eq(stopEta.package_id, order[1])).get()).toBeUndefined();
    expect((await etaOf(order[2])).eta_at).toBeLessThan(third);
  });
});
