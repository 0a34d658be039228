/**
 * Issue 31, "Done means": a Sydney courier's day in real Chromium, from planning at 06:00 local to the
 * last delivery after 18:00 local. The business is in Australia/Sydney; every browser is in Sydney and
 * en-AU; the server's clock and the browsers' clocks are stepped together through 1 December 2026 (AEDT,
 * +11), a day that starts on 30 November in UTC and ends on 1 December. The dispatcher plans on the board
 * (a 07:00 shift, windows typed as 09:00–12:00...), the driver loads the van and drives with emulated
 * geolocation; the phone, the office's route page and the recipient's tracking page show the same
 * arrival time in local time, the van moves on the live map, and the day's arrival report is 1 December.
 * The phone's batch of positions and the map's refresh are due after half a minute: the test moves every
 * clock forward (`advance`) and waits for the server and the pages to show the new state, never for a time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { localTimeToInstant } from '../../shared/time/zone';
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
  SYDNEY,
} from './harness';
import { drawSignature, loginDriver } from './driverKit';

const ZONE = 'Australia/Sydney';
const DAY = '2026-12-01';
const at = (hhmm: string) => localTimeToInstant(DAY, hhmm, ZONE);
const DEPOT = { latitude: -33.8611, longitude: 151.2107 }; // Circular Quay
// Three stops down George Street, each with its window typed as Sydney's wall clock.
const STOPS = [
  { hawb: 'SYD-0001', latitude: -33.8686, longitude: 151.2073, window: ['09:00', '12:00'] },
  { hawb: 'SYD-0002', latitude: -33.8724, longitude: 151.2067, window: ['13:00', '15:00'] },
  { hawb: 'SYD-0003', latitude: -33.8765, longitude: 151.2062, window: ['18:00', '19:00'] },
] as const;

// The server's clock runs from a moment the test sets, like the browsers' (Playwright's clock) do.
let base = at('06:00');
let realAt = Date.now();
const clock = { now: () => base + (Date.now() - realAt) };
const contexts: BrowserContext[] = [];
/** Moves every clock (server and browsers) to `hhmm` local; they keep ticking from there. */
async function setTime(hhmm: string): Promise<void> {
  base = at(hhmm);
  realAt = Date.now();
  for (const c of contexts) await c.clock.setSystemTime(base);
}

/**
 * Moves every clock forward by `ms` at once, firing the browsers' due timers (the phone's batch of
 * positions, the live map's refresh) instead of waiting for them in real time.
 */
async function advance(ms: number): Promise<void> {
  base += ms;
  for (const c of contexts) await c.clock.fastForward(ms);
}

