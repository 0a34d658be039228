/**
 * Issue 35 at arm's length and without signal, in real Chromium against the real server:
 * - glanceable: on the driver's screens (stops list, stop, Deliver with a photo, Scan, Pickups, Sync)
 *   and the depot station, at 390x844 and 1024x768, no text below 16 px, every status colour at least
 *   7:1 on the background it is drawn on (WCAG contrast from computed styles), every target 48x48 px;
 * - offline: pickups collected with no signal queue in the phone's outbox, survive a reload and reach
 *   the server once each; meanwhile the app fires no failing request and logs no console error.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageEvent, pkg } from '../../server/db/schema/index';
import { loginDriver, seedDay, type DayParcel } from './driverKit';
import {
  browsers,
  buildPwa,
  hasChromium,
  login,
  PHONE,
  screenshot,
  startServer,
  TABLET,
  type Browser,
  type Seeded,
  type TestServer,
} from './harness';

interface Problem {
  kind: 'text' | 'contrast' | 'target';
  what: string;
  value: number;
}

/**
 * Measured in the page from computed styles. Text: every visible text node's font size. Status
 * colours: text inside a status element (badges, results, banners, notes, chips) against the first
 * opaque background behind it. Targets: every link, button, field and tappable label.
 */
function measure(): Problem[] {
  const STATUS =
    '.badge, .scan-result, .sync-chip, .drv-banner, .must-return, .pending-note, .rejected-note, .line2.bad, .refusal, .reorder-note, .reach-note, .offline-state, .scan-panel, .banner, .count, .outcome, .zone';
  const TARGETS = 'a[href], button, input:not([type=hidden]):not(.sr-only), select, textarea, [role=button], label.btn, label.reason';
  const out: Problem[] = [];
  const shown = (el: Element) => {
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    return r.width > 2 && r.height > 2 && cs.visibility !== 'hidden' && !el.closest('.sr-only, [aria-hidden=true], svg, video');
  };
  const rgba = (c: string): number[] => (c.match(/[\d.]+/g) ?? []).map(Number);
  const lum = ([r, g, b]: number[]) => {
    const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
  };
  const background = (el: Element | null): number[] => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if ((c[3] ?? 1) > 0.5) return c;
    }
    return [255, 255, 255];
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set<Element>();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    const text = n.textContent?.trim() ?? '';
    if (!el || !text || seen.has(el) || !shown(el)) continue;
    seen.add(el);
    const cs = getComputedStyle(el);
    const size = parseFloat(cs.fontSize);
    if (size < 15.9) out.push({ kind: 'text', what: `${el.tagName.toLowerCase()}.${el.className} "${text.slice(0, 40)}"`, value: size });
    if (el.closest(STATUS)) {
      const fg = lum(rgba(cs.color));
      const bg = lum(background(el));
      const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
      if (ratio < 7)
        out.push({ kind: 'contrast', what: `${el.tagName.toLowerCase()}.${el.className} "${text.slice(0, 40)}"`, value: ratio });
    }
  }
  for (const el of document.querySelectorAll(TARGETS)) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 47.5 || r.height < 47.5) {
      const label = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40);
      out.push({
        kind: 'target',
        what: `${el.tagName.toLowerCase()} "${label}" ${Math.round(r.width)}x${Math.round(r.height)}`,
        value: Math.min(r.width, r.height),
      });
    }
  }
  return out;
}

