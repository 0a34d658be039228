/**
 * Issue 36 in real Chromium (Australia/Sydney, en-AU): geography is created from the browser
 * through forms built from the zod schemas (Name, Currency, Country... all present), and every admin
 * page fits a 390 px phone without sideways scrolling.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { navFor } from '../../client/app/nav';
import {
  PHONE,
  DESKTOP,
  browsers,
  buildPwa,
  hasChromium,
  login,
  screenshot,
  startServer,
  type Browser,
  type Seeded,
  type TestServer,
  SYDNEY,
} from './harness';

/** The page has drawn its content: a heading in main, nothing still loading. */
async function settled(page: Page, route: string): Promise<void> {
  // The depot's scanning station has a layout of its own: the page's text, not the admin shell's main.
  await page
    .waitForFunction(
      () => ((document.querySelector('main') ?? document.querySelector('#app') ?? document.body).textContent ?? '').trim() !== '',
      undefined,
      { timeout: 20_000 },
    )
    .catch(() => {
      throw new Error(`${route} drew nothing`);
    });
  // Lists still loading are given time to arrive (a page that keeps a spinner, like a camera wait, is measured as it is).
  await page.waitForFunction(() => !document.querySelector('.loader'), undefined, { timeout: 10_000 }).catch(() => undefined);
}