/** Waits for a state, not for a time. */
async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Minutes of the day of the first `HH:MM` in a text (en-AU's "9:05 am" included). */
function minutesOf(text: string | null): number {
  const m = /(\d{1,2}):(\d\d)\s*(am|pm)?/i.exec(text ?? '');
  if (!m) throw new Error(`no time in ${JSON.stringify(text)}`);
  let h = Number(m[1]);
  const ampm = m[3]?.toLowerCase();
  if (ampm === 'pm' && h < 12) h += 12;
  if (ampm === 'am' && h === 12) h = 0;
  return h * 60 + Number(m[2]);
}
const hm = (hhmm: string) => minutesOf(hhmm);

interface StopEta {
  package: number;
  eta: string;
  /** The arrival promised at commit, which the day's report measures against. */
  planned: string;
  service_s: number;
}

describe.skipIf(!hasChromium)("a Sydney courier's day in Chromium", () => {
  let srv: TestServer;
  let br: Browser;
  let admin: Seeded;
  let driver: Seeded;
  const ids: number[] = [];

  beforeAll(async () => {
    const dist = await buildPwa();
    srv = await startServer(dist, { clock });
    admin = await srv.addUser('admin', { name: 'Dee Dispatcher' });
    driver = await srv.addUser('driver', { name: 'Syd Driver' });
    // The business's zone, set as an admin would (the test server's default is UTC).
    expect((await srv.api(admin, 'PATCH', 'settings/business-profile/', { time_zone: ZONE })).status).toBe(200);
    const wh = await srv.api<{ id: number }>(admin, 'POST', 'warehouse/', {
      name: 'Circular Quay depot',
      street_address: '1 Alfred St',
      suburb: 'Sydney',
      state: 'NSW',
      postcode: '2000',
    });
    expect(wh.status, JSON.stringify(wh.body)).toBe(201);
    expect((await srv.api(admin, 'PUT', `warehouse/${wh.body.id}/position/`, DEPOT)).status).toBe(200);
    const van = await srv.api<{ id: number }>(admin, 'POST', 'vehicle/', {
      name: 'Van 1',
      type: 'van',
      capacity_parcels: 40,
      capacity_kg: 600,
    });
    expect(van.status).toBe(201);
    const shift = await srv.api(admin, 'POST', 'driver-shift/', {
      driver: driver.id,
      date: DAY,
      start_time: '07:00',
      end_time: '19:30',
      start_warehouse: wh.body.id,
      vehicle: van.body.id,
    });
    expect(shift.status, JSON.stringify(shift.body)).toBe(201);
    const shipper = await srv.addCompany('Harbour Florists', 'HARBOUR');
    for (const [i, s] of STOPS.entries()) {
      const r = await srv.api<{ id: number }>(admin, 'POST', 'package/', {
        hawb: s.hawb,
        company: shipper,
        customer_name: `Recipient ${i + 1}`,
        customer_address: `${100 + i * 100} George Street, Sydney NSW 2000`,
        customer_phone: '+61 400 000 200',
        weight: 2,
        delivery_date: DAY,
        latitude: s.latitude,
        longitude: s.longitude,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      ids.push(r.body.id);
      const w = await srv.api(admin, 'PUT', `package/${r.body.id}/window/`, { window_start: s.window[0], window_end: s.window[1] });
      expect(w.status, JSON.stringify(w.body)).toBe(200);
    }
    br = browsers();
  }, 400_000);

  afterAll(async () => {
    await br?.close();
    await srv?.close();
  });

  /** A Sydney browser whose clock is the test's. */
  async function sydneyContext(viewport?: { width: number; height: number }): Promise<BrowserContext> {
    const ctx = await br.context(viewport, SYDNEY);
    await ctx.clock.install({ time: clock.now() });
    contexts.push(ctx);
    return ctx;
  }

  it('plans at 06:00, drives from 07:00 and delivers the last stop after 18:00, all in Sydney time', async () => {
    // 06:00: the dispatcher plans the day on the board.
    const office = await sydneyContext({ width: 1280, height: 800 });
    const board = await office.newPage();
    expect(Math.abs((await board.evaluate(() => Date.now())) - clock.now())).toBeLessThan(60_000);
    await login(board, srv.url, admin);
    await board.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await board.goto(`${srv.url}/#/dispatch`);
    await board.getByRole('heading', { name: 'Dispatch board' }).waitFor();
    await board.getByTestId('plan-date').fill(DAY);
    await expect.poll(() => board.getByTestId('driver-chip').count()).toBe(1);
    await board.getByTestId('plan').click();
    await board.getByTestId('plan-summary').waitFor({ timeout: 60_000 });
    const card = board.getByTestId('plan-route').first();
    // The shift as typed, and each stop's arrival inside its window, in Sydney's wall clock.
    expect(await card.textContent()).toContain('07:00–19:30');
    for (const s of STOPS) {
      const stop = card.locator(`[data-testid=plan-stop][data-hawb="${s.hawb}"]`);
      expect(await stop.textContent()).toContain(`window ${s.window[0]}–${s.window[1]}`);
      const eta = minutesOf(await stop.getByTestId('plan-eta').textContent());
      expect(eta).toBeGreaterThanOrEqual(hm(s.window[0]));
      expect(eta).toBeLessThanOrEqual(hm(s.window[1]));
    }
    await screenshot(board, 'sydney-plan');
    await board.getByTestId('commit').click();
    await board.getByTestId('committed').waitFor({ timeout: 30_000 });
    const routes = await srv.api<{ results: { id: number; date: string; status: string }[] }>(admin, 'GET', `route/?date=${DAY}`);
    expect(routes.body.results).toHaveLength(1);
    const routeId = routes.body.results[0]!.id;
    // 06:00 in Sydney is 19:00 UTC on 30 November: the route's day is Sydney's.
    expect(routes.body.results[0]!.date).toBe(DAY);
    const routeStatus = async () => (await srv.api<{ status: string }>(admin, 'GET', `route/${routeId}/`)).body.status;
    expect(await routeStatus()).toBe('planned');

    // 07:00: the driver's phone at the depot, location allowed; the van is loaded and the route starts.
    await setTime('07:00');
    const phoneCtx = await sydneyContext(PHONE);
    await phoneCtx.setGeolocation(DEPOT);
    await phoneCtx.grantPermissions(['geolocation'], { origin: srv.url });
    const phone = await phoneCtx.newPage();
    await loginDriver(phone, srv.url, driver, STOPS.length);
    await screenshot(phone, 'sydney-phone-morning');
    await phone.locator('.drv-tabs').getByRole('link', { name: /Scan/ }).click();
    await phone.getByTestId('scan-screen').waitFor();
    for (const s of STOPS) {
      await phone.locator('#drv-scan').focus();
      await phone.keyboard.type(s.hawb, { delay: 5 });
      await phone.keyboard.press('Enter');
      await phone.getByTestId('scan-result').filter({ hasText: s.hawb }).waitFor();
    }
    await until('the route to start', routeStatus, (s) => s === 'in_progress');
    // Where the server last has the van (the office's positions list).
    const serverLat = async () =>
      (
        await srv.api<{ results: { driver: { id: number }; position: { latitude: number } }[] }>(admin, 'GET', 'driver-position/')
      ).body.results.find((r) => r.driver.id === driver.id)?.position.latitude;

    // The live map: the van at the depot.
    const mapPage = await office.newPage();
    await mapPage.goto(`${srv.url}/#/map`);
    const vanText = () => mapPage.getByTestId('map-driver').filter({ hasText: driver.name }).textContent();
    await expect.poll(vanText, { timeout: 30_000 }).toContain(DEPOT.latitude.toFixed(5));
    await screenshot(mapPage, 'sydney-map-depot');

    // The recipients' tracking links (the page a message links to), opened on a Sydney phone of their own.
    const tokens: string[] = [];
    for (const id of ids) tokens.push((await srv.api<{ token: string }>(admin, 'GET', `package/${id}/tracking-link/`)).body.token);
    const trackPage = await (await sydneyContext(PHONE)).newPage();

    const promised = new Map<number, { planned: number; serviceMs: number }>();
    /** Drives to a stop at `hhmm` and checks the phone, the office and the recipient agree on its arrival time. */
    const arrive = async (i: number, hhmm: string) => {
      const s = STOPS[i]!;
      await setTime(hhmm);
      await phoneCtx.setGeolocation({ latitude: s.latitude, longitude: s.longitude });
      // The phone keeps the fix and sends its batch half a minute later; the server takes it (refreshing the ETAs).
      const kept = () =>
        phone.evaluate((lat) => (localStorage.getItem('courier.driver.positions') ?? '').includes(String(lat)), s.latitude);
      await until('the phone to keep the fix', kept, (yes) => yes);
      await advance(31_000);
      await until('the position on the server', serverLat, (lat) => lat === s.latitude, 60_000);
      // The live map moves at its next refresh.
      await advance(16_000);
      await expect.poll(vanText, { timeout: 30_000 }).toContain(s.latitude.toFixed(5));
      const serverEta = async () =>
        (await srv.api<{ stops: StopEta[]; time_zone: string }>(admin, 'GET', `route/${routeId}/eta/`)).body.stops.find(
          (x) => x.package === ids[i],
        );
      const stored = await until('an ETA for the stop', serverEta, (e) => e != null);
      promised.set(ids[i]!, { planned: Date.parse(stored!.planned), serviceMs: stored!.service_s * 1000 });
      expect(Date.parse(stored!.eta)).toBeGreaterThanOrEqual(at(s.window[0]) - 60_000);
      const etaMin = hm(
        new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, hour: '2-digit', minute: '2-digit' }).format(Date.parse(stored!.eta)),
      );

      // The phone: the same stop's time, on its own clock and zone.
      await phone.goto(`${srv.url}/#/driver`);
      const phoneEta = phone.locator(`[data-testid=stop-row][data-hawb="${s.hawb}"] [data-testid=stop-eta]`);
      await phoneEta.waitFor({ timeout: 30_000 });
      await expect.poll(async () => Math.abs(minutesOf(await phoneEta.textContent()) - etaMin), { timeout: 30_000 }).toBeLessThanOrEqual(1);

      // The office's route page.
      const routePage = await office.newPage();
      await routePage.goto(`${srv.url}/#/routes/${routeId}`);
      const officeEta = routePage.getByTestId('stop').filter({ hasText: s.hawb }).getByTestId('stop-eta');
      await officeEta.waitFor({ timeout: 30_000 });
      expect(Math.abs(minutesOf(await officeEta.textContent()) - etaMin)).toBeLessThanOrEqual(1);
      await screenshot(routePage, `sydney-route-${hhmm.replace(':', '')}`);
      await routePage.close();

      // The recipient's page, on their own Sydney phone: the half-hour band around the same time, in local time.
      // (The link opens in the same tab as the last stop's: wait for this parcel's headline, not the previous one's.)
      const headline = trackPage.locator('.trk-status');
      const band = headline.locator('.trk-detail');
      await trackPage.goto(`${srv.url}/track.html#${tokens[i]!}`);
      await expect
        .poll(async () => (await headline.textContent().catch(() => null)) ?? '', { timeout: 30_000 })
        .toMatch(new RegExp(`Parcel ${s.hawb}[\\s\\S]*Arriving between`));
      const [from, to] = [...(await band.textContent())!.matchAll(/\d{1,2}:\d\d\s*(?:am|pm)?/gi)].map((m) => minutesOf(m[0]));
      expect(to! - from!).toBe(30);
      expect(etaMin).toBeGreaterThanOrEqual(from!);
      expect(etaMin).toBeLessThanOrEqual(to!);
      // Never before the window opens: a van early for it waits and rings at the opening.
      expect(from!).toBeGreaterThanOrEqual(hm(s.window[0]));
      await screenshot(trackPage, `sydney-track-${hhmm.replace(':', '')}`);
      if (i === 0) {
        // The shipper's office in Perth opens the same link: the same Sydney wall clock as the message and the phone.
        // (Its own clock: Playwright's fake Date, which the others need, upsets @date-fns/tz's zone arithmetic.)
        const perth = await (await br.context(PHONE, { ...SYDNEY, timezoneId: 'Australia/Perth' })).newPage();
        await perth.goto(`${srv.url}/track.html#${tokens[i]!}`);
        await expect
          .poll(
            async () =>
              (await perth
                .locator('.trk-detail')
                .textContent()
                .catch(() => null)) ?? '',
          )
          .toBe(await band.textContent());
        await perth.context().close();
      }
      await screenshot(phone, `sydney-phone-${hhmm.replace(':', '')}`);
      await screenshot(mapPage, `sydney-map-${hhmm.replace(':', '')}`);
    };

    /** Delivers a stop on the phone at `hhmm`. */
    const deliver = async (i: number, hhmm: string) => {
      await setTime(hhmm);
      await phone.goto(`${srv.url}/#/driver/stop/${ids[i]}`);
      await phone.getByRole('link', { name: 'Deliver', exact: true }).click();
      await phone.getByTestId('deliver-screen').waitFor();
      await phone.getByLabel('Received by').fill(`Recipient ${i + 1}`);
      await drawSignature(phone);
      await phone.getByTestId('confirm-delivery').click();
      await phone.getByTestId('undo-bar').waitFor();
      await phone.getByRole('button', { name: 'OK' }).click();
      await until(
        `delivery of ${STOPS[i]!.hawb}`,
        async () => (await srv.api<{ status: string }>(admin, 'GET', `package/${ids[i]}/`)).body.status,
        (st) => st === 'delivered',
      );
    };

    await arrive(0, '08:40');
    await deliver(0, '09:05');
    await arrive(1, '12:50');
    await deliver(1, '13:10');
    await arrive(2, '17:50');
    await deliver(2, '18:12');

    // The day's report: 1 December, Sydney's day, though every stop was worked on 30 November or 1 December UTC.
    // Each stop's error: its arrival (the delivery as recorded, less the time at the door) against the promise at commit.
    const errors: number[] = [];
    for (const id of ids) {
      const p = await srv.api<{ delivered_at: string }>(admin, 'GET', `photo-upload/${id}/`);
      const { planned, serviceMs } = promised.get(id)!;
      errors.push((Date.parse(p.body.delivered_at) - serviceMs - planned) / 60_000);
    }
    const meanAbs = errors.reduce((a, e) => a + Math.abs(e), 0) / errors.length;
    const report = await srv.api<{
      results: { date: string; stops: number; mean_abs_error_min: number; p90_abs_error_min: number; in_window: number }[];
    }>(admin, 'GET', `report/arrival-accuracy/?by=day&from=${DAY}&to=${DAY}`);
    expect(report.status).toBe(200);
    expect(report.body.results.map((r) => [r.date, r.stops])).toEqual([[DAY, 3]]);
    const day = report.body.results[0]!;
    expect(Math.abs(day.mean_abs_error_min - meanAbs)).toBeLessThan(0.1);
    expect(Math.abs(day.p90_abs_error_min - Math.max(...errors.map(Math.abs)))).toBeLessThan(0.1);
    // Every delivery was inside its window (09:05, 13:10, 18:12 against 09–12, 13–15, 18–19).
    expect(day.in_window).toBe(1);
    // Nothing on 30 November, Sydney's yesterday, though the morning's stops were worked on that UTC day.
    const before = await srv.api<{ results: unknown[] }>(admin, 'GET', `report/arrival-accuracy/?by=day&from=2026-11-30&to=2026-11-30`);
    expect(before.body.results).toEqual([]);
    const dash = await office.newPage();
    await dash.goto(`${srv.url}/#/`);
    const accuracy = dash.getByTestId('arrival-accuracy');
    await accuracy.waitFor({ timeout: 30_000 });
    await accuracy.locator('select').selectOption('day');
    await expect.poll(() => accuracy.getByTestId('arrival-row').first().textContent()).toContain(DAY);
    await accuracy.scrollIntoViewIfNeeded();
    await screenshot(dash, 'sydney-report');
  }, 420_000);
});
