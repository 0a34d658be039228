import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, company, deliveryRate, suburb, walletTxn, zone } from '../../server/db/schema/index';
import { locateWorld, type Json } from './geo-locate-fixtures';

type Pkg = Json & { id: number; zone: number | null; price: number | null };

/** Security issue 30, section 3: money and prices. Each test performs the attack and checks the refusal. */
describe("round three: the zone follows the address; quotes need the rate card's permission", () => {
  it('a shipper cannot move its Bondi parcel to a cheaper zone, by any field or path; the office override is audited and holds', async () => {
    const w = await locateWorld();
    const now = w.t.clock.now();
    const cheap = (await w.t.db.insert(zone).values({ name: 'Cheap', code: 'X', created_at: now, updated_at: now }).returning().get()).id;
    expect(
      (await w.t.json('POST', '/api/delivery-rate/', w.admin.token, { currency: 'AUD', name: 'Cheap', zone: cheap, base_cents: 500 }))
        .status,
    ).toBe(201);
    const bondi = { customer_address: '12 Campbell Pde', postcode: 2026, postcode_name: 'Bondi', weight: 1 };
    const read = async (id: number) => (await w.t.json<Pkg>('GET', `/api/package/${id}/`, w.admin.token)).body;
    const ledger = async (id: number) =>
      (await w.t.db.select().from(walletTxn).where(eq(walletTxn.package_id, id)).orderBy(walletTxn.id).all()).map((r) => [
        r.kind,
        r.amount_cents,
      ]);

    const created = await w.t.json<Pkg>('POST', '/api/package/', w.shipper.token, { hawb: 'Z-1', ...bondi });
    expect(created.status).toBe(201);
    expect([created.body.zone, created.body.price]).toEqual([w.east, 18]);
    const id = created.body.id;
    const scan = await w.t.json('POST', '/api/scan-package-api/scan-assign-zone/', w.depot.token, { barcode: 'Z-1' });
    expect(scan.status, JSON.stringify(scan.body)).toBe(200);

    // The attack of the issue: PATCH `zone` after the depot scan set the right one. Refused, nothing changes.
    const patched = await w.t.json<Json & { errors: { path: string }[] }>('PATCH', `/api/package/${id}/`, w.shipper.token, {
      zone: cheap,
      customer_name: 'Ann',
    });
    expect(patched.status).toBe(400);
    expect(patched.body.errors.map((e) => e.path)).toContain('zone');
    expect(await read(id)).toMatchObject({ zone: w.east, price: 18, customer_name: null });
    expect((await w.t.json('PUT', `/api/package/${id}/`, w.shipper.token, { zone: cheap })).status).toBe(400);
    // Nor by naming a suburb of the cheap zone that the parcel's postcode does not cover.
    const cheapville = (
      await w.t.db
        .insert(suburb)
        .values({ name: 'Cheapville', postcode: '2999', zone_id: cheap, state_id: w.nsw, created_at: now, updated_at: now })
        .returning()
        .get()
    ).id;
    const moved = await w.t.json<Json & { errors: { path: string }[] }>('PATCH', `/api/package/${id}/`, w.shipper.token, {
      suburb: cheapville,
    });
    expect(moved.status).toBe(400);
    expect(moved.body.errors.map((e) => e.path)).toContain('suburb');
    // Staff cannot slip it through the edit either: the override is its own operation.
    expect((await w.t.json('PATCH', `/api/package/${id}/`, w.admin.token, { zone: cheap })).status).toBe(400);
    expect(await ledger(id)).toEqual([['charge', -1800]]);

    // Nor at creation: a sender's zone is not its to choose; master data places the address.
    const sent = await w.t.json<Pkg>('POST', '/api/package/', w.shipper.token, { hawb: 'Z-2', ...bondi, zone: cheap });
    expect([sent.body.zone, sent.body.price]).toEqual([w.east, 18]);
    // Nor for an address master data cannot place: no zone, the zone-less line (25.00), never the sender's pick.
    const vague = await w.t.json<Pkg>('POST', '/api/package/', w.shipper.token, {
      hawb: 'Z-3',
      customer_address: '12 Campbell Pde Bondi',
      weight: 1,
      zone: cheap,
    });
    expect([vague.body.zone, vague.body.price]).toEqual([null, 25]);
    // Staff naming a zone for a placed address get the address's zone too.
    const staff = await w.t.json<Pkg>('POST', '/api/package/', w.admin.token, { hawb: 'Z-4', company: w.shipperId, ...bondi, zone: cheap });
    expect([staff.body.zone, staff.body.price]).toEqual([w.east, 18]);
    // A quote agrees with the creation.
    const quote = await w.t.json<Json>('POST', '/api/package/price/', w.shipper.token, { ...bondi, zone: cheap });
    expect([quote.body.zone, quote.body.price]).toEqual([w.east, 18]);

    // The office override: not for senders or drivers; with a reason; re-priced once; audited.
    const driver = await w.t.login('driver');
    const body = { zone: cheap, reason: 'Agreed rate for this drop' };
    expect((await w.t.json('POST', `/api/package/${id}/zone-override/`, w.shipper.token, body)).status).toBe(403);
    expect((await w.t.json('POST', `/api/package/${id}/zone-override/`, driver.token, body)).status).toBe(403);
    expect((await w.t.json('POST', `/api/package/${id}/zone-override/`, w.admin.token, { zone: cheap })).status).toBe(400);
    expect((await w.t.json('POST', `/api/package/${id}/zone-override/`, w.admin.token, { zone: 999_999, reason: 'typo' })).status).toBe(
      400,
    );
    const over = await w.t.json<Pkg>('POST', `/api/package/${id}/zone-override/`, w.admin.token, body);
    expect(over.status, JSON.stringify(over.body)).toBe(200);
    expect([over.body.zone, over.body.price]).toEqual([cheap, 5]);
    expect(await ledger(id)).toEqual([
      ['charge', -1800],
      ['reprice', 1300],
    ]);
    const trail = await w.t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'package.zone_override'), eq(auditLog.target, `package:${id}`)))
      .all();
    expect(trail).toHaveLength(1);
    expect(JSON.parse(trail[0].details ?? '{}')).toMatchObject({
      reason: body.reason,
      before: { zone: w.east, price: 18 },
      after: { zone: cheap, price: 5 },
    });

    // It holds while the address stays: another depot scan and a sender's edit of other fields keep it.
    expect((await w.t.json('POST', '/api/scan-package-api/scan-assign-zone/', w.depot.token, { barcode: 'Z-1' })).status).toBe(200);
    expect(
      (await w.t.json('PATCH', `/api/package/${id}/`, w.shipper.token, { customer_name: 'Ann', latitude: -33.89, longitude: 151.27 }))
        .status,
    ).toBe(200);
    expect(await read(id)).toMatchObject({ zone: cheap, price: 5 });
    // A new address is located again, and priced by its zone.
    expect(
      (
        await w.t.json('PATCH', `/api/package/${id}/`, w.admin.token, {
          customer_address: '1 George St',
          postcode: 2000,
          postcode_name: 'Sydney',
        })
      ).status,
    ).toBe(200);
    expect(await read(id)).toMatchObject({ zone: w.city, price: 15 });
  });

  it('a quote for a company needs what its rate card needs: a driver, or another company, is refused', async () => {
    const w = await locateWorld();
    // The shipper has negotiated 9.00 in East.
    await w.t.db
      .insert(deliveryRate)
      .values({
        name: 'Shipper East',
        company_id: w.shipperId,
        zone_id: w.east,
        base_cents: 900,
        currency: 'AUD',
        created_at: w.t.clock.now(),
        updated_at: w.t.clock.now(),
      })
      .run();
    const ask = { company: w.shipperId, weight: 1, postcode: 2026 };
    const admin = await w.t.json<Json>('POST', '/api/package/price/', w.admin.token, ask);
    expect([admin.status, admin.body.price]).toEqual([200, 9]);

    // A driver: the rate card answers 403, and so does the quote (with or without a company named).
    const driver = await w.t.login('driver');
    expect((await w.t.json('GET', `/api/delivery-rate/rate-card-by-company/${w.shipperId}/`, driver.token)).status).toBe(403);
    const leak = await w.t.json<Json>('POST', '/api/package/price/', driver.token, ask);
    expect(leak.status).toBe(403);
    expect(leak.body.price).toBeUndefined();
    expect((await w.t.json('POST', '/api/package/price/', driver.token, { weight: 1, postcode: 2026 })).status).toBe(403);

    // A competitor given `employee.manage` mints a driver of its own: that driver is refused the same way.
    const rival = await w.t.company('Rival');
    await w.t.db.update(company).set({ currency: 'AUD' }).where(eq(company.id, rival)).run();
    const rivalDriver = await w.t.login('driver', { companyId: rival });
    expect((await w.t.json('POST', '/api/package/price/', rivalDriver.token, ask)).status).toBe(403);
    // And the competitor's own login is quoted only its own prices.
    const rivalLogin = await w.t.login('company', { companyId: rival });
    expect((await w.t.json('POST', '/api/package/price/', rivalLogin.token, ask)).status).toBe(403);
    const own = await w.t.json<Json>('POST', '/api/package/price/', rivalLogin.token, { weight: 1, postcode: 2026 });
    expect([own.status, own.body.price]).toEqual([200, 18]);
    // The shipper itself still gets its negotiated price.
    const mine = await w.t.json<Json>('POST', '/api/package/price/', w.shipper.token, { weight: 1, postcode: 2026 });
    expect([mine.status, mine.body.price]).toEqual([200, 9]);
  });
});
