/**
 * Issue 36, section 4 in real Chromium: the office sees why a placed parcel needs a look (a place its
 * postcode does not cover), sees what the shipper wrote, corrects the suburb and postcode from
 * master data's suggestions, and the Price and Location cards follow the save without a reload.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { area, company, country, state, street, suburb, zone } from '../../server/db/schema/index';
import {
  DESKTOP,
  browsers,
  buildPwa,
  hasChromium,
  login,
  type Browser,
  type Seeded,
  type TestServer,
  startServer,
  SYDNEY,
} from './harness';

describe.skipIf(!hasChromium)('fixing places from the browser (Chromium)', () => {
  let srv: TestServer;
  let br: Browser;
  let admin: Seeded;
  let parcel: number;

  beforeAll(async () => {
    const dist = await buildPwa();
    srv = await startServer(dist);
    admin = await srv.addUser('super_admin', { name: 'Pat Places', email: 'pat-places@example.com' });
    const co = await srv.addCompany('Harbour Parts', 'HARB');
    // Billed monthly: the parcel is charged on account, whatever its price.
    await srv.db.update(company).set({ billing_type: 'postpaid' }).where(eq(company.id, co)).run();
    const now = Date.now();
    const stamp = { created_at: now, updated_at: now };
    const au = (
      await srv.db
        .insert(country)
        .values({ name: 'Australia', currency: 'AUD', ...stamp })
        .returning()
        .get()
    ).id;
    const nsw = (
      await srv.db
        .insert(state)
        .values({ name: 'NSW', country_id: au, ...stamp })
        .returning()
        .get()
    ).id;
    const city = (
      await srv.db
        .insert(zone)
        .values({ name: 'City', ...stamp })
        .returning()
        .get()
    ).id;
    const east = (
      await srv.db
        .insert(zone)
        .values({ name: 'East', ...stamp })
        .returning()
        .get()
    ).id;
    const sydney = (
      await srv.db
        .insert(suburb)
        .values({ name: 'Sydney', state_id: nsw, zone_id: city, postcode: '2000', latitude: -33.87, longitude: 151.21, ...stamp })
        .returning()
        .get()
    ).id;
    await srv.db
      .insert(suburb)
      .values({ name: 'Bondi', state_id: nsw, zone_id: east, postcode: '2026', latitude: -33.89, longitude: 151.27, ...stamp })
      .run();
    const cbd = (
      await srv.db
        .insert(area)
        .values({ name: 'CBD', suburb_id: sydney, ...stamp })
        .returning()
        .get()
    ).id;
    await srv.db
      .insert(street)
      .values({ name: 'George Street', area_id: cbd, latitude: -33.868, longitude: 151.207, ...stamp })
      .run();
    for (const [z, base] of [
      [city, 700],
      [east, 900],
    ] as const)
      expect((await srv.api(admin, 'POST', 'delivery-rate/', { zone: z, base_cents: base, currency: 'AUD' })).status).toBe(201);
    // "Bondi" with Sydney's postcode: the street places it in Sydney, at Sydney's price, and flags it.
    const made = await srv.api<{ id: number; price: number }>(admin, 'POST', 'package/', {
      hawb: 'PLACE-1',
      company: co,
      customer_name: 'Rita Recipient',
      customer_address: '200 George St',
      postcode: 2000,
      postcode_name: 'Bondi',
      weight: 1,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.price).toBe(7);
    parcel = made.body.id;
    br = browsers();
  }, 300_000);

  afterAll(async () => {
    await br?.close();
    await srv?.close();
  });

  it('lists the parcel with its reason, shows what the shipper wrote, corrects it from suggestions, and the cards follow', async () => {
    const ctx = await br.context(DESKTOP, SYDNEY);
    const page = await ctx.newPage();
    await login(page, srv.url, admin);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

    await page.goto(`${srv.url}/#/packages/review`);
    const reason = page.getByTestId('review-reason').first();
    await reason.waitFor({ timeout: 15_000 });
    expect(await reason.textContent()).toContain('"Bondi 2000"');

    await page.goto(`${srv.url}/#/packages/${parcel}`);
    const details = page.locator('dl.dl').first();
    await details.getByText('Place (as the shipper wrote it)').waitFor({ timeout: 15_000 });
    await expect.poll(() => details.textContent()).toContain('Bondi');
    const price = page.getByTestId('pricing-card');
    await expect.poll(() => price.textContent(), { timeout: 15_000 }).toContain('$7.00');
    await page.getByTestId('location-review').waitFor({ timeout: 15_000 });

    await page.getByRole('button', { name: 'Correct details' }).click();
    const dialog = page.getByRole('dialog');
    const field = dialog.getByTestId('place-field');
    await field.fill('Bondi');
    // Master data's suggestions arrive in the field's list; the office picks "Bondi 2026, NSW".
    await expect
      .poll(() => dialog.locator('#place-suggestions option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)), {
        timeout: 15_000,
      })
      .toContain('Bondi 2026, NSW');
    await field.fill('Bondi 2026, NSW');
    await expect.poll(() => dialog.locator('input[name="postcode"]').inputValue()).toBe('2026');
    await dialog.getByTestId('package-save').click();
    await dialog.waitFor({ state: 'detached', timeout: 15_000 });

    // Without a reload: the Price card says what Details says, and the Location card has no flag left.
    await expect.poll(() => price.textContent(), { timeout: 15_000 }).toContain('$9.00');
    await expect.poll(() => details.textContent()).toMatch(/Suburb\s*Bondi/);
    await expect.poll(() => page.getByTestId('location-review').count(), { timeout: 15_000 }).toBe(0);
    await ctx.close();
  }, 120_000);
});
