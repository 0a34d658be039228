import { describe, expect, it } from 'vitest';
import { deliveryRoute } from '../../server/db/schema/index';
import { deliver, hawb, moneyWorld, shipper, type Json } from './money-fixtures';

const at = (day: number, month = 0) => Date.UTC(2026, month, day, 10);

describe('driver earnings', () => {
  it('counts delivered parcels times the rate in force, by day, route and company; a driver sees only their own', async () => {
    const { t, admin, metro, rural } = await moneyWorld();
    const driver = await t.login('driver');
    const colleague = await t.login('driver');
    const rate = (body: Json) => t.json('POST', '/api/driver-delivery-rate/', admin.token, body);
    await rate({ name: 'Default', amount_cents: 450, effective_from: '2026-01-01', effective_to: '2026-01-20' });
    await rate({ name: 'Default from 20th', amount_cents: 500, effective_from: '2026-01-20' });
    await rate({ name: 'Metro bonus', driver: driver.id, zone: metro, amount_cents: 600, effective_from: '2026-01-01' });

    const a = await shipper(t, 'postpaid');
    const b = await shipper(t, 'postpaid');
    // Staff send these parcels: a zone sent by a company is not its to choose (the zone follows the address).
    const make = async (co: { companyId: number }, zone: number) => {
      const r = await t.json<Json>('POST', '/api/package/', admin.token, { hawb: hawb(), company: co.companyId, zone });
      expect(r.status).toBe(201);
      return r.body.id as number;
    };
    await deliver(t, await make(a, rural), driver.id, at(5), 7); // 450
    await deliver(t, await make(a, metro), driver.id, at(5), 7); // 600
    await deliver(t, await make(b, rural), driver.id, at(21), 8); // 500
    await deliver(t, await make(b, rural), driver.id, at(2, 1), 8); // February: outside
    await deliver(t, await make(a, rural), colleague.id, at(6), 9); // someone else's
    await make(a, rural); // not delivered

    await t.db
      .insert(deliveryRoute)
      .values({ id: 7, name: 'North loop', date: '2026-01-05', driver_id: driver.id, created_at: at(1), updated_at: at(1) })
      .run();
    const q = '?from=2026-01-01&to=2026-01-31';
    const mine = await t.json<Json>('GET', `/api/dashboard/driver-earning/${q}`, driver.token);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({
      driver: driver.id,
      from: '2026-01-01',
      to: '2026-01-31',
      totals: [{ currency: 'AUD', delivered_count: 3, unrated_count: 0, amount_cents: 1550 }],
      days: [
        { date: '2026-01-05', currency: 'AUD', delivered_count: 2, amount_cents: 1050 },
        { date: '2026-01-21', currency: 'AUD', delivered_count: 1, amount_cents: 500 },
      ],
    });
    const routes = await t.json<Json>('GET', `/api/dashboard/route-wise-earning/${q}`, driver.token);
    expect(routes.body.routes).toEqual([
      { route: 7, route_name: 'North loop', currency: 'AUD', delivered_count: 2, unrated_count: 0, amount_cents: 1050 },
      { route: 8, route_name: null, currency: 'AUD', delivered_count: 1, unrated_count: 0, amount_cents: 500 },
    ]);
    const companies = await t.json<Json>('GET', `/api/dashboard/driver-delivered-company/${q}`, driver.token);
    expect((companies.body.companies as Json[]).map((c) => [c.company, c.delivered_count, c.amount_cents])).toEqual([
      [a.companyId, 2, 1050],
      [b.companyId, 1, 500],
    ]);

    // February by default month, for staff asking about this driver.
    t.clock.set(at(3, 1));
    const feb = await t.json<Json>('GET', `/api/dashboard/driver-earning/?driver=${driver.id}`, admin.token);
    expect(feb.body).toMatchObject({ from: '2026-02-01', to: '2026-02-28', totals: [{ delivered_count: 1, amount_cents: 500 }] });

    expect((await t.json('GET', `/api/dashboard/driver-earning/?driver=${colleague.id}`, driver.token)).status).toBe(404);
    expect((await t.json('GET', `/api/dashboard/driver-earning/?driver=${a.userId}`, admin.token)).status).toBe(404);
    expect((await t.json('GET', '/api/dashboard/driver-earning/', a.token)).status).toBe(403);
    expect((await t.json('GET', '/api/dashboard/driver-earning/?from=2026-02-30', driver.token)).status).toBe(400);
    expect((await t.json('GET', '/api/dashboard/driver-earning/?from=2026-02-10&to=2026-02-01', driver.token)).status).toBe(400);
    expect((await t.json('GET', '/api/dashboard/driver-earning/?from=2024-01-01&to=2026-01-01', driver.token)).status).toBe(400);
    expect((await t.json('GET', '/api/dashboard/route-wise-earning/', null)).status).toBe(401);
  });

  it('parcels no rate covers are counted and earn nothing', async () => {
    const { t, admin, rural } = await moneyWorld();
    const driver = await t.login('driver');
    const a = await shipper(t, 'postpaid');
    const p = await t.json<Json>('POST', '/api/package/', admin.token, { hawb: hawb(), company: a.companyId, zone: rural });
    await deliver(t, p.body.id as number, driver.id, at(3));
    const r = await t.json<Json>('GET', '/api/dashboard/driver-earning/?from=2026-01-01&to=2026-01-31', driver.token);
    expect(r.body.totals).toEqual([{ currency: null, delivered_count: 1, unrated_count: 1, amount_cents: 0 }]);
  });
});
