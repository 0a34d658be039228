/**
 * Issue 36, section 4 (fixing places): parcels waiting for a place are placed, zoned and priced when
 * master data gains it (in the same unit of work); PO boxes and place names their postcode does not
 * cover are flagged for the office with a reason, not accepted silently; the office's correction
 * (suburb and postcode) clears the flag and re-prices.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { country, packageEvent, state, street, area, suburb, zone } from '../../server/db/schema/index';
import { makeApp } from '../helpers/app';
import { shipper } from './money-fixtures';

type Loc = {
  package: number;
  precision: string;
  suburb_name: string | null;
  zone_name: string | null;
  postcode_name: string | null;
  review: { reason: string; message: string } | null;
};
type Pricing = { state: string; price_cents: number | null; charged_cents: number };
type Parcel = { id: number; suburb: number | null; zone: number | null; price: number | null };

async function world() {
  const t = await makeApp();
  const admin = await t.login('admin');
  const now = t.clock.now();
  const stamp = { created_at: now, updated_at: now };
  const au = (
    await t.db
      .insert(country)
      .values({ name: 'Australia', currency: 'AUD', ...stamp })
      .returning()
      .get()
  ).id;
  const nsw = (
    await t.db
      .insert(state)
      .values({ name: 'NSW', country_id: au, ...stamp })
      .returning()
      .get()
  ).id;
  const east = (
    await t.db
      .insert(zone)
      .values({ name: 'East', ...stamp })
      .returning()
      .get()
  ).id;
  const city = (
    await t.db
      .insert(zone)
      .values({ name: 'City', ...stamp })
      .returning()
      .get()
  ).id;
  const sydney = (
    await t.db
      .insert(suburb)
      .values({ name: 'Sydney', state_id: nsw, zone_id: city, postcode: '2000', latitude: -33.87, longitude: 151.21, ...stamp })
      .returning()
      .get()
  ).id;
  const cbd = (
    await t.db
      .insert(area)
      .values({ name: 'CBD', suburb_id: sydney, ...stamp })
      .returning()
      .get()
  ).id;
  await t.db
    .insert(street)
    .values({ name: 'George Street', area_id: cbd, latitude: -33.868, longitude: 151.207, ...stamp })
    .run();
  // Zone lines only: a parcel without a zone is unpriced.
  for (const [z, base] of [
    [east, 900],
    [city, 700],
  ] as const) {
    const line = await t.json('POST', '/api/delivery-rate/', admin.token, { zone: z, base_cents: base, currency: 'AUD' });
    expect(line.status, JSON.stringify(line.body)).toBe(201);
  }
  const ship = await shipper(t, 'postpaid');
  const parcel = async (body: Record<string, unknown>) => {
    const res = await t.json<Parcel>('POST', '/api/package/', ship.token, { weight: 1, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  const loc = async (id: number) => (await t.json<Loc>('GET', `/api/package/${id}/location/`, admin.token)).body;
  const pricing = async (id: number) => (await t.json<Pricing>('GET', `/api/package/${id}/pricing/`, admin.token)).body;
  const review = async () => (await t.json<{ results: Loc[] }>('GET', '/api/package/location-review/', admin.token)).body.results;
  return { t, admin, nsw, east, city, sydney, parcel, loc, pricing, review };
}

describe('fixing places (issue 36)', () => {
  it('a parcel waiting for its suburb is placed, zoned and priced when the suburb is added, in the same request', async () => {
    const w = await world();
    const { t } = w;
    const waiting = await w.parcel({ hawb: 'WAIT-1', customer_address: '12 Campbell Pde', postcode: 2026, postcode_name: 'Bondi Beach' });
    expect(waiting).toMatchObject({ suburb: null, zone: null });
    expect(await w.pricing(waiting.id)).toMatchObject({ state: 'unpriced', charged_cents: 0 });
    expect((await w.loc(waiting.id)).precision).toBe('none');
    const other = await w.parcel({ hawb: 'WAIT-2', customer_address: '1 Other St', postcode: 4000 });

    const added = await t.json<{ id: number }>('POST', '/api/suburb/', w.admin.token, {
      name: 'Bondi Beach',
      state: w.nsw,
      postcode: '2026',
      zone: w.east,
      latitude: -33.891,
      longitude: 151.277,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const placed = (await t.json<Parcel>('GET', `/api/package/${waiting.id}/`, w.admin.token)).body;
    expect(placed).toMatchObject({ suburb: added.body.id, zone: w.east, price: 9 });
    expect(await w.pricing(waiting.id)).toMatchObject({ state: 'priced', price_cents: 900, charged_cents: 900 });
    expect(await w.loc(waiting.id)).toMatchObject({ precision: 'suburb', suburb_name: 'Bondi Beach', zone_name: 'East' });
    const events = await t.db.select().from(packageEvent).where(eq(packageEvent.package_id, waiting.id)).all();
    expect(events.map((e) => e.action)).toContain('placed');
    // A parcel the new suburb does not concern is left as it was.
    expect((await t.json<Parcel>('GET', `/api/package/${other.id}/`, w.admin.token)).body).toMatchObject({ suburb: null, zone: null });

    // A postcode added to master data (a pincode row) places the parcels waiting for it too.
    const late = await w.parcel({ hawb: 'WAIT-3', customer_address: '3 Beach Rd', postcode: 2030 });
    expect(late).toMatchObject({ suburb: null, zone: null });
    const pin = await t.json('POST', '/api/pincode/', w.admin.token, { code: '2030', suburb: added.body.id });
    expect(pin.status, JSON.stringify(pin.body)).toBe(201);
    expect(await w.loc(late.id)).toMatchObject({ suburb_name: 'Bondi Beach', zone_name: 'East', review: null });
    expect(await w.pricing(late.id)).toMatchObject({ state: 'priced', price_cents: 900 });
    // A place name known only under another postcode: placed there, and flagged for the office.
    const elsewhere = await w.parcel({ hawb: 'WAIT-4', customer_address: '4 Beach Rd', postcode: 2999, postcode_name: 'Bondi Beach' });
    expect(elsewhere).toMatchObject({ zone: w.east });
    expect((await w.loc(elsewhere.id)).review?.reason).toBe('postcode_mismatch');
  });

  it('flags PO boxes and place names the postcode does not cover, lists them with a reason, and clears a mismatch once corrected', async () => {
    const w = await world();
    const { t } = w;
    const box = await w.parcel({ hawb: 'BOX-1', customer_address: 'PO Box 123', postcode: 2000, postcode_name: 'Sydney' });
    // "Bondi" in postcode 2000: the street places it precisely in Sydney, which is not what the shipper wrote.
    const wrong = await w.parcel({ hawb: 'WRONG-1', customer_address: '200 George St', postcode: 2000, postcode_name: 'Bondi' });
    const fine = await w.parcel({ hawb: 'FINE-1', customer_address: '300 George St', postcode: 2000, postcode_name: 'Sydney' });
    expect((await w.loc(box.id)).review).toMatchObject({ reason: 'po_box', message: expect.stringMatching(/PO box/) });
    const mismatch = await w.loc(wrong.id);
    expect(mismatch).toMatchObject({ precision: 'street', postcode_name: 'Bondi', review: { reason: 'postcode_mismatch' } });
    expect(mismatch.review!.message).toContain('"Bondi 2000"');
    expect(mismatch.review!.message).toContain('Sydney');
    expect((await w.loc(fine.id)).review).toBeNull();
    // Listed for the office whatever the precision, with the reason; the well-placed parcel is not.
    const listed = await w.review();
    expect(listed.map((r) => [r.package, r.review?.reason ?? null])).toEqual(
      expect.arrayContaining([
        [box.id, 'po_box'],
        [wrong.id, 'postcode_mismatch'],
      ]),
    );
    expect(listed.map((r) => r.package)).not.toContain(fine.id);
    // A change that does not touch the place keeps the flag.
    expect((await t.json('PATCH', `/api/package/${wrong.id}/`, w.admin.token, { customer_phone: '0412 345 678' })).status).toBe(200);
    expect((await w.loc(wrong.id)).review?.reason).toBe('postcode_mismatch');

    // The office corrects it: the suburb Bondi, postcode 2026. The zone follows and the price with it.
    const now = t.clock.now();
    const bondi = (
      await t.db
        .insert(suburb)
        .values({ name: 'Bondi', state_id: w.nsw, zone_id: w.east, postcode: '2026', created_at: now, updated_at: now })
        .returning()
        .get()
    ).id;
    expect(await w.pricing(wrong.id)).toMatchObject({ price_cents: 700 });
    const fixed = await t.json<Parcel>('PATCH', `/api/package/${wrong.id}/`, w.admin.token, { suburb: bondi, postcode: 2026 });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body).toMatchObject({ suburb: bondi, zone: w.east, price: 9 });
    expect(await w.loc(wrong.id)).toMatchObject({ suburb_name: 'Bondi', postcode_name: 'Bondi', review: null });
    expect(await w.pricing(wrong.id)).toMatchObject({ price_cents: 900, charged_cents: 900 });
    // A suburb the postcode does not cover is refused, not accepted silently.
    const refused = await t.json('PATCH', `/api/package/${fine.id}/`, w.admin.token, { suburb: bondi });
    expect(refused.status).toBe(400);
    // The PO box stays flagged until the address line changes.
    expect((await t.json('PATCH', `/api/package/${box.id}/`, w.admin.token, { customer_address: '5 George St' })).status).toBe(200);
    expect((await w.loc(box.id)).review).toBeNull();
  });
});
