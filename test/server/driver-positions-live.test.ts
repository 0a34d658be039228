/**
 * Vans that say where they are (issue 31, section 2): the phone's positions start the driver's route,
 * are stored once and in device order whatever the retries, move the live map and the remaining
 * stops' ETAs (at most once a minute per route). Both engines (bash scripts/with-postgres.sh ...).
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { driverPosition, stopEta } from '../../server/db/schema/index';
import { POSITION_ETA_EVERY_MS } from '../../server/services/routes/live';
import { routeWorld, type Json, type RouteJson } from './routes-helpers';

const DAY = '2026-01-05';
// Circular Quay towards Kings Cross, Sydney.
const PATH: [number, number][] = [
  [-33.861, 151.2108],
  [-33.8648, 151.2094],
  [-33.8688, 151.2093],
  [-33.8722, 151.219],
  [-33.8737, 151.2226],
];
const at = (s: number) => new Date(Date.parse(`${DAY}T08:00:00Z`) + s * 1000).toISOString();
const reading = (i: number, s: number) => ({ latitude: PATH[i]![0], longitude: PATH[i]![1], accuracy: 12, occurred_at: at(s) });

async function day(opts: { date?: string } = {}) {
  const w = await routeWorld();
  w.t.clock.set(Date.parse(`${DAY}T08:00:00Z`));
  // Stops in Surry Hills, Paddington and Bondi Junction.
  const ids = [
    await w.parcel('LV1', { latitude: -33.886, longitude: 151.212 }),
    await w.parcel('LV2', { latitude: -33.884, longitude: 151.229 }),
    await w.parcel('LV3', { latitude: -33.892, longitude: 151.247 }),
  ];
  const made = await w.post('/api/route/', w.admin.token, {
    name: 'East run',
    date: opts.date ?? DAY,
    driver: w.d1.id,
    packages: ids,
    start_latitude: -33.861,
    start_longitude: 151.2108,
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const route = made.body.route as RouteJson;
  const send = (token: string, positions: Json[], key?: string) =>
    w.post('/api/driver-position/', token, { positions }, key ? { 'idempotency-key': key } : undefined);
  const etas = async () =>
    new Map((await w.t.db.select().from(stopEta).where(eq(stopEta.route_id, route.id)).all()).map((r) => [r.package_id, r]));
  const stored = async () => (await w.t.db.select().from(driverPosition).where(eq(driverPosition.driver_id, w.d1.id)).all()).length;
  return { ...w, ids, route, send, etas, stored };
}

describe('driver positions on duty', () => {
  it('start the route, arrive once and in order, and move the map and the ETAs at most once a minute', async () => {
    const w = await day();
    expect((await w.routeRow(w.route.id))?.status).toBe('planned');

    const first = await w.send(w.d1.token, [reading(0, 0), reading(1, 20)], 'positions-1');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ stored: 2, duplicates: 0 });
    // The first position on duty started today's route, and its ETAs now start from the van.
    const started = await w.routeRow(w.route.id);
    expect(started).toMatchObject({ status: 'in_progress', started_at: w.t.clock.now() });
    const e1 = await w.etas();
    expect([...e1.keys()].sort()).toEqual([...w.ids].sort());
    expect([...e1.values()].every((r) => r.computed_at === w.t.clock.now())).toBe(true);

    // The phone lost the answer and sends the same request again: replayed, nothing stored twice.
    const again = await w.send(w.d1.token, [reading(0, 0), reading(1, 20)], 'positions-1');
    expect(again.status).toBe(200);
    expect(again.res.headers.get('idempotent-replayed')).toBe('true');
    // A batch re-sent under a new key (a journal re-send after a restore): counted, not stored.
    expect((await w.send(w.d1.token, [reading(1, 20)], 'positions-1b')).body).toMatchObject({ stored: 0, duplicates: 1 });
    expect(await w.stored()).toBe(2);

    // Ten seconds later the van is further on: stored, shown on the map, but the ETAs wait.
    w.t.clock.advance(10_000);
    expect((await w.send(w.d1.token, [reading(2, 30)], 'positions-2')).body).toMatchObject({ stored: 1 });
    expect([...(await w.etas()).values()].map((r) => r.computed_at)).toEqual([...e1.values()].map((r) => r.computed_at));
    const map = await w.get<{ drivers: { driver: { id: number }; position: Json | null; route: { id: number; status: string } | null }[] }>(
      '/api/dashboard/map/',
      w.admin.token,
    );
    expect(map.body.drivers.find((d) => d.driver.id === w.d1.id)).toMatchObject({
      position: { latitude: PATH[2]![0], longitude: PATH[2]![1], occurred_at: at(30) },
      route: { id: w.route.id, status: 'in_progress' },
    });

    // After an offline stretch the phone's batches arrive late, in its own order: a minute on, the ETAs follow the newest reading.
    w.t.clock.advance(POSITION_ETA_EVERY_MS);
    expect((await w.send(w.d1.token, [reading(3, 50), reading(4, 70)], 'positions-3')).body).toMatchObject({ stored: 2 });
    const e2 = await w.etas();
    expect([...e2.values()].every((r) => r.computed_at === w.t.clock.now())).toBe(true);
    // The van went east, away from the first stop's south: the first stop's ETA moved, its promise did not.
    const firstStop = w.ids[0]!;
    expect(e2.get(firstStop)!.eta_at).not.toBe(e1.get(firstStop)!.eta_at);
    expect(e2.get(firstStop)!.planned_at).toBe(e1.get(firstStop)!.planned_at);

    // The trail is the device's order, whatever order the requests came in.
    const trail = await w.get<{ results: { occurred_at: string }[] }>(
      `/api/driver-position/${w.d1.id}/trail/?from=${at(-60)}&to=${at(600)}`,
      w.d1.token,
    );
    expect(trail.body.results.map((r) => r.occurred_at)).toEqual([0, 20, 30, 50, 70].map(at));
    const latest = await w.get<{ results: { driver: { id: number }; position: Json }[] }>('/api/driver-position/', w.admin.token);
    expect(latest.body.results.find((r) => r.driver.id === w.d1.id)?.position).toMatchObject({ occurred_at: at(70) });
    // A second start is not a new start.
    expect((await w.routeRow(w.route.id))?.started_at).toBe(started?.started_at);
  }, 90_000);

  it("start only the driver's own route of today; loading a parcel starts its route", async () => {
    const later = await day({ date: '2026-01-06' });
    // Tomorrow's route does not start from today's positions.
    expect((await later.send(later.d1.token, [reading(0, 0)])).status).toBe(200);
    expect((await later.routeRow(later.route.id))?.status).toBe('planned');
    // Nor from another driver's.
    const w = await day();
    expect((await w.send(w.d2.token, [reading(0, 0)])).status).toBe(200);
    expect((await w.routeRow(w.route.id))?.status).toBe('planned');
    // Loading the first parcel on the van starts it (no position needed: permission may be refused).
    const load = await w.post('/api/scan-package-api/inbound-scan/', w.d1.token, { barcode: 'LV1', occurred_at: at(0) });
    expect(load.status, JSON.stringify(load.body)).toBe(200);
    expect((await w.routeRow(w.route.id))?.status).toBe('in_progress');
    expect((await w.etas()).size).toBe(3);
    // Only drivers report positions.
    expect((await w.send(w.admin.token, [reading(0, 0)])).status).toBe(403);
  }, 90_000);
});
