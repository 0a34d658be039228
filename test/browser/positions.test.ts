/**
 * Vans that say where they are (issue 31, section 2) in real Chromium: the driver first refuses the
 * phone's location (said once, the day goes on), then allows it; its geolocation, emulated along
 * George Street, Sydney, reaches the server once and in the phone's order, an offline stretch
 * included; the route went in progress, and the office's map and the recipient's page move with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { driverPosition, pkg } from '../../server/db/schema/index';
import { PHONE, browsers, buildPwa, hasChromium, startServer, type Browser, type Seeded, type TestServer } from './harness';
import { loginDriver, seedDay } from './driverKit';

// Circular Quay to Town Hall along George Street: each step ~400 m, a ~200 m grid cell apart on the recipient's page.
const PATH = [
  { latitude: -33.8611, longitude: 151.2107 },
  { latitude: -33.8648, longitude: 151.2079 },
  { latitude: -33.8686, longitude: 151.2073 },
  { latitude: -33.8724, longitude: 151.2067 },
];
const HAWBS = ['VAN-0001', 'VAN-0002', 'VAN-0003'];

/** Waits for a state on the server, not for a time. */
async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const buffered = (page: Page) =>
  page.evaluate(() => (JSON.parse(localStorage.getItem('courier.driver.positions') ?? '[]') as unknown[]).length);

