import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pkg } from '../../server/db/schema/index';
import { metres, routeWorld, type Json, type PackageJson, type RouteJson } from './routes-helpers';

const START: [number, number] = [-33.9, 151.0];
// Stops on one parallel east of the start: the shortest path from the start visits them west to east.
const east = (k: number): [number, number] => [START[0], START[1] + k * 0.01];

describe("routes: a planner's and a driver's whole path", () => {
  it('create, optimise, assign, drive, re-sequence from the phone, hand over to another driver', async () => {
    const w = await routeWorld();
    const { t, admin, d1, d2 } = w;
    const ids: Record<string, number> = {};
    for (const k of [3, 1, 5, 2, 4]) ids[`P${k}`] = await w.parcel(`P${k}`, { latitude: east(k)[0], longitude: east(k)[1] });
    ids.NOC = await w.parcel('NOC');
    const given = [ids.P3, ids.P1, ids.P5, ids.P2, ids.P4, ids.NOC] as number[];

    // Create: the order given is the first sequence.
    const created = await w.post('/api/route/', admin.token, {
      name: 'Sydney west',
      date: '2026-01-05',
      warehouse: w.warehouseId,
      start_latitude: START[0],
      start_longitude: START[1],
      packages: given,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const route = created.body.route as RouteJson;
    expect(route).toMatchObject({ status: 'planned', driver: null, packages: given, package_count: 6, open_count: 6, done_count: 0 });
    for (const [i, id] of given.entries()) expect(await w.row(id)).toMatchObject({ route_id: route.id, sequence_no: i + 1 });

    // A driver cannot see a route that is not theirs, nor optimise one.
    expect((await w.get(`/api/route/${route.id}/`, d1.token)).status).toBe(404);
    expect((await w.post(`/api/route/${route.id}/optimize/`, d1.token, {})).status).toBe(403);

    // Optimise: west to east from the start, the parcel without coordinates last.
    const opt = await w.post(`/api/route/${route.id}/optimize/`, admin.token, { time_limit_ms: 200 });
    expect(opt.status, JSON.stringify(opt.body)).toBe(200);
    const order = [ids.P1, ids.P2, ids.P3, ids.P4, ids.P5, ids.NOC];
    expect(opt.body.order).toEqual(order);
    expect(opt.body.unplaced).toEqual([ids.NOC]);
    expect((opt.body.packages as PackageJson[]).map((p) => p.hawb)).toEqual(['P1', 'P2', 'P3', 'P4', 'P5', 'NOC']);
    expect(Math.abs((opt.body.total_distance_m as number) - metres(START, east(5)))).toBeLessThan(2);
    for (const [i, id] of order.entries()) expect((await w.row(id))?.sequence_no).toBe(i + 1);
    expect((await w.routeRow(route.id))?.optimized_at).not.toBeNull();

    // Assign to the first driver: every open parcel follows through the lifecycle.
    const assigned = await w.post(`/api/route/${route.id}/assign-driver/`, admin.token, { driver: d1.id });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect(assigned.body).toMatchObject({ moved: expect.arrayContaining(order), skipped: [], previous_driver: null });
    for (const id of order) expect(await w.row(id)).toMatchObject({ assigned_to_id: d1.id, status: 'assigned' });
    // Assigning again to someone else is a move, which has its own operation.
    expect((await w.post(`/api/route/${route.id}/assign-driver/`, admin.token, { driver: d2.id })).status).toBe(409);

    // The driver sees the route and its parcels in sequence.
    const mine = await w.get<{ results: RouteJson[] }>('/api/route/driver-routes/', d1.token);
    expect(mine.status).toBe(200);
    expect(mine.body.results.map((r) => r.id)).toEqual([route.id]);
    const seq = await w.get<{ packages: PackageJson[] }>(`/api/route/${route.id}/packages/`, d1.token);
    expect(seq.body.packages.map((p) => p.hawb)).toEqual(['P1', 'P2', 'P3', 'P4', 'P5', 'NOC']);
    const withParcels = await w.get<{ results: { route: RouteJson; packages: PackageJson[] }[] }>('/api/route/driver-packages/', d1.token);
    expect(withParcels.body.results[0]?.packages.map((p) => p.sequence_no)).toEqual([1, 2, 3, 4, 5, 6]);
    const pending = await w.get<{ count: number; results: PackageJson[] }>('/api/dashboard/pending-delivery/', d1.token);
    expect(pending.body.results.map((p) => p.hawb)).toEqual(['P1', 'P2', 'P3', 'P4', 'P5', 'NOC']);
    const listed = await w.get<{ count: number; results: RouteJson[] }>('/api/route/', d1.token);
    expect(listed.body.count).toBe(1);
    // Naming another driver is outside a driver's scope.
    expect((await w.get(`/api/route/driver-routes/?driver=${d2.id}`, d1.token)).status).toBe(404);
    expect((await w.get(`/api/route/${route.id}/`, d2.token)).status).toBe(404);

    // The driver starts the route; cancelling is not theirs to do; another driver cannot touch it.
    const started = await w.post(`/api/route/${route.id}/status-change/`, d1.token, { status: 'in_progress' });
    expect(started.status).toBe(200);
    expect((started.body.route as RouteJson).status).toBe('in_progress');
    expect((await w.post(`/api/route/${route.id}/status-change/`, d1.token, { status: 'cancelled' })).status).toBe(403);
    expect((await w.post(`/api/route/${route.id}/status-change/`, d2.token, { status: 'completed' })).status).toBe(404);
    expect((await w.post(`/api/route/${route.id}/status-change/`, d1.token, { status: 'flying' })).status).toBe(400);

    // First stop delivered, then the phone re-optimises the rest offline and syncs its order.
    expect((await w.post('/api/scan-package-api/inbound-scan/', d1.token, { barcode: 'P1' })).status).toBe(200);
    expect((await w.post(`/api/package-delivered/${ids.P1}/deliver/`, d1.token, { recipient_name: 'Pat' })).status).toBe(200);
    const phoneOrder = [ids.P5, ids.P4, ids.P3, ids.P2, ids.NOC] as number[];
    const key = { 'idempotency-key': '5f0c1b8e-0000-4000-8000-000000000001', 'x-device-id': 'phone-1', 'x-device-seq': '7' };
    const resq = await w.post(
      `/api/route/${route.id}/sequence/`,
      d1.token,
      { packages: phoneOrder, occurred_at: '2026-01-05T09:00:00Z' },
      key,
    );
    expect(resq.status, JSON.stringify(resq.body)).toBe(200);
    // Numbers continue after the delivered first stop: one order for the day.
    for (const [i, id] of phoneOrder.entries()) expect((await w.row(id))?.sequence_no).toBe(i + 2);
    expect((await w.row(ids.P1 as number))?.sequence_no).toBe(1);
    const replay = await w.post(
      `/api/route/${route.id}/sequence/`,
      d1.token,
      { packages: phoneOrder, occurred_at: '2026-01-05T09:00:00Z' },
      key,
    );
    expect(replay.status).toBe(200);
    expect(replay.res.headers.get('idempotent-replayed')).toBe('true');
    // Lists that are not exactly the open parcels change nothing.
    for (const bad of [
      phoneOrder.slice(1),
      [...phoneOrder, ids.P1],
      [...phoneOrder, ids.P5],
      [],
      [ids.P5, ids.P4, ids.P3, ids.P2, 999_999],
    ]) {
      const res = await w.post(`/api/route/${route.id}/sequence/`, d1.token, { packages: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    for (const [i, id] of phoneOrder.entries()) expect((await w.row(id))?.sequence_no).toBe(i + 2);
    expect((await w.post(`/api/route/${route.id}/sequence/`, d2.token, { packages: phoneOrder })).status).toBe(404);

    // Hand the rest to another driver: the first driver's device hears that the parcels left.
    const feed = await w.get<{ cursor: number; has_more: boolean }>('/api/sync/changes/?cursor=0&limit=1000', d1.token);
    expect(feed.status).toBe(200);
    const moved = await w.post(`/api/route/${route.id}/assign-other-driver/`, admin.token, { driver: d2.id });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect([...(moved.body.moved as number[])].sort((a, b) => a - b)).toEqual([...phoneOrder].sort((a, b) => a - b));
    expect(moved.body.previous_driver).toBe(d1.id);
    const after = await w.get<{ removes: { packages: number[] } }>(`/api/sync/changes/?cursor=${feed.body.cursor}&limit=1000`, d1.token);
    expect([...after.body.removes.packages].sort((a, b) => a - b)).toEqual([...phoneOrder].sort((a, b) => a - b));
    for (const id of phoneOrder) expect(await w.row(id)).toMatchObject({ assigned_to_id: d2.id, status: 'assigned' });
    // The delivered parcel stays the first driver's record.
    expect(await w.row(ids.P1 as number)).toMatchObject({ assigned_to_id: d1.id, status: 'delivered' });
    expect((await w.get(`/api/route/${route.id}/`, d1.token)).status).toBe(404);
    expect((await w.get<{ count: number }>('/api/dashboard/pending-delivery/', d1.token)).body.count).toBe(0);
    expect((await w.get<{ results: RouteJson[] }>('/api/route/driver-routes/', d1.token)).body.results).toEqual([]);
    const theirs = await w.get<{ packages: PackageJson[] }>(`/api/route/${route.id}/packages/`, d2.token);
    expect(theirs.body.packages.map((p) => p.hawb)).toEqual(['P5', 'P4', 'P3', 'P2', 'NOC']);
    expect(
      (await w.get<{ packages: PackageJson[] }>(`/api/route/${route.id}/packages/`, admin.token)).body.packages.map((p) => p.hawb),
    ).toEqual(['P1', 'P5', 'P4', 'P3', 'P2', 'NOC']);
    expect((await w.post(`/api/route/${route.id}/assign-other-driver/`, admin.token, { driver: d2.id })).status).toBe(400);

    // The new driver completes the run; a finished route is no longer ordered, changed or deleted.
    expect((await w.post(`/api/route/${route.id}/status-change/`, d2.token, { status: 'completed' })).status).toBe(200);
    expect((await w.routeRow(route.id))?.completed_at).not.toBeNull();
    expect((await w.post(`/api/route/${route.id}/optimize/`, admin.token, {})).status).toBe(409);
    expect((await w.post(`/api/route/${route.id}/status-change/`, admin.token, { status: 'planned' })).status).toBe(409);
    expect((await t.json('DELETE', `/api/route/${route.id}/`, admin.token)).status).toBe(409);

    // Proof of delivery of the route.
    expect((await w.get(`/api/route/${route.id}/pod/`, d2.token)).status).toBe(403);
    const pod = await w.get<{ delivered: number; results: Json[] }>(`/api/route/${route.id}/pod/`, admin.token);
    expect(pod.status).toBe(200);
    expect(pod.body.delivered).toBe(1);
    expect(pod.body.results[0]).toMatchObject({ package: ids.P1, delivered: true, recipient_name: 'Pat', driver: { id: d1.id } });
  });
});

describe('routes: CRUD rules and refusals', () => {
  it('update, parcel rules, delete, pickups, companies', async () => {
    const w = await routeWorld();
    const { t, admin, depot, d1, shipper } = w;
    const a = await w.parcel('A1', { latitude: -33.9, longitude: 151.1 });
    const b = await w.parcel('B1', { latitude: -33.9, longitude: 151.2 });
    const c = await w.parcel('C1');

    const r1 = (await w.post('/api/route/', depot.token, { name: 'One', date: '2026-01-06', packages: [a, b] })).body.route as RouteJson;
    // A parcel belongs to one live route at a time.
    const clash = await w.post('/api/route/', admin.token, { name: 'Two', date: '2026-01-06', packages: [b, c] });
    expect(clash.status).toBe(409);
    expect((clash.body.details as { packages: { package: number }[] }).packages.map((p) => p.package)).toEqual([b]);
    // Validation: duplicates, unknown ids, half a start point, bad dates, unknown warehouse.
    for (const body of [
      { name: 'X', date: '2026-01-06', packages: [c, c] },
      { name: 'X', date: '2026-01-06', packages: [987_654] },
      { name: 'X', date: '2026-01-06', start_latitude: -33 },
      { name: 'X', date: '06/01/2026' },
      { name: '', date: '2026-01-06' },
      { name: 'X', date: '2026-01-06', warehouse: 555 },
      { name: 'X', date: '2026-01-06', driver: shipper.id },
    ])
      expect((await w.post('/api/route/', admin.token, body)).status, JSON.stringify(body)).toBe(400);

    // PATCH changes only what it is given; `packages` is the wanted list of open parcels in order.
    const patched = await t.json<{ route: RouteJson }>('PATCH', `/api/route/${r1.id}/`, admin.token, {
      name: 'One renamed',
      packages: [c, a],
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.route).toMatchObject({ name: 'One renamed', date: '2026-01-06', status: 'planned', packages: [c, a] });
    expect(await w.row(b)).toMatchObject({ route_id: null, sequence_no: null });
    expect(await w.row(c)).toMatchObject({ route_id: r1.id, sequence_no: 1 });
    expect((await t.json('PATCH', `/api/route/${r1.id}/`, admin.token, { start_longitude: 151 })).status).toBe(400);
    expect((await t.json('PATCH', `/api/route/${r1.id}/`, admin.token, { status: 'completed' })).status).toBe(409);
    expect((await t.json('PATCH', `/api/route/${r1.id}/`, d1.token, { name: 'Mine' })).status).toBe(403);

    // Optimising without a start: the best path may begin at either end of the line.
    const opt = await w.post(`/api/route/${r1.id}/optimize/`, admin.token, {});
    expect(opt.status).toBe(200);
    expect(opt.body.order).toEqual([a, c]);
    expect(opt.body.total_distance_m).toBe(0);

    // Delete: a planned route goes and its parcels leave it.
    expect((await t.json('DELETE', `/api/route/${r1.id}/`, d1.token)).status).toBe(403);
    const del = await t.json('DELETE', `/api/route/${r1.id}/`, admin.token);
    expect(del.status).toBe(200);
    expect(await w.row(a)).toMatchObject({ route_id: null, sequence_no: null });
    expect((await w.get(`/api/route/${r1.id}/`, admin.token)).status).toBe(404);

    // A cancelled route lets its parcels go to another route.
    const r2 = (await w.post('/api/route/', admin.token, { name: 'Two', date: '2026-01-07', packages: [a] })).body.route as RouteJson;
    expect((await w.post(`/api/route/${r2.id}/status-change/`, admin.token, { status: 'in_progress' })).status).toBe(409);
    expect((await w.post(`/api/route/${r2.id}/status-change/`, admin.token, { status: 'cancelled' })).status).toBe(200);
    const r3 = await w.post('/api/route/', admin.token, { name: 'Three', date: '2026-01-07', packages: [a], driver: d1.id });
    expect(r3.status).toBe(201);
    expect(await w.row(a)).toMatchObject({ route_id: (r3.body.route as RouteJson).id, assigned_to_id: d1.id, status: 'assigned' });

    // A delivery route does not take final or pickup parcels; a pickup route only pickups.
    const pickup = await w.parcel('PU1');
    // Pickup creation belongs to the pickup group; the row is set up directly here.
    await t.db
      .update(pkg)
      .set({ status: 'pickup_requested', assigned_to_id: d1.id, latitude: -33.8, longitude: 151.3 })
      .where(eq(pkg.id, pickup))
      .run();
    expect((await w.post('/api/route/', admin.token, { name: 'Bad', date: '2026-01-07', packages: [pickup] })).status).toBe(400);
    expect((await w.post('/api/pickup-route/', admin.token, { name: 'Bad', date: '2026-01-07', packages: [b] })).status).toBe(400);
    const auto = await w.post('/api/pickup-route/create-route/', admin.token, {
      driver: d1.id,
      date: '2026-01-07',
      start_latitude: -33.9,
      start_longitude: 151,
    });
    expect(auto.status, JSON.stringify(auto.body)).toBe(201);
    expect(auto.body.route).toMatchObject({ kind: 'pickup', driver: d1.id, packages: [pickup], open_count: 1 });
    expect(await w.row(pickup)).toMatchObject({ status: 'pickup_requested', sequence_no: 1 });
    // Nothing left to collect.
    expect((await w.post('/api/pickup-route/create-route/', admin.token, { driver: d1.id, date: '2026-01-07' })).status).toBe(400);
    const manual = await w.post('/api/pickup-route/', admin.token, { name: 'Pickups', date: '2026-01-08', packages: [] });
    expect(manual.status).toBe(201);
    expect((manual.body.route as RouteJson & { kind: string }).kind).toBe('pickup');

    // Companies have no access to routes at all.
    expect((await w.get('/api/route/', shipper.token)).status).toBe(403);
    expect((await w.get(`/api/route/${r2.id}/`, shipper.token)).status).toBe(403);
    expect((await w.post('/api/route/', shipper.token, { name: 'Mine', date: '2026-01-06' })).status).toBe(403);
    expect((await w.get('/api/route/driver-routes/', shipper.token)).status).toBe(403);
    // No token at all.
    expect((await t.json('GET', '/api/route/', null)).status).toBe(401);
    // Staff must say which driver.
    expect((await w.get('/api/route/driver-routes/', admin.token)).status).toBe(400);
    expect((await w.get(`/api/route/driver-routes/?driver=${d1.id}&status=planned`, admin.token)).status).toBe(200);
  });

  it('lists with filters and ordering; names; CSV that spreadsheets cannot run', async () => {
    const w = await routeWorld();
    const { admin, d1 } = w;
    const evil = await w.parcel('=HYPERLINK("x")', { customer_name: '@SUM(A1)', latitude: -33.9, longitude: 151.1 });
    const plain = await w.parcel('PLAIN-1', { customer_name: 'Kim' });
    await w.post('/api/route/', admin.token, { name: '+Route A', date: '2026-01-05', packages: [evil, plain], driver: d1.id });
    await w.post('/api/route/', admin.token, { name: 'Route B', date: '2026-01-06' });

    const list = await w.get<{ count: number; results: RouteJson[] }>('/api/route/?ordering=date', admin.token);
    expect(list.body.results.map((r) => r.name)).toEqual(['+Route A', 'Route B']);
    expect((await w.get<{ count: number }>('/api/route/?date=2026-01-06', admin.token)).body.count).toBe(1);
    expect((await w.get<{ count: number }>(`/api/route/?driver=${d1.id}`, admin.token)).body.count).toBe(1);
    expect((await w.get<{ count: number }>('/api/route/?search=route%20b', admin.token)).body.count).toBe(1);
    expect((await w.get<{ count: number }>('/api/route/?status=planned,in_progress', admin.token)).body.count).toBe(2);
    expect((await w.get('/api/route/?status=lost', admin.token)).status).toBe(400);
    expect((await w.get('/api/route/?ordering=secret', admin.token)).status).toBe(400);
    expect((await w.get('/api/route/?page_size=5000', admin.token)).status).toBe(400);

    const names = await w.get<{ results: { name: string }[] }>(`/api/route/names/?driver=${d1.id}`, admin.token);
    expect(names.body.results.map((r) => r.name)).toEqual(['+Route A']);

    const csv = await w.t.call('GET', '/api/route/csv-download/?ordering=date', admin.token);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const text = (await csv.text()).replace(/^\uFEFF/, '');
    const lines = text.trim().split('\n');
    expect(lines[0]?.startsWith('route_id,route_name,date')).toBe(true);
    expect(lines).toHaveLength(4);
    expect(text).toContain("'+Route A");
    expect(text).toContain(`"'=HYPERLINK(""x"")"`);
    expect(text).toContain("'@SUM(A1)");
    expect(text).not.toMatch(/(^|,)[=+@]/m);
    expect((await w.t.call('GET', '/api/route/csv-download/', d1.token)).status).toBe(403);
  });
});
