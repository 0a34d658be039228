/**
 * Issue 32, "Done means": a Sydney dispatcher's day in real Chromium. The office sets its rates, a
 * 30-minute break and balanced routes in Plan settings and gives a driver the two-person skill; a
 * refrigerated van and four drivers on shift at two depots (one shift ends at the other depot) plan
 * 24 parcels, some needing the fridge or two people, some with windows. The board puts the skilled
 * parcels on the right vans, counts the drive back in every duration and "back" time, shows breaks
 * and waits; the plan is committed and a driver's phone shows its route. At 11:00 local, with the
 * morning's stops delivered, 20 more parcels arrive and are inserted into the routes on the road from
 * the board, which shows what changes before committing; then the phone shows the new stops through
 * its feed and a recipient's tracking page moves its time.
 * Two pickups waiting at a shipper's pickup point are planned with the day as pairs: collected
 * there, then delivered by the same van (both need two people, so Sam's); the phone lists each
 * collection before its delivery, and the scan at the point puts the parcel on the van.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { localClock, localTimeToInstant } from '../../shared/time/zone';
import type { AmendProposal, Proposal } from '../../shared/schemas/dispatch';
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
import { loginDriver } from './driverKit';

const ZONE = 'Australia/Sydney';
const DAY = '2026-12-01';
const at = (hhmm: string) => localTimeToInstant(DAY, hhmm, ZONE);
const NORTH = { latitude: -33.7969, longitude: 151.183 }; // Chatswood
const SOUTH = { latitude: -33.926, longitude: 151.187 }; // Mascot

// The server's clock runs from a moment the test sets, as the browsers' (Playwright's clock) do.
let base = at('06:00');
let realAt = Date.now();
const clock = { now: () => base + (Date.now() - realAt) };
const contexts: BrowserContext[] = [];
async function setTime(hhmm: string): Promise<void> {
  base = at(hhmm);
  realAt = Date.now();
  for (const c of contexts) await c.clock.setSystemTime(base);
}

interface ParcelSpec {
  hawb: string;
  near: { latitude: number; longitude: number };
  k: number;
  window?: [string, string];
  skills?: string[];
}
/** A deterministic spot 1.5-5 km from a depot. */
function spot(near: { latitude: number; longitude: number }, k: number) {
  const angle = (k * 137.508 * Math.PI) / 180;
  const r = 0.014 + 0.03 * ((k % 7) / 7);
  return { latitude: near.latitude + r * Math.sin(angle), longitude: near.longitude + r * 1.2 * Math.cos(angle) };
}

const MORNING: ParcelSpec[] = [
  ...Array.from({ length: 12 }, (_, k): ParcelSpec => ({ hawb: `N-${String(k + 1).padStart(2, '0')}`, near: NORTH, k })),
  ...Array.from({ length: 12 }, (_, k): ParcelSpec => ({ hawb: `S-${String(k + 1).padStart(2, '0')}`, near: SOUTH, k: k + 3 })),
].map((p) => {
  // Chilled goods (one of them in the south), two heavy items needing two people, and windows.
  if (['N-02', 'N-05', 'S-06'].includes(p.hawb)) return { ...p, skills: ['refrigerated'] };
  if (['S-03', 'S-08'].includes(p.hawb)) return { ...p, skills: ['two-person'] };
  if (p.hawb === 'N-03') return { ...p, window: ['09:00', '10:00'] as [string, string] };
  if (p.hawb === 'S-04') return { ...p, window: ['14:00', '15:00'] as [string, string] };
  if (p.hawb === 'N-07') return { ...p, window: ['15:00', '16:00'] as [string, string] };
  if (p.hawb === 'S-09') return { ...p, window: ['15:30', '16:30'] as [string, string] };
  return p;
});
// The 11:00 arrivals: one chilled (only the fridge van may take it), one for two people.
const LATE = Array.from({ length: 20 }, (_, k): ParcelSpec => ({
  hawb: `L-${String(k + 1).padStart(2, '0')}`,
  near: k % 2 ? SOUTH : NORTH,
  k: k + 20,
  ...(k === 4 ? { skills: ['refrigerated'] } : k === 7 ? { skills: ['two-person'] } : {}),
}));

