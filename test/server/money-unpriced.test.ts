import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { walletTxn } from '../../server/db/schema/index';
import { hawb, moneyWorld, shipper, type Json } from './money-fixtures';

/** Issue 18: no parcel goes uncharged silently; re-pricing charges or refunds the difference once. */
describe('unpriced parcels and re-pricing (API)', () => {
  it('lists parcels no rate prices, charges them once when a line arrives, re-prices weight changes, and refuses when the company says so', async () => {
    const { t, admin, metro } = await moneyWorld();
    const a = await shipper(t, 'postpaid');
    const b = await shipper(t, 'postpaid');
    const txns = (companyId: number) =>
      t.db.select().from(walletTxn).where(eq(walletTxn.company_id, companyId)).orderBy(walletTxn.id).all();
    const net = async (companyId: number, pkgId: number) =>
      0 - (await txns(companyId)).filter((x) => x.package_id === pkgId).reduce((s, x) => s + x.amount_cents, 0);

    const ids: number[] = [];
    for (const kg of [1, 3, 7]) {
      const res = await t.json<{ id: number; price: number | null }>('POST', '/api/package/', admin.token, {
        hawb: hawb(),
        company: a.companyId,
        weight: kg,
        zone: metro,
      });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const other = await t.json<{ id: number }>('POST', '/api/package/', b.token, { hawb: hawb(), weight: 2 });
    expect(other.status).toBe(201);
    expect(await txns(a.companyId)).toHaveLength(0);

    const listed = await t.json<{ count: number; results: Json[] }>('GET', '/api/package/unpriced/', admin.token);
    expect(listed.body.count).toBe(4);
    const own = await t.json<{ count: number; results: Json[] }>('GET', '/api/package/unpriced/', a.token);
    expect(own.body.results.map((r) => r.package)).toEqual(ids);
    expect(own.body.results[0]).toMatchObject({ reason: 'no_rate_line', company: a.companyId, status: 'created' });
    expect((await t.json('GET', `/api/package/unpriced/?company=${b.companyId}`, a.token)).status).toBe(404);
    expect((await t.json('GET', '/api/package/unpriced/?hawb=x', admin.token)).status).toBe(400);

    // A default line: 500 + 100 per started kg above 0. Every unpriced parcel is charged, once.
    const line = await t.json<{ id: number }>('POST', '/api/delivery-rate/', admin.token, {
      base_cents: 500,
      per_unit_cents: 100,
      currency: 'AUD',
    });
    expect(line.status).toBe(201);
    expect((await t.json<{ count: number }>('GET', '/api/package/unpriced/', admin.token)).body.count).toBe(0);
    const nets: number[] = [];
    for (const id of ids) nets.push(await net(a.companyId, id));
    expect(nets).toEqual([600, 800, 1200]);
    expect((await t.json('PATCH', `/api/delivery-rate/${line.body.id}/`, admin.token, { name: 'Standard' })).status).toBe(200);
    expect((await txns(a.companyId)).filter((x) => x.kind === 'charge')).toHaveLength(3);
    const price = await t.json<{ price: number }>('GET', `/api/package/${ids[0]}/`, a.token);
    expect(price.body.price).toBe(6);

    // Before receipt the sender's weight is billed: heavier charges the difference, lighter refunds it, the same weight posts nothing.
    expect((await t.json('PATCH', `/api/package/${ids[0]}/`, a.token, { weight: 4 })).status).toBe(200);
    expect(await net(a.companyId, ids[0])).toBe(900);
    expect((await t.json('PATCH', `/api/package/${ids[0]}/`, a.token, { weight: 4 })).status).toBe(200);
    expect((await t.json('PATCH', `/api/package/${ids[0]}/`, a.token, { weight: 2 })).status).toBe(200);
    expect(await net(a.companyId, ids[0])).toBe(700);
    expect((await txns(a.companyId)).filter((x) => x.package_id === ids[0]).map((x) => [x.kind, x.amount_cents])).toEqual([
      ['charge', -600],
      ['reprice', -300],
      ['reprice', 200],
    ]);

    // After receipt the depot's measurement wins: PATCH is refused, an adjustment with a reason re-prices and is audited.
    expect((await t.json('POST', `/api/package/${ids[1]}/status-change/`, admin.token, { status: 'received' })).status).toBe(200);
    const late = await t.json<Json>('PATCH', `/api/package/${ids[1]}/`, a.token, { weight: 9 });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ details: { reason: 'received' } });
    expect((await t.json('POST', `/api/package/${ids[1]}/weight-adjustment/`, a.token, { weight: 9, reason: 'x' })).status).toBe(403);
    expect((await t.json('POST', `/api/package/${ids[1]}/weight-adjustment/`, admin.token, { weight: 9 })).status).toBe(400);
    const adj = await t.json<{ weight: number; price: number }>('POST', `/api/package/${ids[1]}/weight-adjustment/`, admin.token, {
      weight: 9,
      reason: 'Scale at bay 2',
    });
    expect(adj.status).toBe(200);
    expect(adj.body).toMatchObject({ weight: 9, price: 14 });
    expect(await net(a.companyId, ids[1])).toBe(1400);
    const trail = await t.json<{ results: Json[] }>('GET', `/api/audit-log/?target=package:${ids[1]}`, admin.token);
    expect(trail.body.results[0]).toMatchObject({
      action: 'package.weight_adjusted',
      details: { reason: 'Scale at bay 2', before: { weight: 3 }, after: { weight: 9, price: 14 } },
    });

    // Cancelling refunds everything the parcel was charged, once.
    expect((await t.json('POST', `/api/package/${ids[0]}/cancel/`, admin.token, { note: 'dup' })).status).toBe(200);
    expect(await net(a.companyId, ids[0])).toBe(0);

    // A statement lists charges, re-prices and refunds; its total is what the company owes.
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    const st = await t.json<{ total_cents: number; lines: Json[] }>('POST', '/api/invoice/generate-invoice/', admin.token, {
      company: a.companyId,
      period_from: today,
      period_to: today,
    });
    expect(st.status).toBe(201);
    expect(st.body.total_cents).toBe(1400 + 1200);

    // A company that refuses unpriced parcels: creation without a fitting line is 409 and creates nothing.
    const c = await shipper(t, 'postpaid');
    expect((await t.json('PATCH', `/api/company/${c.companyId}/terms/`, a.token, { unpriced_policy: 'refuse' })).status).toBe(403);
    const terms = await t.json<Json>('PATCH', `/api/company/${c.companyId}/terms/`, admin.token, {
      unpriced_policy: 'refuse',
      payment_terms_days: 30,
    });
    expect(terms.body).toMatchObject({ unpriced_policy: 'refuse', payment_terms_days: 30 });
    expect((await t.json('PATCH', `/api/delivery-rate/${line.body.id}/`, admin.token, { max_weight: 20 })).status).toBe(200);
    const refused = await t.json<Json>('POST', '/api/package/', c.token, { hawb: 'HEAVY-1', weight: 50 });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ details: { reason: 'unpriced' } });
    expect((await t.json<{ count: number }>('GET', '/api/package/?search=HEAVY-1', admin.token)).body.count).toBe(0);
    expect((await t.json('POST', '/api/package/', c.token, { hawb: 'LIGHT-1', weight: 5 })).status).toBe(201);

    // Uploads say how many rows were accepted unpriced (company a accepts them), or refuse them by row (company c).
    const csv = (rows: string[]) => {
      const f = new FormData();
      f.set('file', new File([['hawb,weight', ...rows].join('\r\n')], 'u.csv', { type: 'text/csv' }));
      return f;
    };
    const up = await t.json<{ message: string; unpriced: number; created: number }>(
      'POST',
      '/api/package/bulk-upload/',
      a.token,
      csv(['UP-H1,50', 'UP-L1,2']),
    );
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ created: 2, unpriced: 1 });
    expect(up.body.message).toContain('1 of them unpriced');
    const upRefused = await t.json<{ details: { report: { errors: { message: string }[] }[] } }>(
      'POST',
      '/api/package/bulk-upload/',
      c.token,
      csv(['UP-H2,50']),
    );
    expect(upRefused.status).toBe(400);
    expect(upRefused.body.details.report[0]?.errors[0]?.message).toContain('does not accept unpriced parcels');
  });
});
