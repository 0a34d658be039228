import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { expect } from 'vitest';
import { MIGRATIONS_DIR, PG_MIGRATIONS_DIR } from '../../server/db/client';
import { company, packageHistoryActor, packageHistoryTally, packageHistoryToken, pkg } from '../../server/db/schema/index';
import { atomically } from '../../server/db/atomically';
import { transition } from '../../server/services/packages/lifecycle';
import { DAY_MS } from '../../server/services/history/move';
import { makeApp, PASSWORD, type TestApp } from './app';

/** The cold-storage tests' courier (test/server/history*.test.ts): parcels made final, to be moved to history. */
export type Json = Record<string, unknown>;
export interface Page {
  count: number;
  results: Json[];
}

export const rows = async (t: TestApp, table: SQLiteTable) => (await t.db.select({ n: count() }).from(table).get())?.n ?? 0;

/** Signs the same people in again after the clock jumped past their sessions' lifetime. */
export async function again(t: TestApp, people: { email: string; token: string }[], driver?: { email: string; token: string }) {
  for (const p of people) {
    const r = await t.json<{ token: string }>('POST', p === driver ? '/api/auth/login/' : '/api/auth/web-login/', null, {
      email: p.email,
      password: PASSWORD,
    });
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
    const r = await post<{ id: number }>('/api/package/', shipper.token, {
      hawb,
      customer_name: `Customer ${hawb}`,
      customer_phone: '0400 000 000',
      delivery_date: '2026-01-06',
      ...extra,
    });
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
  expect((await post('/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: ids.slice(0, 5) })).status).toBe(
    200,
  );
  const failReason = await post<{ id: number }>('/api/failed-delivery-status/', admin.token, { name: 'Nobody home' });
  expect(failReason.status).toBe(201);
  await move(ids[0]!, 'out_for_delivery', 'load', driver.id);
  // OLD-1 fails once, then is delivered next day.
  const failed = await post(`/api/package-delivered/${ids[0]}/fail/`, driver.token, {
    failed_delivery_status: failReason.body.id,
    note: 'closed',
  });
  expect(failed.status, JSON.stringify(failed.body)).toBe(200);
  t.clock.advance(DAY_MS);
  await again(t, [admin, driver, shipper, other], driver);
  for (const id of ids.slice(0, 5)) {
    const r = await post(`/api/package-delivered/${id}/deliver/`, driver.token, { recipient_name: 'Rita' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
  expect((await post(`/api/package/${ids[5]}/cancel/`, admin.token, { note: 'shipper withdrew' })).status).toBe(200);
  expect((await post(`/api/package-delivered/${ids[6]}/force-deliver/`, admin.token, { note: 'handed over at the counter' })).status).toBe(
    200,
  );
  return { t, admin, driver, co, shipper, other, ids, open, post, move };
}

export const png = (n: number) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, n & 255, (n >> 8) & 255]);

/** The courier of history.test.ts, plus proof photos, a recipient's rating, a refused late delivery and a parcel returned to its sender. */
export async function richWorld() {
  const w = await world();
  const { t, admin, driver, shipper, ids, post } = w;
  // OLD-2's proof: a photo and a signature the driver adds after delivering.
  const photo = await t.upload(driver.token, png(1), { client_id: 'pod-photo-0001', kind: 'photo' });
  const signature = await t.upload(driver.token, png(2), { client_id: 'pod-sign-0001', kind: 'signature' });
  const proof = await t.json('PATCH', `/api/photo-upload/${ids[1]}/`, driver.token, { photo_one: photo, signature });
  expect(proof.status, JSON.stringify(proof.body)).toBe(200);
  // OLD-3 is rated by its recipient.
  const link = await t.json<{ token: string }>('GET', `/api/package/${ids[2]}/tracking-link/`, shipper.token);
  expect(link.status).toBe(200);
  expect(
    (await t.json('POST', `/api/public/track/${link.body.token}/rating/`, null, { rating: 4, comment: 'Kind and quick' })).status,
  ).toBe(201);
  // OLD-5 is delivered again from another phone: refused, flagged, then cleared by the office.
  const late = await post(`/api/package-delivered/${ids[4]}/deliver/`, driver.token, { recipient_name: 'Someone else' });
  expect(late.status).toBe(409);
  expect((await post(`/api/package-delivered/${ids[4]}/resolve-flag/`, admin.token, { note: 'same parcel, second phone' })).status).toBe(
    200,
  );
  // OLD-8 fails at the door, comes back to the depot and goes back to its sender.
  const created = await post<{ id: number }>('/api/package/', shipper.token, {
    hawb: 'OLD-8',
    customer_name: 'Customer OLD-8',
    customer_phone: '0400 000 000',
  });
  expect(created.status).toBe(201);
  const back = created.body.id;
  await w.move(back, 'received', 'receive', admin.id);
  expect((await post('/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: [back] })).status).toBe(200);
  await w.move(back, 'out_for_delivery', 'load', driver.id);
  const reason = await post<{ id: number }>('/api/failed-delivery-status/', admin.token, { name: 'Refused by recipient' });
  expect((await post(`/api/package-delivered/${back}/fail/`, driver.token, { failed_delivery_status: reason.body.id })).status).toBe(200);
  expect((await post('/api/return-parcel/scan/', driver.token, { barcode: 'OLD-8' })).status).toBe(200);
  expect((await post('/api/return-parcel/depot-manager/', admin.token, { barcode: 'OLD-8', outcome: 'returned_to_sender' })).status).toBe(
    200,
  );
  return { ...w, back, all: [...ids, back] };
}

/** Runs the shipped migration that fills the lookups for parcels moved before they existed, as the migrator would. */
export async function fillLookups(t: TestApp) {
  const dir = t.db.$engine.kind === 'postgres' ? PG_MIGRATIONS_DIR : MIGRATIONS_DIR;
  const journal = JSON.parse(readFileSync(join(dir, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const entry = journal.entries.find((e) => e.tag.endsWith('history_lookups_filled'));
  expect(entry).toBeDefined();
  const text = readFileSync(join(dir, `${entry?.tag}.sql`), 'utf8');
  for (const statement of text.split('--> statement-breakpoint')) await t.db.run(sql.raw(statement));
}

/** A database as it was before the lookups existed: parcels in history, nothing in the tables the mover now fills. */
export async function emptyLookups(t: TestApp) {
  for (const table of [packageHistoryToken, packageHistoryTally, packageHistoryActor]) await t.db.delete(table).run();
}
