/**
 * Issue 36's "done means": a newcomer's setup, from an empty database to a first delivered and billed
 * parcel, in Chromium (Australia/Sydney, en-AU), without one API call from the test. The only thing
 * not done through a browser is the first super admin, which the README's first command creates
 * (scripts/admin.ts) and the test seeds as that command would. Everything else is clicks and typing:
 * business profile, a depot and its pin, geography, a rate card, a driver with a vehicle and a week of
 * shifts, a shipper, a parcel, its label; the driver delivers it on the phone; the office bills it.
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  DESKTOP,
  PHONE,
  browsers,
  buildPwa,
  hasChromium,
  login,
  screenshot,
  startServer,
  type Browser,
  type TestServer,
  SYDNEY,
} from './harness';
import { drawSignature } from './driverKit';
import { mediaDir, photoJpeg } from './fixtures/media';

const run = promisify(execFile);
const DRIVER_PASSWORD = 'first-driver-pass-1';

/** Picks the option whose text contains `label` once the list has loaded it. */
async function choose(scope: Page | Locator, name: string, label: string): Promise<void> {
  const select = scope.locator(`select[name="${name}"]`);
  const option = select.locator('option', { hasText: label }).first();
  await option.waitFor({ state: 'attached' });
  await select.selectOption({ label: (await option.textContent()) ?? label });
}

