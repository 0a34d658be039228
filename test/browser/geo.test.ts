/**
 * Issue 16 in real Chromium against the real server: an office user uploads parcels whose
 * addresses name master-data suburbs, sees how precisely each is placed, reviews the rough ones,
 * and drags a pin on the package map (the address book then places later parcels there).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { area, company, country, state, street, suburb, zone } from '../../server/db/schema/index';
import {
  DESKTOP,
  PHONE,
  TABLET,
  browsers,
  buildPwa,
  hasChromium,
  login,
  screenshot,
  startServer,
  type Browser,
  type Seeded,
  type TestServer,
} from './harness';

describe.skipIf(!hasChromium)('parcel locations in Chromium', () => {
  let srv: TestServer;
  let br: Browser;
  let admin: Seeded;
  let co: number;
  let east: number;

  beforeAll(async () => {
    const dist = await buildPwa();
    srv = await startServer(dist);
    admin = await srv.addUser('admin', { name: 'Olive Office', email: 'olive@example.com' });
    co = await srv.addCompany('Acme Parts', 'ACME');
    await srv.db.update(company).set({ billing_type: 'postpaid' }).where(eq(company.id, co)).run();
    const now = Date.now();
    const au = (
      await srv.db.insert(country).values({ name: 'Australia', currency: 'AUD', created_at: now, updated_at: now }).returning().get()
    ).id;
    const nsw = (await srv.db.insert(state).values({ name: 'NSW', country_id: au, created_at: now, updated_at: now }).returning().get()).id;
    east = (await srv.db.insert(zone).values({ name: 'East', created_at: now, updated_at: now }).returning().get()).id;
    const city = (await srv.db.insert(zone).values({ name: 'City', created_at: now, updated_at: now }).returning().get()).id;
    const bondi = (
      await srv.db
        .insert(suburb)
        .values({
          name: 'Bondi',
          postcode: '2026',
          zone_id: east,
          state_id: nsw,
          latitude: -33.8915,
          longitude: 151.2767,
          created_at: now,
          updated_at: now,
        })
        .returning()
        .get()
    ).id;
    await srv.db
      .insert(suburb)
      .values({
        name: 'Sydney',
        postcode: '2000',
        zone_id: city,
        state_id: nsw,
        latitude: -33.8688,
        longitude: 151.2093,
        created_at: now,
        updated_at: now,
      })
      .run();
    await srv.db
      .insert(suburb)
      .values({
        name: 'Haymarket',
        postcode: '2000',
        zone_id: city,
        state_id: nsw,
        latitude: -33.8793,
        longitude: 151.2049,
        created_at: now,
        updated_at: now,
      })
      .run();
    const beach = (
      await srv.db.insert(area).values({ name: 'Bondi Beach', suburb_id: bondi, created_at: now, updated_at: now }).returning().get()
    ).id;
    await srv.db
      .insert(street)
      .values({ name: 'Campbell Pde', area_id: beach, latitude: -33.8908, longitude: 151.2743, created_at: now, updated_at: now })
      .run();
    expect((await srv.api(admin, 'POST', 'delivery-rate/', { name: 'East', zone: east, base_cents: 1800, currency: 'AUD' })).status).toBe(
      201,
    );
    br = browsers();
  }, 400_000);

  afterAll(async () => {
    await br?.close();
    await srv?.close();
  });

  it('uploads a CSV, sees precision badges, reviews rough parcels and drags a pin on the package map', async () => {
    const ctx = await br.context(DESKTOP);
    const page = await ctx.newPage();
    await login(page, srv.url, admin);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const csv = [
      'hawb,customer_name,customer_address,postcode,postcode_name',
      'LOC-1,Ann,12 Campbell Pde,2026,Bondi',
      'LOC-2,Bob,3 Hall St,2026,Bondi',
      'LOC-3,Cy,1 George St,2000,',
      'LOC-4,Di,9 Hay St,2000,Haymarket',
    ].join('\n');
    await page.goto(`${srv.url}/#/packages/upload`);
    await page.getByRole('heading', { name: 'Upload packages' }).waitFor();
    await page.locator('input[type=file]').setInputFiles({ name: 'parcels.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByLabel('Company').selectOption(String(co));
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByTestId('upload-locations').waitFor({ timeout: 30_000 });
    await screenshot(page, 'geo-upload');
    expect(await page.getByTestId('counter-created').textContent()).toBe('4');

    // The list: a Location badge per parcel.
    await page.goto(`${srv.url}/#/packages`);
    await page.getByText('LOC-1').first().waitFor();
    const row = (h: string) => page.locator('tr', { hasText: h });
    await row('LOC-1').getByText('Street').waitFor();
    await row('LOC-2').getByText('Suburb only').waitFor();
    await row('LOC-3').getByText('Postcode only').waitFor();
    await screenshot(page, 'geo-list');

    // The review list holds the rough ones only.
    await page.getByRole('link', { name: 'Review locations' }).click();
    await page.getByRole('heading', { name: 'Locations to review' }).waitFor();
    await page.getByText('3 parcel(s)').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(3);
    await screenshot(page, 'geo-review');

    // Open LOC-2 (suburb only): a map with its pin; drag the pin to the door.
    await row('LOC-2').getByRole('link', { name: 'LOC-2' }).click();
    const card = page.getByTestId('location-card');
    await card.waitFor();
    const pin = card.locator('.map-divicon').first();
    await pin.waitFor({ timeout: 20_000 });
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'geo-detail-before');
    const box = await pin.boundingBox();
    if (!box) throw new Error('the pin has no box');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 - 30, { steps: 8 });
    await page.mouse.up();
    await card.getByText('Exact').waitFor({ timeout: 15_000 });
    await card.getByText(/pin placed by the office/).waitFor();
    await screenshot(page, 'geo-detail-pinned');
    const list = await srv.api<{ results: { hawb: string; source: string; latitude: number }[] }>(admin, 'GET', 'package/location-review/');
    expect(list.body.results.map((r) => r.hawb)).toEqual(['LOC-3', 'LOC-4']);
    // The next parcel to that address is placed at the pin.
    const next = await srv.api<{ id: number; latitude: number; zone: number }>(admin, 'POST', 'package/', {
      hawb: 'LOC-5',
      company: co,
      customer_address: '3 Hall Street',
      postcode: 2026,
    });
    const loc = await srv.api<{ source: string; precision: string; latitude: number }>(admin, 'GET', `package/${next.body.id}/location/`);
    expect(loc.body).toMatchObject({ source: 'office', precision: 'exact' });
    expect(loc.body.latitude).not.toBe(-33.8915);
    expect(next.body.zone).toBe(east);
    await ctx.close();

    for (const size of [TABLET, PHONE]) {
      const c = await br.context(size);
      const p = await c.newPage();
      await login(p, srv.url, admin);
      await p.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await p.goto(`${srv.url}/#/packages/review`);
      await p.getByRole('heading', { name: 'Locations to review' }).waitFor();
      await p.getByText('2 parcel(s)').waitFor();
      await screenshot(p, 'geo-review');
      await p.goto(`${srv.url}/#/packages/${next.body.id}`);
      await p.getByTestId('location-card').locator('.map-divicon').first().waitFor({ timeout: 20_000 });
      await p.getByTestId('location-card').scrollIntoViewIfNeeded();
      await screenshot(p, 'geo-detail');
      await c.close();
    }
  }, 180_000);
});
