/**
 * Route planning, the live map and the organisation screens in real Chromium against the real
 * server: build a route from seeded parcels, optimise it from a start clicked on the map, read the
 * sequenced list and the markers, assign and move it between drivers; see a driver's reported
 * position on the live map; create a permission group and give it to a supervisor. Tiles never load
 * here (no internet): the tests check markers and lists, never tiles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ORG_PATHS, ROUTE_PATHS } from '../../client/admin/routes/paths';
import {
  apiRoutes,
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

const STOPS = [
  { hawb: 'RT-1001', name: 'Alice Archer', address: '1 George St, Sydney', lat: -33.8617, lng: 151.2108 },
  { hawb: 'RT-1002', name: 'Bob Brown', address: '50 Bridge Rd, Glebe', lat: -33.8785, lng: 151.186 },
  { hawb: 'RT-1003', name: 'Cara Chen', address: '9 Oxford St, Paddington', lat: -33.8847, lng: 151.226 },
  { hawb: 'RT-1004', name: 'Dev Das', address: '20 King St, Newtown', lat: -33.8968, lng: 151.1794 },
];
const NOWHERE = { hawb: 'RT-1005', name: 'Eve Evans', address: 'PO Box 12, Sydney' };

/** Toasts sit over the map corner; screenshots are taken without them. */
async function clearToasts(page: Page): Promise<void> {
  for (let i = 0; i < 10 && (await page.locator('.toast button').count()) > 0; i++)
    await page
      .locator('.toast button')
      .first()
      .click()
      .catch(() => undefined);
}

async function shot(page: Page, name: string): Promise<void> {
  await clearToasts(page);
  await screenshot(page, name);
}

async function waitText(page: Page, text: string | RegExp, timeout = 20_000): Promise<void> {
  await page.getByText(text).first().waitFor({ state: 'visible', timeout });
}