describe.skipIf(!hasChromium)("a newcomer's first day, from an empty database to a billed delivery (Chromium, no API calls)", () => {
  let srv: TestServer;
  let br: Browser;
  let media: string;

  beforeAll(async () => {
    const dist = await buildPwa();
    srv = await startServer(dist, { publicUrl: true });
    media = mediaDir();
    br = browsers();
  }, 300_000);

  afterAll(async () => {
    await br?.close();
    await srv?.close();
    if (media) rmSync(media, { recursive: true, force: true });
  });

  it('sets up the office in the browser, the driver delivers on the phone, the parcel is priced and billed', async () => {
    await firstDay().catch(async (err: unknown) => {
      for (const p of shown) await screenshot(p, `newcomer-failed-${shown.indexOf(p)}`).catch(() => undefined);
      throw err;
    });
  }, 240_000);

  /** Pages open, for a screenshot of where a failure happened. */
  const shown: Page[] = [];
  async function firstDay(): Promise<void> {
    // The README's first command: one super admin. Nothing else is in the database.
    const owner = await srv.addUser('super_admin', { name: 'Olive Owner', email: 'olive@harbour.example' });
    const ctx = await br.context({ width: 1280, height: DESKTOP.height }, SYDNEY);
    const page = await ctx.newPage();
    shown.push(page);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await login(page, srv.url, owner);
    const checklist = page.getByTestId('setup-checklist');
    await checklist.waitFor();
    expect(await checklist.locator('[data-done="true"]').count()).toBe(0);
    await screenshot(page, 'newcomer-01-empty-dashboard');

    const toast = (text: RegExp) => page.getByText(text).first().waitFor({ timeout: 15_000 });
    const create = async (route: string, singular: string, fill: (d: Locator) => Promise<void>) => {
      await page.goto(`${srv.url}/#/r/${route}`);
      await page
        .getByRole('button', { name: `New ${singular.toLowerCase()}` })
        .first()
        .click();
      const dialog = page.getByRole('dialog');
      await fill(dialog);
      await dialog.getByRole('button', { name: `Create ${singular.toLowerCase()}` }).click();
      await toast(new RegExp(`${singular} created`, 'i'));
    };

    // 1. Business profile: the names labels and tax invoices print.
    await page.goto(`${srv.url}/#/settings/business-profile`);
    await page.getByLabel('Legal name').fill('Harbour Express Pty Ltd');
    await page.getByLabel('Trading name').fill('Harbour Express');
    await page.getByLabel('ABN').fill('51 824 753 556');
    await page.getByLabel('Address').fill('1 Bourke Rd, Alexandria NSW 2015');
    await page.getByRole('button', { name: /^Save/ }).click();
    await toast(/saved/i);

    // 2. Geography, typed in: country, state, zone, suburb with its postcode.
    await create('country', 'Country', async (d) => {
      await d.locator('[name="name"]').fill('Australia');
      await d.locator('[name="iso2"]').fill('AU');
      await d.locator('[name="currency"]').fill('AUD');
    });
    await create('state', 'State', async (d) => {
      await d.locator('[name="name"]').fill('New South Wales');
      await d.locator('[name="code"]').fill('NSW');
      await choose(d, 'country', 'Australia');
    });
    await create('zone', 'Zone', async (d) => {
      await d.locator('[name="name"]').fill('Eastern Suburbs');
      await d.locator('[name="code"]').fill('EAST');
    });
    await create('suburb', 'Suburb', async (d) => {
      await d.locator('[name="name"]').fill('Bondi');
      await choose(d, 'state', 'New South Wales');
      await choose(d, 'zone', 'Eastern Suburbs');
      await d.locator('[name="postcode"]').fill('2026');
      // Its centre: with no geocoding server, parcels are placed at their suburb's point.
      await d.locator('[name="latitude"]').fill('-33.8915');
      await d.locator('[name="longitude"]').fill('151.2767');
    });

    // 3. A depot, and its pin on the map.
    await create('warehouse', 'Warehouse', async (d) => {
      await d.locator('[name="name"]').fill('Alexandria depot');
      await d.locator('[name="street_address"]').fill('1 Bourke Rd');
      await d.locator('[name="suburb"]').fill('Alexandria');
      await d.locator('[name="state"]').fill('NSW');
      await d.locator('[name="postcode"]').fill('2015');
    });
    await page.goto(`${srv.url}/#/fleet/depots`);
    await page.locator('[name="latitude"]').fill('-33.9105');
    await page.locator('[name="longitude"]').fill('151.1932');
    await page.getByRole('button', { name: 'Save position' }).click();
    await toast(/is on the map/);

    // 4. A rate card: one line on the default card, any zone.
    await page.goto(`${srv.url}/#/money/rate-cards`);
    await page.getByRole('button', { name: 'Add line' }).click();
    const line = page.getByRole('dialog');
    await line.getByLabel('Base price').fill('9.90');
    await line.getByRole('button', { name: 'Add line' }).click();
    await page.getByRole('cell', { name: /9\.90/ }).first().waitFor();

    // 5. A driver (with a password to sign in on the phone), a van, and a week of shifts.
    await create('employee', 'Employee', async (d) => {
      await d.locator('[name="name"]').fill('Dana Driver');
      await d.locator('[name="email"]').fill('dana@harbour.example');
      await choose(d, 'role', 'Driver');
      await d.locator('[name="password"]').fill(DRIVER_PASSWORD);
    });
    await create('vehicle', 'Vehicle', async (d) => {
      await d.locator('[name="name"]').fill('Van 1');
      await d.locator('[name="registration"]').fill('CX 12 AB');
    });
    await page.goto(`${srv.url}/#/fleet/shifts`);
    await choose(page, 'driver', 'Dana Driver');
    await choose(page, 'vehicle', 'Van 1');
    await page.getByRole('button', { name: 'Create shifts' }).click();
    await expect.poll(() => page.getByTestId('week-shifts').locator('tbody tr').count(), { timeout: 20_000 }).toBeGreaterThan(0);

    // 6. A shipper, billed monthly.
    await create('company', 'Company', async (d) => {
      await d.locator('[name="name"]').fill('Bondi Books');
      await d.locator('[name="email"]').fill('orders@bondibooks.example');
      await d.locator('[name="code"]').fill('BONDI');
      await choose(d, 'billing_type', 'postpaid');
    });

    // 7. A test parcel, then every step of the checklist is ticked and it goes away.
    await page.goto(`${srv.url}/#/packages`);
    await page.getByRole('button', { name: 'New package' }).click();
    const form = page.getByRole('dialog');
    await choose(form, 'company', 'Bondi Books');
    await form.locator('[name="hawb"]').fill('FIRST-0001');
    await form.locator('[name="customer_name"]').fill('Rita Reader');
    await form.locator('[name="customer_phone"]').fill('0417 123 456');
    await form.locator('[name="recipient_email"]').fill('rita@example.com');
    await form.locator('[name="customer_address"]').fill('5 Campbell Pde');
    await form.locator('[name="postcode"]').fill('2026');
    await form.locator('[name="weight"]').fill('1.2');
    await screenshot(page, 'newcomer-02-new-parcel');
    await page.getByTestId('package-save').click();
    await toast(/Package FIRST-0001 created/);
    await page.waitForURL(/#\/packages\/\d+$/);
    const parcelUrl = page.url();
    // Priced from the card as soon as it exists.
    await page.getByText('$9.90').first().waitFor({ timeout: 15_000 });
    await page.goto(`${srv.url}/#/`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await expect.poll(() => page.getByTestId('setup-checklist').count(), { timeout: 15_000 }).toBe(0);
    await screenshot(page, 'newcomer-03-set-up');

    // 8. Assigned to the driver from the list.
    await page.goto(`${srv.url}/#/packages`);
    await page.getByLabel('Select all on this page').check();
    await page.getByTestId('selection-bar').getByRole('button', { name: 'Assign to driver' }).click();
    await choose(page.getByRole('dialog'), 'driver', 'Dana Driver');
    await page.getByRole('dialog').getByRole('button', { name: 'Assign' }).click();
    await page.getByRole('cell', { name: 'Dana Driver' }).waitFor({ timeout: 15_000 });

    // 9. The driver delivers it on the phone: photo, signature, name.
    const phoneCtx = await br.context(PHONE, SYDNEY);
    const phone = await phoneCtx.newPage();
    shown.push(phone);
    await phone.goto(`${srv.url}/#/driver`);
    await phone.getByLabel('E-mail').fill('dana@harbour.example');
    await phone.getByLabel('Password').fill(DRIVER_PASSWORD);
    await phone.getByRole('button', { name: 'Log in' }).click();
    await phone.getByTestId('stop-card').filter({ hasText: 'FIRST-0001' }).waitFor({ timeout: 30_000 });
    // Loaded onto the van by typing the label's code (the camera and a wedge scanner have their own tests).
    await phone.getByRole('link', { name: 'Scan parcels onto the van' }).click();
    await phone.getByPlaceholder('Type a code').fill('FIRST-0001');
    await phone.getByRole('button', { name: 'Add', exact: true }).click();
    await phone.getByTestId('scan-result').filter({ hasText: 'FIRST-0001' }).waitFor({ timeout: 15_000 });
    expect(await phone.getByTestId('scan-result').getAttribute('data-result')).toBe('loadable');
    await phone.locator('.drv-tabs').getByRole('link', { name: /Today/ }).click();
    await phone.getByRole('link', { name: 'Deliver', exact: true }).click();
    await phone.getByTestId('deliver-screen').waitFor();
    await phone.getByTestId('photo-input').setInputFiles(await photoJpeg(media, 'first-door', 'steelblue'));
    await phone.getByRole('img', { name: 'Photo 1' }).waitFor({ timeout: 20_000 });
    await drawSignature(phone);
    await phone.getByLabel('Received by').fill('Rita Reader');
    await screenshot(phone, 'newcomer-04-deliver');
    await phone.getByTestId('confirm-delivery').click();
    await phone.getByRole('button', { name: 'OK' }).click();
    await phone.locator('[data-testid=sync-chip][data-queued="0"]').waitFor({ timeout: 60_000 });
    await phone.locator('[data-testid=count-delivered]', { hasText: '1' }).waitFor();

    // 10. The office sees it delivered and priced, and bills the month.
    await page.goto(parcelUrl);
    await page
      .getByText(/Delivered/)
      .first()
      .waitFor({ timeout: 20_000 });
    await page.getByText('$9.90').first().waitFor();
    expect(await page.getByText('On van').count()).toBe(0);
    await screenshot(page, 'newcomer-05-delivered');
    await page.goto(`${srv.url}/#/money/invoices`);
    await page
      .getByRole('button', { name: /Generate/ })
      .first()
      .click();
    const gen = page.getByRole('dialog');
    await choose(gen, 'company', 'Bondi Books');
    const today = new Date().toISOString().slice(0, 10);
    await gen.getByLabel('From').fill(`${today.slice(0, 8)}01`);
    await gen.getByLabel('To').fill(today);
    await gen.getByRole('button', { name: 'Generate' }).click();
    // The statement opens: one line for the parcel, at the card's price; its PDF names the seller.
    await page.getByRole('heading', { name: /INV-\d{4}-\d+/ }).waitFor({ timeout: 20_000 });
    await page.getByRole('cell', { name: 'Delivery FIRST-0001' }).waitFor();
    expect(await page.getByRole('row', { name: /Delivery FIRST-0001/ }).textContent()).toContain('$9.90');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
    const pdf = join(media, 'statement.pdf');
    await download.saveAs(pdf);
    const text = (await run('pdftotext', ['-layout', pdf, '-'])).stdout.replace(/\s+/g, ' ');
    for (const words of ['TAX INVOICE', 'Harbour Express Pty Ltd', 'Bill to Bondi Books', 'Delivery FIRST-0001'])
      expect(text).toContain(words);
    await screenshot(page, 'newcomer-06-billed');
    expect(errors).toEqual([]);
    await phoneCtx.close();
    await ctx.close();
  }
});
