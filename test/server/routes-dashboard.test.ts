import { describe, expect, it } from 'vitest';
import { routeWorld, type Json, type PackageJson, type RouteJson } from './routes-helpers';

const OPEN = ['created', 'received', 'assigned', 'out_for_delivery', 'failed'];
interface Fixture {
  hawb: string;
  status: string;
  driver: 'd1' | 'd2' | null;
  route: 'R1' | null;
  coords: boolean;
}
// The data set; every expected count below is computed from this table, not from the server.
const PARCELS: Fixture[] = [
  { hawb: 'X1', status: 'created', driver: null, route: null, coords: true },
  { hawb: 'X2', status: 'received', driver: null, route: null, coords: false },
  { hawb: 'X3', status: 'assigned', driver: 'd1', route: 'R1', coords: true },
  { hawb: 'X4', status: 'out_for_delivery', driver: 'd1', route: 'R1', coords: true },
  { hawb: 'X5', status: 'delivered', driver: 'd2', route: null, coords: true },
  { hawb: 'X6', status: 'failed', driver: 'd2', route: null, coords: true },
];
const where = (f: (p: Fixture) => boolean) => PARCELS.filter(f).map((p) => p.hawb);

async function dataSet() {
  const w = await routeWorld();
  const { admin, depot, d1, d2 } = w;
  const reason = await w.post('/api/failed-delivery-status/', admin.token, { name: 'Nobody home' });
  const ids: Record<string, number> = {};
  for (const [i, p] of PARCELS.entries())
    ids[p.hawb] = await w.parcel(p.hawb, p.coords ? { latitude: -33.9, longitude: 151 + i / 100 } : {});
  expect((await w.post('/api/scan-package-api/scan-assign-zone/', depot.token, { barcode: 'X2' })).status).toBe(200);
  expect((await w.post('/api/assign-package/assign-driver/', admin.token, { driver: d2.id, packages: [ids.X5, ids.X6] })).status).toBe(200);
  const r1 = await w.post('/api/route/', admin.token, { name: 'R1', date: '2026-01-05', packages: [ids.X3, ids.X4], driver: d1.id });
  const route1 = r1.body.route as RouteJson;
  const route2 = (await w.post('/api/route/', admin.token, { name: 'R2', date: '2026-01-05' })).body.route as RouteJson;
  await w.post('/api/route/', admin.token, { name: 'R3', date: '2026-01-09' });
  expect((await w.post(`/api/route/${route1.id}/status-change/`, d1.token, { status: 'in_progress' })).status).toBe(200);
  for (const [token, code] of [
    [d1.token, 'X4'],
    [d2.token, 'X5'],
    [d2.token, 'X6'],
  ] as const) {
    expect((await w.post('/api/scan-package-api/inbound-scan/', token, { barcode: code })).status).toBe(200);
  }
  expect((await w.post(`/api/package-delivered/${ids.X5}/deliver/`, d2.token, { recipient_name: 'Sam' })).status).toBe(200);
  expect(
    (await w.post(`/api/package-delivered/${ids.X6}/fail/`, d2.token, { failed_delivery_status: (reason.body as { id: number }).id }))
      .status,
  ).toBe(200);
  for (const p of PARCELS) expect((await w.row(ids[p.hawb] as number))?.status, p.hawb).toBe(p.status);
  return { ...w, ids, route1, route2 };
}

const hawbs = (page: { results: PackageJson[] }) => page.results.map((p) => p.hawb).sort();

