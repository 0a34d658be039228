/**
 * The dispatch board in real Chromium against the real server: 300 parcels around a depot and 8
 * drivers on shift with vans; "Plan" runs the fleet optimiser in a worker thread and the board shows
 * 8 coloured routes with load bars; a stop dragged to another driver moves (and is locked there);
 * a re-plan keeps it; committing creates 8 routes whose parcels reach each driver's phone through
 * the sync feed. Tiles never load here (no internet): markers and lines draw on a blank map.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DISPATCH_PATHS } from '../../client/admin/dispatch/board';
import {
  apiRoutes,
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

const DEPOT = { latitude: -33.8688, longitude: 151.2093 };
const DRIVERS = 8;
const PARCELS = 300;
const DAY = new Date().toISOString().slice(0, 10);
// The planner departs at the later of the shift's start and now: a server clock running from 06:00 UTC of
// today keeps the whole day's shift ahead, whatever hour the test runs at (at 20:45 only 300 parcels' worth
// of three hours was left, and the plan rightly left a third of them out).
const STARTED = Date.now();
const MORNING = Date.parse(`${DAY}T06:00:00Z`);
// `skew`: the test steps the server's clock forward where a rule waits (positions refresh ETAs at most once a minute).
let skew = 0;
const clock = { now: () => MORNING + (Date.now() - STARTED) + skew };

/** A deterministic scatter of parcels ~1-12 km around the depot. */
function spot(i: number): { latitude: number; longitude: number } {
  const angle = (i * 137.508 * Math.PI) / 180;
  const r = 0.01 + 0.1 * Math.sqrt((i + 1) / PARCELS);
  return { latitude: DEPOT.latitude + r * Math.sin(angle), longitude: DEPOT.longitude + r * 1.2 * Math.cos(angle) };
}

async function clearToasts(page: Page): Promise<void> {
  for (let i = 0; i < 10 && (await page.locator('.toast button').count()) > 0; i++)
    await page
      .locator('.toast button')
      .first()
      .click()
      .catch(() => undefined);
}

interface RouteJson {
  id: number;
  driver: number;
  packages: number[];
  date: string;
}
interface SyncJson {
  upserts: { packages: { id: number; assigned_to_id: number | null; sequence_no: number | null; status: string }[] };
}

