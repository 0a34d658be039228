import { describe, expect, it } from 'vitest';
import type { PackageLocation } from '../../shared/schemas/location';
import { locateWorld, type Json, type LocateWorld } from './geo-locate-fixtures';

type Pkg = Json & { id: number; latitude: number | null; longitude: number | null; zone: number | null; price: number | null };
type Page<T> = { count: number; results: T[] };

/** Creates a parcel to the address, assigns it to the driver, and delivers it with the phone at (lat, lng). */
async function deliveredAt(w: LocateWorld, driver: { id: number; token: string }, hawb: string, address: string, lat: number, lng: number) {
  const p = await w.t.json<Pkg>('POST', '/api/package/', w.shipper.token, { hawb, customer_address: address, postcode: 2026, weight: 1 });
  expect(p.status).toBe(201);
  expect(
    (await w.t.json('POST', '/api/assign-package/assign-driver/', w.admin.token, { driver: driver.id, packages: [p.body.id] })).status,
  ).toBe(200);
  const d = await w.t.json('POST', `/api/package-delivered/${p.body.id}/deliver/`, driver.token, {
    recipient_name: 'R',
    latitude: lat,
    longitude: lng,
  });
  expect(d.status, JSON.stringify(d.body)).toBe(200);
  return p.body.id;
}