describe('dashboards over a known data set', () => {
  it('counts, lists, sequence-wise routes, history and the map', async () => {
    const w = await dataSet();
    const { admin, d1, d2, shipper, ids, route1, route2 } = w;
    const now = new Date(w.t.clock.now()).toISOString();
    expect(
      (
        await w.post('/api/driver-position/', d1.token, {
          positions: [{ latitude: -33.91, longitude: 151.02, accuracy: 8, occurred_at: now }],
        })
      ).status,
    ).toBe(200);

    const count = await w.get<Json>('/api/dashboard/count/?date=2026-01-05', admin.token);
    expect(count.status).toBe(200);
    expect(count.body).toMatchObject({
      date: '2026-01-05',
      packages: {
        total: PARCELS.length,
        pending: where((p) => OPEN.includes(p.status)).length,
        assigned: where((p) => p.status === 'assigned').length,
        out_for_delivery: where((p) => p.status === 'out_for_delivery').length,
        delivered_today: where((p) => p.status === 'delivered').length,
        failed_today: where((p) => p.status === 'failed').length,
        unrouted_open: where((p) => OPEN.includes(p.status) && p.route == null).length,
      },
      routes: { total: 2, by_status: { planned: 1, in_progress: 1, completed: 0, cancelled: 0 } },
      drivers: { active: 2, on_route: 1, reporting: 1 },
    });
    // Another day: nothing delivered or failed then, no route.
    expect((await w.get<Json>('/api/dashboard/count/?date=2026-02-01', admin.token)).body).toMatchObject({
      packages: { delivered_today: 0, failed_today: 0 },
      routes: { total: 0 },
    });

    const pending = await w.get<{ count: number; results: PackageJson[] }>('/api/dashboard/pending-delivery/', admin.token);
    expect(hawbs(pending.body)).toEqual(where((p) => OPEN.includes(p.status)));
    expect(hawbs((await w.get<{ results: PackageJson[] }>(`/api/dashboard/pending-delivery/?driver=${d2.id}`, admin.token)).body)).toEqual(
      where((p) => OPEN.includes(p.status) && p.driver === 'd2'),
    );
    expect(
      hawbs((await w.get<{ results: PackageJson[] }>(`/api/dashboard/pending-delivery/?route=${route1.id}`, admin.token)).body),
    ).toEqual(where((p) => OPEN.includes(p.status) && p.route === 'R1'));
    // A driver's own pending list, in route order.
    expect((await w.get<{ results: PackageJson[] }>('/api/dashboard/pending-delivery/', d1.token)).body.results.map((p) => p.hawb)).toEqual(
      ['X3', 'X4'],
    );

    const assigned = await w.get<{ results: PackageJson[] }>('/api/dashboard/assigned-delivery/', admin.token);
    expect(hawbs(assigned.body)).toEqual(where((p) => p.driver != null && ['assigned', 'out_for_delivery'].includes(p.status)));

    const completed = await w.get<{ results: PackageJson[] }>('/api/dashboard/completed-delivery/', d2.token);
    expect(hawbs(completed.body)).toEqual(where((p) => p.status === 'delivered' && p.driver === 'd2'));
    expect((await w.get<{ count: number }>('/api/dashboard/completed-delivery/', d1.token)).body.count).toBe(0);
    expect((await w.get<{ count: number }>('/api/dashboard/completed-delivery/?date_from=2026-01-06', d2.token)).body.count).toBe(0);

    const routable = await w.get<{ results: PackageJson[] }>('/api/dashboard/optimize-route-packages/', admin.token);
    expect(hawbs(routable.body)).toEqual(where((p) => ['created', 'received', 'assigned'].includes(p.status) && p.route == null));

    const seqWise = await w.get<{ date: string; results: { route: RouteJson; packages: PackageJson[] }[] }>(
      '/api/dashboard/sequence-wise-route/?date=2026-01-05',
      admin.token,
    );
    expect(seqWise.body.results.map((r) => [r.route.name, r.packages.map((p) => p.hawb)])).toEqual([
      ['R1', ['X3', 'X4']],
      ['R2', []],
    ]);

    const history = await w.get<{ results: { package: PackageJson; last_action: string }[] }>(
      `/api/dashboard/driver-history/?driver=${d2.id}`,
      admin.token,
    );
    expect(history.body.results.map((r) => r.package.hawb).sort()).toEqual(['X5', 'X6']);
    expect((await w.get('/api/dashboard/driver-history/', admin.token)).status).toBe(400);

    const routeCount = await w.get<Json>('/api/route/count/?date=2026-01-05', admin.token);
    expect(routeCount.body).toMatchObject({
      total: 2,
      by_status: { planned: 1, in_progress: 1 },
      packages: { total: 2, open: 2, delivered: 0 },
    });
    const mine = await w.get<Json>('/api/route/count/', d1.token);
    expect(mine.body).toMatchObject({ driver: { id: d1.id }, total: 1, by_status: { in_progress: 1 }, packages: { open: 2 } });

    const map = await w.get<{
      drivers: { driver: { id: number }; position: Json | null; route: { id: number } | null; packages: PackageJson[] }[];
      unassigned: PackageJson[];
    }>('/api/dashboard/map/', admin.token);
    expect(map.status).toBe(200);
    const m1 = map.body.drivers.find((d) => d.driver.id === d1.id);
    const m2 = map.body.drivers.find((d) => d.driver.id === d2.id);
    expect(m1).toMatchObject({ position: { latitude: -33.91, longitude: 151.02, accuracy: 8 }, route: { id: route1.id } });
    expect(m1?.packages.map((p) => [p.hawb, p.status])).toEqual([
      ['X3', 'assigned'],
      ['X4', 'out_for_delivery'],
    ]);
    expect(m2).toMatchObject({ position: null, route: null });
    expect(m2?.packages.map((p) => p.hawb)).toEqual(where((p) => p.driver === 'd2' && OPEN.includes(p.status)));
    expect(map.body.unassigned.map((p) => p.hawb)).toEqual(where((p) => p.driver == null && p.coords && OPEN.includes(p.status)));
    expect(route2.packages).toEqual([]);
    expect(ids.X1).toBeGreaterThan(0);

    // Office dashboards are for staff only.
    for (const path of [
      '/api/dashboard/count/',
      '/api/dashboard/map/',
      '/api/dashboard/assigned-delivery/',
      '/api/dashboard/sequence-wise-route/',
    ]) {
      expect((await w.get(path, shipper.token)).status, path).toBe(403);
      expect((await w.get(path, d1.token)).status, path).toBe(403);
    }
    expect((await w.get('/api/dashboard/pending-delivery/', shipper.token)).status).toBe(403);
    expect((await w.get(`/api/dashboard/pending-delivery/?driver=${d2.id}`, d1.token)).status).toBe(404);
    expect((await w.get('/api/dashboard/count/?date=yesterday', admin.token)).status).toBe(400);
  });
});

