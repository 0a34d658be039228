import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { company } from '../../server/db/schema/index';
import type { PackageLocation } from '../../shared/schemas/location';
import { locateWorld, type Json, type LocateWorld } from './geo-locate-fixtures';

type Pkg = Json & { id: number; latitude: number | null; longitude: number | null };
type Login = { id: number; token: string };

const HONEST = { latitude: -33.8911, longitude: 151.273 };
const FAKE = { latitude: -33.88, longitude: 151.26 }; // ~1.7 km away

/** A parcel of `shipper` to the address, delivered by `driver` with the phone at `at`. */
async function delivered(
  w: LocateWorld,
  shipper: Login,
  driver: Login,
  hawb: string,
  address: string,
  at: { latitude: number; longitude: number },
  pin = false,
) {
  const p = await w.t.json<Pkg>('POST', '/api/package/', shipper.token, {
    hawb,
    customer_address: address,
    postcode: 2026,
    weight: 1,
    ...(pin ? at : {}),
  });
  expect(p.status, JSON.stringify(p.body)).toBe(201);
  expect(
    (await w.t.json('POST', '/api/assign-package/assign-driver/', w.admin.token, { driver: driver.id, packages: [p.body.id] })).status,
  ).toBe(200);
  expect(
    (await w.t.json('POST', `/api/package-delivered/${p.body.id}/deliver/`, driver.token, { recipient_name: 'R', ...at })).status,
  ).toBe(200);
  return p.body.id;
}

async function rivalOf(w: LocateWorld): Promise<Login> {
  const id = await w.t.company('Rival');
  await w.t.db.update(company).set({ billing_type: 'postpaid', currency: 'AUD' }).where(eq(company.id, id)).run();
  return await w.t.login('company', { companyId: id });
}

