import { afterEach, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import type { RouteEtas } from '../../shared/schemas/dispatch';
import type { RecipientView } from '../../shared/schemas/recipients';
import { etaBand, timeOnDay } from '../../shared/routing/eta';
import { haversineDistance, type LatLng } from '../../shared/routing/haversine';
import { deliveryRecord, routeLeg, stopEta } from '../../server/db/schema/index';
import { phoneEtas } from '../../client/driver/etaMath';
import { sendJson, standIn } from './geo-standins';
import { planDay, routeWorld, type RouteJson } from './routes-helpers';

const DAY = '2026-01-05';
const DEPOT: LatLng = { latitude: -33.87, longitude: 151.2 };
const STOPS: LatLng[] = [0, 1, 2, 3].map((k) => ({
  latitude: DEPOT.latitude + 0.012 * (k + 1),
  longitude: DEPOT.longitude + 0.004 * (k % 2),
}));
const parse = (c: string): LatLng => {
  const [lng, lat] = c.split(',').map(Number);
  return { latitude: lat, longitude: lng };
};

/** The road engine stand-in: slow roads (metres ÷ 4 s) and 1.7 × the straight line, far from the estimate's × 1.3 at 30 km/h. */
const roadS = (a: LatLng, b: LatLng) => haversineDistance(a, b) / 4;
const roadM = (a: LatLng, b: LatLng) => haversineDistance(a, b) * 1.7;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()?.();
});

/** osrm-routed on loopback: `table` for the plan, `route` (the exact order's legs) for the commit. */
async function osrm() {
  const s = await standIn((url, _req, res) => {
    const table = /^\/table\/v1\/driving\/(.+)$/.exec(url.pathname);
    const route = /^\/route\/v1\/driving\/(.+)$/.exec(url.pathname);
    const coords = decodeURIComponent((table ?? route)?.[1] ?? '')
      .split(';')
      .map(parse);
    if (table) {
      const pick = (k: string) => (url.searchParams.get(k) ?? coords.map((_, i) => i).join(';')).split(';').map(Number);
      return sendJson(res, 200, {
        code: 'Ok',
        durations: pick('sources').map((a) => pick('destinations').map((b) => roadS(coords[a], coords[b]))),
      });
    }
    if (route) {
      const legs = coords
        .slice(1)
        .map((p, i) => ({ duration: roadS(coords[i], p), distance: roadM(coords[i], p), steps: [], summary: '', weight: 0 }));
      return sendJson(res, 200, { code: 'Ok', routes: [{ legs, duration: 0, distance: 0 }], waypoints: [] });
    }
    return sendJson(res, 400, { code: 'InvalidUrl', message: 'URL string malformed' });
  });
  closers.push(s.close);
  return s;
}