describe.skipIf(!hasChromium)('dispatch board in Chromium', () => {
  let srv: TestServer;
  let br: Browser;
  let admin: Seeded;
  const drivers: Seeded[] = [];

  beforeAll(async () => {
    const dist = await buildPwa();
    srv = await startServer(dist, { clock });
    admin = await srv.addUser('admin', { name: 'Dora Dispatcher', email: 'dora@example.com' });
    const wh = await srv.api<{ id: number }>(admin, 'POST', 'warehouse/', {
      name: 'Alexandria depot',
      street_address: '1 Depot Rd',
      suburb: 'Alexandria',
      state: 'NSW',
      postcode: '2015',
    });
    expect(wh.status, JSON.stringify(wh.body)).toBe(201);
    expect((await srv.api(admin, 'PUT', `warehouse/${wh.body.id}/position/`, DEPOT)).status).toBe(200);
    for (let d = 0; d < DRIVERS; d++) {
      const who = await srv.addUser('driver', { name: `Driver ${String.fromCharCode(65 + d)}`, email: `drv${d}@example.com` });
      drivers.push(who);
      const van = await srv.api<{ id: number }>(admin, 'POST', 'vehicle/', {
        name: `Van ${d + 1}`,
        type: 'van',
        capacity_parcels: 40,
        capacity_kg: 600,
      });
      expect(van.status).toBe(201);
      // The plan runs on today's date with the real clock and vans leave no earlier than now: a whole-day
      // shift keeps the day's capacity the same whenever the suite runs.
      const shift = await srv.api(admin, 'POST', 'driver-shift/', {
        driver: who.id,
        date: DAY,
        start_time: '00:00',
        end_time: '23:59',
        start_warehouse: wh.body.id,
        vehicle: van.body.id,
      });
      expect(shift.status, JSON.stringify(shift.body)).toBe(201);
    }
    for (let i = 0; i < PARCELS; i += 25) {
      await Promise.all(
        Array.from({ length: Math.min(25, PARCELS - i) }, async (_, k) => {
          const n = i + k;
          const res = await srv.api(admin, 'POST', 'package/', {
            hawb: `DSP-${String(n).padStart(4, '0')}`,
            customer_name: `Customer ${n}`,
            customer_address: `${n} Test St`,
            weight: 2,
            delivery_date: DAY,
            ...spot(n),
          });
          expect(res.status, JSON.stringify(res.body)).toBe(201);
        }),
      );
    }
    br = browsers();
  }, 600_000);

  afterAll(async () => {
    await br?.close();
    await srv?.close();
  });

  it('every API path the board calls is on the server', async () => {
    const routes = await apiRoutes(srv.url);
    const known = new Set(
      [...routes].map((r) =>
        r
          .split(' ')[1]!
          .replace(/^\/api/, '')
          .replace(/\{[^}]+\}/g, '{}'),
      ),
    );
    const wanted = Object.values(DISPATCH_PATHS)
      .map((p) => (typeof p === 'function' ? p(1) : p))
      .map((p) => `/${p.replace(/\/?$/, '/')}`.replace(/\/1\//g, '/{}/'));
    expect(wanted.filter((p) => !known.has(p))).toEqual([]);
  });

  it('plans 300 parcels for 8 drivers, moves a stop by drag, re-plans around it and commits to the phones', async () => {
    const ctx = await br.context({ width: 1280, height: 800 });
    const page = await ctx.newPage();
    await login(page, srv.url, admin);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByRole('link', { name: 'Dispatch board' }).click();
    await page.getByRole('heading', { name: 'Dispatch board' }).waitFor();
    await page.getByTestId('plan-date').fill(DAY);
    await expect.poll(() => page.getByTestId('driver-chip').count()).toBe(DRIVERS);
    await screenshot(page, 'dispatch-empty');

    await page.getByTestId('plan').click();
    // Progress shows while the worker thread plans (default budget 3 s).
    await page.getByTestId('plan-progress').waitFor({ timeout: 10_000 });
    await screenshot(page, 'dispatch-planning');
    await page.getByTestId('plan-summary').waitFor({ timeout: 60_000 });
    const cards = page.getByTestId('plan-route');
    expect(await cards.count()).toBe(DRIVERS);
    const counts = await page.getByTestId('plan-stop-count').allTextContents();
    expect(counts.map(Number).every((n) => n > 0 && n <= 40)).toBe(true);
    expect(counts.map(Number).reduce((a, b) => a + b, 0)).toBe(PARCELS);
    await expect.poll(() => page.getByTestId('unassigned-row').count()).toBe(0);
    expect(await page.getByTestId('load-bar').count()).toBe(DRIVERS);

    // One coloured line per driver on the map, 300 numbered stops and the depot.
    await page.locator('[data-testid="map"][data-state="ready"]').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('path.leaflet-interactive').count()).toBe(DRIVERS);
    const strokes = await page.locator('path.leaflet-interactive').evaluateAll((els) => els.map((e) => e.getAttribute('stroke')));
    expect(new Set(strokes).size).toBe(DRIVERS);
    expect(await page.locator('.leaflet-marker-icon').count()).toBeGreaterThanOrEqual(PARCELS);
    await clearToasts(page);
    await screenshot(page, 'dispatch-proposal');

    // Drag driver B's first stop onto driver A's third stop: it moves there and is locked to A.
    await page.getByTestId('plan-cards').evaluate((el) => el.scrollIntoView());
    const first = cards.nth(1);
    const second = cards.nth(0);
    const driverB = Number(await second.getAttribute('data-driver'));
    const stop = first.getByTestId('plan-stop').first();
    const moved = Number(await stop.getAttribute('data-package'));
    const before = [
      Number(await first.getByTestId('plan-stop-count').textContent()),
      Number(await second.getByTestId('plan-stop-count').textContent()),
    ];
    await stop.dragTo(second.getByTestId('plan-stop').nth(2));
    await expect.poll(async () => Number(await second.getByTestId('plan-stop-count').textContent())).toBe(before[1]! + 1);
    expect(Number(await first.getByTestId('plan-stop-count').textContent())).toBe(before[0]! - 1);
    const landed = second.locator(`[data-package="${moved}"]`);
    expect(await landed.count()).toBe(1);
    expect(await landed.getByTestId('lock').getAttribute('aria-pressed')).toBe('true');
    // It landed before the third stop.
    expect(await second.getByTestId('plan-stop').nth(2).getAttribute('data-package')).toBe(String(moved));
    await screenshot(page, 'dispatch-dragged');

    // Re-plan around the lock: the stop stays with B.
    await page.getByTestId('replan').click();
    await page.getByTestId('plan-progress').waitFor({ timeout: 10_000 });
    await page.getByTestId('plan-progress').waitFor({ state: 'detached', timeout: 60_000 });
    const again = page.locator(`[data-testid="plan-route"][data-driver="${driverB}"] [data-package="${moved}"]`);
    expect(await again.count()).toBe(1);
    expect(await again.getByTestId('lock').getAttribute('aria-pressed')).toBe('true');

    await page.getByTestId('commit').click();
    await page.getByTestId('committed').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('committed').textContent()).toContain(`${DRIVERS} routes created`);
    await clearToasts(page);
    await screenshot(page, 'dispatch-committed');

    // Eight routes exist, and each driver's phone receives its parcels, in order, through the sync feed.
    const list = await srv.api<{ count: number; results: RouteJson[] }>(admin, 'GET', `route/?date=${DAY}&page_size=50`);
    expect(list.body.count).toBe(DRIVERS);
    const byDriver = new Map(list.body.results.map((r) => [r.driver, r]));
    expect(byDriver.get(driverB)!.packages).toContain(moved);
    for (const d of drivers) {
      const route = byDriver.get(d.id)!;
      expect(route.packages.length).toBeGreaterThan(0);
      const sync = await srv.api<SyncJson>(d, 'GET', 'sync/changes/?cursor=0&limit=500');
      expect(sync.status).toBe(200);
      const mine = new Map(sync.body.upserts.packages.map((p) => [p.id, p]));
      for (const [i, id] of route.packages.entries()) {
        expect(mine.get(id)?.assigned_to_id).toBe(d.id);
        expect(mine.get(id)?.sequence_no).toBe(i + 1);
      }
      const phoneRoutes = await srv.api<{ results: { id: number }[] }>(d, 'GET', 'route/driver-routes/');
      expect(phoneRoutes.body.results.map((r) => r.id)).toContain(route.id);
      // Every stop has an arrival time.
      const eta = await srv.api<{ stops: { package: number; eta: string }[] }>(d, 'GET', `route/${route.id}/eta/`);
      expect(eta.body.stops.map((s) => s.package)).toEqual(route.packages);
    }
    await ctx.close();
  }, 300_000);

  it("arrival times show on the route screen, the dashboard (late routes first) and the driver's phone", async () => {
    const list = await srv.api<{ results: RouteJson[] }>(admin, 'GET', `route/?date=${DAY}&page_size=50`);
    const route = list.body.results.find((r) => r.driver === drivers[0]!.id)!;
    // Driver A is far away and has started: their route runs late.
    expect((await srv.api(drivers[0]!, 'POST', `route/${route.id}/status-change/`, { status: 'in_progress' })).status).toBe(200);
    // A minute on: a route's ETAs are refreshed by positions at most once a minute (issue 31).
    skew += 61_000;
    const far = { latitude: DEPOT.latitude - 0.5, longitude: DEPOT.longitude, occurred_at: new Date(clock.now()).toISOString() };
    expect((await srv.api(drivers[0]!, 'POST', 'driver-position/', { positions: [far] })).status).toBe(200);

    const ctx = await br.context({ width: 1280, height: 800 });
    const page = await ctx.newPage();
    await login(page, srv.url, admin);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByTestId('routes-today').waitFor();
    const rows = page.getByTestId('route-eta-row');
    expect(await rows.count()).toBe(DRIVERS);
    expect(await rows.first().getAttribute('data-late')).toBe('true');
    expect(await rows.first().textContent()).toContain('Driver A');
    await page.getByTestId('routes-today').scrollIntoViewIfNeeded();
    await screenshot(page, 'dashboard-routes-today');
    await rows.first().getByRole('link').click();
    await page.getByTestId('stop-list').waitFor();
    await expect.poll(() => page.getByTestId('stop-eta').count()).toBe(route.packages.length);
    await page.getByTestId('stop-list').scrollIntoViewIfNeeded();
    await screenshot(page, 'route-etas');
    await ctx.close();

    // Driver B's phone: ETAs on the list and the next stop, still there offline.
    const phone = await br.context(PHONE);
    const dp = await phone.newPage();
    await dp.goto(`${srv.url}/#/driver`);
    await dp.getByLabel('E-mail').fill(drivers[1]!.email);
    await dp.getByLabel('Password').fill('browser-test-pass-1');
    await dp.getByRole('button', { name: 'Log in' }).click();
    await dp.getByTestId('route-block').first().waitFor({ timeout: 30_000 });
    await expect.poll(() => dp.getByTestId('stop-eta').count(), { timeout: 20_000 }).toBeGreaterThan(10);
    const first = await dp.getByTestId('stop-eta').first().textContent();
    expect(first).toMatch(/~\d\d:\d\d/);
    await dp.getByTestId('next-eta').waitFor();
    await screenshot(dp, 'driver-today-etas');
    await phone.close();
  }, 180_000);

  it('inserts parcels that arrive later into the routes on the road, showing what changes before committing', async () => {
    // Five parcels due today arrive after the plan was committed (driver A's route is under way).
    const NEW = 5;
    const fresh: number[] = [];
    for (let k = 0; k < NEW; k++) {
      const res = await srv.api<{ id: number }>(admin, 'POST', 'package/', {
        hawb: `LATE-${k}`,
        customer_name: `Late ${k}`,
        customer_address: `${k} Late St`,
        weight: 1,
        delivery_date: DAY,
        ...spot(k * 53 + 11),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      fresh.push(res.body.id);
    }
    const ctx = await br.context({ width: 1280, height: 800 });
    const page = await ctx.newPage();
    await login(page, srv.url, admin);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.goto(`${srv.url}/#/dispatch`);
    await page.getByRole('heading', { name: 'Dispatch board' }).waitFor();
    await page.getByTestId('plan-date').fill(DAY);
    await expect.poll(() => page.getByTestId('amend-drop').count()).toBe(DRIVERS);
    await page.getByTestId('amend-preview').click();
    await page.getByTestId('amend-diff').waitFor({ timeout: 30_000 });
    // The diff: per route what is added and moved; the five new parcels, each once, nothing removed.
    const counts = await page
      .getByTestId('amend-route')
      .evaluateAll((els) => els.map((e) => [Number(e.getAttribute('data-added')), Number(e.getAttribute('data-removed'))]));
    expect(counts.reduce((s, [a]) => s + a!, 0)).toBe(NEW);
    expect(counts.every(([, r]) => r === 0)).toBe(true);
    await expect.poll(() => page.locator('[data-testid="amend-stop"][data-state="added"]').count()).toBe(NEW);
    await page.getByTestId('amend-diff').scrollIntoViewIfNeeded();
    await screenshot(page, 'dispatch-amend-diff');
    // Nothing reached the phones yet.
    const before = await srv.api<{ results: RouteJson[] }>(admin, 'GET', `route/?date=${DAY}&page_size=50`);
    expect(before.body.results.flatMap((r) => r.packages).filter((id) => fresh.includes(id))).toEqual([]);

    await page.getByTestId('amend-commit').click();
    await page.getByTestId('amend-done').waitFor({ timeout: 30_000 });
    // Each new parcel is on one route and in that driver's feed as theirs.
    const after = await srv.api<{ results: RouteJson[] }>(admin, 'GET', `route/?date=${DAY}&page_size=50`);
    for (const id of fresh) {
      const route = after.body.results.find((r) => r.packages.includes(id))!;
      expect(route).toBeDefined();
      const who = drivers.find((d) => d.id === route.driver)!;
      const sync = await srv.api<SyncJson>(who, 'GET', 'sync/changes/?cursor=0&limit=1000');
      expect(sync.body.upserts.packages.find((p) => p.id === id)?.assigned_to_id).toBe(who.id);
    }
    await ctx.close();
  }, 90_000);

  it('the board fits a tablet and a phone', async () => {
    for (const size of [TABLET, PHONE, DESKTOP]) {
      const ctx = await br.context(size);
      const page = await ctx.newPage();
      await login(page, srv.url, admin);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await page.goto(`${srv.url}/#/dispatch`);
      await page.getByRole('heading', { name: 'Dispatch board' }).waitFor();
      // The board opens on the browser's own day in Sydney; the suite's shifts are on the server clock's day,
      // which is the day before from 13:00 UTC.
      await page.getByTestId('plan-date').fill(DAY);
      await expect.poll(() => page.getByTestId('driver-chip').count()).toBe(DRIVERS);
      await screenshot(page, 'dispatch-board');
      // Nothing on the board is wider than the board (the shell's own top bar is another screen's matter).
      const wide = await page.getByTestId('dispatch-board').evaluate((board) => {
        const edge = board.getBoundingClientRect().right + 1;
        return [...board.querySelectorAll('*')]
          .filter((e) => e.getBoundingClientRect().right > edge)
          .map((e) => `${e.tagName}.${e.className}`)
          .slice(0, 8);
      });
      expect(wide).toEqual([]);
      await ctx.close();
    }
  }, 120_000);

  // Last: the settings it saves would price every later plan in this file.
  it("the office sets the plan's rates, break and limits and a driver's skills from the browser", async () => {
    const ctx = await br.context(TABLET);
    const page = await ctx.newPage();
    await login(page, srv.url, admin);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.goto(`${srv.url}/#/fleet/plan-settings`);
    await page.getByRole('heading', { name: 'Plan settings' }).waitFor();
    await page.getByLabel('Per hour of route ($)').fill('45');
    await page.getByLabel('Per km ($)').fill('0.7');
    await page.getByLabel('Break (minutes)').fill('30');
    await page.getByLabel('Earliest, hours into the shift').fill('4.5');
    await page.getByLabel('Latest, hours into the shift').fill('5.5');
    await page.getByLabel('Most stops per route').fill('35');
    await page.getByLabel('Driver B').fill('Two-person, dangerous goods');
    await page.getByRole('button', { name: 'Save Driver B’s skills' }).click();
    await page.getByText('Driver B: skills saved').waitFor();
    await page.getByRole('button', { name: 'Save plan settings' }).click();
    await page.getByText('Plan settings saved').waitFor();
    await screenshot(page, 'plan-settings');
    const saved = await srv.api<Record<string, unknown>>(admin, 'GET', 'dispatch/settings/');
    expect(saved.body).toEqual({
      costs: { per_hour: 45, per_km: 0.7, per_vehicle: 0 },
      break: { minutes: 30, after_min: 270, after_max: 330 },
      max_stops: 35,
    });
    const skills = await srv.api<{ results: { driver: number; skills: string[] }[] }>(admin, 'GET', 'dispatch/driver-skills/');
    expect(skills.body.results.find((r) => r.driver === drivers[1]!.id)?.skills).toEqual(['two-person', 'dangerous goods']);
    // The screen reads back what was stored, hours as hours.
    await page.reload();
    await expect.poll(() => page.getByLabel('Latest, hours into the shift').inputValue()).toBe('5.5');
    await ctx.close();
  }, 90_000);
});