/** Security issue 30, section 5: the shared address book. */
describe('round three: the address book learns only from agreement no one driver or shipper controls', () => {
  it('one driver faking its fix, or a shipper pinning its own point for honest drivers, never moves or sets a shared entry', async () => {
    const w = await locateWorld();
    const rival = await rivalOf(w);
    const honest = [await w.t.login('driver'), await w.t.login('driver'), await w.t.login('driver')];
    const loc = async (id: number) => (await w.t.json<PackageLocation>('GET', `/api/package/${id}/location/`, w.admin.token)).body;
    // Five agreeing deliveries by three drivers set the entry.
    let n = 0;
    for (const d of [...honest, honest[0], honest[1]]) await delivered(w, w.shipper, d, `H-${n++}`, '7 Hall St', HONEST);
    const probe = async (hawb: string, address = '7 Hall St') =>
      (await w.t.json<Pkg>('POST', '/api/package/', rival.token, { hawb, customer_address: address, postcode: 2026 })).body.id;
    const before = await loc(await probe('R-0'));
    expect(before).toMatchObject({ source: 'address_book', precision: 'exact', address_book: { source: 'deliveries', samples: 3 } });

    // One driver with a faked GPS fix, two deliveries (and then three more): one vote, the entry stays.
    const liar = await w.t.login('driver');
    for (let i = 0; i < 5; i++) await delivered(w, w.shipper, liar, `L-${i}`, '7 Hall St', FAKE);
    const afterLiar = await loc(await probe('R-1'));
    expect(afterLiar.latitude).toBeCloseTo(HONEST.latitude, 4);
    expect(afterLiar.longitude).toBeCloseTo(HONEST.longitude, 4);

    // A shipper pins its own parcels at the fake point; honest drivers deliver at the pin: nothing is learned from them.
    for (const d of honest) await delivered(w, w.shipper, d, `P-${d.id}`, '7 Hall St', FAKE, true);
    const afterPins = await loc(await probe('R-2'));
    expect(afterPins).toMatchObject({ source: 'address_book' });
    expect(afterPins.latitude).toBeCloseTo(HONEST.latitude, 4);
    // Nor does a pinned address the book does not know yet become an entry, however many drivers deliver at the pin.
    for (const d of honest) await delivered(w, w.shipper, d, `N-${d.id}`, '9 New St', FAKE, true);
    expect(await loc(await probe('R-3', '9 New St'))).toMatchObject({ source: 'suburb', address_book: null });
  }, 120_000);

  it("a shipper's parcel shows only what concerns it: not whether, how often or where the courier delivered there for others", async () => {
    const w = await locateWorld();
    const rival = await rivalOf(w);
    let n = 0;
    for (const d of [await w.t.login('driver'), await w.t.login('driver'), await w.t.login('driver')]) {
      await delivered(w, w.shipper, d, `S-${n++}`, '7 Hall St', HONEST);
    }
    const p = await w.t.json<Pkg>('POST', '/api/package/', rival.token, { hawb: 'RV-1', customer_address: '7 Hall St', postcode: 2026 });
    const seen = await w.t.json<PackageLocation>('GET', `/api/package/${p.body.id}/location/`, rival.token);
    expect(seen.status).toBe(200);
    // As if the book had no entry: Bondi's own point, suburb precision, no book.
    expect(seen.body).toMatchObject({ address_book: null, source: 'suburb', precision: 'suburb', latitude: -33.8915, longitude: 151.2767 });
    const control = await w.t.json<Pkg>('POST', '/api/package/', rival.token, {
      hawb: 'RV-2',
      customer_address: '8 Hall St',
      postcode: 2026,
    });
    const unknown = (await w.t.json<PackageLocation>('GET', `/api/package/${control.body.id}/location/`, rival.token)).body;
    expect({ ...seen.body, package: 0, hawb: '', customer_address: '', resolved_at: null }).toEqual({
      ...unknown,
      package: 0,
      hawb: '',
      customer_address: '',
      resolved_at: null,
    });
    const badges = await w.t.json<{ results: Json[] }>('GET', `/api/package/locations/?ids=${p.body.id}`, rival.token);
    expect(badges.body.results).toEqual([{ package: p.body.id, precision: 'suburb', source: 'suburb', pending: false }]);
    // The office still sees where the book places it (and the driver is sent there).
    const office = (await w.t.json<PackageLocation>('GET', `/api/package/${p.body.id}/location/`, w.admin.token)).body;
    expect(office).toMatchObject({ source: 'address_book', precision: 'exact', address_book: { samples: 3 } });
  });

  it("a sender's Package answers (one, list, export, feed, history) never carry the book's point; the office and the parcel's driver see it", async () => {
    const w = await locateWorld();
    const rival = await rivalOf(w);
    const drivers = [await w.t.login('driver'), await w.t.login('driver'), await w.t.login('driver')];
    let n = 0;
    for (const d of drivers) await delivered(w, w.shipper, d, `A-${n++}`, '7 Hall St', HONEST);
    // Bondi's own point (master data): what a parcel to an address the book does not know shows.
    const BONDI = { latitude: -33.8915, longitude: 151.2767 };
    const own = (p: Pkg) => ({ latitude: p.latitude, longitude: p.longitude, coordinates: p.coordinates });
    const bondi = { ...BONDI, coordinates: BONDI };

    // The attack: the rival sends a parcel to an address others were delivered to, and reads it every way it can.
    const made = await w.t.json<Pkg>('POST', '/api/package/', rival.token, { hawb: 'RV-9', customer_address: '7 Hall St', postcode: 2026 });
    expect(made.status).toBe(201);
    const id = made.body.id;
    expect(own(made.body)).toEqual(bondi);
    expect(own((await w.t.json<Pkg>('GET', `/api/package/${id}/`, rival.token)).body)).toEqual(bondi);
    const list = await w.t.json<{ results: Pkg[] }>('GET', '/api/package/?search=RV-9', rival.token);
    expect(list.body.results.map(own)).toEqual([bondi]);
    const csv = await (await w.t.call('GET', '/api/package/csv-download/', rival.token)).text();
    expect(csv).not.toContain(String(HONEST.latitude));
    expect(csv).toContain(String(BONDI.latitude));
    const feed = await w.t.json<{ upserts: { packages: Pkg[] } }>('GET', '/api/sync/changes/?cursor=0&limit=1000', rival.token);
    expect(feed.body.upserts.packages.filter((p) => p.id === id).map(own)).toEqual([bondi]);

    // The office sees where the book places it, and the driver is sent there.
    const book = (p: Pkg) => [p.latitude, p.longitude].map((v) => Number(v).toFixed(3));
    const placed = [HONEST.latitude.toFixed(3), HONEST.longitude.toFixed(3)];
    expect(book((await w.t.json<Pkg>('GET', `/api/package/${id}/`, w.admin.token)).body)).toEqual(placed);
    const driver = drivers[0];
    expect(
      (await w.t.json('POST', '/api/assign-package/assign-driver/', w.admin.token, { driver: driver.id, packages: [id] })).status,
    ).toBe(200);
    expect(book((await w.t.json<Pkg>('GET', `/api/package/${id}/`, driver.token)).body)).toEqual(placed);
    const loc = await w.t.json<PackageLocation>('GET', `/api/package/${id}/location/`, driver.token);
    expect(loc.body).toMatchObject({ source: 'address_book', address_book: null });

    // An office pin for the address moves the rival's open parcel too: the rival still sees its own point, and
    // its parcel's history does not give the pin's position either.
    const shippers = await w.t.json<Pkg>('POST', '/api/package/', w.shipper.token, {
      hawb: 'SP-1',
      customer_address: '7 Hall St',
      postcode: 2026,
    });
    const PIN = { latitude: -33.8899, longitude: 151.2701 };
    expect((await w.t.json('PUT', `/api/package/${shippers.body.id}/location/`, w.admin.token, PIN)).status).toBe(200);
    expect((await w.t.json<Pkg>('GET', `/api/package/${id}/`, w.admin.token)).body.latitude).toBe(PIN.latitude);
    expect(own((await w.t.json<Pkg>('GET', `/api/package/${id}/`, rival.token)).body)).toEqual(bondi);
    const story = await w.t.json<{ package: Pkg; events: { action: string; latitude: number | null }[] }>(
      'GET',
      `/api/history/${id}/`,
      rival.token,
    );
    expect(story.status).toBe(200);
    expect(own(story.body.package)).toEqual(bondi);
    const pinned = story.body.events.filter((e) => e.action === 'location_pinned');
    expect(pinned.length).toBe(1);
    expect(pinned[0]!.latitude).toBeNull();
    expect(JSON.stringify(story.body)).not.toContain(String(PIN.latitude));
  }, 120_000);
});