describe.skipIf(!hasChromium)('van positions in Chromium', () => {
  let srv: TestServer;
  let br: Browser;
  let admin: Seeded;
  let driver: Seeded;

  beforeAll(async () => {
    const dist = await buildPwa();
    srv = await startServer(dist);
    admin = await srv.addUser('admin');
    driver = await srv.addUser('driver', { name: 'Vic Van' });
    br = browsers();
  }, 400_000);

  afterAll(async () => {
    await br?.close();
    await srv?.close();
  });

  it("explains a refused location once; allowed, the van's positions arrive once, in order, across an offline stretch, and the map and tracking page move", async () => {
    const parcels = await seedDay(srv, admin, driver, HAWBS);
    const today = new Date().toISOString().slice(0, 10);
    const made = await srv.api<{ route: { id: number } }>(admin, 'POST', 'route/', {
      name: 'George St',
      date: today,
      driver: driver.id,
      packages: parcels.map((p) => p.id),
    });
    expect(made.status).toBe(201);
    const routeId = made.body.route.id;
    const link = await srv.api<{ token: string }>(admin, 'GET', `package/${parcels[0]!.id}/tracking-link/`);
    expect(link.status).toBe(200);

    const ctx = await br.context(PHONE);
    const page = await ctx.newPage();
    // The driver said no to the browser's question.
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Browser.setPermission', { permission: { name: 'geolocation' }, setting: 'denied', origin: srv.url });
    // Every answer the server gave the phone's position batches: together they must store each reading once.
    const answers: { stored: number; duplicates: number }[] = [];
    page.on('response', (res) => {
      if (res.url().endsWith('/api/driver-position/') && res.request().method() === 'POST' && res.ok()) {
        void res.json().then(
          (b: { stored: number; duplicates: number }) => answers.push(b),
          () => undefined,
        );
      }
    });
    await loginDriver(page, srv.url, driver, HAWBS.length);
    const rows = () => srv.db.select().from(driverPosition).all();
    const routeStatus = async () => (await srv.api<{ status: string }>(admin, 'GET', `route/${routeId}/`)).body.status;
    // Off duty (nothing on the van yet): the phone does not even look.
    expect(await page.getByTestId('location-note').count()).toBe(0);
    expect(await routeStatus()).toBe('planned');

    // The first parcel goes on the van: on duty, the refusal is said once, dismissed it stays so.
    await page.locator('.drv-tabs').getByRole('link', { name: /Scan/ }).click();
    await page.getByTestId('scan-screen').waitFor();
    await page.locator('#drv-scan').focus();
    await page.keyboard.type(HAWBS[0]!, { delay: 5 });
    await page.keyboard.press('Enter');
    await page.getByTestId('location-note').waitFor({ timeout: 15_000 });
    await page.getByTestId('location-note-ok').click();
    await page.getByTestId('location-note').waitFor({ state: 'detached' });
    expect(await page.evaluate((key) => localStorage.getItem(key), 'courier.driver.locationNote')).toBe('dismissed');
    // The day goes on: the load reached the office and started the route, with no position at all.
    await until(
      'the load',
      async () => (await srv.db.select().from(pkg).where(eq(pkg.id, parcels[0]!.id)).get())?.status,
      (s) => s === 'out_for_delivery',
    );
    await until('the route to start', routeStatus, (s) => s === 'in_progress');
    expect(await rows()).toHaveLength(0);

    // Location allowed in the settings mid-shift: the phone watches again and the first fix goes at once.
    await ctx.setGeolocation(PATH[0]!);
    await ctx.grantPermissions(['geolocation'], { origin: srv.url });
    await until('the first position', rows, (r) => r.length === 1);
    const mapAt = async () =>
      (
        await srv.api<{ drivers: { driver: { id: number }; position: { latitude: number; longitude: number } | null }[] }>(
          admin,
          'GET',
          'dashboard/map/',
        )
      ).body.drivers.find((d) => d.driver.id === driver.id)?.position ?? null;
    expect(await mapAt()).toMatchObject(PATH[0]!);

    // No signal for three more fixes along the street: they wait on the phone, none reaches the server.
    await ctx.setOffline(true);
    for (const [i, at] of PATH.slice(1).entries()) {
      await ctx.setGeolocation(at);
      await page.waitForFunction(
        (n) => (JSON.parse(localStorage.getItem('courier.driver.positions') ?? '[]') as unknown[]).length >= n,
        i + 1,
        { timeout: 15_000 },
      );
    }
    expect(await buffered(page)).toBeGreaterThanOrEqual(3);
    expect(await rows()).toHaveLength(1);

    // Signal back: one batch, every reading once, in the phone's order.
    await ctx.setOffline(false);
    await until(
      'the phone to empty its buffer',
      () => buffered(page),
      (n) => n === 0,
    );
    const all = await until('the offline stretch', rows, (r) => r.length >= PATH.length);
    const ordered = [...all].sort((a, b) => a.occurred_at - b.occurred_at);
    // A fix repeated after a minute standing still is a reading of its own; the places, in order, are the path.
    const places = ordered
      .map((r) => ({ latitude: r.latitude, longitude: r.longitude }))
      .filter((p, i, list) => i === 0 || p.latitude !== list[i - 1]!.latitude || p.longitude !== list[i - 1]!.longitude);
    expect(places).toEqual(PATH);
    await until(
      'every answer',
      async () => answers.reduce((s, a) => s + a.stored, 0),
      (n) => n >= all.length,
    );
    expect(answers.reduce((s, a) => s + a.stored, 0)).toBe(all.length);
    expect(answers.reduce((s, a) => s + a.duplicates, 0)).toBe(0);

    // The office's map shows the newest fix; the recipient's page moved too (rounded, as before).
    expect(await mapAt()).toMatchObject(PATH[3]!);
    // Asked once, with no login: the public page is rate-limited.
    const res = await fetch(`${srv.url}/api/public/track/${link.body.token}/`);
    expect(res.status).toBe(200);
    const seen = ((await res.json()) as { driver_position: { latitude: number; longitude: number } | null }).driver_position;
    expect(seen).not.toBeNull();
    expect(Math.abs(seen!.latitude - PATH[3]!.latitude)).toBeLessThan(0.002);
    expect(Math.abs(seen!.latitude - PATH[0]!.latitude)).toBeGreaterThan(0.008);
    // The ETAs follow the van: the route's remaining stops have them.
    const eta = await srv.api<{ stops: { package: number }[] }>(admin, 'GET', `route/${routeId}/eta/`);
    expect(eta.body.stops.map((s) => s.package)).toContain(parcels[0]!.id);
  }, 90_000);
});
