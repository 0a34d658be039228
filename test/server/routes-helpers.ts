import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { deliveryRoute, pkg, warehouse } from '../../server/db/schema/index';
import type { PlanJob } from '../../shared/schemas/dispatch';
import { makeApp, type TestApp } from '../helpers/app';

export type Json = Record<string, unknown>;
export interface RouteJson {
  id: number;
  name: string;
  status: string;
  driver: number | null;
  packages: number[];
  open_count: number;
  done_count: number;
  package_count: number;
  total_distance_m: number | null;
}
export interface PackageJson {
  id: number;
  hawb: string;
  status: string;
  sequence_no: number | null;
  assigned_to_id: number | null;
}

/** Great-circle metres, written out here so the test does not check the optimiser with itself. */
export function metres(a: [number, number], b: [number, number]): number {
  const rad = Math.PI / 180;
  const dLat = (b[0] - a[0]) * rad;
  const dLng = (b[1] - a[1]) * rad;
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(s));
}

/** A depot team, two drivers, a shipper and a warehouse. */
export async function routeWorld() {
  const t = await makeApp();
  const admin = await t.login('admin');
  const depot = await t.login('depot_manager');
  const d1 = await t.login('driver', { name: 'Dana Driver' });
  const d2 = await t.login('driver', { name: 'Eli Driver' });
  const shipper = await t.login('company');
  const now = t.clock.now();
  const warehouseId = (
    await t.db
      .insert(warehouse)
      .values({ name: 'Main depot', street_address: '1 Depot Rd', created_at: now, updated_at: now })
      .returning()
      .get()
  ).id;

  const parcel = async (hawb: string, extra: Json = {}) => {
    const res = await t.json<{ id: number }>('POST', '/api/package/', shipper.token, {
      hawb,
      customer_name: `Customer ${hawb}`,
      postcode: 2000,
      ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id;
  };
  const row = (id: number) => t.db.select().from(pkg).where(eq(pkg.id, id)).get();
  const routeRow = (id: number) => t.db.select().from(deliveryRoute).where(eq(deliveryRoute.id, id)).get();
  const post = (path: string, token: string, body: unknown, headers?: Record<string, string>) =>
    t.json<Json>('POST', path, token, body, headers);
  const get = <T = Json>(path: string, token: string) => t.json<T>('GET', path, token);
  return { t, admin, depot, d1, d2, shipper, warehouseId, parcel, row, routeRow, post, get };
}

/**
 * Starts a plan and waits for its worker, polling as the board does: the job once it is done or failed.
 * The body is the request as sent (each test states its date, drivers and budget).
 */
export async function planDay(t: Pick<TestApp, 'json'>, token: string, body: Json): Promise<PlanJob> {
  const start = await t.json<PlanJob>('POST', '/api/dispatch/plan/', token, body);
  expect(start.status, JSON.stringify(start.body)).toBe(202);
  for (let i = 0; i < 1200; i++) {
    const r = await t.json<PlanJob>('GET', `/api/dispatch/plan/${start.body.id}/`, token);
    expect(r.status).toBe(200);
    if (r.body.status === 'done' || r.body.status === 'failed') return r.body;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('plan did not finish');
}