describe('the address book', () => {
  it("learns an address once three drivers' deliveries agree within 50 m; the office pin wins over deliveries", async () => {
    const w = await locateWorld();
    const driver = await w.t.login('driver');
    const second2 = await w.t.login('driver');
    const third2 = await w.t.login('driver');
    const loc = (id: number, token = w.admin.token) => w.t.json<PackageLocation>('GET', `/api/package/${id}/location/`, token);

    const first = await deliveredAt(w, driver, 'AB-1', '7 Hall Street', -33.891, 151.273);
    // One delivery is not yet proof: the next parcel still sits at the suburb.
    const second = await w.t.json<Pkg>('POST', '/api/package/', w.shipper.token, {
      hawb: 'AB-2',
      customer_address: '7 Hall St.',
      postcode: 2026,
    });
    expect((await loc(second.body.id)).body).toMatchObject({ precision: 'suburb', source: 'suburb', address_book: null });
    // A second driver 25 m away agrees ("Hall St." and "Hall Street" are one address): two drivers are not yet enough.
    expect(
      (await w.t.json('POST', '/api/assign-package/assign-driver/', w.admin.token, { driver: second2.id, packages: [second.body.id] }))
        .status,
    ).toBe(200);
    expect(
      (
        await w.t.json('POST', `/api/package-delivered/${second.body.id}/deliver/`, second2.token, {
          latitude: -33.8912,
          longitude: 151.27315,
        })
      ).status,
    ).toBe(200);
    const notYet = await w.t.json<Pkg>('POST', '/api/package/', w.shipper.token, {
      hawb: 'AB-2b',
      customer_address: '7 Hall St',
      postcode: 2026,
    });
    expect((await loc(notYet.body.id)).body).toMatchObject({ precision: 'suburb', address_book: null });
    // A third driver agrees: learned.
    expect(
      (await w.t.json('POST', '/api/assign-package/assign-driver/', w.admin.token, { driver: third2.id, packages: [notYet.body.id] }))
        .status,
    ).toBe(200);
    expect(
      (
        await w.t.json('POST', `/api/package-delivered/${notYet.body.id}/deliver/`, third2.token, {
          latitude: -33.8911,
          longitude: 151.27305,
        })
      ).status,
    ).toBe(200);
    const third = await w.t.json<Pkg>('POST', '/api/package/', w.shipper.token, {
      hawb: 'AB-3',
      customer_address: '7 HALL ST',
      postcode: 2026,
      weight: 1,
    });
    const l3 = (await loc(third.body.id)).body;
    expect(l3).toMatchObject({ precision: 'exact', source: 'address_book', zone: w.east });
    expect(l3.latitude).toBeCloseTo(-33.8911, 4);
    expect(l3.address_book).toMatchObject({ source: 'deliveries', samples: 3 });
    expect(third.body.price).toBe(18);
    // A delivery far away (a wrong GPS fix) does not move a learned address.
    await deliveredAt(w, driver, 'AB-4', '7 Hall St', -33.8, 151.1);
    expect((await loc(third.body.id)).body.latitude).toBeCloseTo(-33.8911, 4);

    // The office drags the pin of the open parcel: the address book takes it, and it wins over later deliveries.
    const pin = await w.t.json<Json & { moved: number; location: PackageLocation }>(
      'PUT',
      `/api/package/${third.body.id}/location/`,
      w.admin.token,
      { latitude: -33.8905, longitude: 151.2751 },
    );
    expect(pin.status, JSON.stringify(pin.body)).toBe(200);
    expect(pin.body.location).toMatchObject({
      precision: 'exact',
      source: 'office',
      latitude: -33.8905,
      longitude: 151.2751,
      zone: w.east,
    });
    await deliveredAt(w, driver, 'AB-5', '7 Hall St', -33.892, 151.273);
    await deliveredAt(w, driver, 'AB-6', '7 Hall St', -33.892, 151.273);
    const fourth = await w.t.json<Pkg>('POST', '/api/package/', w.shipper.token, {
      hawb: 'AB-7',
      customer_address: '7 Hall St',
      postcode: 2026,
    });
    // The sender is shown the address's own point (security issue 30, section 5: geo/senderView.ts) ...
    expect([fourth.body.latitude, fourth.body.longitude]).toEqual([-33.8915, 151.2767]);
    expect((await loc(fourth.body.id)).body).toMatchObject({ source: 'office', address_book: { source: 'office' } });
    // ... the office's Package answer carries the point the parcel is delivered to (and nothing new).
    expect((await w.t.json<Pkg>('GET', `/api/package/${fourth.body.id}/`, w.admin.token)).body.coordinates).toEqual({
      latitude: -33.8905,
      longitude: 151.2751,
    });
    // Caller coordinates still come first.
    const own = await w.t.json<Pkg>('POST', '/api/package/', w.shipper.token, {
      hawb: 'AB-8',
      customer_address: '7 Hall St',
      postcode: 2026,
      latitude: -33.9,
      longitude: 151.3,
    });
    expect((await loc(own.body.id)).body).toMatchObject({ precision: 'exact', source: 'caller', latitude: -33.9 });
    void first;
  });

  it("refuses what it must: one coordinate alone, a driver or company moving a pin, another company's parcel", async () => {
    const w = await locateWorld();
    const driver = await w.t.login('driver');
    const other = await w.t.login('company');
    const half = await w.t.json('POST', '/api/package/', w.shipper.token, { hawb: 'RF-1', postcode: 2026, latitude: -33.9 });
    expect(half.status).toBe(400);
    const p = await w.t.json<Pkg>('POST', '/api/package/', w.shipper.token, {
      hawb: 'RF-2',
      postcode: 2026,
      customer_address: '1 Roscoe St',
    });
    expect((await w.t.json('PUT', `/api/package/${p.body.id}/location/`, driver.token, { latitude: -33.9, longitude: 151.2 })).status).toBe(
      403,
    );
    expect(
      (await w.t.json('PUT', `/api/package/${p.body.id}/location/`, w.shipper.token, { latitude: -33.9, longitude: 151.2 })).status,
    ).toBe(403);
    expect((await w.t.json('PUT', `/api/package/${p.body.id}/location/`, w.admin.token, { latitude: 95, longitude: 151.2 })).status).toBe(
      400,
    );
    expect((await w.t.json('GET', `/api/package/${p.body.id}/location/`, other.token)).status).toBe(404);
    expect((await w.t.json('GET', `/api/package/${p.body.id}/location/`, w.shipper.token)).status).toBe(200);
    expect((await w.t.json('PUT', '/api/package/999999/location/', w.admin.token, { latitude: -33.9, longitude: 151.2 })).status).toBe(404);
    expect((await w.t.json<Pkg>('GET', `/api/package/${p.body.id}/`, w.admin.token)).body.latitude).toBe(-33.8915);
  });

  it('lists parcels located to their suburb or worse for review, and gives badges for a page', async () => {
    const w = await locateWorld();
    const mk = async (hawb: string, body: Json) =>
      (await w.t.json<Pkg>('POST', '/api/package/', w.shipper.token, { hawb, ...body })).body.id;
    const street = await mk('RV-1', { customer_address: '12 Campbell Pde', postcode: 2026 });
    const sub = await mk('RV-2', { customer_address: '3 Hall St', postcode: 2026 });
    const pc = await mk('RV-3', { postcode: 2000 });
    const none = await mk('RV-4', { customer_address: 'Somewhere' });
    const exact = await mk('RV-5', { latitude: -33.9, longitude: 151.2 });
    const review = await w.t.json<Page<PackageLocation>>('GET', '/api/package/location-review/', w.admin.token);
    expect(review.body.results.map((r) => [r.package, r.precision])).toEqual([
      [sub, 'suburb'],
      [pc, 'postcode'],
      [none, 'none'],
    ]);
    const worst = await w.t.json<Page<PackageLocation>>('GET', '/api/package/location-review/?precision=postcode', w.shipper.token);
    expect(worst.body.results.map((r) => r.package)).toEqual([pc, none]);
    const other = await w.t.login('company');
    expect((await w.t.json<Page<PackageLocation>>('GET', '/api/package/location-review/', other.token)).body.count).toBe(0);
    const badges = await w.t.json<{ results: { package: number; precision: string }[] }>(
      'GET',
      `/api/package/locations/?ids=${[street, sub, pc, none, exact].join(',')}`,
      w.admin.token,
    );
    expect(badges.body.results.map((b) => b.precision)).toEqual(['street', 'suburb', 'postcode', 'none', 'exact']);
    expect((await w.t.json('GET', '/api/package/locations/?ids=1,x', w.admin.token)).status).toBe(400);
    // Correcting the address re-locates the parcel (and leaves review).
    const fixed = await w.t.json<Pkg>('PATCH', `/api/package/${none}/`, w.shipper.token, { postcode: 2026, postcode_name: 'Bondi' });
    expect([fixed.body.zone, fixed.body.latitude, fixed.body.price]).toEqual([w.east, -33.8915, 18]);
    expect((await w.t.json<PackageLocation>('GET', `/api/package/${none}/location/`, w.admin.token)).body.precision).toBe('suburb');
  });
});
