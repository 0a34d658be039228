/**
 * Issue 18 item 6: deactivating a driver never strands their parcels. Real Chromium against the real
 * server: an admin deactivates a driver who holds parcels (one on the van, two on a planned route, one
 * that used its attempts), sees the open work, is told beforehand which parcel can only go back to
 * the depot, hands the rest to another driver, and finds them with that driver. Desktop and phone screenshots.
 */
import { eq, inArray } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryRoute, pkg, user } from '../../server/db/schema/index';
import {
  PHONE,
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

const DESK = { width: 1280, height: 800 } as const;

async function waitText(page: Page, text: string | RegExp, timeout = 15_000): Promise<void> {
  await page.getByText(text).first().waitFor({ state: 'visible', timeout });
}

describe.skipIf(!hasChromium)('deactivating a driver with open work (Chromium)', () => {
  let srv: TestServer;
  let br: Browser;
  let admin: Seeded;
  let coA: number;
  let reason: number;

  const ok = <T>(r: { status: number; body: T }, what: string): T => {
    if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const parcel = async (hawb: string) =>
    ok(await srv.api<{ id: number }>(admin, 'POST', 'package/', { hawb, company: coA, customer_name: `Rita ${hawb}` }), hawb).id;

  /** A driver holding: two parcels on a planned route, one loose, one on the van, one failed three times. */
  const driverWithWork = async (name: string, prefix: string) => {
    const driver = await srv.addUser('driver', { name, email: `${prefix.toLowerCase()}@example.com` });
    const ids: number[] = [];
    for (let i = 1; i <= 5; i++) ids.push(await parcel(`${prefix}-${i}`));
    ok(
      await srv.api(admin, 'POST', 'route/', {
        name: `${name}'s run`,
        date: new Date().toISOString().slice(0, 10),
        driver: driver.id,
        packages: [ids[0], ids[1]],
      }),
      'route',
    );
    ok(await srv.api(admin, 'POST', 'assign-package/assign-driver/', { driver: driver.id, packages: [ids[2], ids[3], ids[4]] }), 'assign');
    ok(await srv.api(driver, 'POST', 'scan-package-api/inbound-scan/', { barcode: `${prefix}-4` }), 'scan');
    ok(await srv.api(driver, 'POST', 'scan-package-api/inbound-scan/', { barcode: `${prefix}-5` }), 'scan');
    ok(await srv.api(driver, 'POST', `package-delivered/${ids[4]}/fail/`, { failed_delivery_status: reason }), 'fail');
    // Its earlier two attempts happened on other days; only a return to the depot is left for it.
    await srv.db.update(pkg).set({ attempts: 3 }).where(eq(pkg.id, ids[4]!)).run();
    return { driver, ids };
  };

  const holder = (ids: number[]) =>
    srv.db
      .select({ hawb: pkg.hawb, to: pkg.assigned_to_id, status: pkg.status })
      .from(pkg)
      .where(inArray(pkg.id, ids))
      .orderBy(pkg.id)
      .all();
  const isActive = async (id: number) => (await srv.db.select({ a: user.is_active }).from(user).where(eq(user.id, id)).get())?.a;

  beforeAll(async () => {
    const dist = await buildPwa();
    srv = await startServer(dist);
    admin = await srv.addUser('admin', { name: 'Olive Office', email: 'olive.handover@example.com' });
    coA = await srv.addCompany('Acme Parts', 'ACME');
    reason = ok(await srv.api<{ id: number }>(admin, 'POST', 'failed-delivery-status/', { name: 'Nobody home' }), 'reason').id;
    br = browsers();
  }, 300_000);

  afterAll(async () => {
    await br?.close();
    await srv?.close();
  });

  it('admin sees the open work, hands it to another driver, and the parcels end up with that driver', async () => {
    const { driver: dana, ids } = await driverWithWork('Dana Leaving', 'DL');
    const bea = await srv.addUser('driver', { name: 'Bea Backup', email: 'bea.backup@example.com' });
    const ctx = await br.context(DESK);
    const page = await ctx.newPage();
    await login(page, srv.url, admin);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: 'Employees' }).click();
    await page.getByRole('heading', { name: 'Employees' }).waitFor();
    await page.getByLabel('Search').fill('Dana');
    const row = page.locator('table.data tbody tr', { hasText: 'Dana Leaving' });
    await row.waitFor();
    await row.getByRole('button', { name: 'Deactivate' }).click();

    const dialog = page.getByRole('dialog', { name: 'Deactivate Dana Leaving?' });
    await dialog.getByText('5 open parcels').waitFor();
    await dialog.getByText('1 open route', { exact: true }).waitFor();
    expect(await dialog.getByTestId('open-parcels').textContent()).toBe('DL-1, DL-2, DL-3, DL-4, DL-5');
    expect(await dialog.getByTestId('open-routes').textContent()).toBe("Routes: Dana Leaving's run");
    // The parcel that used its attempts cannot go to another driver: said before anything happens.
    expect(await dialog.getByTestId('must-return').textContent()).toMatch(/^DL-5 used its delivery attempts: it goes back to the depot/);
    // No choice of driver yet: asked at the field, nothing sent.
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await dialog.getByText('Choose the driver who takes over').waitFor();
    expect(await dialog.getByRole('combobox', { name: 'Driver' }).getAttribute('aria-invalid')).toBe('true');
    expect(await isActive(dana.id)).toBe(true);
    await screenshot(page, 'deactivate-open-work');

    await dialog.getByRole('combobox', { name: 'Driver' }).selectOption({ label: 'Bea Backup' });
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await waitText(page, 'Dana Leaving is now inactive; 4 parcels and 1 route went to Bea Backup, 1 parcel back to the depot');
    await dialog.waitFor({ state: 'detached' });
    await row.getByText('Inactive').waitFor();
    await screenshot(page, 'deactivate-done');

    expect(await isActive(dana.id)).toBe(false);
    expect(await holder(ids)).toEqual([
      { hawb: 'DL-1', to: bea.id, status: 'assigned' },
      { hawb: 'DL-2', to: bea.id, status: 'assigned' },
      { hawb: 'DL-3', to: bea.id, status: 'assigned' },
      { hawb: 'DL-4', to: bea.id, status: 'assigned' },
      { hawb: 'DL-5', to: null, status: 'returned' },
    ]);
    expect(
      (await srv.db.select({ d: deliveryRoute.driver_id }).from(deliveryRoute).where(eq(deliveryRoute.name, "Dana Leaving's run")).get())
        ?.d,
    ).toBe(bea.id);
    expect(
      (await srv.api<{ open_parcels: number; open_routes: number }>(admin, 'GET', `employee/${dana.id}/open-work/`)).body,
    ).toMatchObject({ open_parcels: 0, open_routes: 0 });
    // Dana can no longer sign in.
    const signIn = await fetch(`${srv.url}/api/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: dana.email, password: 'browser-test-pass-1' }),
    });
    expect(signIn.status).toBeGreaterThanOrEqual(400);

    // In the same page, the next deactivation no longer offers Dana as the one taking over.
    const { ids: eIds } = await driverWithWork('Eve Exiting', 'EE');
    await page.getByLabel('Search').fill('Eve');
    const eve = page.locator('table.data tbody tr', { hasText: 'Eve Exiting' });
    await eve.getByRole('button', { name: 'Deactivate' }).click();
    const eveDialog = page.getByRole('dialog', { name: 'Deactivate Eve Exiting?' });
    await eveDialog.getByText('5 open parcels').waitFor();
    const offered = await eveDialog.getByRole('combobox', { name: 'Driver' }).locator('option').allTextContents();
    expect(offered).toContain('Bea Backup');
    expect(offered).not.toContain('Dana Leaving');
    expect(offered).not.toContain('Eve Exiting');
    await eveDialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await holder(eIds)).every((p) => p.to !== bea.id)).toBe(true);

    // The parcels are in Bea's list on the packages screen.
    await page.goto(`${srv.url}/#/packages?driver=${bea.id}`);
    for (const h of ['DL-1', 'DL-2', 'DL-3', 'DL-4']) await page.locator('table.data tbody tr', { hasText: h }).waitFor();
    expect(await page.locator('table.data tbody tr', { hasText: 'DL-5' }).count()).toBe(0);
    await ctx.close();
  }, 180_000);

  it('on a phone: return everything to the depot', async () => {
    const { driver: cal, ids } = await driverWithWork('Cal Quitting', 'CQ');
    const ctx = await br.context(PHONE);
    const page = await ctx.newPage();
    await login(page, srv.url, admin);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor({ timeout: 30_000 });
    await page.goto(`${srv.url}/#/r/employee?search=Cal`);
    await page.getByRole('heading', { name: 'Employees' }).waitFor();
    await page.getByLabel('Search').fill('Cal');
    // A phone shows the employees as cards (the shared DataTable under 700 px): nothing is wider than
    // the screen, where the table scrolled sideways and hid the Deactivate button off to the right.
    const row = page.getByTestId('data-card').filter({ hasText: 'Cal Quitting' });
    await row.waitFor();
    expect(await page.locator('table.data').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'employees-phone');
    await row.getByRole('button', { name: 'Deactivate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deactivate Cal Quitting?' });
    await dialog.getByText('5 open parcels').waitFor();
    await dialog.getByLabel('Return them to the depot (unassigned)').check();
    await screenshot(page, 'deactivate-phone');
    expect(await dialog.getByTestId('must-return').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await waitText(page, 'Cal Quitting is now inactive; 5 parcels and 1 route back to the depot');
    expect(await isActive(cal.id)).toBe(false);
    expect((await holder(ids)).map((p) => [p.hawb, p.to, p.status])).toEqual([
      ['CQ-1', null, 'created'],
      ['CQ-2', null, 'created'],
      ['CQ-3', null, 'created'],
      ['CQ-4', null, 'created'],
      ['CQ-5', null, 'returned'],
    ]);
    await ctx.close();
  }, 180_000);

  it('the last active driver can only hand work back to the depot', async () => {
    const { driver: finn, ids } = await driverWithWork('Finn Final', 'FF');
    // Everyone else has left already.
    const others = (await srv.db.select({ id: user.id }).from(user).where(eq(user.role, 'driver')).all())
      .map((r) => r.id)
      .filter((id) => id !== finn.id);
    await srv.db.update(user).set({ is_active: false }).where(inArray(user.id, others)).run();
    const ctx = await br.context(DESK);
    const page = await ctx.newPage();
    await login(page, srv.url, admin);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor({ timeout: 30_000 });
    await page.goto(`${srv.url}/#/r/employee`);
    await page.getByLabel('Search').fill('Finn');
    await page.locator('table.data tbody tr', { hasText: 'Finn Final' }).getByRole('button', { name: 'Deactivate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deactivate Finn Final?' });
    await dialog.getByText('There is no other active driver.').waitFor();
    expect(await dialog.getByLabel('Hand them to another driver').isDisabled()).toBe(true);
    expect(await dialog.getByLabel('Return them to the depot (unassigned)').isChecked()).toBe(true);
    await screenshot(page, 'deactivate-last-driver');
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await waitText(page, 'Finn Final is now inactive; 5 parcels and 1 route back to the depot');
    expect((await holder(ids)).every((p) => p.to === null)).toBe(true);
    await ctx.close();
  }, 120_000);
});