/** Minutes of the day of a `HH:MM` text. */
const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

describe.skipIf(!hasChromium)("a dispatcher's day in Chromium: rules, skills, two depots, and parcels inserted at 11:00", () => {
  let srv: TestServer;
  let br: Browser;
  let admin: Seeded;
  const drivers: Record<'fiona' | 'nate' | 'sam' | 'sue', Seeded> = {} as never;
  const ids = new Map<string, number>();
  let shipper = 0;
  let pickupPoint = 0;
  const PICKUPS = ['P-01', 'P-02'];

  beforeAll(async () => {
    const dist = await buildPwa();
    srv = await startServer(dist, { clock, publicUrl: true });
    admin = await srv.addUser('admin', { name: 'Dee Dispatcher' });
    expect((await srv.api(admin, 'PATCH', 'settings/business-profile/', { time_zone: ZONE })).status).toBe(200);
    const depot = async (name: string, pos: { latitude: number; longitude: number }) => {
      const wh = await srv.api<{ id: number }>(admin, 'POST', 'warehouse/', {
        name,
        street_address: `1 ${name} Rd`,
        suburb: name,
        state: 'NSW',
        postcode: '2000',
      });
      expect(wh.status, JSON.stringify(wh.body)).toBe(201);
      expect((await srv.api(admin, 'PUT', `warehouse/${wh.body.id}/position/`, pos)).status).toBe(200);
      return wh.body.id;
    };
    const north = await depot('Chatswood', NORTH);
    const south = await depot('Mascot', SOUTH);
    const crew = [
      ['fiona', 'Fiona Fridge', 'Fridge van', ['refrigerated'], north, north],
      ['nate', 'Nate North', 'Van N2', [], north, north],
      ['sam', 'Sam South', 'Van S1', [], south, south],
      // Starts at Mascot and ends at Chatswood (the van is garaged there).
      ['sue', 'Sue Shuttle', 'Van S2', [], south, north],
    ] as const;
    for (const [key, name, vanName, skills, from, to] of crew) {
      const who = await srv.addUser('driver', { name, email: `${key}@example.com` });
      drivers[key] = who;
      const van = await srv.api<{ id: number }>(admin, 'POST', 'vehicle/', {
        name: vanName,
        type: 'van',
        capacity_parcels: 40,
        capacity_kg: 800,
        skills,
      });
      expect(van.status, JSON.stringify(van.body)).toBe(201);
      const shift = await srv.api(admin, 'POST', 'driver-shift/', {
        driver: who.id,
        date: DAY,
        start_time: '07:00',
        end_time: '17:00',
        start_warehouse: from,
        end_warehouse: to,
        vehicle: van.body.id,
      });
      expect(shift.status, JSON.stringify(shift.body)).toBe(201);
    }
    // A shipper's parcels: a recipient's tracking page needs the company's recipient settings.
    shipper = await srv.addCompany('Harbour Grocer', 'HARB');
    for (const p of MORNING) await addParcel(p);
    await addPickups();
    br = browsers();
  }, 400_000);

  afterAll(async () => {
    await br?.close();
    await srv?.close();
  });

  async function addParcel(p: ParcelSpec): Promise<number> {
    const r = await srv.api<{ id: number }>(admin, 'POST', 'package/', {
      hawb: p.hawb,
      company: shipper,
      customer_name: `Recipient ${p.hawb}`,
      customer_address: `${10 + p.k} Test Street`,
      customer_phone: '+61 400 000 300',
      weight: 3,
      delivery_date: DAY,
      ...spot(p.near, p.k),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    ids.set(p.hawb, r.body.id);
    if (p.window || p.skills) {
      const w = await srv.api(admin, 'PUT', `package/${r.body.id}/window/`, {
        ...(p.window ? { window_start: p.window[0], window_end: p.window[1] } : {}),
        ...(p.skills ? { skills: p.skills } : {}),
      });
      expect(w.status, JSON.stringify(w.body)).toBe(200);
    }
    return r.body.id;
  }

  /** Two parcels Harbour Grocer asks to have collected at its back dock and delivered today (issue 32, pairs). */
  async function addPickups(): Promise<void> {
    const point = await srv.api<{ id: number }>(admin, 'POST', 'pickup-point/', {
      person_name: 'Harbour Grocer dock',
      email: 'dock@example.com',
      phone: '0400 111 222',
      address: '5 Dock Lane',
      suburb: 'Botany',
      state: 'NSW',
      pincode: '2019',
      company: shipper,
      ...spot(SOUTH, 40),
    });
    expect(point.status, JSON.stringify(point.body)).toBe(201);
    pickupPoint = point.body.id;
    const rows = PICKUPS.map((h, k) => {
      const to = spot(SOUTH, 50 + k);
      return `${h},Recipient ${h},${60 + k} Test Street,+61 400 000 300,3,${DAY},${to.latitude},${to.longitude}`;
    });
    const form = new FormData();
    form.set(
      'file',
      new File(
        [`hawb,customer_name,customer_address,customer_phone,weight,delivery_date,latitude,longitude\n${rows.join('\n')}\n`],
        'p.csv',
      ),
    );
    form.set('company', String(shipper));
    form.set('pickup_point', String(pickupPoint));
    const up = await fetch(`${srv.url}/api/pickup-package/bulk-upload/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await srv.token(admin)}` },
      body: form,
    });
    const body = (await up.json()) as { created: number; report: { id: number | null }[] };
    expect(body.created, JSON.stringify(body)).toBe(PICKUPS.length);
    for (const [k, h] of PICKUPS.entries()) {
      const id = body.report[k]!.id!;
      ids.set(h, id);
      expect((await srv.api(admin, 'PUT', `package/${id}/window/`, { skills: ['two-person'] })).status).toBe(200);
    }
  }

  async function sydneyContext(viewport?: { width: number; height: number }): Promise<BrowserContext> {
    const ctx = await br.context(viewport, SYDNEY);
    await ctx.clock.install({ time: clock.now() });
    contexts.push(ctx);
    return ctx;
  }

  /** The last finished plan the board read from the server. */
  function watchPlans(page: Page): { last: Proposal | null } {
    const seen: { last: Proposal | null } = { last: null };
    page.on('response', async (res) => {
      if (!/\/api\/dispatch\/plan\/\d+\/$/.test(res.url()) || res.request().method() !== 'GET') return;
      const body = (await res.json().catch(() => null)) as { status?: string; proposal?: Proposal } | null;
      if (body?.status === 'done' && body.proposal) seen.last = body.proposal;
    });
    return seen;
  }

  it('plans a day with a break, balance, skills and two depots, inserts 20 parcels at 11:00, and the phone and the recipient follow', async () => {
    // 06:00: Plan settings, as the office sets them.
    const office = await sydneyContext({ width: 1366, height: 900 });
    const page = await office.newPage();
    await login(page, srv.url, admin);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.goto(`${srv.url}/#/fleet/plan-settings`);
    await page.getByRole('heading', { name: 'Plan settings' }).waitFor();
    await page.getByLabel('Per hour of route ($)').fill('45');
    await page.getByLabel('Per km ($)').fill('0.7');
    await page.getByLabel('Break (minutes)').fill('30');
    await page.getByLabel('Earliest, hours into the shift').fill('4.5');
    await page.getByLabel('Latest, hours into the shift').fill('5.5');
    await page.getByLabel('Share work evenly by').selectOption('stops');
    await page.getByLabel('How much (0 to 1)').fill('0.5');
    await page.getByRole('button', { name: 'Save plan settings' }).click();
    await page.getByText('Plan settings saved').waitFor();
    await page.getByLabel('Sam South').fill('two-person');
    await page.getByRole('button', { name: 'Save Sam South’s skills' }).click();
    await page.getByText('Sam South: skills saved').waitFor();
    await screenshot(page, 'dispatcher-day-settings');
    const saved = await srv.api<Record<string, unknown>>(admin, 'GET', 'dispatch/settings/');
    expect(saved.body).toMatchObject({ break: { minutes: 30, after_min: 270, after_max: 330 }, balance: { by: 'stops', weight: 0.5 } });

    // The board: plan the day.
    const plans = watchPlans(page);
    await page.goto(`${srv.url}/#/dispatch`);
    await page.getByRole('heading', { name: 'Dispatch board' }).waitFor();
    await page.getByTestId('plan-date').fill(DAY);
    await expect.poll(() => page.getByTestId('driver-chip').count()).toBe(4);
    await page.getByTestId('include-pickups').click();
    await page.getByTestId('plan').click();
    await page.getByTestId('plan-summary').waitFor({ timeout: 90_000 });
    await expect.poll(() => plans.last != null).toBe(true);
    const plan = plans.last!;
    expect(plan.unassigned.map((u) => `${u.hawb}: ${u.message}`)).toEqual([]);
    const card = (who: Seeded) => page.locator(`[data-testid=plan-route][data-driver="${who.id}"]`);
    const onCard = (who: Seeded, hawb: string) => card(who).locator(`[data-testid=plan-stop][data-hawb="${hawb}"]`);
    // Skilled parcels on the vans that can take them: the fridge van (even from the south), two people with Sam.
    for (const h of ['N-02', 'N-05', 'S-06']) expect(await onCard(drivers.fiona, h).count(), h).toBe(1);
    for (const h of ['S-03', 'S-08']) expect(await onCard(drivers.sam, h).count(), h).toBe(1);
    // Each pickup is collected at the dock and delivered later by the same van, the card tagging both stops.
    for (const h of PICKUPS)
      expect(await onCard(drivers.sam, h).evaluateAll((els) => els.map((e) => e.getAttribute('data-stop'))), h).toEqual([
        'pickup',
        'delivery',
      ]);
    expect(plan.parcels).toBe(MORNING.length + PICKUPS.length);
    // Balanced: every driver on shift has work.
    for (const r of plan.routes) expect(r.stops.length, r.driver_name).toBeGreaterThan(2);

    let breaks = 0;
    for (const r of plan.routes) {
      const c = page.locator(`[data-testid=plan-route][data-driver="${r.driver}"]`);
      const last = r.stops.at(-1)!;
      const lastDone = Date.parse(last.eta) + last.service_s * 1000;
      // The drive back to the end depot is in "back" and in the duration (Sue ends at the other depot).
      expect(Date.parse(r.back!), r.driver_name).toBeGreaterThan(lastDone + 60_000);
      expect(r.duration_s).toBe(Math.round((Date.parse(r.back!) - Date.parse(r.depart)) / 1000));
      expect(await c.getByTestId('plan-back').textContent()).toBe(`back ${localClock(Date.parse(r.back!), ZONE)}`);
      const mins = Math.round(r.duration_s / 60);
      expect(await c.getByTestId('plan-duration').textContent()).toBe(`${Math.floor(mins / 60)} h ${String(mins % 60).padStart(2, '0')}`);
      // A route out past 12:30 takes its 30 minutes between 11:30 and 12:30, and the card says when.
      if (Date.parse(r.back!) > at('12:30')) {
        expect(r.breaks?.length, r.driver_name).toBe(1);
        const b = r.breaks![0]!;
        expect(Date.parse(b.end) - Date.parse(b.start)).toBe(30 * 60_000);
        expect(Date.parse(b.start)).toBeGreaterThanOrEqual(at('11:30'));
        expect(Date.parse(b.start)).toBeLessThanOrEqual(at('12:30'));
        expect(await c.getByTestId('plan-waits').textContent()).toContain(
          `break ${localClock(Date.parse(b.start), ZONE)}–${localClock(Date.parse(b.end), ZONE)}`,
        );
        breaks += 1;
      }
      // Waits for windows are shown where the van is early.
      for (const s of r.stops.filter((x) => (x.wait_s ?? 0) >= 60))
        expect(await c.locator(`[data-testid=plan-stop][data-hawb="${s.hawb}"]`).textContent()).toContain(
          `${Math.round(s.wait_s! / 60)} min early`,
        );
      // Windows are kept.
      for (const s of r.stops.filter((x) => x.window_start)) {
        expect(minutes(localClock(Date.parse(s.eta), ZONE))).toBeGreaterThanOrEqual(minutes(s.window_start!));
        expect(minutes(localClock(Date.parse(s.eta), ZONE))).toBeLessThanOrEqual(minutes(s.window_end!));
      }
    }
    // Two parcels have windows after 15:00: at least their routes run through the break.
    expect(breaks).toBeGreaterThanOrEqual(1);
    await page.getByTestId('plan-cards').scrollIntoViewIfNeeded();
    await screenshot(page, 'dispatcher-day-plan');

    await page.getByTestId('commit').click();
    await page.getByTestId('committed').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('committed').textContent()).toContain('4 routes created');
    // The routes just committed are listed as on the road at once, ready for the day's changes.
    await expect.poll(() => page.getByTestId('amend-drop').count()).toBe(4);
    const routes = (
      await srv.api<{ results: { id: number; driver: number; packages: number[]; pickup_stops?: { package: number }[] }[] }>(
        admin,
        'GET',
        `route/?date=${DAY}`,
      )
    ).body.results;
    expect(routes).toHaveLength(4);
    const collected = new Set(routes.flatMap((r) => (r.pickup_stops ?? []).map((s) => s.package)));
    expect([...collected].sort()).toEqual(PICKUPS.map((h) => ids.get(h)!).sort());

    // 07:00: Sam's phone has the route; every van is loaded (the scans start the routes).
    await setTime('07:00');
    const samRoute = routes.find((r) => r.driver === drivers.sam.id)!;
    const phoneCtx = await sydneyContext(PHONE);
    const phone = await phoneCtx.newPage();
    // The pickups are not at the depot: nothing to load for them.
    await loginDriver(phone, srv.url, drivers.sam, samRoute.packages.length - PICKUPS.length);
    // Sam's phone lists each collection at the dock before its delivery.
    await expect.poll(() => phone.getByTestId('stop-row').count(), { timeout: 30_000 }).toBe(samRoute.packages.length + PICKUPS.length);
    const rowsOnPhone = await phone
      .getByTestId('stop-row')
      .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-hawb')}:${e.getAttribute('data-stop')}`));
    for (const h of PICKUPS) {
      expect(rowsOnPhone.indexOf(`${h}:pickup`), h).toBeGreaterThanOrEqual(0);
      expect(rowsOnPhone.indexOf(`${h}:pickup`), h).toBeLessThan(rowsOnPhone.indexOf(`${h}:delivery`));
    }
    expect(await phone.locator('[data-testid=stop-row][data-stop=pickup]').first().textContent()).toContain(
      'Harbour Grocer dock, 5 Dock Lane',
    );
    const hawbOf = new Map([...ids].map(([h, id]) => [id, h]));
    for (const r of routes) {
      const who = Object.values(drivers).find((d) => d.id === r.driver)!;
      for (const id of r.packages.filter((x) => !collected.has(x)))
        expect((await srv.api(who, 'POST', 'scan-package-api/inbound-scan/', { barcode: hawbOf.get(id) })).status).toBe(200);
    }
    // At the dock Sam scans the two parcels: collected, and on the van for their deliveries.
    for (const h of PICKUPS) {
      const got = await srv.api<{ package: { status: string } }>(drivers.sam, 'POST', 'pickup-point-scan/package-scan/', {
        barcode: h,
        pickup_point: pickupPoint,
      });
      expect(got.status, JSON.stringify(got.body)).toBe(200);
      expect(got.body.package.status).toBe('out_for_delivery');
    }
    await phone.reload();
    await expect
      .poll(() => phone.getByTestId('count-to-deliver').textContent(), { timeout: 30_000 })
      .toBe(String(samRoute.packages.length));
    await screenshot(phone, 'dispatcher-day-phone-morning');

    // 11:00: the stops due before now are delivered; 20 parcels for today arrive.
    await setTime('11:00');
    for (const r of routes) {
      const who = Object.values(drivers).find((d) => d.id === r.driver)!;
      const etas = (await srv.api<{ stops: { package: number; eta: string }[] }>(admin, 'GET', `route/${r.id}/eta/`)).body.stops;
      for (const s of etas.filter((x) => Date.parse(x.eta) < at('10:50'))) {
        const res = await srv.api(who, 'POST', 'scan-package-api/scan-deliver/', {
          barcode: hawbOf.get(s.package),
          recipient_name: 'At the door',
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
    }
    for (const p of LATE) await addParcel(p);

    // The board shows what changes, route by route, before anything reaches the phones.
    await page.reload();
    await page.getByRole('heading', { name: 'Dispatch board' }).waitFor();
    await page.getByTestId('plan-date').fill(DAY);
    await expect.poll(() => page.getByTestId('amend-drop').count()).toBe(4);
    const previewed = page.waitForResponse((r) => /\/api\/dispatch\/amend\/$/.test(r.url()) && r.request().method() === 'POST');
    await page.getByTestId('amend-preview').click();
    const amend = (await (await previewed).json()) as AmendProposal;
    await page.getByTestId('amend-diff').waitFor({ timeout: 30_000 });
    expect(amend.unassigned.map((u) => `${u.hawb}: ${u.message}`)).toEqual([]);
    expect(amend.routes.reduce((s, r) => s + r.added.length, 0)).toBe(LATE.length);
    const routeOf = (hawb: string) => amend.routes.find((r) => r.stops.some((s) => s.hawb === hawb))?.driver;
    expect(routeOf('L-05')).toBe(drivers.fiona.id);
    expect(routeOf('L-08')).toBe(drivers.sam.id);
    await expect.poll(() => page.locator('[data-testid="amend-stop"][data-state="added"]').count()).toBe(LATE.length);
    for (const r of amend.routes) {
      const box = page.locator(`[data-testid=amend-route][data-route="${r.route}"]`);
      expect(await box.getAttribute('data-added')).toBe(String(r.added.length));
      expect(await box.getAttribute('data-removed')).toBe('0');
    }
    await page.getByTestId('amend-diff').scrollIntoViewIfNeeded();
    await screenshot(page, 'dispatcher-day-amend');

    // A recipient whose arrival the change moves most (a wait for a window may absorb a new stop
    // before theirs) watches their page while the change is committed.
    const promised = new Map<number, number>();
    for (const r of amend.routes)
      for (const s of (await srv.api<{ stops: { package: number; eta: string }[] }>(admin, 'GET', `route/${r.route}/eta/`)).body.stops)
        promised.set(s.package, Date.parse(s.eta));
    const target = amend.routes
      .flatMap((r) =>
        r.stops.filter((s) => s.state !== 'added').map((s) => ({ r, s, shift: Date.parse(s.eta) - promised.get(s.package)! })),
      )
      .sort((a, b) => Math.abs(b.shift) - Math.abs(a.shift))[0]!;
    expect(Math.abs(target.shift)).toBeGreaterThan(5 * 60_000);
    const link = await srv.api<{ url: string }>(admin, 'GET', `package/${target.s.package}/tracking-link/`);
    expect(link.status).toBe(200);
    const recipientCtx = await sydneyContext(PHONE);
    const recipient = await recipientCtx.newPage();
    await recipient.goto(link.body.url);
    const arriving = recipient.getByText(/^Arriving between /);
    await arriving.waitFor({ timeout: 30_000 }).catch(async (e: unknown) => {
      const pk = await srv.api(admin, 'GET', `package/${target.s.package}/`);
      const eta = await srv.api(admin, 'GET', `route/${target.r.route}/eta/`);
      throw new Error(
        `${String(e)}\n${await recipient.locator('body').innerText()}\n${JSON.stringify(pk.body)}\n${JSON.stringify(eta.body)}`,
      );
    });
    const before = await arriving.textContent();
    await screenshot(recipient, 'dispatcher-day-recipient-before');

    await page.getByTestId('amend-commit').click();
    await page.getByTestId('amend-done').waitFor({ timeout: 30_000 });
    // Sam's phone receives the new stops through its feed.
    const samAmend = amend.routes.find((r) => r.driver === drivers.sam.id)!;
    const samNew = samAmend.stops.filter((s) => s.state === 'added').map((s) => s.hawb);
    expect(samNew.length).toBeGreaterThan(0);
    await phone.reload();
    for (const h of samNew) await phone.locator(`[data-testid=stop-row][data-hawb="${h}"]`).waitFor({ timeout: 30_000 });
    await screenshot(phone, 'dispatcher-day-phone-after');
    // The recipient's page, refreshing itself while the parcel is out, shows the new time.
    await expect.poll(() => recipient.getByText(/^Arriving between /).textContent(), { timeout: 60_000 }).not.toBe(before);
    await screenshot(recipient, 'dispatcher-day-recipient-after');
  }, 300_000);
});
