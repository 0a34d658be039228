import { count, eq } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { expect } from 'vitest';
import { company, pkg } from '../../server/db/schema/index';
import { atomically } from '../../server/db/atomically';
import { transition } from '../../server/services/packages/lifecycle';
import { DAY_MS } from '../../server/services/history/move';
import { makeApp, PASSWORD, type TestApp } from './app';

/** The cold-storage tests' courier (test/server/history*.test.ts): parcels made final, to be moved to history. */
export type Json = Record<string, unknown>;
export interface Page { count: number; results: Json[] }

export const rows = async (t: TestApp, table: SQLiteTable) => (await t.db.select({ n: count() }).from(table).get())?.n ?? 0;

/** Signs the same people in again after the clock jumped past their sessions' lifetime. */
export async function again(t: TestApp, people: { email: string; token: string }[], driver?: { email: string; token: string }) {
  for (const p of people) {
    const r = await t.json<{ token: string }>('POST', p === driver ? '/api/auth/login/' : '/api/auth/web-login/', null, { email: p.email, password: PASSWORD });
    expect(r.status).toBe(200);
    p.token = r.body.token;
  }
}

/** A courier's quarter: a shipper's parcels delivered (one after a failed attempt), returned, cancelled, and one still open. */
export async function world() {
  const t = await makeApp();
  const admin = await t.login('admin');
  const driver = await t.login('driver', { name: 'Dana Driver' });
  const co = await t.company('Old Goods');
  // A postpaid shipper with a rate: every parcel is charged, and the month's statement lists them.
  await t.db.update(company).set({ billing_type: 'postpaid' }).where(eq(company.id, co)).run();
  expect((await t.json('POST', '/api/delivery-rate/', admin.token, { base_cents: 1000 })).status).toBe(201);
  const shipper = await t.login('company', { companyId: co });
  const other = await t.login('company');
  const post = <T = Json>(path: string, token: string, body: unknown = {}) => t.json<T>('POST', path, token, body);

  const create = async (hawb: string, extra: Json = {}) => {
    const r = await post<{ id: number }>('/api/package/', shipper.token, { hawb, customer_name: `Customer ${hawb}`, customer_phone: '0400 000 000', delivery_date: '2026-01-06', ...extra });
    expect(r.status).toBe(201);
    return r.body.id;
  };
  const ids: number[] = [];
  for (let i = 1; i <= 7; i += 1) ids.push(await create(`OLD-${i}`));
  const open = await create('OPEN-1');
  // Received at the depot, assigned and loaded, then delivered by the driver with proof.
  const move = async (id: number, to: 'received' | 'out_for_delivery', action: string, userId: number) => {
    const row = await t.db.select().from(pkg).where(eq(pkg.id, id)).get();
    if (!row) throw new Error('missing');
    await atomically(t.app.deps, () => transition(t.db, t.clock.now(), row, to, action, { userId }));
  };
  for (const id of [...ids, open]) await move(id, 'received', 'receive', admin.id);
  expect((await post('/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: ids.slice(0, 5) })).status).toBe(200);
  const failReason = await post<{ id: number }>('/api/failed-delivery-status/', admin.token, { name: 'Nobody home' });
  expect(failReason.status).toBe(201);
  await move(ids[0]!, 'out_for_delivery', 'load', driver.id);
  // OLD-1 fails once, then is delivered next day.
  const failed = await post(`/api/package-delivered/${ids[0]}/fail/`, driver.token, { failed_delivery_status: failReason.body.id, note: "closed" });
  expect(failed.status, JSON.stringify(failed.body)).toBe(200);
  t.clock.advance(DAY_MS);
  await again(t, [admin, driver, shipper, other], driver);
  for (const id of ids.slice(0, 5)) {
    const r = await post(`/api/package-delivered/${id}/deliver/`, driver.token, { recipient_name: 'Rita' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
  expect((await post(`/api/package/${ids[5]}/cancel/`, admin.token, { note: 'shipper withdrew' })).status).toBe(200);
  expect((await post(`/api/package-delivered/${ids[6]}/force-deliver/`, admin.token, { note: 'handed over at the counter' })).status).toBe(200);
  return { t, admin, driver, co, shipper, other, ids, open, post, move };
}