describe.skipIf(!hasChromium)('routes, live map and organisation screens in Chromium', () => {
  let srv: TestServer;
  let br: Browser;
  let admin: Seeded;
  let supervisor: Seeded;
  let driver: Seeded;
  let driver2: Seeded;
  let routeId = 0;

  beforeAll(async () => {
    const dist = await buildPwa();
    srv = await startServer(dist);
    admin = await srv.addUser('admin', { name: 'Rita Router', email: 'rita@example.com' });
    supervisor = await srv.addUser('supervisor', { name: 'Sam Supervisor', email: 'sam@example.com' });
    driver = await srv.addUser('driver', { name: 'Dana Driver', email: 'dana.r@example.com' });
    driver2 = await srv.addUser('driver', { name: 'Omar Other', email: 'omar@example.com' });
    for (const s of STOPS) {
      const res = await srv.api(admin, 'POST', 'package/', {
        hawb: s.hawb,
        customer_name: s.name,
        customer_address: s.address,
        latitude: s.lat,
        longitude: s.lng,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const res = await srv.api(admin, 'POST', 'package/', {
      hawb: NOWHERE.hawb,
      customer_name: NOWHERE.name,
      customer_address: NOWHERE.address,
    });
    expect(res.status).toBe(201);
    br = browsers();
  }, 300_000);

  afterAll(async () => {
    await br?.close();
    await srv?.close();
  });

  it('every API path the screens call is on the server', async () => {
    const routes = await apiRoutes(srv.url);
    const known = new Set(
      [...routes].map((r) =>
        r
          .split(' ')[1]!
          .replace(/^\/api/, '')
          .replace(/\{[^}]+\}/g, '{}'),
      ),
    );
    const wanted = [
      ...Object.values(ROUTE_PATHS).map((p) => (typeof p === 'function' ? p(1) : p)),
      ...Object.values(ORG_PATHS).map((p) => (typeof p === 'function' ? p(1) : p)),
    ].map((p) => `/${p.replace(/\/?$/, '/')}`.replace(/\/1\//g, '/{}/'));
    expect(wanted.filter((p) => !known.has(p))).toEqual([]);
  });

  it('admin builds a route from parcels, optimises it from a start clicked on the map, and assigns it', async () => {
    const ctx = await br.context(DESKTOP);
    const page = await ctx.newPage();
    await login(page, srv.url, admin);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByRole('link', { name: 'Routes', exact: true }).click();
    await page.getByRole('heading', { name: 'Routes' }).waitFor();
    await waitText(page, 'No routes yet');

    await page.getByRole('link', { name: 'New route' }).click();
    await page.getByRole('heading', { name: 'New route' }).waitFor();
    await waitText(page, 'RT-1005');
    // Nothing chosen: the form says so before anything is sent.
    await page.getByRole('button', { name: 'Create route' }).click();
    await page.getByTestId('form-error').waitFor();
    await page.getByLabel('Route name').fill('Inner west run');
    await page.getByRole('button', { name: /Select all 5 matching/ }).click();
    await waitText(page, '5 parcel(s) chosen');
    await shot(page, 'route-new');
    await page.getByRole('button', { name: 'Create route' }).click();
    await page.getByRole('heading', { name: 'Inner west run' }).waitFor();
    routeId = Number(/#\/routes\/(\d+)/.exec(page.url())?.[1]);
    expect(routeId).toBeGreaterThan(0);

    // The list is there whatever the map does; the map draws one numbered marker per located parcel.
    expect(await page.getByTestId('stop').count()).toBe(5);
    const map = page.getByTestId('map');
    await page.locator('[data-testid="map"][data-state="ready"]').waitFor({ timeout: 30_000 });
    await page.locator('.leaflet-marker-icon').nth(3).waitFor();
    expect(await page.locator('.leaflet-marker-icon').count()).toBe(4);
    expect(await page.locator('path.leaflet-interactive').count()).toBeGreaterThanOrEqual(1);

    // A click on the map sets the start point (the fields show it, an "S" marker appears).
    const box = (await map.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await expect.poll(() => page.getByLabel('Start latitude').inputValue()).not.toBe('');
    await expect.poll(() => page.locator('.leaflet-marker-icon').count()).toBe(5);
    await page.getByLabel('Start latitude').fill('-33.8688');
    await page.getByLabel('Start longitude').fill('151.2093');

    await page.getByRole('button', { name: 'Optimise route' }).click();
    const result = page.getByTestId('optimise-result');
    await result.waitFor();
    expect(await result.textContent()).toMatch(/\d+(\.\d)? km in total/);
    expect(await result.textContent()).toContain('RT-1005');
    await expect.poll(async () => (await page.getByTestId('route-distance').textContent()) ?? '').toMatch(/km/);
    // The parcel without coordinates is kept after the placed ones; the rest are in the server's order.
    const api = await srv.api<{ packages: { hawb: string; sequence_no: number | null }[] }>(admin, 'GET', `route/${routeId}/packages/`);
    const order = api.body.packages.map((p) => p.hawb);
    expect(order[4]).toBe('RT-1005');
    await expect.poll(async () => (await page.getByTestId('stop').allTextContents()).map((t) => /RT-\d+/.exec(t)?.[0])).toEqual(order);
    expect(await page.locator('.leaflet-marker-icon').count()).toBe(5);
    const firstLabel = await page.locator('.leaflet-marker-icon .map-pin').filter({ hasText: /^1$/ }).count();
    expect(firstLabel).toBe(1);

    await page.locator('select[name="assign-driver"]').selectOption({ label: 'Dana Driver' });
    await page.getByRole('button', { name: 'Assign', exact: true }).click();
    await waitText(page, /Route Inner west run assigned/);
    await page.locator('.current-driver', { hasText: 'Dana Driver' }).waitFor();
    await shot(page, 'route-detail');

    await page.locator('select[name="assign-driver"]').selectOption({ label: 'Omar Other' });
    await page.getByRole('button', { name: 'Move route' }).click();
    await waitText(page, /Route Inner west run moved/);
    await page.locator('.current-driver', { hasText: 'Omar Other' }).waitFor();
    const after = await srv.api<{ driver: number | null }>(admin, 'GET', `route/${routeId}/`);
    expect(after.body.driver).toBe(driver2.id);

    // Start the route (status), then the proof-of-delivery view (nothing delivered yet).
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Start' }).click();
    await waitText(page, /is in progress/);
    await page.getByRole('link', { name: 'Proof of delivery' }).click();
    await waitText(page, 'No delivered parcel yet');

    await page.goto(`${srv.url}/#/routes`);
    await page.getByRole('link', { name: 'Inner west run' }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    await shot(page, 'route-list');

    const tablet = await (await br.context(TABLET)).newPage();
    await login(tablet, srv.url, admin);
    await tablet.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await tablet.goto(`${srv.url}/#/routes/${routeId}`);
    await tablet.getByRole('heading', { name: 'Inner west run' }).waitFor();
    await tablet.locator('.leaflet-marker-icon').nth(3).waitFor({ timeout: 30_000 });
    await shot(tablet, 'route-detail');

    // Leaflet's chunk unreachable (offline before it was cached): the screen says so and the list carries the route.
    const noMapCtx = await br.context(DESKTOP);
    await noMapCtx.route(/leaflet/, (r) => r.abort());
    const noMap = await noMapCtx.newPage();
    await login(noMap, srv.url, admin);
    await noMap.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await noMap.goto(`${srv.url}/#/routes/${routeId}`);
    await waitText(noMap, 'The map could not be loaded');
    expect(await noMap.getByTestId('stop').count()).toBe(5);
    expect(await noMap.locator('.leaflet-container').count()).toBe(0);
    await shot(noMap, 'route-detail-no-map');
  }, 180_000);

  it('the live map shows a driver at the position their phone reported', async () => {
    const res = await srv.api(driver, 'POST', 'driver-position/', {
      positions: [{ latitude: -33.87, longitude: 151.2, accuracy: 8, occurred_at: new Date().toISOString() }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    for (const viewport of [DESKTOP, TABLET]) {
      const page = await (await br.context(viewport)).newPage();
      await login(page, srv.url, admin);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await page.goto(`${srv.url}/#/map`);
      await page.getByRole('heading', { name: 'Live map' }).waitFor();
      const row = page.getByTestId('map-driver').filter({ hasText: 'Dana Driver' });
      await row.waitFor();
      expect(await row.textContent()).toMatch(/At -33\.87000, 151\.20000/);
      await page.locator('.leaflet-marker-icon .map-pin.square', { hasText: 'DD' }).waitFor({ timeout: 30_000 });
      // Omar's route parcels (4 located) show as dots coloured by status, named in the legend.
      expect(await page.locator('.leaflet-marker-icon .map-pin.dot').count()).toBeGreaterThanOrEqual(4);
      expect(await page.getByRole('list', { name: 'Legend' }).getByRole('listitem').count()).toBeGreaterThanOrEqual(2);
      await page.getByRole('button', { name: 'Refresh' }).click();
      await row.waitFor();
      await shot(page, 'dashboard-map');
    }
  }, 120_000);

  it('admin creates a permission group and gives it to a supervisor', async () => {
    const page = await (await br.context(DESKTOP)).newPage();
    await login(page, srv.url, admin);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByRole('link', { name: 'Permission groups' }).click();
    await page.getByRole('heading', { name: 'Permission groups' }).waitFor();
    await waitText(page, 'No permission groups yet');
    await page.getByRole('button', { name: 'New group' }).click();
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.locator('.dialog .field .error').first().waitFor();
    await page.getByLabel('Name').fill('Rate keepers');
    await page.getByLabel('Description').fill('Supervisors who maintain the rate cards');
    await page.locator('input[name="rate.view"]').check();
    await page.locator('input[name="rate.manage"]').check();
    await page.locator('input[name="report.view"]').check();
    await shot(page, 'permission-group-form');
    await page.getByRole('button', { name: 'Create group' }).click();
    await waitText(page, /Group created: Rate keepers/);
    await page.getByRole('cell', { name: 'Rate keepers' }).waitFor();

    expect((await srv.api(supervisor, 'POST', 'delivery-rate/', {})).status).toBe(403);
    await page.locator('select[name="employee"]').selectOption({ label: 'Sam Supervisor — Supervisor' });
    const box = page.getByRole('group', { name: 'Permission groups' }).getByLabel('Rate keepers');
    await box.waitFor();
    const before = await page.getByTestId('effective-permissions').textContent();
    await box.check();
    await page.getByRole('button', { name: 'Save groups' }).click();
    await waitText(page, /Sam Supervisor: Rate keepers/);
    await expect.poll(() => page.getByTestId('effective-permissions').textContent()).not.toBe(before);
    const groups = await srv.api<{ groups: { name: string }[]; permissions: string[] }>(admin, 'GET', `employee/${supervisor.id}/groups/`);
    expect(groups.body.groups.map((g) => g.name)).toEqual(['Rate keepers']);
    expect(groups.body.permissions).toContain('rate.manage');
    // The supervisor's own calls now pass the group's permission (an empty body: refused for the data, not the person).
    expect((await srv.api(supervisor, 'POST', 'delivery-rate/', {})).status).toBe(400);
    await shot(page, 'permission-groups');

    const tablet = await (await br.context(TABLET)).newPage();
    await login(tablet, srv.url, admin);
    await tablet.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await tablet.goto(`${srv.url}/#/org/groups`);
    await tablet.getByRole('cell', { name: 'Rate keepers' }).waitFor();
    await shot(tablet, 'permission-groups');
    await tablet.getByRole('button', { name: 'Edit' }).first().click();
    await tablet.locator('input[name="rate.manage"]').waitFor();
    expect(await tablet.locator('input[name="rate.manage"]').isChecked()).toBe(true);
    await shot(tablet, 'permission-group-form');
  }, 120_000);

  it('staff close a driver ticket, approve a registered company, show a pickup QR code and read the audit log', async () => {
    const ticket = await srv.api<{ id: number }>(driver, 'POST', 'driver-support/', {
      subject: 'Van tyre flat',
      message: 'Front left tyre is flat at the depot.',
    });
    expect(ticket.status, JSON.stringify(ticket.body)).toBe(201);
    const reg = await fetch(`${srv.url}/api/company/register/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Fresh Foods', email: 'ops@freshfoods.example', password: 'a-long-password-1' }),
    });
    expect(reg.status).toBe(201);
    // The answer names no company (it is the same for a taken e-mail); staff find it among the pending ones.
    const pending = await srv.api<{ results: { id: number; email: string }[] }>(admin, 'GET', 'company/?status=pending');
    const company = pending.body.results.find((c) => c.email === 'ops@freshfoods.example') as { id: number };
    const point = await srv.api<{ id: number }>(admin, 'POST', 'pickup-point/', {
      person_name: 'Pia Pickup',
      email: 'pia@example.com',
      phone: '0400000000',
      address: '3 Mill Lane',
      suburb: 'Alexandria',
      state: 'NSW',
      pincode: '2015',
    });
    expect(point.status, JSON.stringify(point.body)).toBe(201);

    const page = await (await br.context(DESKTOP)).newPage();
    await login(page, srv.url, admin);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

    await page.getByRole('link', { name: 'Driver support' }).click();
    await page.getByRole('cell', { name: 'Van tyre flat' }).click();
    await page.getByLabel('Reply to the driver').fill('A mechanic comes at 10.');
    await page.getByRole('button', { name: 'Close ticket' }).click();
    await waitText(page, 'Ticket closed');
    await waitText(page, 'No open tickets');
    const t = await srv.api<{ status: string; response: string }>(admin, 'GET', `driver-support/${ticket.body.id}/`);
    expect(t.body).toMatchObject({ status: 'closed', response: 'A mechanic comes at 10.' });

    await page.getByRole('link', { name: 'Company approvals' }).click();
    await page.getByRole('cell', { name: 'Fresh Foods' }).waitFor();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
    await waitText(page, /Fresh Foods approved/);
    await waitText(page, 'No registration waiting');
    const co = await srv.api<{ status: string }>(admin, 'GET', `company/${company.id}/`);
    expect(co.body.status).toBe('active');

    await page.getByRole('link', { name: 'Company depots' }).click();
    await page.getByRole('heading', { name: 'Company depot addresses' }).waitFor();

    await page.getByRole('link', { name: 'Pickup QR codes' }).click();
    await page.getByRole('cell', { name: 'Pia Pickup' }).waitFor();
    await page.getByRole('button', { name: 'QR code' }).click();
    const img = page.getByTestId('qr-image');
    await img.waitFor();
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await waitText(page, /^COURIER-PP:\d+:[0-9a-f]{8}$/);
    await shot(page, 'pickup-qr');
    await page.getByRole('button', { name: 'Close', exact: true }).last().click();

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await waitText(page, 'company.status_change');
    await page.getByLabel('Action').fill('user.groups_set');
    await page.getByRole('cell', { name: `user:${supervisor.id}` }).waitFor();
    await shot(page, 'audit-log');
  }, 120_000);
});
