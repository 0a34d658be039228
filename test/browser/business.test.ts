/**
 * Money, reports and integrations screens in real Chromium against the real server: rate card and
 * quote, wallet top-up, statement and its PDF, driver KPI report with charts, a streamed Excel export
 * with progress, and what a company login sees (its own wallet and invoices, an API key shown once).
 * Skipped (not failed) where /usr/bin/chromium is missing. Screenshots land in screenshots/.
 */
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { company } from '../../server/db/schema/index';
import {
  DESKTOP,
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

async function waitText(page: Page, text: string | RegExp, timeout = 15_000): Promise<void> {
  await page.getByText(text).first().waitFor({ state: 'visible', timeout });
}

async function bytesOf(download: Download): Promise<Buffer> {
  const path = await download.path();
  if (!path) throw new Error(`download failed: ${await download.failure()}`);
  return readFileSync(path);
}

async function signIn(page: Page, url: string, who: Seeded): Promise<void> {
  await login(page, url, who);
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor({ timeout: 30_000 });
}

describe.skipIf(!hasChromium)('money, reports and integrations in Chromium', () => {
  let srv: TestServer;
  let br: Browser;
  let admin: Seeded;
  let driver: Seeded;
  let acmeUser: Seeded;
  let acme: number;
  let bolt: number;
  let statementNumber = '';

  beforeAll(async () => {
    const dist = await buildPwa();
    srv = await startServer(dist);
    admin = await srv.addUser('admin', { name: 'Ada Admin', email: 'ada.money@example.com' });
    driver = await srv.addUser('driver', { name: 'Dana Driver', email: 'dana.money@example.com' });
    const driver2 = await srv.addUser('driver', { name: 'Omar Oak', email: 'omar.money@example.com' });
    acme = await srv.addCompany('Acme Parts', 'ACME');
    bolt = await srv.addCompany('Bolt Retail', 'BOLT');
    await srv.db.update(company).set({ billing_type: 'postpaid' }).where(eq(company.id, bolt)).run();
    acmeUser = await srv.addUser('company', { name: 'Acme Desk', email: 'desk.money@acme.example', companyId: acme });

    const ok = (r: { status: number; body: unknown }, what: string) => {
      if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body as Record<string, unknown>;
    };
    const reason = ok(await srv.api(admin, 'POST', 'failed-delivery-status/', { name: 'Nobody home' }), 'reason');
    // Acme's parcels come before any rate line, so the prepaid company is not charged for them.
    const made: { id: number; hawb: string; who: Seeded; fail?: boolean }[] = [];
    const parcel = async (hawb: string, co: number, who: Seeded, fail = false) => {
      const p = ok(
        await srv.api(admin, 'POST', 'package/', { hawb, company: co, customer_name: `Customer ${hawb}`, weight: 2 }),
        `package ${hawb}`,
      );
      made.push({ id: p.id as number, hawb, who, fail });
    };
    for (const h of ['AC-1', 'AC-2', 'AC-3']) await parcel(h, acme, driver);
    // The default card prices Bolt (postpaid): each parcel is a charge waiting for a statement.
    ok(await srv.api(admin, 'POST', 'delivery-rate/', { name: 'Default', base_cents: 1000, currency: 'AUD' }), 'default rate');
    await parcel('BO-1', bolt, driver2);
    await parcel('BO-2', bolt, driver2);
    await parcel('BO-3', bolt, driver2, true);
    for (const who of [driver, driver2]) {
      const mine = made.filter((m) => m.who === who);
      ok(await srv.api(admin, 'POST', 'assign-package/assign-driver/', { driver: who.id, packages: mine.map((m) => m.id) }), 'assign');
      for (const m of mine) ok(await srv.api(who, 'POST', 'scan-package-api/inbound-scan/', { barcode: m.hawb }), `scan ${m.hawb}`);
      for (const m of mine) {
        if (m.fail)
          ok(await srv.api(who, 'POST', `package-delivered/${m.id}/fail/`, { failed_delivery_status: reason.id }), `fail ${m.hawb}`);
        else ok(await srv.api(who, 'POST', `package-delivered/${m.id}/deliver/`, { recipient_name: 'Sam' }), `deliver ${m.hawb}`);
      }
    }
    br = browsers();
  }, 300_000);

  afterAll(async () => {
    await br?.close();
    await srv?.close();
  });

  it('admin creates a rate card for a company and prices a parcel in the calculator', async () => {
    const page = await (await br.context(DESKTOP)).newPage();
    await signIn(page, srv.url, admin);
    await page.getByRole('link', { name: 'Rate cards' }).click();
    await page.getByRole('heading', { name: 'Rate cards' }).waitFor();
    await page.getByLabel('New card for').selectOption(String(acme));
    await page.getByRole('button', { name: 'Start card' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'New rate line' }).waitFor();
    await dialog.getByRole('button', { name: 'Add line' }).click();
    await dialog.locator('.field .error').first().waitFor();
    await dialog.getByLabel('Up to weight').fill('10');
    await dialog.getByLabel('Base price').fill('8.50');
    await dialog.getByLabel('Per extra unit').fill('1.20');
    await dialog.getByRole('button', { name: 'Add line' }).click();
    await waitText(page, 'Rate line added');
    const row = page.locator('table.data tbody tr', { hasText: '0–10 kg' });
    await row.waitFor();
    expect(await row.textContent()).toContain('8.50');
    const lines = await srv.api<{ results: { company: number | null; base_cents: number; per_unit_cents: number }[] }>(
      admin,
      'GET',
      `delivery-rate/?company=${acme}`,
    );
    expect(lines.body.results).toEqual([expect.objectContaining({ company: acme, base_cents: 850, per_unit_cents: 120 })]);
    await screenshot(page, 'rate-cards');

    await page.getByRole('link', { name: 'Price calculator' }).first().click();
    await page.getByRole('heading', { name: 'Price calculator' }).waitFor();
    await page.getByLabel('Company').selectOption(String(acme));
    await page.getByLabel('Weight (kg)').fill('3');
    await page.getByRole('button', { name: 'Get price' }).click();
    // 8.50 covers the band's start, then 3 started kilograms at 1.20.
    await page.getByTestId('quote-price').waitFor();
    expect(await page.getByTestId('quote-price').textContent()).toContain('12.10');
    await waitText(page, "Company's card");
    await screenshot(page, 'calculator');
  }, 180_000);

  it('admin tops up a prepaid wallet and sees the balance and the transaction', async () => {
    const page = await (await br.context(DESKTOP)).newPage();
    await signIn(page, srv.url, admin);
    await page.getByRole('link', { name: 'Wallets' }).click();
    await page.getByRole('heading', { name: 'Wallets' }).waitFor();
    await page.getByRole('button', { name: 'Top up a wallet' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Company').selectOption(String(acme));
    await dialog.getByText(/Prepaid: the amount is added/).waitFor();
    await dialog.getByLabel('Amount').fill('250');
    await dialog.getByLabel('Reference').fill('EFT-7781');
    await dialog.getByRole('button', { name: 'Recharge' }).click();
    await page.getByRole('heading', { name: 'Acme Parts' }).waitFor();
    await page.getByTestId('wallet-balance').waitFor();
    expect(await page.getByTestId('wallet-balance').textContent()).toContain('250.00');
    const txn = page.locator('table.data tbody tr', { hasText: 'EFT-7781' });
    await txn.waitFor();
    expect(await txn.textContent()).toContain('+');
    expect(await txn.textContent()).toContain('Recharge');
    const wallets = await srv.api<{ results: { id: number; company: number; balance_cents: number }[] }>(
      admin,
      'GET',
      `wallet/?company=${acme}`,
    );
    expect(wallets.body.results[0]?.balance_cents).toBe(25000);
    await screenshot(page, 'wallet');
    const tablet = await (await br.context(TABLET)).newPage();
    await signIn(tablet, srv.url, admin);
    await tablet.goto(`${srv.url}/#/money/wallets/${wallets.body.results[0]!.id}`);
    await tablet.getByTestId('wallet-balance').waitFor();
    await tablet.locator('table.data tbody tr', { hasText: 'EFT-7781' }).waitFor();
    await screenshot(tablet, 'wallet');
  }, 180_000);

  it('admin generates a statement, downloads its PDF and marks it paid', async () => {
    const page = await (await br.context(DESKTOP)).newPage();
    await signIn(page, srv.url, admin);
    await page.goto(`${srv.url}/#/money/invoices`);
    await page.getByRole('heading', { name: 'Invoices' }).waitFor();
    await page.getByRole('button', { name: 'Generate statement' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Company').selectOption(String(bolt));
    await dialog.getByRole('button', { name: 'Generate' }).click();
    await page.getByTestId('invoice-total').waitFor();
    // Three Bolt parcels at the default card's 10.00.
    expect(await page.getByTestId('invoice-total').textContent()).toContain('30.00');
    statementNumber = (await page.locator('h1').textContent()) ?? '';
    expect(statementNumber).toMatch(/^INV-\d{4}-\d+/);
    expect(await page.locator('table.data tbody tr').count()).toBe(3);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
    const pdf = await bytesOf(download);
    expect(pdf.subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(download.suggestedFilename()).toBe(`${statementNumber}.pdf`);
    await screenshot(page, 'invoice-detail');

    await page.getByRole('button', { name: 'Mark paid' }).click();
    await page.getByRole('dialog').getByLabel('Reference').fill('BANK-42');
    await page.getByRole('dialog').getByRole('button', { name: 'Mark paid' }).click();
    await waitText(page, `${statementNumber} marked paid`);
    await page.locator('.page-head .badge', { hasText: 'Paid' }).waitFor();

    await page.goto(`${srv.url}/#/money/invoices`);
    await page.locator('table.data tbody tr', { hasText: statementNumber }).waitFor();
    await screenshot(page, 'invoices');
    const tablet = await (await br.context(TABLET)).newPage();
    await signIn(tablet, srv.url, admin);
    await tablet.goto(`${srv.url}/#/money/invoices`);
    await tablet.locator('table.data tbody tr', { hasText: statementNumber }).waitFor();
    await screenshot(tablet, 'invoices');
  }, 180_000);

  it('admin runs the driver KPI report, sees the charts and exports it to Excel with progress', async () => {
    const page = await (await br.context(DESKTOP)).newPage();
    await signIn(page, srv.url, admin);
    await page.getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'Reports' }).waitFor();
    await page.getByRole('tab', { name: 'Driver KPI' }).click();
    const bars = page.getByTestId('bar-chart');
    await bars.waitFor();
    const hbars = page.getByTestId('hbar-chart');
    await hbars.waitFor();
    // Five deliveries today, one of Omar's two attempts failed.
    const labels = await bars.locator('g.bar').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    expect(labels.some((l) => /: 5$/.test(l))).toBe(true);
    expect(await hbars.locator('g.bar[aria-label="Dana Driver: 100%"]').count()).toBe(1);
    expect(await hbars.locator('g.bar[aria-label="Omar Oak: 67%"]').count()).toBe(1);
    await page.locator('table.data tbody tr', { hasText: 'Omar Oak' }).waitFor();
    await hbars.locator('g.bar').first().focus();
    await hbars.locator('g.bar.on').waitFor();
    await screenshot(page, 'report-driver-kpi');

    // The same numbers as a table, for people who would rather read.
    await page.getByRole('button', { name: 'Show table' }).last().click();
    await page.locator('figure.chart table', { hasText: 'Omar Oak' }).waitFor();
    await page.getByRole('button', { name: 'Show chart' }).click();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export Excel' }).click()]);
    const xlsx = await bytesOf(download);
    expect(xlsx.subarray(0, 2).toString('latin1')).toBe('PK');
    const progress = page.getByTestId('export-progress');
    await page.locator('[data-testid="export-progress"][data-state="done"]').waitFor();
    expect(await progress.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(await progress.textContent()).toMatch(/Saved .*\.xlsx/);

    // CSV counts its rows against X-Total-Rows.
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect((await bytesOf(csv)).toString('utf8')).toContain('Omar Oak');
    await page.locator('[data-testid="export-progress"][data-state="done"]', { hasText: /2 of 2 rows/ }).waitFor();
    await screenshot(page, 'report-export');

    const tablet = await (await br.context(TABLET)).newPage();
    await signIn(tablet, srv.url, admin);
    await tablet.goto(`${srv.url}/#/reports/driver-kpi`);
    await tablet.getByTestId('hbar-chart').waitFor();
    await screenshot(tablet, 'report-driver-kpi');
  }, 180_000);

  it('a company user sees only its own wallet and invoices, creates an API key shown once, and a webhook', async () => {
    const page = await (await br.context(DESKTOP)).newPage();
    await signIn(page, srv.url, acmeUser);
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Wallets', exact: true }).count()).toBe(0);
    await nav.getByRole('link', { name: 'Wallet', exact: true }).click();
    await page.getByRole('heading', { name: 'Wallet' }).waitFor();
    expect(await page.getByTestId('wallet-balance').textContent()).toContain('250.00');
    await page.locator('table.data tbody tr', { hasText: 'EFT-7781' }).waitFor();
    await screenshot(page, 'company-wallet');

    await nav.getByRole('link', { name: 'Invoices' }).click();
    await page.getByRole('heading', { name: 'Invoices' }).waitFor();
    await page.locator('table.data tbody tr').first().waitFor();
    const text = await page.locator('table.data tbody').textContent();
    expect(text).not.toContain(statementNumber);
    expect(await page.getByLabel('Company').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Generate statement' }).count()).toBe(0);
    // The server agrees: Bolt's statement is not Acme's to read.
    const id = (await srv.api<{ results: { id: number; number: string }[] }>(admin, 'GET', 'invoice/?kind=statement')).body.results[0]!.id;
    expect((await srv.api(acmeUser, 'GET', `invoice/${id}/`)).status).toBe(404);

    await page.goto(`${srv.url}/#/integrations/api-keys`);
    await page.getByRole('button', { name: 'New API key' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Warehouse ERP');
    await page.getByRole('dialog').getByRole('button', { name: 'Create key' }).click();
    const secret = page.getByTestId('secret-value');
    await secret.waitFor();
    const key = await secret.inputValue();
    expect(key.length).toBeGreaterThan(20);
    await page.getByRole('dialog').getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'I have stored it' }).click();
    const keyRow = page.locator('table.data tbody tr', { hasText: 'Warehouse ERP' });
    await keyRow.waitFor();
    expect(await page.content()).not.toContain(key);
    const viaKey = await fetch(`${srv.url}/api/company-key/package/`, { headers: { 'x-api-key': key } });
    expect(viaKey.status).toBe(200);
    const pkgs = (await viaKey.json()) as { results: { hawb: string }[] };
    expect(pkgs.results.map((p) => p.hawb).sort()).toEqual(['AC-1', 'AC-2', 'AC-3']);

    // Secret first (endpoints need it), then an endpoint; a new parcel queues an event for it.
    await page.getByRole('tab', { name: 'Signing secret' }).click();
    await page.getByRole('button', { name: 'Generate secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Generate' }).click();
    expect(await page.getByTestId('secret-value').inputValue()).toMatch(/^[0-9a-f]{64}$/);
    await page.getByRole('tab', { name: 'Webhook endpoints' }).click();
    await page.getByRole('button', { name: 'New endpoint' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('URL').fill('https://erp.acme.example/courier-hook');
    await dialog.getByLabel('package.created').check();
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await waitText(page, 'Endpoint added');
    await page.locator('table.data tbody tr', { hasText: 'erp.acme.example' }).waitFor();
    await screenshot(page, 'webhooks');
    expect((await srv.api(acmeUser, 'POST', 'package/', { hawb: 'AC-9', customer_name: 'Hook test', weight: 1 })).status).toBe(201);
    await page.getByRole('tab', { name: 'Deliveries' }).click();
    const delivery = page.locator('table.data tbody tr', { hasText: 'package.created' });
    await delivery.waitFor();
    await delivery.getByRole('button', { name: 'Replay' }).click();
    await waitText(page, /queued again/);
    await screenshot(page, 'webhook-deliveries');

    const tablet = await (await br.context(TABLET)).newPage();
    await signIn(tablet, srv.url, acmeUser);
    await tablet.goto(`${srv.url}/#/integrations/endpoints`);
    await tablet.locator('table.data tbody tr', { hasText: 'erp.acme.example' }).waitFor();
    await screenshot(tablet, 'webhooks');
    await tablet.goto(`${srv.url}/#/money/wallet`);
    await tablet.getByTestId('wallet-balance').waitFor();
    await screenshot(tablet, 'company-wallet');
  }, 180_000);
});