describe.skipIf(!hasChromium)('the office sets itself up from the browser (Chromium)', () => {
  let srv: TestServer;
  let br: Browser;
  let admin: Seeded;
  let parcel: number;

  beforeAll(async () => {
    const dist = await buildPwa();
    srv = await startServer(dist);
    admin = await srv.addUser('super_admin', { name: 'Sam Setup', email: 'sam-setup@example.com' });
    const co = await srv.addCompany('Harbour Parts', 'HARB');
    parcel = (
      await srv.api<{ id: number }>(admin, 'POST', 'package/', {
        hawb: 'SETUP-1',
        company: co,
        customer_name: 'Rita Recipient',
        customer_phone: '0417 123 456',
        recipient_email: 'rita@example.com',
      })
    ).body.id;
    br = browsers();
  }, 300_000);

  afterAll(async () => {
    await br?.close();
    await srv?.close();
  });

  it('creates a country, state, city, zone, suburb and postcode through the generated forms', async () => {
    const ctx = await br.context(DESKTOP, SYDNEY);
    const page = await ctx.newPage();
    await login(page, srv.url, admin);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const create = async (route: string, singular: string, fill: (dialog: ReturnType<Page['getByRole']>) => Promise<void>) => {
      await page.goto(`${srv.url}/#/r/${route}`);
      await page
        .getByRole('button', { name: `New ${singular}` })
        .first()
        .click();
      const dialog = page.getByRole('dialog');
      await fill(dialog);
      await dialog.getByRole('button', { name: `Create ${singular}` }).click();
      await page
        .getByText(new RegExp(`${singular} created`, 'i'))
        .first()
        .waitFor({ timeout: 15_000 });
    };
    const choose = async (dialog: ReturnType<Page['getByRole']>, name: string, option: string) => {
      const select = dialog.locator(`select[name="${name}"]`);
      await select.locator('option', { hasText: option }).first().waitFor({ state: 'attached' });
      await select.selectOption({ label: (await select.locator('option', { hasText: option }).first().textContent()) ?? option });
    };
    await create('country', 'country', async (d) => {
      // Submitting empty marks the required fields by name instead of a bare "correct the marked fields".
      await d.getByRole('button', { name: 'Create country' }).click();
      await expect.poll(() => d.locator('[aria-invalid="true"]').count()).toBeGreaterThanOrEqual(2);
      await d.locator('[name="name"]').fill('Australia');
      await d.locator('[name="iso2"]').fill('AU');
      await d.locator('[name="currency"]').fill('aud');
    });
    await create('state', 'state', async (d) => {
      await d.locator('[name="name"]').fill('New South Wales');
      await d.locator('[name="code"]').fill('NSW');
      await choose(d, 'country', 'Australia');
    });
    await create('city', 'city', async (d) => {
      await d.locator('[name="name"]').fill('Sydney');
      await choose(d, 'state', 'New South Wales');
    });
    await create('zone', 'zone', async (d) => {
      await d.locator('[name="name"]').fill('Eastern Suburbs');
      await d.locator('[name="code"]').fill('EAST');
    });
    await create('suburb', 'suburb', async (d) => {
      await d.locator('[name="name"]').fill('Bondi');
      await choose(d, 'state', 'New South Wales');
      await choose(d, 'zone', 'Eastern Suburbs');
      await d.locator('[name="postcode"]').fill('2026');
    });
    await create('pincode', 'postcode', async (d) => {
      await d.locator('[name="code"]').fill('2026');
      await choose(d, 'suburb', 'Bondi');
    });
    const suburbs = await srv.api<{ results: { name: string; zone_name: string | null; postcode: string }[] }>(admin, 'GET', 'suburb/');
    expect(suburbs.body.results).toEqual([expect.objectContaining({ name: 'Bondi', zone_name: 'Eastern Suburbs', postcode: '2026' })]);
    await ctx.close();
  }, 120_000);

  it("setup screens: checklist, a vehicle, a depot on the map, a week of shifts, the parcel's tracking link and messages", async () => {
    const driver = await srv.addUser('driver', { name: 'Wes Weekday', email: 'wes-setup@example.com' });
    const depot = await srv.api<{ id: number }>(admin, 'POST', 'warehouse/', {
      name: 'Alexandria depot',
      street_address: '1 Bourke Rd',
      suburb: 'Alexandria',
      state: 'NSW',
      postcode: '2015',
    });
    expect(depot.status).toBe(201);
    srv.deps.config.publicUrl = srv.url;
    const ctx = await br.context(DESKTOP, SYDNEY);
    const page = await ctx.newPage();
    await login(page, srv.url, admin);
    const checklist = page.getByTestId('setup-checklist');
    await checklist.waitFor();
    expect(await checklist.locator('[data-step="depot"]').getAttribute('data-done')).toBe('false');
    expect(await checklist.locator('[data-step="drivers"]').getAttribute('data-done')).toBe('true');
    expect(await checklist.locator('[data-step="parcel"]').getAttribute('data-done')).toBe('true');

    await page.goto(`${srv.url}/#/r/vehicle`);
    await page.getByRole('button', { name: 'New vehicle' }).first().click();
    await page.getByRole('dialog').locator('[name="name"]').fill('Van 1');
    await page.getByRole('dialog').locator('[name="registration"]').fill('CX 12 AB');
    await page.getByRole('dialog').getByRole('button', { name: 'Create vehicle' }).click();
    await page
      .getByText(/Vehicle created/)
      .first()
      .waitFor();

    await page.goto(`${srv.url}/#/fleet/depots`);
    await page.locator('[name="latitude"]').fill('-33.9105');
    await page.locator('[name="longitude"]').fill('151.1932');
    await page.getByRole('button', { name: 'Save position' }).click();
    await page
      .getByText(/is on the map/)
      .first()
      .waitFor();
    const placed = await srv.api<{ results: { warehouse: number; latitude: number | null }[] }>(admin, 'GET', 'dispatch/depot/');
    expect(placed.body.results.find((d) => d.warehouse === depot.body.id)?.latitude).toBeCloseTo(-33.9105, 4);

    await page.goto(`${srv.url}/#/fleet/shifts`);
    const pick = async (name: string, label: string) => {
      const select = page.locator(`select[name="${name}"]`);
      await select.locator('option', { hasText: label }).first().waitFor({ state: 'attached' });
      await select.selectOption({ label: (await select.locator('option', { hasText: label }).first().textContent()) ?? label });
    };
    await pick('driver', 'Wes Weekday');
    await pick('vehicle', 'Van 1');
    await page.getByRole('button', { name: 'Create shifts' }).click();
    await expect.poll(() => page.getByTestId('week-shifts').locator('tbody tr').count(), { timeout: 20_000 }).toBe(5);
    const shifts = await srv.api<{ results: { driver: number; vehicle_name: string | null }[] }>(
      admin,
      'GET',
      `driver-shift/?driver=${driver.id}`,
    );
    expect(shifts.body.results.filter((r) => r.vehicle_name === 'Van 1')).toHaveLength(5);

    await page.goto(`${srv.url}/#/`);
    await expect.poll(() => page.getByTestId('setup-checklist').locator('[data-step="depot"]').getAttribute('data-done')).toBe('true');

    await page.goto(`${srv.url}/#/packages/${parcel}`);
    await page.getByRole('button', { name: 'Copy tracking link' }).click();
    await page.getByTestId('tracking-link-note').waitFor();
    expect(await page.getByTestId('tracking-link').inputValue()).toMatch(new RegExp(`^${srv.url}/track\\.html#[A-Za-z0-9_-]{32}`));
    await page
      .getByTestId('message-log')
      .getByText(/No messages yet/)
      .waitFor();
    await screenshot(page, 'office-setup-parcel');
    await ctx.close();
  }, 180_000);

  it('every admin page fits 390 px: no sideways scrolling, Log out on screen', async () => {
    const ctx = await br.context(PHONE, SYDNEY);
    const page = await ctx.newPage();
    await login(page, srv.url, admin);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const routes = [...navFor('super_admin').map((i) => i.href), `/packages/${parcel}`, '/r/country/archive'];
    const wide: { route: string; width: number; culprit: string }[] = [];
    for (const route of routes) {
      await page.goto(`${srv.url}/#${route}`);
      await settled(page, route);
      const m = await page.evaluate(() => {
        const width = document.documentElement.scrollWidth;
        // The innermost element sticking out (the last in document order), to name in a failure.
        let culprit = '';
        for (const el of document.querySelectorAll<HTMLElement>('body *')) {
          const r = el.getBoundingClientRect();
          if (r.right > 390.5 && r.width > 0) culprit = `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
        }
        const out = document.querySelector('.topbar .logout')?.getBoundingClientRect();
        return { width, culprit, logoutRight: out ? out.right : 0 };
      });
      if (m.width > 390 || m.logoutRight > 390) wide.push({ route, width: m.width, culprit: m.culprit });
    }
    if (wide.length) await screenshot(page, 'office-setup-too-wide');
    expect(wide).toEqual([]);
    await ctx.close();
  }, 240_000);
});
