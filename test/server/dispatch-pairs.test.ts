import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { phoneEtas } from '../../client/driver/etaMath';
import type { AmendProposal, PlanJob, RouteEtas } from '../../shared/schemas/dispatch';
import { packageEvent, routePickup } from '../../server/db/schema/index';
import { companyWithKey, webhookCall } from './webhooks-helpers';
import { planDay, routeWorld, type Json, type RouteJson } from './routes-helpers';

/**
 * Issue 32, pickup-and-delivery pairs on the server: a plan that includes pickups collects each at
 * its pickup point and delivers it on the same route, later; the commit keeps both stops; the
 * driver's scan at the point puts the parcel on the van, and it is delivered as any other.
 */

const DAY = '2026-01-05';
const DEPOT: [number, number] = [-33.87, 151.2];
type PhoneParcel = { id: number; status: string; latitude: number | null; longitude: number | null; sequence_no: number | null };
type Route = RouteJson & {
  pickup_stops?: { package: number; sequence_no: number; address: string | null; latitude?: number | null; longitude?: number | null }[];
};

async function world() {
  const w = await routeWorld();
  const { t, admin } = w;
  expect(
    (await t.json('PUT', `/api/warehouse/${w.warehouseId}/position/`, admin.token, { latitude: DEPOT[0], longitude: DEPOT[1] })).status,
  ).toBe(200);
  for (const d of [w.d1.id, w.d2.id]) {
    const van = await t.json<{ id: number }>('POST', '/api/vehicle/', admin.token, { name: `Van ${d}`, type: 'van', capacity_kg: 500 });
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
  const deliveries: number[] = [];
  for (let k = 0; k < 4; k++)
    deliveries.push(
      await w.parcel(`D${k}`, { latitude: DEPOT[0] + 0.02 * Math.cos(k), longitude: DEPOT[1] + 0.02 * Math.sin(k), weight: 5 }),
    );
  const co = await companyWithKey(t, 'Acme Widgets');
  const point = await t.json<{ id: number }>('POST', '/api/pickup-point/', co.login.token, {
    person_name: 'Back dock',
    email: 'dock@example.com',
    phone: '0400 111 222',
    address: '1 Dock Rd',
    suburb: 'Botany',
    state: 'NSW',
    pincode: '2019',
    latitude: DEPOT[0] + 0.04,
    longitude: DEPOT[1] - 0.03,
  });
  expect(point.status, JSON.stringify(point.body)).toBe(201);
  const pickup = async (hawb: string, extra: Json) => {
    const r = await webhookCall(t, 'POST', co, { hawb, customer_name: `Recipient ${hawb}`, postcode: 2000, weight: 3, ...extra });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.package.id as number;
  };
  // Recipients on the far side of the depot from the point: each pair crosses the map.
  const pu1 = await pickup('PU-1', { pickup_point: point.body.id, latitude: DEPOT[0] - 0.03, longitude: DEPOT[1] + 0.02 });
  const pu2 = await pickup('PU-2', { pickup_point: point.body.id, latitude: DEPOT[0] - 0.02, longitude: DEPOT[1] + 0.04 });
  const noPlace = await pickup('PU-NOPOINT', { latitude: DEPOT[0] - 0.01, longitude: DEPOT[1] });
  const tooHeavy = await pickup('PU-HEAVY', { pickup_point: point.body.id, latitude: DEPOT[0] - 0.01, longitude: DEPOT[1], weight: 900 });
  return { ...w, co, point: point.body.id, deliveries, pu1, pu2, noPlace, tooHeavy };
}

async function planned(w: Awaited<ReturnType<typeof world>>, body: Json): Promise<PlanJob> {
  return planDay(w.t, w.admin.token, { date: DAY, time_limit_ms: 300, include_undated: true, drivers: [w.d1.id, w.d2.id], ...body });
}

describe('pickups planned with deliveries (issue 32)', () => {
  it('a plan leaves pickups alone unless asked; asked, each is collected then delivered on one route, and the reasons name the pair', async () => {
    const w = await world();
    const plain = await planned(w, {});
    expect(plain.status, plain.message ?? '').toBe('done');
    const plainIds = [
      ...plain.proposal!.routes.flatMap((r) => r.stops.map((s) => s.package)),
      ...plain.proposal!.unassigned.map((u) => u.package),
    ];
    expect(plainIds.sort((a, b) => a - b)).toEqual([...w.deliveries].sort((a, b) => a - b));
    expect(plain.proposal!.routes.flatMap((r) => r.stops).some((s) => s.pickup)).toBe(false);

    const plan = await planned(w, { include_pickups: true });
    expect(plan.status, plan.message ?? '').toBe('done');
    const p = plan.proposal!;
    expect(p.parcels).toBe(8);
    for (const id of [w.pu1, w.pu2]) {
      const route = p.routes.filter((r) => r.stops.some((s) => s.package === id));
      expect(route, `parcel ${id} on one route`).toHaveLength(1);
      const stops = route[0].stops;
      const at = stops.flatMap((s, i) => (s.package === id ? [i] : []));
      expect(at).toHaveLength(2);
      // Collected first, at the point, with no window; delivered later at the recipient's.
      expect(stops[at[0]]).toMatchObject({ pickup: true, latitude: DEPOT[0] + 0.04, longitude: DEPOT[1] - 0.03, window_start: null });
      expect(stops[at[0]].address).toContain('1 Dock Rd');
      expect(stops[at[1]].pickup).toBeUndefined();
      expect(stops[at[1]].latitude).toBeLessThan(DEPOT[0]);
      expect(Date.parse(stops[at[0]].eta)).toBeLessThan(Date.parse(stops[at[1]].eta));
    }
    // The load counts each parcel once.
    expect(p.routes.reduce((s, r) => s + r.load.parcels, 0)).toBe(6);
    const why = Object.fromEntries(p.unassigned.map((u) => [u.hawb, u]));
    expect(Object.keys(why).sort()).toEqual(['PU-HEAVY', 'PU-NOPOINT']);
    expect(why['PU-NOPOINT']).toMatchObject({ reason: 'no_coordinates' });
    expect(why['PU-NOPOINT'].message).toMatch(/pickup point/);
    expect(why['PU-HEAVY']).toMatchObject({ reason: 'capacity' });
    expect(why['PU-HEAVY'].message).toMatch(/^Pickup at Back dock, 1 Dock Rd.* with its delivery to .*: Too heavy/);
  }, 120_000);

  it('commits both stops; the driver sees them, collects the parcel onto the van at the point and delivers it', async () => {
    const w = await world();
    const { t, admin } = w;
    const plan = await planned(w, { include_pickups: true });
    const routes = plan
      .proposal!.routes.filter((r) => r.stops.length)
      .map((r) => ({ driver: r.driver, packages: r.stops.map((s) => s.package) }));

    // Refused, changing nothing: a parcel three times, or a parcel named twice that is not a pickup.
    const thrice = routes.map((r) => (r.packages.includes(w.pu1) ? { ...r, packages: [...r.packages, w.pu1] } : r));
    expect((await t.json('POST', `/api/dispatch/plan/${plan.id}/commit/`, admin.token, { routes: thrice })).status).toBe(400);
    const plain = w.deliveries.find((id) => routes.some((r) => r.packages.includes(id)))!;
    const notPickup = routes.map((r) => (r.packages.includes(plain) ? { ...r, packages: [plain, ...r.packages] } : r));
    expect((await t.json('POST', `/api/dispatch/plan/${plan.id}/commit/`, admin.token, { routes: notPickup })).status).toBe(400);
    expect((await t.json<{ count: number }>('GET', '/api/route/', admin.token)).body.count).toBe(0);
    expect((await w.row(w.pu1))?.route_id).toBeNull();

    const c = await t.json<{ routes: Route[] }>('POST', `/api/dispatch/plan/${plan.id}/commit/`, admin.token, { routes });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const route = c.body.routes.find((r) => r.packages.includes(w.pu1))!;
    const order = routes.find((r) => r.driver === route.driver)!.packages;
    const driver = route.driver === w.d1.id ? w.d1 : w.d2;
    // The route delivers every parcel once; its collections sit at their places in the order.
    expect(route.packages).toEqual(order.filter((id, i) => order.indexOf(id) !== i || order.lastIndexOf(id) === i));
    expect(route.pickup_stops).toContainEqual({
      package: w.pu1,
      sequence_no: order.indexOf(w.pu1) + 1,
      address: 'Back dock, 1 Dock Rd, Botany',
      latitude: DEPOT[0] + 0.04,
      longitude: DEPOT[1] - 0.03,
    });
    const row = await w.row(w.pu1);
    expect(row).toMatchObject({
      status: 'pickup_requested',
      route_id: route.id,
      assigned_to_id: driver.id,
      sequence_no: order.lastIndexOf(w.pu1) + 1,
    });
    // Every delivery has a stored ETA, the paired ones' too (the collection's time is driven through, not promised to anyone).
    const etas = await t.json<{ stops: { package: number; eta: string }[] }>('GET', `/api/route/${route.id}/eta/`, admin.token);
    expect(etas.body.stops.map((s) => s.package)).toEqual(route.packages);
    // ...and they drive through the collections still to make: each is the plan's time for that door
    // (a paired delivery, at least, comes after the detour to the dock, ~5 km from the depot).
    const plannedAt = new Map(
      plan
        .proposal!.routes.find((r) => r.driver === route.driver)!
        .stops.filter((x) => !x.pickup)
        .map((x) => [x.package, Date.parse(x.eta)]),
    );
    for (const x of etas.body.stops)
      expect(Math.abs(Date.parse(x.eta) - plannedAt.get(x.package)!), `parcel ${x.package}`).toBeLessThan(60_000);
    // The driver's phone reads the same route, collections included, and the parcel through its feed.
    const mine = await t.json<{ results: Route[] }>('GET', '/api/route/driver-routes/', driver.token);
    expect(mine.body.results.find((r) => r.id === route.id)?.pickup_stops).toEqual(route.pickup_stops);
    const feed = await t.json<{ upserts: { packages: Json[] } }>('GET', '/api/sync/changes/?cursor=0', driver.token);
    expect(feed.body.upserts.packages.find((x) => x.id === w.pu1)).toMatchObject({ status: 'pickup_requested', assigned_to_id: driver.id });

    // At the point: collected and straight onto the van; a second scan is harmless.
    const picked = await t.json<Json>('POST', '/api/pickup-point-scan/package-scan/', driver.token, {
      barcode: 'PU-1',
      pickup_point: w.point,
    });
    expect(picked.status, JSON.stringify(picked.body)).toBe(200);
    expect(picked.body).toMatchObject({ already_scanned: false, package: { status: 'out_for_delivery', assigned_to_id: driver.id } });
    const again = await t.json<Json>('POST', '/api/pickup-point-scan/package-scan/', driver.token, {
      barcode: 'PU-1',
      pickup_point: w.point,
    });
    expect(again.body).toMatchObject({ already_scanned: true });
    const done = await t.json('POST', '/api/scan-package-api/scan-deliver/', driver.token, {
      barcode: 'PU-1',
      recipient_name: 'At the door',
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const events = await t.db.select().from(packageEvent).where(eq(packageEvent.package_id, w.pu1)).all();
    expect(
      events.filter((e) => e.to_status && e.to_status !== e.from_status && e.to_status !== 'pickup_requested').map((e) => e.to_status),
    ).toEqual(['picked_up', 'out_for_delivery', 'delivered']);
    expect((await t.db.select().from(routePickup).where(eq(routePickup.package_id, w.pu1)).get())?.route_id).toBe(route.id);
  }, 120_000);

  it('a parcel joins a route that still has a collection to make around it: collected before delivered, and the commit keeps both', async () => {
    const w = await world();
    const { t, admin } = w;
    const plan = await planned(w, {});
    const [d0, d1, d2, d3] = w.deliveries;
    // Driver 1 delivers D0, collects PU-1 at the dock, delivers D1, then PU-1; driver 2 has the others.
    const routes = [
      { driver: w.d1.id, packages: [d0, w.pu1, d1, w.pu1] },
      { driver: w.d2.id, packages: [d2, d3] },
    ];
    const c = await t.json<{ routes: Route[] }>('POST', `/api/dispatch/plan/${plan.id}/commit/`, admin.token, { routes });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const r1 = c.body.routes.find((r) => r.driver === w.d1.id)!.id;
    // A parcel for D1's door arrives.
    const late = await w.parcel('LATE-1', { latitude: DEPOT[0] + 0.02 * Math.cos(1), longitude: DEPOT[1] + 0.02 * Math.sin(1) });
    const preview = await t.json<AmendProposal>('POST', '/api/dispatch/amend/', admin.token, {
      date: DAY,
      packages: [late],
      move_penalty_s: 0,
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const a1 = preview.body.routes.find((r) => r.route === r1)!;
    // The collection is a stop still to make (not a stop worked): named first, collected, later delivered.
    expect(a1.before).toEqual([d0, w.pu1, d1, w.pu1]);
    expect(a1.done).toBe(0);
    const at = a1.stops.flatMap((s, i) => (s.package === w.pu1 ? [i] : []));
    expect(at).toHaveLength(2);
    expect(a1.stops[at[0]]).toMatchObject({ collect: true, latitude: DEPOT[0] + 0.04, longitude: DEPOT[1] - 0.03, window_start: null });
    expect(a1.stops[at[1]].collect).toBeUndefined();
    expect(Date.parse(a1.stops[at[0]].eta)).toBeLessThan(Date.parse(a1.stops[at[1]].eta));
    expect(a1.added).toEqual([late]);

    // A body naming a parcel twice that is no collection still to make is out of date: nothing changes.
    const body = { routes: [{ route: r1, packages: a1.stops.map((s) => s.package) }] };
    const wrong = { routes: [{ route: r1, packages: [...body.routes[0].packages, d0] }] };
    expect((await t.json('POST', '/api/dispatch/amend/commit/', admin.token, wrong)).status).toBe(409);
    const done = await t.json<{ routes: Route[] }>('POST', '/api/dispatch/amend/commit/', admin.token, body);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const route = done.body.routes.find((r) => r.id === r1)!;
    // Deliveries in the new order; the collection keeps its own place in the same count, before the delivery.
    const order = a1.stops.map((s) => s.package);
    expect(route.packages).toEqual(order.filter((id, i) => order.indexOf(id) !== i || order.lastIndexOf(id) === i));
    const stop = await t.db.select().from(routePickup).where(eq(routePickup.package_id, w.pu1)).get();
    expect(stop).toMatchObject({ route_id: r1, sequence_no: order.indexOf(w.pu1) + 1 });
    expect(await w.row(w.pu1)).toMatchObject({ status: 'pickup_requested', route_id: r1, sequence_no: order.lastIndexOf(w.pu1) + 1 });
    expect(await w.row(late)).toMatchObject({ route_id: r1, sequence_no: order.indexOf(late) + 1 });
  }, 120_000);
});

describe('a collection on the route (issue 32)', () => {
  it('has its arrival time from the walk that times the deliveries; a failed one leaves the route with its delivery, back for the office to plan', async () => {
    const w = await world();
    const { t, admin } = w;
    const plan = await planned(w, { include_pickups: true });
    const proposed = plan.proposal!.routes.filter((r) => r.stops.length);
    const routes = proposed.map((r) => ({ driver: r.driver, packages: r.stops.map((s) => s.package) }));
    const c = await t.json<{ routes: Route[] }>('POST', `/api/dispatch/plan/${plan.id}/commit/`, admin.token, { routes });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const route = c.body.routes.find((r) => r.packages.includes(w.pu1))!;
    const driver = route.driver === w.d1.id ? w.d1 : w.d2;
    const other = driver === w.d1 ? w.d2 : w.d1;
    type Etas = { stops: { package: number; eta: string }[]; collections?: { package: number; sequence_no: number; eta: string | null }[] };
    const before = (await t.json<Etas>('GET', `/api/route/${route.id}/eta/`, driver.token)).body;

    // Each collection's time is the plan's time at the dock (the same walk), and comes before its delivery.
    const stops = proposed.find((r) => r.driver === route.driver)!.stops;
    const ours = route.pickup_stops!.map((s) => s.package);
    expect(before.collections?.map((x) => x.package).sort()).toEqual([...ours].sort());
    for (const x of before.collections!) {
      const atDock = stops.find((s) => s.package === x.package && s.pickup)!;
      expect(Math.abs(Date.parse(x.eta!) - Date.parse(atDock.eta)), `collection ${x.package}`).toBeLessThan(60_000);
      expect(Date.parse(x.eta!)).toBeLessThan(Date.parse(before.stops.find((s) => s.package === x.package)!.eta));
    }

    // The phone times the same offline (its copy of the route and plan, no stored time): through the
    // collections still to make, and without a collection it recorded as not made.
    const sync = await t.json<{ upserts: { packages: Json[] } }>('GET', '/api/sync/changes/?cursor=0', driver.token);
    const copies = new Map(sync.body.upserts.packages.map((p) => [p.id as number, p as unknown as PhoneParcel]));
    const ordered = route.packages.map((id) => copies.get(id)!);
    const copy = (await t.json<RouteEtas>('GET', `/api/route/${route.id}/eta/`, driver.token)).body;
    const offline = { ...copy, stops: copy.stops.map((x) => ({ ...x, eta: '' })), collections: [] };
    const pending = route.pickup_stops!.map((x) => ({ ...x, latitude: x.latitude ?? null, longitude: x.longitude ?? null }));
    const onPhone = phoneEtas({ date: DAY }, ordered, offline, {}, t.clock.now(), new Set(), pending);
    for (const x of before.collections!)
      expect(Math.abs(onPhone.get(-x.package)! - Date.parse(x.eta!)), `collection ${x.package}`).toBeLessThan(60_000);
    for (const x of before.stops) expect(Math.abs(onPhone.get(x.package)! - Date.parse(x.eta)), `parcel ${x.package}`).toBeLessThan(60_000);
    // With the server's times at hand, the phone shows them as they are.
    const stored = phoneEtas({ date: DAY }, ordered, copy, {}, t.clock.now(), new Set(), pending);
    for (const x of before.collections!) expect(stored.get(-x.package)).toBe(Date.parse(x.eta!));
    const dropped = phoneEtas(
      { date: DAY },
      ordered,
      copy,
      {},
      t.clock.now(),
      new Set([w.pu1]),
      pending.filter((x) => x.package !== w.pu1),
    );

    // Refused, changing nothing: a reason not on the list; a driver it never was for.
    const fail = (who: { token: string }, id: number, body: Json) =>
      t.json<Json>('POST', `/api/pickup-point-scan/${id}/fail/`, who.token, body);
    expect((await fail(driver, w.pu1, { reason: 'raining' })).status).toBe(400);
    expect((await fail(other, w.pu1, { reason: 'closed' })).status).toBe(404);
    expect(await w.row(w.pu1)).toMatchObject({ status: 'pickup_requested', route_id: route.id, assigned_to_id: driver.id });

    const r = await fail(driver, w.pu1, { reason: 'closed', note: 'Roller door down at 10:40', occurred_at: '2026-01-05T00:00:00Z' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // Waiting for collection again, on no route and nobody's: what a plan takes (pickupPool).
    expect(await w.row(w.pu1)).toMatchObject({ status: 'pickup_requested', route_id: null, assigned_to_id: null, sequence_no: null });
    expect(await t.db.select().from(routePickup).where(eq(routePickup.package_id, w.pu1)).get()).toBeUndefined();
    // The office reads the attempt on the parcel's history, with the reason and the driver's words.
    const history = await t.json<{ events: { action: string; note: string | null }[] }>('GET', `/api/history/${w.pu1}/`, admin.token);
    expect(history.status, JSON.stringify(history.body)).toBe(200);
    expect(history.body.events.find((e) => e.action === 'pickup_failed')).toMatchObject({
      note: 'Shipper closed: Roller door down at 10:40',
    });

    // The route's times: neither the dock detour for it nor its door; the others' stops moved with it.
    const after = (await t.json<Etas>('GET', `/api/route/${route.id}/eta/`, driver.token)).body;
    expect(after.stops.map((s) => s.package)).toEqual(before.stops.map((s) => s.package).filter((id) => id !== w.pu1));
    expect(after.collections?.map((x) => x.package)).toEqual(before.collections!.map((x) => x.package).filter((id) => id !== w.pu1));
    for (const s of after.stops)
      expect(Date.parse(s.eta), `parcel ${s.package}`).toBeLessThanOrEqual(
        Date.parse(before.stops.find((b) => b.package === s.package)!.eta),
      );
    expect(after.stops.some((s) => Date.parse(s.eta) < Date.parse(before.stops.find((b) => b.package === s.package)!.eta))).toBe(true);
    // ...as the phone had them offline once it recorded the failure.
    expect(dropped.has(w.pu1) || dropped.has(-w.pu1)).toBe(false);
    for (const x of after.stops) expect(Math.abs(dropped.get(x.package)! - Date.parse(x.eta)), `parcel ${x.package}`).toBeLessThan(60_000);

    // Once more (the office took it back meanwhile): refused as the sync engine knows it, recorded.
    const again = await fail(driver, w.pu1, { reason: 'closed' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ details: { reason: 'reassigned' } });
    // A collection made already cannot fail.
    const second = c.body.routes.find((x) => x.packages.includes(w.pu2))!.driver === w.d1.id ? w.d1 : w.d2;
    expect(
      (await t.json('POST', '/api/pickup-point-scan/package-scan/', second.token, { barcode: 'PU-2', pickup_point: w.point })).status,
    ).toBe(200);
    const made = await fail(second, w.pu2, { reason: 'not_ready' });
    expect(made.status).toBe(409);
    expect(made.body).toMatchObject({ details: { reason: 'not_allowed' } });
    expect((await w.row(w.pu2))?.status).toBe('out_for_delivery');
  }, 120_000);
});

describe('a pickup that arrives after the plan (issue 32)', () => {
  it('joins a route on the road as a pair: collected, then delivered, by one van; the phone gets both stops and the collection its time', async () => {
    const w = await world();
    const { t, admin } = w;
    const at = (hhmm: string) => Date.parse(`${DAY}T${hhmm}:00Z`); // the test app's business zone is UTC
    const plan = await planned(w, {});
    const [d0, d1, d2, d3] = w.deliveries;
    const c = await t.json<{ routes: Route[] }>('POST', `/api/dispatch/plan/${plan.id}/commit/`, admin.token, {
      routes: [
        { driver: w.d1.id, packages: [d0, d1] },
        { driver: w.d2.id, packages: [d2, d3] },
      ],
    });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const ids = new Map(c.body.routes.map((r) => [r.driver, r.id]));
    // Both vans leave at 09:05; the phones sync and go on their way.
    t.clock.set(at('09:05'));
    for (const d of [w.d1, w.d2])
      expect((await t.json('POST', `/api/route/${ids.get(d.id)}/status-change/`, d.token, { status: 'in_progress' })).status).toBe(200);
    const cursors = new Map<number, number>();
    for (const d of [w.d1, w.d2])
      cursors.set(d.id, (await t.json<{ cursor: number }>('GET', '/api/sync/changes/?cursor=0&limit=1000', d.token)).body.cursor);

    // 11:00: Acme asks for PU-1 to be collected from its dock today; PU-NOPOINT has no place to collect it.
    t.clock.set(at('11:00'));
    const preview = await t.json<AmendProposal>('POST', '/api/dispatch/amend/', admin.token, {
      date: DAY,
      packages: [w.pu1, w.noPlace],
      move_penalty_s: 0,
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const p = preview.body;
    const onIt = p.routes.filter((r) => r.stops.some((s) => s.package === w.pu1));
    expect(onIt, 'one van collects and delivers it').toHaveLength(1);
    const a = onIt[0];
    expect(a.route).not.toBeNull();
    const pos = a.stops.flatMap((s, i) => (s.package === w.pu1 ? [i] : []));
    expect(pos).toHaveLength(2);
    expect(a.stops[pos[0]]).toMatchObject({ collect: true, state: 'added', latitude: DEPOT[0] + 0.04, longitude: DEPOT[1] - 0.03 });
    expect(a.stops[pos[0]].address).toContain('1 Dock Rd');
    expect(a.stops[pos[1]]).toMatchObject({ state: 'added', latitude: DEPOT[0] - 0.03, longitude: DEPOT[1] + 0.02 });
    expect(a.stops[pos[1]].collect).toBeUndefined();
    expect(Date.parse(a.stops[pos[0]].eta)).toBeLessThan(Date.parse(a.stops[pos[1]].eta));
    expect(a.added).toEqual([w.pu1]);
    // Collected on the way: no trip back to the depot for it.
    expect(a.reload ?? null).toBeNull();
    // Left out, with why: no pickup point to collect it from.
    expect(p.unassigned).toHaveLength(1);
    expect(p.unassigned[0]).toMatchObject({ package: w.noPlace, reason: 'no_coordinates' });
    expect(p.unassigned[0].message).toMatch(/pickup point/);
    // Without a package list the day's pickups join only when asked.
    const plain = await t.json<AmendProposal>('POST', '/api/dispatch/amend/', admin.token, { date: DAY, include_undated: true });
    expect(plain.body.routes.flatMap((r) => r.added)).toEqual([]);
    const asked = await t.json<AmendProposal>('POST', '/api/dispatch/amend/', admin.token, {
      date: DAY,
      include_undated: true,
      include_pickups: true,
    });
    expect(asked.body.routes.flatMap((r) => r.added)).toContain(w.pu1);

    const route = a.route!;
    const driver = a.driver === w.d1.id ? w.d1 : w.d2;
    const order = a.stops.map((s) => s.package);
    // Refused, changing nothing: the parcel with no pickup point named as a pair.
    const refused = await t.json<Json>('POST', '/api/dispatch/amend/commit/', admin.token, {
      routes: [{ route, packages: [...order, w.noPlace, w.noPlace] }],
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(JSON.stringify(refused.body)).toMatch(/PU-NOPOINT.*pickup point/);
    expect(await w.row(w.pu1)).toMatchObject({ route_id: null, assigned_to_id: null });
    expect(await w.row(w.noPlace)).toMatchObject({ route_id: null });

    const done = await t.json<{ routes: Route[] }>('POST', '/api/dispatch/amend/commit/', admin.token, {
      routes: [{ route, packages: order }],
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    // Both stops committed: the delivery in the route's order, the collection at its place before it.
    expect(await w.row(w.pu1)).toMatchObject({
      status: 'pickup_requested',
      route_id: route,
      assigned_to_id: driver.id,
      sequence_no: (await w.row(order[0]))!.sequence_no! + pos[1],
    });
    const stop = await t.db.select().from(routePickup).where(eq(routePickup.package_id, w.pu1)).get();
    expect(stop).toMatchObject({ route_id: route, sequence_no: (await w.row(order[0]))!.sequence_no! + pos[0] });

    // The driver's phone, from where it left off: the parcel through its feed, the route with its collection stop.
    const feed = await t.json<{ upserts: { packages: (Json & { id: number })[] } }>(
      'GET',
      `/api/sync/changes/?cursor=${cursors.get(driver.id)}&limit=1000`,
      driver.token,
    );
    expect(feed.body.upserts.packages.find((x) => x.id === w.pu1)).toMatchObject({
      status: 'pickup_requested',
      assigned_to_id: driver.id,
      sequence_no: (await w.row(w.pu1))!.sequence_no,
    });
    const mine = await t.json<{ results: Route[] }>('GET', '/api/route/driver-routes/', driver.token);
    const onPhone = mine.body.results.find((r) => r.id === route)!;
    expect(onPhone.packages).toContain(w.pu1);
    expect(onPhone.pickup_stops).toContainEqual({
      package: w.pu1,
      sequence_no: stop!.sequence_no,
      address: 'Back dock, 1 Dock Rd, Botany',
      latitude: DEPOT[0] + 0.04,
      longitude: DEPOT[1] - 0.03,
    });
    // The collection's time, before the delivery's, each near the proposal's.
    const etas = await t.json<RouteEtas>('GET', `/api/route/${route}/eta/`, driver.token);
    expect(etas.status).toBe(200);
    const collected = etas.body.collections?.find((x) => x.package === w.pu1);
    const delivered = etas.body.stops.find((x) => x.package === w.pu1);
    expect(collected?.eta).toBeTruthy();
    expect(Date.parse(collected!.eta!)).toBeLessThan(Date.parse(delivered!.eta!));
    expect(Math.abs(Date.parse(collected!.eta!) - Date.parse(a.stops[pos[0]].eta))).toBeLessThan(60_000);
    expect(Math.abs(Date.parse(delivered!.eta!) - Date.parse(a.stops[pos[1]].eta))).toBeLessThan(60_000);

    // The driver collects it at the dock and delivers it as any other.
    const picked = await t.json<Json>('POST', '/api/pickup-point-scan/package-scan/', driver.token, {
      barcode: 'PU-1',
      pickup_point: w.point,
    });
    expect(picked.status, JSON.stringify(picked.body)).toBe(200);
    expect(picked.body).toMatchObject({ package: { status: 'out_for_delivery', assigned_to_id: driver.id } });
  }, 120_000);

  it('opens a route for a driver on shift with none yet that collects a pickup and delivers it', async () => {
    const w = await world();
    const { t, admin } = w;
    t.clock.set(Date.parse(`${DAY}T09:05:00Z`));
    const open = (packages: number[]) =>
      t.json<{ routes: Route[] }>('POST', '/api/dispatch/amend/commit/', admin.token, {
        date: DAY,
        open_routes: [{ driver: w.d1.id, packages }],
      });
    // A pickup with no point to collect it from is refused, and nothing is created.
    const refused = await open([w.deliveries[0], w.noPlace, w.noPlace]);
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect((await t.json<{ count: number }>('GET', '/api/route/', admin.token)).body.count).toBe(0);
    // Named once, a pickup still to collect is no parcel at the depot: out of date.
    expect((await open([w.deliveries[0], w.pu2])).status).toBe(409);
    const done = await open([w.deliveries[0], w.pu2, w.deliveries[1], w.pu2]);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const route = done.body.routes[0];
    expect(route.packages).toEqual([w.deliveries[0], w.deliveries[1], w.pu2]);
    expect(route.pickup_stops).toContainEqual(expect.objectContaining({ package: w.pu2, sequence_no: 2 }));
    expect(await w.row(w.pu2)).toMatchObject({ status: 'pickup_requested', route_id: route.id, assigned_to_id: w.d1.id, sequence_no: 4 });
    const etas = await t.json<RouteEtas>('GET', `/api/route/${route.id}/eta/`, w.d1.token);
    expect(etas.body.collections?.map((x) => x.package)).toEqual([w.pu2]);
  }, 120_000);
});
