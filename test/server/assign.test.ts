import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { changeLog, pkg } from '../../server/db/schema/index';
import type { Package } from '../../shared/schemas/package';
import { makeApp } from '../helpers/app';

type Changed = { success: boolean; count: number; packages: Package[] };
type Page = { count: number; results: Package[] };

async function setup() {
  const t = await makeApp();
  const admin = await t.login('admin');
  const depot = await t.login('depot_manager');
  const shipper = await t.login('company');
  const driver = await t.login('driver', { name: 'Dee Driver' });
  const ids: number[] = [];
  for (const hawb of ['AS-1', 'AS-2', 'AS-3', 'AS-4'])
    ids.push((await t.json<Package>('POST', '/api/package/', shipper.token, { hawb })).body.id);
  return { t, admin, depot, shipper, driver, ids };
}

describe('assign package to driver', () => {
  it('assigns many and one, unassigns back to the right shelf, and the driver device hears of it', async () => {
    const { t, admin, depot, shipper, driver, ids } = await setup();
    // One parcel landed at the depot first: unassigning it puts it back on the shelf (received).
    await t.json('POST', `/api/package/${ids[0]}/status-change/`, admin.token, { status: 'received' });

    const many = await t.json<Changed>('POST', '/api/assign-package/assign-driver/', depot.token, {
      driver: driver.id,
      packages: [ids[0], ids[1], ids[2]],
    });
    expect(many.status).toBe(200);
    expect(many.body.count).toBe(3);
    expect(many.body.packages.every((p) => p.status === 'assigned' && p.assigned_to?.name === 'Dee Driver')).toBe(true);

    const single = await t.json<Package>('POST', `/api/assign-package/${ids[3]}/assign-driver/`, depot.token, { driver: driver.id });
    expect(single.body).toMatchObject({ id: ids[3], status: 'assigned', assigned_to_id: driver.id });

    const screen = await t.json<Page>('GET', '/api/assign-package/?assigned=true', depot.token);
    expect(screen.body.count).toBe(4);
    expect((await t.json<Page>('GET', '/api/assign-package/?assigned=false', depot.token)).body.count).toBe(0);

    const back = await t.json<Changed>('POST', '/api/assign-package/unassign-package/', depot.token, { packages: [ids[0], ids[1]] });
    expect(back.status).toBe(200);
    const byId = new Map(back.body.packages.map((p) => [p.id, p]));
    expect(byId.get(ids[0])).toMatchObject({ status: 'received', assigned_to_id: null, assigned_to: null });
    expect(byId.get(ids[1])).toMatchObject({ status: 'created', assigned_to_id: null });
    const removed = await t.db
      .select()
      .from(changeLog)
      .where(and(eq(changeLog.entity_id, ids[0]), eq(changeLog.op, 'remove'), eq(changeLog.driver_id, driver.id)))
      .all();
    expect(removed.length).toBe(1);

    const one = await t.json<Package>('POST', `/api/package/${ids[2]}/unassign/`, admin.token);
    expect(one.body).toMatchObject({ status: 'created', assigned_to_id: null });
    expect((await t.json<Page>('GET', '/api/assign-package/?assigned=false', depot.token)).body.count).toBe(3);

    // Refusals: not assigned any more (409, nothing changed), unknown ids (400), not a driver, not staff.
    const again = await t.json('POST', '/api/assign-package/unassign-package/', depot.token, { packages: [ids[3], ids[0]] });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'invalid_transition' });
    expect((await t.db.select().from(pkg).where(eq(pkg.id, ids[3])).get())?.status).toBe('assigned');
    const unknown = await t.json<{ message: string }>('POST', '/api/assign-package/assign-driver/', depot.token, {
      driver: driver.id,
      packages: [ids[0], 777777],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('777777');
    expect((await t.json('POST', '/api/assign-package/777777/assign-driver/', depot.token, { driver: driver.id })).status).toBe(404);
    expect((await t.json('POST', '/api/package/777777/unassign/', depot.token)).status).toBe(404);
    expect((await t.json('POST', '/api/assign-package/assign-driver/', depot.token, { driver: admin.id, packages: [ids[0]] })).status).toBe(
      400,
    );
    expect(
      (await t.json('POST', '/api/assign-package/assign-driver/', shipper.token, { driver: driver.id, packages: [ids[0]] })).status,
    ).toBe(403);
    expect((await t.json('POST', `/api/package/${ids[3]}/unassign/`, driver.token)).status).toBe(403);
    expect((await t.json('POST', '/api/assign-package/assign-driver/', depot.token, { driver: driver.id, packages: [] })).status).toBe(400);
    expect((await t.json('GET', '/api/assign-package/', shipper.token)).status).toBe(403);

    // A cancelled parcel cannot be assigned: the whole call is refused.
    await t.json('POST', `/api/package/${ids[1]}/status-change/`, admin.token, { status: 'cancelled' });
    const final = await t.json('POST', '/api/assign-package/assign-driver/', depot.token, {
      driver: driver.id,
      packages: [ids[0], ids[1]],
    });
    expect(final.status).toBe(409);
    expect((await t.db.select().from(pkg).where(eq(pkg.id, ids[0])).get())?.status).toBe('received');
  });

  it('looks parcels up by barcode, counts them by status, and answers its health check', async () => {
    const { t, admin, depot, shipper, driver, ids } = await setup();
    const rival = await t.login('company');
    await t.json('POST', '/api/package/', admin.token, { hawb: 'OTHER-1' });

    const found = await t.json<Package>('GET', '/api/assign-package/scan-package/?barcode=AS-2', depot.token);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ id: ids[1], hawb: 'AS-2' });
    const missing = await t.json<{ message: string; code: string }>('GET', '/api/assign-package/scan-package/?barcode=NOPE-9', depot.token);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toContain('NOPE-9');
    expect((await t.json('GET', '/api/assign-package/scan-package/?barcode=', depot.token)).status).toBe(400);
    expect((await t.json('GET', '/api/assign-package/scan-package/?barcode=AS-2', shipper.token)).status).toBe(403);

    await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: [ids[0]] });
    const all = await t.json<{ total: number; by_status: Record<string, number>; unassigned: number; assigned_not_scanned: number }>(
      'GET',
      '/api/assign-package/dashboard-count/',
      admin.token,
    );
    expect(all.body).toMatchObject({ total: 5, unassigned: 4, assigned_not_scanned: 1 });
    expect(all.body.by_status).toMatchObject({ created: 4, assigned: 1, delivered: 0 });
    const own = await t.json<{ total: number }>('GET', '/api/assign-package/dashboard-count/', shipper.token);
    expect(own.body.total).toBe(4);
    expect((await t.json<{ total: number }>('GET', '/api/assign-package/dashboard-count/', rival.token)).body.total).toBe(0);
    expect((await t.json<{ total: number }>('GET', '/api/assign-package/dashboard-count/', driver.token)).body.total).toBe(1);

    const health = await t.json<{ success: boolean; status: string; time: string }>('GET', '/api/assign-package/testing/', driver.token);
    expect(health.body).toMatchObject({ success: true, status: 'ok' });
    expect(Number.isNaN(Date.parse(health.body.time))).toBe(false);
    expect((await t.json('GET', '/api/assign-package/testing/', null)).status).toBe(401);
  });

  it('serves every operation of both groups in the OpenAPI document', async () => {
    const t = await makeApp();
    const doc = await t.json<{ paths: Record<string, Record<string, { 'x-catalogue'?: string[] }>> }>('GET', '/api/openapi.json', null);
    const served = new Set(Object.values(doc.body.paths).flatMap((p) => Object.values(p).flatMap((op) => op['x-catalogue'] ?? [])));
    const { catalogue } = await import('../../server/http/catalogue');
    const wanted = [...catalogue().keys()].filter(
      (id) => id.startsWith('web/Package Model/') || id.startsWith('web/Assign Package To Driver/'),
    );
    expect(wanted.length).toBe(28);
    expect(wanted.filter((id) => !served.has(id))).toEqual([]);
  });
});
