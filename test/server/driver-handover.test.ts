import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, deliveryRoute, pkg, user } from '../../server/db/schema/index';
import { changesSince } from '../../server/services/sync/feed';
import type { Package } from '../../shared/schemas/package';
import { makeApp, type TestApp } from '../helpers/app';

type Feed = {
  upserts: { packages: { id: number; assigned_to_id: number | null }[] };
  removes: { packages: number[] } | Record<string, number[]>;
  cursor: number;
};
type Refusal = { code: string; details: { open_parcels: number; open_routes: number; parcels: string[]; routes: string[] } };

/** A driver with four open parcels: two on a planned route, one loose, one out on the van. */
async function setup() {
  const t = await makeApp();
  const admin = await t.login('admin');
  const shipper = await t.login('company');
  const old = await t.login('driver', { name: 'Leaving Driver' });
  const next = await t.login('driver', { name: 'Next Driver' });
  const ids: number[] = [];
  for (const hawb of ['HO-1', 'HO-2', 'HO-3', 'HO-4', 'HO-5'])
    ids.push((await t.json<Package>('POST', '/api/package/', shipper.token, { hawb })).body.id);
  const route = await t.json<{ route: { id: number } }>('POST', '/api/route/', admin.token, {
    name: 'Run A',
    date: '2026-01-05',
    driver: old.id,
    packages: [ids[0], ids[1]],
  });
  expect(route.status).toBe(201);
  expect(
    (await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: old.id, packages: [ids[2], ids[3]] })).status,
  ).toBe(200);
  // HO-4 goes on the van; HO-5 is delivered by nobody (stays unassigned, never part of the handover).
  expect((await t.json('POST', '/api/scan-package-api/inbound-scan/', old.token, { barcode: 'HO-4' })).status).toBe(200);
  expect((await t.db.select().from(pkg).where(eq(pkg.id, ids[3]!)).get())?.status).toBe('out_for_delivery');
  return { t, admin, shipper, old, next, ids, routeId: route.body.route.id };
}

const row = async (t: TestApp, id: number) => (await t.db.select().from(pkg).where(eq(pkg.id, id)).get())!;