/** One small PNG, as a phone camera's photo would arrive (PhotoPicker shrinks it). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAGElEQVR4nGP8z8Dwn4EIwMSAG4yqJAIA7sYC/5tGQ9sAAAAASUVORK5CYII=',
  'base64',
);

describe.skipIf(!hasChromium)('the driver and depot in the field: glanceable, and quiet offline', () => {
  let srv: TestServer;
  let br: Browser;
  let admin: Seeded;
  let driver: Seeded;
  let depot: Seeded;
  let day: DayParcel[];
  let point: number;
  let pickups: { mine: number; open: number };

  beforeAll(async () => {
    srv = await startServer(await buildPwa());
    admin = await srv.addUser('admin');
    driver = await srv.addUser('driver', { name: 'Gina Glance' });
    depot = await srv.addUser('depot_manager', { name: 'Dora Depot' });
    day = await seedDay(srv, admin, driver, ['FD-1', 'FD-2', 'FD-3', 'FD-4']);
    // One loaded, one delivered, one failed: every status colour of a day is on the stops list.
    for (const p of day.slice(0, 3))
      expect((await srv.api(driver, 'POST', 'scan-package-api/inbound-scan/', { barcode: p.hawb })).status).toBe(200);
    const reason = (await srv.api<{ id: number }>(admin, 'POST', 'failed-delivery-status/', { name: 'Nobody home' })).body.id;
    expect((await srv.api(driver, 'POST', `package-delivered/${day[1]!.id}/deliver/`, { recipient_name: 'Sam' })).status).toBe(200);
    expect((await srv.api(driver, 'POST', `package-delivered/${day[2]!.id}/fail/`, { failed_delivery_status: reason })).status).toBe(200);
    // Two parcels waiting at a pickup point: one assigned to the driver, one to nobody (collected with the point's QR code).
    const co = await srv.addCompany('Pickup Co', 'PICKCO');
    point = (
      await srv.api<{ id: number }>(admin, 'POST', 'pickup-point/', {
        person_name: 'Back dock',
        email: 'dock@example.com',
        phone: '0400 111 222',
        address: '1 Dock Rd',
        suburb: 'Botany',
        state: 'NSW',
        pincode: '2019',
        company: co,
      })
    ).body.id;
    const made: number[] = [];
    for (const hawb of ['PU-MINE', 'PU-OPEN']) {
      const r = await srv.api<{ id: number }>(admin, 'POST', 'package/', { hawb, company: co, customer_name: `Sender ${hawb}` });
      made.push(r.body.id);
    }
    // A pickup request arrives by webhook or upload (test/server/pickups.test.ts); here it is set straight on the rows.
    await srv.db.update(pkg).set({ status: 'pickup_requested', pickup_point_id: point }).where(inArray(pkg.id, made));
    expect((await srv.api(admin, 'POST', 'pickup-package/assign-driver/', { driver: driver.id, packages: [made[0]] })).status).toBe(200);
    pickups = { mine: made[0]!, open: made[1]! };
    br = browsers();
  }, 300_000);

  afterAll(async () => {
    await br?.close();
    await srv?.close();
  });

  async function check(page: Page, name: string): Promise<Problem[]> {
    await screenshot(page, `glance-${name}`);
    return (await page.evaluate(measure)).map((p) => ({ ...p, what: `${name} @${page.viewportSize()?.width}: ${p.what}` }));
  }

  it('driver screens and the depot station, on a phone and a tablet: text >= 16 px, status colours >= 7:1, targets >= 48 px', async () => {
    const problems: Problem[] = [];
    const ctx = await br.context(PHONE);
    const page = await ctx.newPage();
    // To load: FD-4, and FD-3 for a second attempt.
    await loginDriver(page, srv.url, driver, 2);
    for (const size of [PHONE, TABLET]) {
      await page.setViewportSize(size);
      await page.goto(`${srv.url}/#/driver`);
      await page.getByTestId('stop-row').nth(3).waitFor();
      problems.push(...(await check(page, 'today')));
      await page.goto(`${srv.url}/#/driver/stop/${day[0]!.id}`);
      await page.getByRole('link', { name: 'Deliver' }).first().waitFor();
      problems.push(...(await check(page, 'stop')));
      await page.goto(`${srv.url}/#/driver/deliver/${day[0]!.id}`);
      await page.getByTestId('deliver-screen').waitFor();
      await page.getByTestId('photo-input').setInputFiles({ name: 'door.png', mimeType: 'image/png', buffer: PNG });
      await page.getByRole('button', { name: 'Remove photo 1' }).waitFor();
      problems.push(...(await check(page, 'deliver')));
      await page.goto(`${srv.url}/#/driver/scan`);
      await page.locator('#drv-scan').fill(day[3]!.hawb);
      await page.locator('#drv-scan').press('Enter');
      // Loaded on the phone pass, already loaded on the tablet pass.
      await page.locator('[data-testid=scan-result][data-result$=loaded], [data-testid=scan-result][data-result=loadable]').waitFor();
      problems.push(...(await check(page, 'scan')));
      await page.goto(`${srv.url}/#/driver/pickups`);
      await page.getByTestId('pickups-screen').waitFor();
      // A code nobody printed: sent, refused, and told in Sync in the words of a pickup.
      await page.locator('#drv-pickup-scan').fill(`NOPE-${size.width}`);
      await page.locator('#drv-pickup-scan').press('Enter');
      await page.locator('[data-testid=scan-result][data-result=saved]').waitFor();
      problems.push(...(await check(page, 'pickups')));
      await page.goto(`${srv.url}/#/driver/sync`);
      await page.locator('[data-testid=outbox-row][data-status=rejected]').first().waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('refusal-what').first().textContent()).toContain('No parcel has this code');
      problems.push(...(await check(page, 'sync')));
    }
    // Two refusals handled: one "Clear all handled" and the confirmation, not two taps a row.
    await page.getByTestId('clear-refused').click();
    await page.getByRole('button', { name: 'Clear all', exact: true }).click();
    await expect.poll(() => page.locator('[data-testid=outbox-row][data-status=rejected]').count()).toBe(0);
    await ctx.close();

    const tablet = await br.context(TABLET);
    const station = await tablet.newPage();
    await login(station, srv.url, depot);
    await station.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await station.goto(`${srv.url}/#/depot/inbound`);
    for (const size of [TABLET, PHONE]) {
      await station.setViewportSize(size);
      await station.locator('#scan-box').fill(day[3]!.hawb);
      await station.locator('#scan-box').press('Enter');
      const panel = station.locator(`[data-testid=scan-panel][data-total="${size === TABLET ? 1 : 2}"]`);
      await panel.waitFor();
      // Scanned the instant the station opened: saved and refused, never "Not saved" (the session was still being adopted).
      expect(await panel.getAttribute('data-outcome')).not.toBe('error');
      problems.push(...(await check(station, 'depot-inbound')));
      // The tablet's header on one line (issue 35: it wrapped at 1024 px).
      if (size === TABLET) {
        const rows = await station
          .locator('.depot-bar .btn')
          .evaluateAll((els) => new Set(els.map((e) => e.getBoundingClientRect().top)).size);
        expect(rows).toBe(1);
      }
    }
    // Both refusals come back from the office before "Clear all handled" shows (it needs two rows).
    await station.locator('[data-testid=exception-count]', { hasText: '2' }).waitFor({ timeout: 60_000 });
    await station.getByTestId('clear-exceptions').click();
    await station.getByRole('button', { name: 'Clear all', exact: true }).click();
    await station.locator('[data-testid=exception-count]', { hasText: '0' }).waitFor();
    await tablet.close();
    expect(problems).toEqual([]);
  }, 300_000);

  it('pickups collected offline: saved, kept through a reload, sent once; no failing request or console error meanwhile', async () => {
    const ctx = await br.context(PHONE);
    const page = await ctx.newPage();
    // FD-4 went onto the van in the test before: FD-3 is left to load.
    await loginDriver(page, srv.url, driver, 1);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    const printed = await fetch(`${srv.url}/api/pickup-point/${point}/qr-code/?format=svg`, {
      headers: { authorization: `Bearer ${await srv.token(admin)}` },
    });
    const qr = printed.headers.get('x-qr-text') ?? '';
    expect(qr).toMatch(/^COURIER-PP:/);

    const noise: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') noise.push(`console: ${m.text()}`);
    });
    page.on('requestfailed', (r) => noise.push(`request: ${r.method()} ${r.url()} ${r.failure()?.errorText}`));
    await ctx.setOffline(true);
    await page.goto(`${srv.url}/#/driver/pickups`);
    await page.getByTestId('pickups-screen').waitFor();
    const scan = async (code: string, result: string) => {
      await page.locator('#drv-pickup-scan').fill(code);
      await page.locator('#drv-pickup-scan').press('Enter');
      await page.locator(`[data-testid=scan-result][data-result=${result}]`).waitFor();
    };
    await scan(qr, 'point');
    expect(await page.getByTestId('pickup-point').getAttribute('data-confirmed')).toBe('false');
    await scan('PU-MINE', 'collected');
    await scan('PU-OPEN', 'saved');
    await screenshot(page, 'pickups-offline');

    // A reload with no signal: the service worker serves the app, the outbox keeps both scans.
    await page.reload();
    await page.getByTestId('pickups-screen').waitFor();
    await page.locator('[data-testid=sync-chip][data-queued="2"]').waitFor();
    // The rest of the day's screens, still offline, and time for the engine's timers to run.
    for (const hash of ['', 'scan', 'sync', `stop/${day[0]!.id}`, 'more', 'pickups']) {
      await page.goto(`${srv.url}/#/driver/${hash}`);
      await page.locator('.drv-screen').first().waitFor();
    }
    // An offline stretch for the app's own timers (route refresh, positions, ETAs) to show any noise.
    await page.waitForTimeout(5000);
    expect(noise).toEqual([]);

    await ctx.setOffline(false);
    await page.locator('[data-testid=sync-chip][data-queued="0"]').waitFor({ timeout: 60_000 });
    await page.getByTestId('pickup-point').and(page.locator('[data-confirmed=true]')).waitFor({ timeout: 30_000 });
    const rows = await srv.db
      .select()
      .from(pkg)
      .where(inArray(pkg.id, [pickups.mine, pickups.open]));
    expect(rows.map((r) => [r.hawb, r.status, r.assigned_to_id])).toEqual([
      ['PU-MINE', 'picked_up', driver.id],
      ['PU-OPEN', 'picked_up', driver.id],
    ]);
    const events = await srv.db
      .select()
      .from(packageEvent)
      .where(and(inArray(packageEvent.package_id, [pickups.mine, pickups.open]), eq(packageEvent.action, 'pickup_scan')));
    expect(events.length).toBe(2);
    await ctx.close();
  }, 300_000);
});