describe('driver positions', () => {
  it("batch from the phone, latest per driver, a driver's trail", async () => {
    const w = await routeWorld();
    const { admin, depot, d1, d2, shipper } = w;
    const at = (minAgo: number) => new Date(w.t.clock.now() - minAgo * 60_000).toISOString();
    const batch = {
      positions: [
        { latitude: -33.9, longitude: 151.0, accuracy: 12, occurred_at: at(10) },
        { latitude: -33.91, longitude: 151.01, occurred_at: at(5) },
        { latitude: -33.92, longitude: 151.02, accuracy: 5, occurred_at: at(1) },
      ],
    };
    const key = { 'idempotency-key': '5f0c1b8e-0000-4000-8000-00000000aa01', 'x-device-id': 'phone-1', 'x-device-seq': '1' };
    const sent = await w.post('/api/driver-position/', d1.token, batch, key);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toMatchObject({ stored: 3, duplicates: 0 });
    const again = await w.post('/api/driver-position/', d1.token, batch, key);
    expect(again.res.headers.get('idempotent-replayed')).toBe('true');
    // The same readings under a new key (a retried batch) are not stored twice.
    expect((await w.post('/api/driver-position/', d1.token, { positions: batch.positions.slice(1) })).body).toMatchObject({
      stored: 0,
      duplicates: 2,
    });
    await w.post('/api/driver-position/', d2.token, { positions: [{ latitude: -34, longitude: 150.9, occurred_at: at(30) }] });

    for (const bad of [
      { positions: [] },
      { positions: [{ latitude: 200, longitude: 151, occurred_at: at(1) }] },
      { positions: [{ latitude: -33, longitude: 151 }] },
      { positions: [{ latitude: -33, longitude: 151, occurred_at: 'soon' }] },
      {},
    ]) {
      expect((await w.post('/api/driver-position/', d1.token, bad)).status, JSON.stringify(bad)).toBe(400);
    }
    expect((await w.post('/api/driver-position/', admin.token, batch)).status).toBe(403);

    const latest = await w.get<{
      results: { driver: { id: number; name: string }; position: { latitude: number; occurred_at: string } }[];
    }>('/api/driver-position/', depot.token);
    expect(latest.status).toBe(200);
    expect(latest.body.results.map((r) => [r.driver.id, r.position.latitude, r.position.occurred_at])).toEqual([
      [d1.id, -33.92, at(1)],
      [d2.id, -34, at(30)],
    ]);
    expect((await w.get('/api/driver-position/', d1.token)).status).toBe(403);
    expect((await w.get('/api/driver-position/', shipper.token)).status).toBe(403);

    const trail = await w.get<{ results: { latitude: number }[]; truncated: boolean }>(`/api/driver-position/${d1.id}/trail/`, admin.token);
    expect(trail.body.results.map((p) => p.latitude)).toEqual([-33.9, -33.91, -33.92]);
    expect(trail.body.truncated).toBe(false);
    const part = await w.get<{ results: { latitude: number }[] }>(
      `/api/driver-position/${d1.id}/trail/?from=${encodeURIComponent(await at(6))}&to=${encodeURIComponent(await at(2))}`,
      admin.token,
    );
    expect(part.body.results.map((p) => p.latitude)).toEqual([-33.91]);
    // A driver reads only their own trail.
    expect((await w.get(`/api/driver-position/${d1.id}/trail/`, d1.token)).status).toBe(200);
    expect((await w.get(`/api/driver-position/${d1.id}/trail/`, d2.token)).status).toBe(404);
    expect((await w.get(`/api/driver-position/${shipper.id}/trail/`, admin.token)).status).toBe(404);
    expect(
      (
        await w.get(
          `/api/driver-position/${d1.id}/trail/?from=${encodeURIComponent(await at(1))}&to=${encodeURIComponent(await at(10))}`,
          admin.token,
        )
      ).status,
    ).toBe(400);
    expect((await w.get(`/api/driver-position/${d1.id}/trail/?from=2025-01-01T00:00:00Z`, admin.token)).status).toBe(400);
  });
});
