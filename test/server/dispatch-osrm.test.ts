import { afterEach, describe, expect, it } from 'vitest';
import type { PlanJob, PlanRoute } from '../../shared/schemas/dispatch';
import { travelSeconds } from '../../shared/routing/eta';
import { haversineDistance, type LatLng } from '../../shared/routing/haversine';
import { sendJson, standIn } from './geo-standins';
import { planDay, routeWorld, type Json } from './routes-helpers';

const DAY = '2026-01-05';
const DEPOT: LatLng = { latitude: -33.87, longitude: 151.2 };
/** Six parcels 2-4 km around the depot; the last one is across a river with no bridge nearby. */
const STOPS: LatLng[] = [0, 1, 2, 3, 4, 5].map((k) => ({
  latitude: DEPOT.latitude + 0.02 * Math.cos((2 * Math.PI * k) / 6) * (1 + (k % 2)),
  longitude: DEPOT.longitude + 0.02 * Math.sin((2 * Math.PI * k) / 6) * (1 + (k % 2)),
}));
const FAR = STOPS[5];
const same = (a: LatLng, b: LatLng) => Math.abs(a.latitude - b.latitude) < 1e-6 && Math.abs(a.longitude - b.longitude) < 1e-6;

/** FAR's ring neighbour on the other side: the river runs between them. */
const ACROSS = STOPS[4];
const crosses = (a: LatLng, b: LatLng) => (same(a, FAR) && same(b, ACROSS)) || (same(a, ACROSS) && same(b, FAR));

/**
 * What the road engine stand-in says: straight-line metres ÷ 10 s (a 36 km/h crow), plus an hour
 * for any trip to or from FAR and another between FAR and ACROSS. The great-circle estimate (× 1.3
 * at 30 km/h) is far from both.
 */
const roadSeconds = (a: LatLng, b: LatLng) =>
  same(a, b) ? 0 : haversineDistance(a, b) / 10 + (same(a, FAR) !== same(b, FAR) ? 3600 : 0) + (crosses(a, b) ? 3600 : 0);

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()?.();
});

/** An osrm-routed stand-in on loopback answering /table/v1/driving/{lng,lat;...}; `fail` makes it answer 503. */
async function osrm(fail = false) {
  const s = await standIn((url, _req, res) => {
    if (fail) return sendJson(res, 503, { code: 'Error', message: 'engine overloaded' });
    const m = /^\/table\/v1\/driving\/(.+)$/.exec(url.pathname);
    if (!m) return sendJson(res, 400, { code: 'InvalidUrl', message: 'URL string malformed' });
    const coords = decodeURIComponent(m[1])
      .split(';')
      .map((c) => {
        const [lng, lat] = c.split(',').map(Number);
        return { latitude: lat, longitude: lng };
      });
    const pick = (k: string) => (url.searchParams.get(k) ?? coords.map((_, i) => i).join(';')).split(';').map(Number);
    const durations = pick('sources').map((a) => pick('destinations').map((b) => roadSeconds(coords[a], coords[b])));
    return sendJson(res, 200, { code: 'Ok', durations });
  });
  closers.push(s.close);
  return s;
}

async function world(osrmUrl: string) {
  const w = await routeWorld();
  const { t, admin } = w;
  t.app.deps.config.osrmUrl = osrmUrl;
  expect((await t.json('PUT', `/api/warehouse/${w.warehouseId}/position/`, admin.token, DEPOT)).status).toBe(200);
  const r = await t.json('POST', '/api/driver-shift/', admin.token, {
    driver: w.d1.id,
    date: DAY,
    start_time: '08:00',
    end_time: '18:00',
    start_warehouse: w.warehouseId,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const ids: number[] = [];
  for (const [k, p] of STOPS.entries()) ids.push(await w.parcel(`R${k}`, { ...p, weight: 2 }));
  return { ...w, ids };
}

async function planned(w: Awaited<ReturnType<typeof world>>, body: Json = {}): Promise<PlanJob> {
  return planDay(w.t, w.admin.token, { date: DAY, time_limit_ms: 300, drivers: [w.d1.id], include_undated: true, ...body });
}

/** The ETAs a route's order implies under a travel function (no windows here: arrive, serve, drive on). */
function walk(route: PlanRoute, seconds: (a: LatLng, b: LatLng) => number): number[] {
  let at = Date.parse(route.depart);
  let here = route.start as LatLng;
  return route.stops.map((s) => {
    const p = { latitude: s.latitude as number, longitude: s.longitude as number };
    const arrive = at + Math.round(Math.round(seconds(here, p)) * 1000);
    at = arrive + s.service_s * 1000;
    here = p;
    return arrive;
  });
}

describe('plans on road travel times (OSRM_URL)', () => {
  it("a plan's order and ETAs follow the road engine's matrix", async () => {
    const s = await osrm();
    const w = await world(s.url);
    const plan = await planned(w);
    expect(plan.status, plan.message ?? '').toBe('done');
    expect(s.requests.length).toBeGreaterThan(0);
    expect(s.requests[0].pathname.startsWith('/table/v1/driving/')).toBe(true);
    const route = plan.proposal?.routes[0] as PlanRoute;
    expect(route.stops.map((x) => x.package).sort((a, b) => a - b)).toEqual(w.ids);
    const etas = route.stops.map((x) => Date.parse(x.eta));
    expect(etas).toEqual(walk(route, roadSeconds));
    // Not what the great-circle estimate would have said: the road makes FAR an hour further away.
    expect(etas).not.toEqual(walk(route, (a, b) => travelSeconds(a, b)));
    // The optimiser saw the road too. By the crow every tour round the ring costs the same, most of
    // them with FAR beside ACROSS; by the road the one best tour (either way round, by brute force
    // over all 720 orders: 152 s ahead of the next) goes straight between FAR and the depot, and
    // from FAR to its other neighbour, never across the river.
    const order = route.stops.map((x) => w.ids.indexOf(x.package)).join('');
    expect(['501234', '432105']).toContain(order);

    // The same day's re-plan reads the cached matrix: the engine is not asked again.
    const asked = s.requests.length;
    expect((await planned(w)).status).toBe('done');
    expect(s.requests.length).toBe(asked);
  });

  it('a failing road engine leaves the plan on the great-circle estimate', async () => {
    const s = await osrm(true);
    const w = await world(s.url);
    const plan = await planned(w);
    expect(plan.status, plan.message ?? '').toBe('done');
    expect(s.requests.length).toBeGreaterThan(0);
    const route = plan.proposal?.routes[0] as PlanRoute;
    expect(route.stops).toHaveLength(6);
    expect(route.stops.map((x) => Date.parse(x.eta))).toEqual(walk(route, (a, b) => travelSeconds(a, b)));
  });

  it('without OSRM_URL the road engine is never asked', async () => {
    const s = await osrm();
    const w = await world('');
    const plan = await planned(w);
    expect(plan.status).toBe('done');
    const route = plan.proposal?.routes[0] as PlanRoute;
    expect(route.stops.map((x) => Date.parse(x.eta))).toEqual(walk(route, (a, b) => travelSeconds(a, b)));
    expect(s.requests).toHaveLength(0);
  });
});
