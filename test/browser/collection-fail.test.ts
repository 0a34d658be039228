/**
 * Issue 32, pickup-and-delivery pairs, the day they go wrong: a driver's phone shows each collection
 * with its arrival time (the server's, in the depot's 24-hour clock), the shipper's dock is closed,
 * and with no signal the driver records the collection as not made. The row and its delivery read
 * "Not collected" at once; on reconnecting the failure reaches the office, which finds the parcel
 * waiting for collection again with nobody on it and the attempt, with its reason, on its history.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { localClock, localTimeToInstant } from '../../shared/time/zone';
import type { PlanJob, RouteEtas } from '../../shared/schemas/dispatch';
import {
  DESKTOP,
  PHONE,
  SYDNEY,
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
import { loginDriver, phoneOutbox } from './driverKit';

const ZONE = 'Australia/Sydney';
const DAY = '2026-12-02';
const DEPOT = { latitude: -33.926, longitude: 151.187 }; // Mascot
const DOCK = { latitude: -33.948, longitude: 151.21 }; // Botany
// The server's clock runs from 07:00 that day, as the browsers' (Playwright's clock) do.
const base = localTimeToInstant(DAY, '07:00', ZONE);
const realAt = Date.now();
const clock = { now: () => base + (Date.now() - realAt) };

describe.skipIf(!hasChromium)('a collection that could not be made, recorded offline (issue 32)', () => {
  let srv: TestServer;
  let br: Browser;
  let admin: Seeded;
  let driver: Seeded;
  const ids = new Map<string, number>();

  beforeAll(async () => {
    const dist = await buildPwa();
    srv = await startServer(dist, { clock });
    admin = await srv.addUser('admin', { name: 'Dee Dispatcher' });
    expect((await srv.api(admin, 'PATCH', 'settings/business-profile/', { time_zone: ZONE })).status).toBe(200);
    const wh = await srv.api<{ id: number }>(admin, 'POST', 'warehouse/', {
      name: 'Mascot',
      street_address: '1 Mascot Rd',
      suburb: 'Mascot',
      state: 'NSW',
      postcode: '2020',
    });
    expect((await srv.api(admin, 'PUT', `warehouse/${wh.body.id}/position/`, DEPOT)).status).toBe(200);
    driver = await srv.addUser('driver', { name: 'Sam South' });
    const van = await srv.api<{ id: number }>(admin, 'POST', 'vehicle/', { name: 'Van S1', type: 'van', capacity_kg: 800 });
    const shift = await srv.api(admin, 'POST', 'driver-shift/', {
      driver: driver.id,
      date: DAY,
      start_time: '07:00',
      end_time: '17:00',
      start_warehouse: wh.body.id,
      vehicle: van.body.id,
    });
    expect(shift.status, JSON.stringify(shift.body)).toBe(201);
    const shipper = await srv.addCompany('Harbour Grocer', 'HARB');
    for (const [k, hawb] of ['D-01', 'D-02', 'D-03'].entries()) {
      const r = await srv.api<{ id: number }>(admin, 'POST', 'package/', {
        hawb,
        company: shipper,
        customer_name: `Recipient ${hawb}`,
        customer_address: `${10 + k} Test Street`,
        customer_phone: '+61 400 000 300',
        weight: 3,
        delivery_date: DAY,
        latitude: DEPOT.latitude + 0.012 * (k + 1),
        longitude: DEPOT.longitude - 0.01 * k,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      ids.set(hawb, r.body.id);
    }
    const point = await srv.api<{ id: number }>(admin, 'POST', 'pickup-point/', {
      person_name: 'Harbour Grocer dock',
      email: 'dock@example.com',
      phone: '0400 111 222',
      address: '5 Dock Lane',
      suburb: 'Botany',
      state: 'NSW',
      pincode: '2019',
      company: shipper,
      ...DOCK,
    });
    expect(point.status, JSON.stringify(point.body)).toBe(201);
    const csv = ['P-01', 'P-02'].map(
      (h, k) =>
        `${h},Recipient ${h},${60 + k} Test Street,+61 400 000 300,3,${DAY},${DEPOT.latitude - 0.01},${DEPOT.longitude + 0.02 * (k + 1)}`,
    );
    const form = new FormData();
    form.set(
      'file',
      new File(
        [`hawb,customer_name,customer_address,customer_phone,weight,delivery_date,latitude,longitude\n${csv.join('\n')}\n`],
        'p.csv',
      ),
    );
    form.set('company', String(shipper));
    form.set('pickup_point', String(point.body.id));
    const up = await fetch(`${srv.url}/api/pickup-package/bulk-upload/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await srv.token(admin)}` },
      body: form,
    });
    const body = (await up.json()) as { created: number; report: { id: number | null }[] };
    expect(body.created, JSON.stringify(body)).toBe(2);
    ids.set('P-01', body.report[0]!.id!);
    ids.set('P-02', body.report[1]!.id!);
    br = browsers();
  }, 300_000);

  afterAll(async () => {
    await br?.close();
    await srv?.close();
  });

  async function sydneyContext(viewport: { width: number; height: number }): Promise<BrowserContext> {
    const ctx = await br.context(viewport, SYDNEY);
    await ctx.clock.install({ time: clock.now() });
    return ctx;
  }

  it("shows each collection's time; the driver records one as not made offline, and the office sees it after reconnecting", async () => {
    // The day planned with its pickups as pairs, and committed (the board's own path is dispatcher-day's).
    const job = await srv.api<PlanJob>(admin, 'POST', 'dispatch/plan/', {
      date: DAY,
      time_limit_ms: 300,
      drivers: [driver.id],
      include_pickups: true,
    });
    expect(job.status, JSON.stringify(job.body)).toBe(202);
    let plan = job.body;
    await expect
      .poll(async () => (plan = (await srv.api<PlanJob>(admin, 'GET', `dispatch/plan/${job.body.id}/`)).body).status, { timeout: 60_000 })
      .toBe('done');
    const routes = plan
      .proposal!.routes.filter((r) => r.stops.length)
      .map((r) => ({ driver: r.driver, packages: r.stops.map((s) => s.package) }));
    expect(routes).toHaveLength(1);
    expect(routes[0]!.packages).toHaveLength(7);
    const c = await srv.api<{ routes: { id: number }[] }>(admin, 'POST', `dispatch/plan/${plan.id}/commit/`, { routes });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const routeId = c.body.routes[0]!.id;
    const etas = async () => (await srv.api<RouteEtas>(admin, 'GET', `route/${routeId}/eta/`)).body;
    const before = await etas();
    const closed = ids.get('P-01')!;
    const collectionAt = (e: RouteEtas, id: number) => localClock(Date.parse(e.collections!.find((x) => x.package === id)!.eta!), ZONE);

    // The phone lists each collection with its arrival time, as the office's clock reads it.
    const ctx = await sydneyContext(PHONE);
    const phone = await ctx.newPage();
    await loginDriver(phone, srv.url, driver, 3);
    const pickupRow = (hawb: string) => phone.locator(`li:has([data-testid=stop-row][data-stop=pickup][data-hawb="${hawb}"])`);
    for (const h of ['P-01', 'P-02'])
      await expect
        .poll(() => pickupRow(h).getByTestId('stop-eta').textContent(), { timeout: 30_000 })
        .toBe(` ~${collectionAt(before, ids.get(h)!)}`);

    // The service worker must control the page before the network goes (the screen loads from its cache).
    await phone.evaluate(() =>
      Promise.race([navigator.serviceWorker.ready.then(() => true), new Promise((r) => setTimeout(() => r(false), 60_000))]),
    );
    await phone.reload();
    await phone.getByTestId('today').waitFor();
    await ctx.setOffline(true);
    await phone.locator('[data-testid=sync-chip][data-online=no]').waitFor();

    // At the dock: closed. Recorded offline, with the reason and a note.
    await pickupRow('P-01').getByTestId('collect-fail-link').click();
    await phone.getByTestId('collect-fail-screen').waitFor();
    await phone.getByLabel('Shipper closed').check();
    await phone.getByLabel('Note').fill('Roller door down');
    await screenshot(phone, 'collection-fail-offline');
    await phone.getByTestId('confirm-collect-fail').click();
    await phone.getByTestId('today').waitFor();
    // Not collected: the row and its delivery are done with, the other collection keeps its time.
    await expect.poll(() => pickupRow('P-01').textContent()).toContain('Not collected');
    expect(await pickupRow('P-01').getByTestId('collect-fail-link').count()).toBe(0);
    expect(await pickupRow('P-02').getByTestId('stop-eta').count()).toBe(1);
    expect(await phone.locator('li.done:has([data-stop=delivery][data-hawb="P-01"])').count()).toBe(1);
    expect((await phoneOutbox(phone)).map((r) => r.path)).toEqual([`pickup-point-scan/${closed}/fail/`]);
    await pickupRow('P-01').scrollIntoViewIfNeeded();
    await screenshot(phone, 'collection-fail-today-offline');

    // Signal again: it goes, and the office takes the parcel off the route.
    await ctx.setOffline(false);
    await phone.locator('[data-testid=sync-chip][data-queued="0"]').waitFor({ timeout: 60_000 });
    const row = await srv.api<{ status: string; assigned_to: unknown; route: unknown }>(admin, 'GET', `package/${closed}/`);
    expect(row.body).toMatchObject({ status: 'pickup_requested', assigned_to: null });
    const after = await etas();
    expect(after.stops.map((s) => s.package)).not.toContain(closed);
    expect(after.collections!.map((x) => x.package)).toEqual([ids.get('P-02')]);

    // The office reads it on the parcel's history: what happened, why, and who.
    const office = await (await sydneyContext(DESKTOP)).newPage();
    await login(office, srv.url, admin);
    await office.waitForURL(/#\/(?!login)/);
    await office.goto(`${srv.url}/#/packages/${closed}`);
    const line = office.locator('.timeline li', { hasText: 'Not collected at the pickup point' });
    await line.waitFor({ timeout: 30_000 });
    expect(await line.textContent()).toContain('Shipper closed: Roller door down');
    expect(await line.textContent()).toContain('Sam South');
    await screenshot(office, 'collection-fail-office');
  }, 180_000);
});