describe('deactivating a driver with open work', () => {
  it('answers 409 with the open parcels when no choice is given, and lists them for the web', async () => {
    const { t, admin, old, ids } = await setup();
    const open = await t.json<{ open_parcels: number; open_routes: number; parcels: { hawb: string }[] }>(
      'GET',
      `/api/employee/${old.id}/open-work/`,
      admin.token,
    );
    expect(open.status).toBe(200);
    expect(open.body).toMatchObject({ open_parcels: 4, open_routes: 1 });
    expect(open.body.parcels.map((p) => p.hawb)).toEqual(['HO-1', 'HO-2', 'HO-3', 'HO-4']);

    const refused = await t.json<Refusal>('POST', `/api/employee/${old.id}/status-change/`, admin.token, { is_active: false });
    expect(refused.status).toBe(409);
    expect(refused.body.details).toMatchObject({
      open_parcels: 4,
      open_routes: 1,
      parcels: ['HO-1', 'HO-2', 'HO-3', 'HO-4'],
      routes: ['Run A'],
    });
    // Nothing changed: the driver is still active and still holds the parcels.
    expect((await t.db.select().from(user).where(eq(user.id, old.id)).get())?.is_active).toBe(true);
    for (const id of ids.slice(0, 4)) expect((await row(t, id)).assigned_to_id).toBe(old.id);
  });

  it('reassigns every open parcel and route to another driver in the same step; both phones hear of it', async () => {
    const { t, admin, old, next, ids, routeId } = await setup();
    const oldUser = { id: old.id, role: 'driver' } as const;
    const oldCursor = (await t.json<Feed>('GET', '/api/sync/changes/?cursor=0', old.token)).body.cursor;
    const nextCursor = (await t.json<Feed>('GET', '/api/sync/changes/?cursor=0', next.token)).body.cursor;

    const done = await t.json<{ is_active: boolean }>('POST', `/api/employee/${old.id}/status-change/`, admin.token, {
      is_active: false,
      handover: { to_driver: next.id },
    });
    expect(done.status).toBe(200);
    expect(done.body.is_active).toBe(false);
    for (const id of ids.slice(0, 4)) expect(await row(t, id)).toMatchObject({ assigned_to_id: next.id, status: 'assigned' });
    expect((await row(t, ids[4]!)).assigned_to_id).toBeNull();
    expect((await t.db.select().from(deliveryRoute).where(eq(deliveryRoute.id, routeId)).get())?.driver_id).toBe(next.id);
    expect(
      (await t.json<{ open_parcels: number; open_routes: number }>('GET', `/api/employee/${old.id}/open-work/`, admin.token)).body,
    ).toMatchObject({ open_parcels: 0, open_routes: 0 });

    const nextFeed = await t.json<Feed>('GET', `/api/sync/changes/?cursor=${nextCursor}`, next.token);
    expect(nextFeed.body.upserts.packages.map((p) => p.id).sort((a, b) => a - b)).toEqual(ids.slice(0, 4));
    // The old driver's session is gone, so read their device's feed as the server would serve it.
    const oldFeed = JSON.parse(
      (await changesSince(t.db, { kind: 'driver', driverId: oldUser.id }, oldCursor, 100, t.clock.now())).text,
    ) as { removes: { packages: number[] } };
    expect([...oldFeed.removes.packages].sort((a, b) => a - b)).toEqual(ids.slice(0, 4));
    expect(await t.db.select().from(auditLog).where(eq(auditLog.action, 'user.handover')).all()).toHaveLength(1);
  });

  it('returns everything to the depot: parcels back to the pool, the route without a driver', async () => {
    const { t, admin, old, ids, routeId } = await setup();
    const done = await t.json('POST', `/api/employee/${old.id}/status-change/`, admin.token, {
      is_active: false,
      handover: { return_to_depot: true },
    });
    expect(done.status).toBe(200);
    for (const id of ids.slice(0, 4)) expect(await row(t, id)).toMatchObject({ assigned_to_id: null, status: 'created' });
    expect((await t.db.select().from(deliveryRoute).where(eq(deliveryRoute.id, routeId)).get())?.driver_id).toBeNull();
    const pool = await t.json<{ count: number }>('GET', '/api/assign-package/?assigned=false', admin.token);
    expect(pool.body.count).toBe(5);
  });

  it('refuses an inactive driver, a non-driver, the same driver, and a company login', async () => {
    const { t, admin, shipper, old, next, ids } = await setup();
    const depot = await t.login('depot_manager');
    expect((await t.json('POST', `/api/employee/${next.id}/status-change/`, admin.token, { is_active: false })).status).toBe(200);
    for (const to of [next.id, depot.id, old.id, 999_999]) {
      const r = await t.json('POST', `/api/employee/${old.id}/status-change/`, admin.token, {
        is_active: false,
        handover: { to_driver: to },
      });
      expect(r.status, `to ${to}`).toBe(400);
    }
    expect(
      (
        await t.json('POST', `/api/employee/${old.id}/status-change/`, admin.token, {
          is_active: false,
          handover: { return_to_depot: false },
        })
      ).status,
    ).toBe(400);
    expect((await t.db.select().from(user).where(eq(user.id, old.id)).get())?.is_active).toBe(true);
    for (const id of ids.slice(0, 4)) expect((await row(t, id)).assigned_to_id).toBe(old.id);

    expect((await t.json('GET', `/api/employee/${old.id}/open-work/`, shipper.token)).status).toBe(403);
    expect(
      (
        await t.json('POST', `/api/employee/${old.id}/status-change/`, shipper.token, {
          is_active: false,
          handover: { return_to_depot: true },
        })
      ).status,
    ).toBe(403);
    expect((await t.json('GET', `/api/employee/${old.id}/open-work/`, old.token)).status).toBe(403);
  });

  it('archiving a driver who still holds work is refused until it is handed over', async () => {
    const { t, admin, old } = await setup();
    const refused = await t.json<Refusal>('POST', '/api/employee/archive-employee/', admin.token, { deleted: [old.id] });
    expect(refused.status).toBe(409);
    expect(refused.body.details.open_parcels).toBe(4);
    expect((await t.db.select().from(user).where(eq(user.id, old.id)).get())?.deleted_at).toBeNull();
    expect(
      (
        await t.json('POST', `/api/employee/${old.id}/status-change/`, admin.token, {
          is_active: false,
          handover: { return_to_depot: true },
        })
      ).status,
    ).toBe(200);
    expect((await t.json('POST', '/api/employee/archive-employee/', admin.token, { deleted: [old.id] })).status).toBe(200);
  });

  it('a parcel that used its attempts goes back to the depot, not to the next driver, and open-work says so beforehand', async () => {
    const { t, admin, old, next, ids } = await setup();
    // HO-4 (on the van) fails for the third time: only a return to the depot is left for it.
    const reason = (await t.json<{ id: number }>('POST', '/api/failed-delivery-status/', admin.token, { name: 'Nobody home' })).body.id;
    expect((await t.json('POST', `/api/package-delivered/${ids[3]!}/fail/`, old.token, { failed_delivery_status: reason })).status).toBe(
      200,
    );
    await t.db.update(pkg).set({ attempts: 3 }).where(eq(pkg.id, ids[3]!)).run();
    const open = await t.json<{ parcels: { hawb: string; must_return: boolean }[] }>(
      'GET',
      `/api/employee/${old.id}/open-work/`,
      admin.token,
    );
    expect(open.body.parcels.map((p) => [p.hawb, p.must_return])).toEqual([
      ['HO-1', false],
      ['HO-2', false],
      ['HO-3', false],
      ['HO-4', true],
    ]);

    expect(
      (await t.json('POST', `/api/employee/${old.id}/status-change/`, admin.token, { is_active: false, handover: { to_driver: next.id } }))
        .status,
    ).toBe(200);
    for (const id of ids.slice(0, 3)) expect(await row(t, id)).toMatchObject({ assigned_to_id: next.id, status: 'assigned' });
    expect(await row(t, ids[3]!)).toMatchObject({ assigned_to_id: null, status: 'returned', is_scanned: false });
    // Nothing is left with the account that can no longer log in.
    expect((await t.json('GET', `/api/employee/${old.id}/open-work/`, admin.token)).body).toMatchObject({
      open_parcels: 0,
      open_routes: 0,
    });
    const trail = t.db.select().from(auditLog).where(eq(auditLog.action, 'user.handover')).all();
    expect(await trail).toHaveLength(1);
  });

  it('a driver without open work is deactivated as before', async () => {
    const { t, admin, next } = await setup();
    expect((await t.json('POST', `/api/employee/${next.id}/status-change/`, admin.token, { is_active: false })).status).toBe(200);
  });
});
