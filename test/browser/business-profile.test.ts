/**
 * Issue 18: the courier's business profile from the web. Real Chromium against the real server: an
 * admin opens Settings > Business profile, is stopped at the fields by a bad ABN, BSB and GST rate
 * (nothing saved), fixes them, saves, finds them again after a reload, and downloads a statement
 * whose tax-invoice PDF names the seller with those details. Desktop and phone screenshots.
 */
import { sqliteOf } from '../../server/db/client';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { company } from '../../server/db/schema/index';
import {
  PHONE,
  SCREENSHOTS,
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

const run = promisify(execFile);
const DESK = { width: 1280, height: 800 } as const;

async function waitText(page: Page, text: string | RegExp, timeout = 15_000): Promise<void> {
  await page.getByText(text).first().waitFor({ state: 'visible', timeout });
}

type Profile = Record<string, unknown>;

describe.skipIf(!hasChromium)('business profile settings (Chromium)', () => {
  let srv: TestServer;
  let br: Browser;
  let admin: Seeded;
  let supervisor: Seeded;
  let invoiceId: number;
  let invoiceNumber: string;

  beforeAll(async () => {
    const dist = await buildPwa();
    srv = await startServer(dist);
    admin = await srv.addUser('admin', { name: 'Pia Profile', email: 'pia.profile@example.com' });
    supervisor = await srv.addUser('supervisor', { name: 'Sam Super', email: 'sam.profile@example.com' });
    const co = await srv.addCompany('Acme Widgets', 'ACMEW');
    await srv.db.update(company).set({ billing_type: 'postpaid' }).where(eq(company.id, co)).run();
    expect((await srv.api(admin, 'POST', 'delivery-rate/', { base_cents: 1100, per_unit_cents: 0, currency: 'AUD' })).status).toBe(201);
    for (const hawb of ['BP-0001', 'BP-0002']) {
      expect((await srv.api(admin, 'POST', 'package/', { hawb, company: co, customer_name: `Customer ${hawb}` })).status).toBe(201);
    }
    const today = new Date().toISOString().slice(0, 10);
    const inv = await srv.api<{ id: number; number: string }>(admin, 'POST', 'invoice/generate-invoice/', {
      company: co,
      period_from: today,
      period_to: today,
    });
    expect(inv.status).toBe(201);
    invoiceId = inv.body.id;
    invoiceNumber = inv.body.number;
    br = browsers();
  }, 300_000);

  afterAll(async () => {
    await br?.close();
    await srv?.close();
  });

  it('admin is stopped at the fields, saves the profile, and the tax invoice PDF shows it', async () => {
    const ctx = await br.context(DESK);
    const page = await ctx.newPage();
    await login(page, srv.url, admin);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor({ timeout: 30_000 });
    // An invoice says what its PDF lacks and leads to the profile.
    await page.goto(`${srv.url}/#/money/invoices/${invoiceId}`);
    const notice = page.getByTestId('profile-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('The PDF prints without your legal name, ABN, payment details.');
    await screenshot(page, 'profile-invoice-notice');
    // Reached from the notice, and from the menu (Settings > Business profile).
    expect(await page.getByRole('link', { name: 'Business profile', exact: true }).getAttribute('href')).toBe(
      '#/settings/business-profile',
    );
    await notice.getByRole('link', { name: 'Set up the business profile' }).click();
    await page.getByRole('heading', { name: 'Business profile' }).waitFor();
    await waitText(page, 'Not set up yet');
    const preview = page.getByTestId('seller-preview');
    await preview.getByText('(business legal name not set)').waitFor();
    expect(await page.getByLabel('GST rate (%)').inputValue()).toBe('10');
    await screenshot(page, 'profile-empty');

    // Mistakes: a mistyped ABN digit, a 5-digit BSB, a GST rate with 3 decimals and a bad e-mail.
    await page.getByLabel('Legal name').fill('Swift Parcels Pty Ltd');
    await page.getByLabel('Trading name').fill('Swift Courier');
    await page.getByLabel('ABN').fill('51 824 753 557');
    await page.getByLabel('Accounts e-mail').fill('accounts@');
    await page.getByLabel('Address').fill('1 Depot Rd\nAlexandria NSW 2015');
    await page.getByLabel('BSB').fill('06200');
    await page.getByLabel('Account number').fill('1234 5678');
    await page.getByLabel('GST rate (%)').fill('10.125');
    await waitText(page, 'Unsaved changes');
    await page.getByTestId('profile-save').click();
    const errorOf = async (label: string) => {
      const input = page.getByLabel(label);
      expect(await input.getAttribute('aria-invalid'), label).toBe('true');
      const msgId = await input.getAttribute('aria-describedby');
      return page.locator(`[id="${msgId}"]`).textContent();
    };
    expect(await errorOf('ABN')).toBe('ABN must be 11 digits with a valid checksum');
    expect(await errorOf('BSB')).toBe('BSB must be 6 digits');
    expect(await errorOf('Accounts e-mail')).toBe('Enter a valid e-mail address');
    expect(await errorOf('GST rate (%)')).toMatch(/at most 2 decimals/);
    // The first bad field has the focus; nothing reached the server.
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe('abn');
    expect((await srv.api<Profile>(admin, 'GET', 'settings/business-profile/')).body).toMatchObject({ legal_name: '', updated_at: null });
    await screenshot(page, 'profile-errors');

    await page.getByLabel('ABN').fill('51 824 753 556');
    expect(await page.getByLabel('ABN').getAttribute('aria-invalid')).toBeNull();
    await page.getByLabel('BSB').fill('062-000');
    await page.getByLabel('Accounts e-mail').fill('accounts@swift.example');
    await page.getByLabel('GST rate (%)').fill('10');
    await page.getByLabel('Payment instructions').fill('Quote the invoice number with your payment.');
    await preview.getByText('ABN 51 824 753 556').waitFor();
    await page.getByTestId('profile-save').click();
    await waitText(page, /^Saved .*New tax invoices, and any issued before your legal name and ABN were set, show these details/);
    await waitText(page, 'Business profile saved');
    const saved = (await srv.api<Profile>(admin, 'GET', 'settings/business-profile/')).body;
    expect(saved).toMatchObject({
      legal_name: 'Swift Parcels Pty Ltd',
      trading_name: 'Swift Courier',
      abn: '51824753556',
      email: 'accounts@swift.example',
      address: '1 Depot Rd\nAlexandria NSW 2015',
      bank_bsb: '062000',
      bank_account_number: '12345678',
      gst_rate_bp: 1000,
      payment_instructions: 'Quote the invoice number with your payment.',
      updated_at: expect.any(String),
    });
    await screenshot(page, 'profile-saved');

    // What was saved is what a reload shows, in the printed forms.
    await page.reload();
    await page.getByRole('heading', { name: 'Business profile' }).waitFor();
    expect(await page.getByLabel('ABN').inputValue()).toBe('51 824 753 556');
    expect(await page.getByLabel('BSB').inputValue()).toBe('062-000');
    await waitText(page, /^Last saved /);
    // A change can be taken back before saving.
    await page.getByLabel('Legal name').fill('Typo Pty Ltd');
    await waitText(page, 'Unsaved changes');
    await page.getByRole('button', { name: 'Discard changes' }).click();
    expect(await page.getByLabel('Legal name').inputValue()).toBe('Swift Parcels Pty Ltd');
    await waitText(page, /^Last saved /);

    // The statement issued before the profile existed is re-rendered with it.
    await page.goto(`${srv.url}/#/money/invoices/${invoiceId}`);
    await page.getByTestId('invoice-total').waitFor();
    // Complete now: no notice.
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('profile-notice').count()).toBe(0);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
    const file = join(SCREENSHOTS, 'profile-tax-invoice.pdf');
    await download.saveAs(file);
    await run('pdftoppm', ['-png', '-r', '70', '-f', '1', '-l', '1', '-singlefile', file, join(SCREENSHOTS, 'profile-tax-invoice')]);
    const text = (await run('pdftotext', ['-layout', file, '-'])).stdout.replace(/\s+/g, ' ');
    for (const words of [
      'TAX INVOICE',
      'Swift Parcels Pty Ltd',
      'Trading as Swift Courier',
      'ABN 51 824 753 556',
      'Alexandria NSW 2015',
      'accounts@swift.example',
      'BSB: 062-000 Account: 12345678',
      `Reference: ${invoiceNumber}`,
      'Quote the invoice number with your payment.',
    ])
      expect(text, words).toContain(words);
    expect(text).not.toContain('not set');
    await ctx.close();
  }, 180_000);

  it('on a phone the form is one column and a save failure is shown above it; a supervisor has no such screen', async () => {
    const ctx = await br.context(PHONE);
    const page = await ctx.newPage();
    await login(page, srv.url, admin);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor({ timeout: 30_000 });
    await page.goto(`${srv.url}/#/settings/business-profile`);
    await page.getByRole('heading', { name: 'Business profile' }).waitFor();
    await page.getByLabel('Phone').fill('02 9000 0000');
    // No horizontal scrolling at 390 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'profile-phone');
    // The server refuses (the admin lost the role meanwhile): the answer is shown, the typed text kept.
    sqliteOf(srv.db)!.prepare("UPDATE user SET role = 'supervisor' WHERE id = ?").run(admin.id);
    await page.getByTestId('profile-save').click();
    const failure = page.getByTestId('form-error');
    await failure.waitFor();
    expect(await failure.textContent()).toMatch(/^Not saved: ./);
    // Shown beside the button that was pressed, inside the phone's screen.
    const box = await failure.boundingBox();
    expect(box && box.y >= 0 && box.y + box.height <= PHONE.height).toBe(true);
    expect(await page.getByLabel('Phone').inputValue()).toBe('02 9000 0000');
    sqliteOf(srv.db)!.prepare("UPDATE user SET role = 'admin' WHERE id = ?").run(admin.id);
    expect((await srv.api<Profile>(admin, 'GET', 'settings/business-profile/')).body.phone).toBe('');
    await screenshot(page, 'profile-phone-failed');
    await ctx.close();

    const sctx = await br.context(DESK);
    const spage = await sctx.newPage();
    await login(spage, srv.url, supervisor);
    await spage.getByRole('heading', { name: 'Dashboard' }).waitFor({ timeout: 30_000 });
    expect(await spage.getByRole('link', { name: 'Business profile' }).count()).toBe(0);
    await spage.goto(`${srv.url}/#/settings/business-profile`);
    await waitText(spage, 'Not available for your role');
    await sctx.close();
  }, 180_000);
});