describe('road arrival times (issue 31)', () => {
  it("commit stores the road engine's legs; refresh, the phone's feed and the tracking page give one ETA", async () => {
    const s = await osrm();
    const w = await routeWorld();
    const { t, admin, d1 } = w;
    t.app.deps.config.osrmUrl = s.url;
    t.clock.set(Date.parse('2026-01-04T12:00:00Z'));
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
    for (const [k, p] of STOPS.entries()) {
      ids.push(
        await w.parcel(`RE${k}`, {
          ...p,
          weight: 1,
          customer_phone: '+61 400 000 001',
          customer_address: `${k} Road St`,
          recipient_email: `re${k}@example.net`,
        }),
      );
    }
    const plan = await planDay(t, admin.token, {
      date: DAY,
      include_undated: true,
      time_limit_ms: 200,
      drivers: [d1.id],
    });
    expect(plan.status).toBe('done');
    const order = plan.proposal!.routes[0].stops.map((x) => x.package);
    expect(order.length).toBe(4);
    const c = await t.json<{ routes: RouteJson[] }>('POST', `/api/dispatch/plan/${plan.id}/commit/`, admin.token, {
      routes: [{ driver: d1.id, packages: order }],
    });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const routeId = c.body.routes[0].id;
    expect(s.requests.some((u) => u.pathname.startsWith('/route/v1/driving/'))).toBe(true);

    // The legs are the engine's, in the committed order, from the depot.
    const at = new Map(ids.map((id, k) => [id, STOPS[k]]));
    const legs = await t.db.select().from(routeLeg).where(eq(routeLeg.route_id, routeId)).orderBy(asc(routeLeg.seq)).all();
    expect(legs.map((l) => l.package_id)).toEqual(order);
    expect(legs.map((l) => l.from_package_id)).toEqual([null, ...order.slice(0, -1)]);
    const points = [DEPOT, ...order.map((id) => at.get(id)!)];
    legs.forEach((l, i) => {
      expect(l.source).toBe('osrm:driving');
      expect(l.duration_s).toBeCloseTo(roadS(points[i], points[i + 1]), 3);
      expect(l.distance_m).toBeCloseTo(roadM(points[i], points[i + 1]), 3);
    });
    expect(c.body.routes[0].total_distance_m).toBe(Math.round(legs.reduce((sum, l) => sum + (l.distance_m ?? 0), 0)));

    // Stored ETAs walk those legs from the shift start, with the time at each door; promised = planned.
    const feed = async () => (await t.json<RouteEtas>('GET', `/api/route/${routeId}/eta/`, d1.token)).body;
    const first = await feed();
    // 08:00 on the depot's wall clock (the business's zone).
    const SHIFT_START = timeOnDay(DAY, '08:00', first.time_zone);
    let clock = SHIFT_START;
    first.stops.forEach((st, i) => {
      clock += Math.round(legs[i].duration_s * 1000);
      expect(Date.parse(st.eta)).toBe(clock);
      clock += st.service_s * 1000;
    });
    const promised = await t.db.select().from(routeLeg).where(eq(routeLeg.route_id, routeId)).orderBy(asc(routeLeg.seq)).all();
    expect(promised.map((l) => l.planned_at)).toEqual(first.stops.map((st) => Date.parse(st.eta)));

    // The driver starts, loads everything (out for delivery) and delivers the first stop late.
    expect((await t.json('POST', `/api/route/${routeId}/status-change/`, d1.token, { status: 'in_progress' })).status).toBe(200);
    for (const [k] of STOPS.entries())
      expect((await t.json('POST', '/api/scan-package-api/inbound-scan/', d1.token, { barcode: `RE${k}` })).status).toBe(200);
    const hawbOf = (id: number) => `RE${ids.indexOf(id)}`;
    t.clock.set(Date.parse(first.stops[0].eta) + 20 * 60_000);
    expect(
      (await t.json('POST', '/api/scan-package-api/scan-deliver/', d1.token, { barcode: hawbOf(order[0]), recipient_name: 'At the door' }))
        .status,
    ).toBe(200);
    const doneAt = (await t.db.select().from(deliveryRecord).where(eq(deliveryRecord.package_id, order[0])).get())!.occurred_at;
    const after = await feed();
    expect(after.stops.map((x) => x.package)).toEqual(order.slice(1));
    // From the stop worked, when it was worked, over the stored leg to the next.
    expect(Date.parse(after.stops[0].eta)).toBe(Math.max(doneAt, SHIFT_START) + Math.round(legs[1].duration_s * 1000));

    /** Phone (its copy of the feed, no unsent work) and recipient (tracking page) agree on every open stop. */
    const agree = async () => {
      const plan = await feed();
      const rows = new Map(
        (await t.db.select().from(stopEta).where(eq(stopEta.route_id, routeId)).all()).map((r) => [r.package_id, r.eta_at]),
      );
      const ordered = plan.stops.map((x) => ({ id: x.package, status: 'out_for_delivery', ...at.get(x.package)! }));
      const phone = phoneEtas({ date: DAY }, ordered, plan, { latitude: DEPOT.latitude - 0.2, longitude: DEPOT.longitude }, t.clock.now());
      for (const st of plan.stops) {
        expect(phone.get(st.package)).toBe(rows.get(st.package));
        const link = await t.json<{ token: string }>('GET', `/api/package/${st.package}/tracking-link/`, w.shipper.token);
        const view = await t.json<RecipientView>('GET', `/api/public/track/${link.body.token}/`);
        expect(view.status).toBe(200);
        const [from, to] = etaBand(rows.get(st.package)!);
        expect(view.body.eta).toEqual({ from: new Date(from).toISOString(), to: new Date(to).toISOString() });
        expect(
          Math.abs((Date.parse(view.body.eta!.from) + Date.parse(view.body.eta!.to)) / 2 - phone.get(st.package)!),
        ).toBeLessThanOrEqual(150_000);
      }
      return plan;
    };
    await agree();

    // A position between stops moves the rest: refresh, phone and page still agree.
    const before = Date.parse((await feed()).stops[0].eta);
    t.clock.set(t.clock.now() + 25 * 60_000);
    const here = at.get(order[0])!;
    const pos = await t.json('POST', '/api/driver-position/', d1.token, {
      positions: [{ ...here, occurred_at: new Date(t.clock.now()).toISOString() }],
    });
    expect(pos.status).toBe(200);
    const moved = await agree();
    expect(Date.parse(moved.stops[0].eta)).toBeGreaterThan(before);
  }, 120_000);
});
