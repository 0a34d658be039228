/**
 * The driver app in real Chromium against the real server: a whole delivery day with no signal.
 * Login online, the service worker takes control, then offline: camera and keyboard-wedge scans
 * onto the van, a delivery with photos and a drawn signature (undone once, then confirmed), a
 * failed delivery, a re-optimised route, a reload from the service worker; back online the server
 * holds every action exactly once with its files. Screenshots of each screen at phone and tablet
 * sizes land in screenshots/ (git-ignored). Skipped where /usr/bin/chromium or ffmpeg is missing.
 */
import { sqliteOf } from '../../server/db/client';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import {
  buildPwa,
  scannerBurst,
  PHONE,
  TABLET,
  browsers,
  hasChromium,
  PASSWORD,
  screenshot,
  startServer,
  type Browser,
  type Seeded,
  type TestServer,
} from './harness';
import { hasFfmpeg, labelVideo, mediaDir, photoJpeg } from './fixtures/media';

interface Row {
  [k: string]: unknown;
}
/** Driver's position at the north end of a north-south street: the best order is simply southwards. */
const HERE = { latitude: -33.8, longitude: 151.2 };
const stop = (i: number) => ({ latitude: -33.8 - 0.004 * i, longitude: 151.2 + 0.0004 * (i % 2) });

// P1 is read by the camera; P1..P4 go on the van; P1 is delivered, P2 fails; P5, P6 stay at the depot.
const HAWBS = ['DRV-1001', 'DRV-1002', 'DRV-1003', 'DRV-1004', 'DRV-1005', 'DRV-1006'];
// Latitude rank of each parcel (1 = nearest the driver) differs from the route's order on purpose.
const RANK = [6, 5, 1, 3, 2, 4];

async function chip(page: Page): Promise<{ queued: number; online: string }> {
  const el = page.getByTestId('sync-chip');
  return { queued: Number(await el.getAttribute('data-queued')), online: (await el.getAttribute('data-online')) ?? '' };
}

async function waitQueued(page: Page, n: number, timeout = 30_000): Promise<void> {
  await page.locator(`[data-testid=sync-chip][data-queued="${n}"]`).waitFor({ timeout });
}

async function wedge(page: Page, code: string, focusBox = true): Promise<void> {
  if (!focusBox) return scannerBurst(page, code);
  await page.locator('#drv-scan').focus();
  await page.keyboard.type(code, { delay: 5 });
  await page.keyboard.press('Enter');
}

async function lastScan(page: Page, code: string): Promise<string> {
  const panel = page.getByTestId('scan-result');
  await panel.filter({ hasText: code }).waitFor({ timeout: 15_000 });
  return (await panel.getAttribute('data-result')) ?? '';
}

async function drawSignature(page: Page): Promise<void> {
  const pad = page.getByTestId('signature-pad');
  await pad.scrollIntoViewIfNeeded();
  const box = await pad.boundingBox();
  if (!box) throw new Error('signature pad not visible');
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 20, y);
  await page.mouse.down();
  for (let i = 1; i <= 24; i++) await page.mouse.move(box.x + 20 + i * ((box.width - 40) / 24), y + Math.sin(i / 2) * 40, { steps: 2 });
  await page.mouse.up();
}

describe.skipIf(!hasChromium || !hasFfmpeg)('driver app in Chromium', () => {
  let srv: TestServer;
  let br: Browser;
  let media: string;
  let driver: Seeded;
  let admin: Seeded;
  const ids: number[] = [];
  let dist = '';

  beforeAll(async () => {
    dist = await buildPwa();
    media = mediaDir();
    const video = await labelVideo(media, HAWBS[0]!);
    srv = await startServer(dist);
    admin = await srv.addUser('admin', { name: 'Ada Admin' });
    driver = await srv.addUser('driver', { name: 'Dana Driver', email: 'dana.driver@example.com' });
    const co = await srv.addCompany('Acme Parts', 'ACME');
    for (const name of ['Nobody home', 'Address not found']) {
      expect((await srv.api(admin, 'POST', 'failed-delivery-status/', { name })).status).toBe(201);
    }
    for (const [i, hawb] of HAWBS.entries()) {
      const at = stop(RANK[i]!);
      const r = await srv.api<{ id: number }>(admin, 'POST', 'package/', {
        hawb,
        company: co,
        customer_name: `Receiver ${i + 1}`,
        customer_address: `${10 + i} Long Street`,
        customer_phone: `+61 400 000 10${i}`,
        description_of_goods: i === 0 ? 'Fragile: glassware' : 'Box',
        ...at,
      });
      expect(r.status).toBe(201);
      ids.push(r.body.id);
    }
    const route = await srv.api<{ route: { id: number } }>(admin, 'POST', 'route/', {
      name: 'Run North',
      date: new Date().toISOString().slice(0, 10),
      driver: driver.id,
      packages: ids,
    });
    expect(route.status).toBe(201);
    br = browsers(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`]);
  }, 300_000);

  afterAll(async () => {
    await br?.close();
    await srv?.close();
    if (media) rmSync(media, { recursive: true, force: true });
  });

  it('works a whole shift offline and the server gets every action exactly once', async () => {
    const ctx: BrowserContext = await br.context(PHONE);
    await ctx.grantPermissions(['geolocation'], { origin: srv.url });
    await ctx.setGeolocation(HERE);
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    // Log in once, with signal.
    await page.goto(`${srv.url}/#/driver`);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await screenshot(page, 'driver-login');
    await page.getByLabel('E-mail').fill(driver.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.locator('[data-testid=count-to-load]', { hasText: '6' }).waitFor({ timeout: 30_000 });
    await page.getByTestId('route-block').filter({ hasText: 'Run North' }).waitFor({ timeout: 15_000 });

    // The service worker must control the page before the network goes.
    await page.evaluate(() =>
      Promise.race([navigator.serviceWorker.ready.then(() => true), new Promise((r) => setTimeout(() => r(false), 60_000))]),
    );
    await page.reload();
    await page.getByTestId('today').waitFor();
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await screenshot(page, 'driver-today-online');

    await ctx.setOffline(true);
    await page.locator('[data-testid=sync-chip][data-online=no]').waitFor();

    // Load the van: one by camera, the others by keyboard wedge; wrong codes answered at once.
    await page.locator('.drv-tabs').getByRole('link', { name: /Scan/ }).click();
    await page.getByTestId('scan-screen').waitFor();
    await page.getByRole('button', { name: 'Scan with camera' }).click();
    expect(await lastScan(page, HAWBS[0]!)).toBe('loadable');
    await screenshot(page, 'driver-scan-camera');
    await page.getByRole('button', { name: 'Close camera' }).click();
    await wedge(page, HAWBS[1]!);
    expect(await lastScan(page, HAWBS[1]!)).toBe('loadable');
    await wedge(page, HAWBS[2]!);
    expect(await lastScan(page, HAWBS[2]!)).toBe('loadable');
    await page.getByRole('heading', { name: 'Load the van' }).click();
    await wedge(page, HAWBS[3]!, false);
    expect(await lastScan(page, HAWBS[3]!)).toBe('loadable');
    await wedge(page, HAWBS[1]!);
    expect(await lastScan(page, HAWBS[1]!)).toBe('already_loaded');
    await wedge(page, 'NOPE-0001');
    expect(await lastScan(page, 'NOPE-0001')).toBe('unknown');
    expect(await page.getByTestId('scan-result').getAttribute('class')).toContain('bad');
    await screenshot(page, 'driver-scan');
    await waitQueued(page, 5);

    // Deliver P1: two photos, a signature, a name; undo once, then confirm.
    await page.goto(`${srv.url}/#/driver`);
    await page.getByTestId('stop-card').filter({ hasText: HAWBS[0]! }).waitFor();
    const photos = [await photoJpeg(media, 'door', 'steelblue'), await photoJpeg(media, 'parcel', 'darkolivegreen')];
    await page.getByRole('link', { name: 'Deliver', exact: true }).click();
    await page.getByTestId('deliver-screen').waitFor();
    await page.getByTestId('photo-input').setInputFiles(photos);
    await page.getByRole('img', { name: 'Photo 2' }).waitFor({ timeout: 20_000 });
    await drawSignature(page);
    await page.getByLabel('Received by').fill('Sam Receiver');
    await screenshot(page, 'driver-deliver');
    await page.getByTestId('confirm-delivery').click();
    await page.getByTestId('undo-bar').waitFor();
    await screenshot(page, 'driver-undo');
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByTestId('deliver-screen').waitFor();
    await page.getByRole('img', { name: 'Photo 2' }).waitFor();
    expect(await page.getByLabel('Received by').inputValue()).toBe('Sam Receiver');
    expect((await chip(page)).queued).toBe(5);
    await page.getByTestId('confirm-delivery').click();
    await page.getByTestId('undo-bar').waitFor();
    await page.getByRole('button', { name: 'OK' }).click();
    await waitQueued(page, 6);

    // Fail P2 with a reason, a note and a photo.
    await page.goto(`${srv.url}/#/driver/stop/${ids[1]}`);
    await page.getByRole('link', { name: 'Could not deliver' }).click();
    await page.getByTestId('fail-screen').waitFor();
    expect(await page.getByTestId('attempt-note').textContent()).toContain('Attempt 1 of 3');
    await page.getByLabel('Nobody home').check();
    await page.getByLabel('Note').fill('Gate locked');
    await page.getByTestId('photo-input').setInputFiles(photos[0]!);
    await page.getByRole('img', { name: 'Photo 1' }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'driver-fail');
    await page.getByTestId('confirm-fail').click();
    await page.getByRole('button', { name: 'OK' }).click();
    await waitQueued(page, 7);

    // Re-optimise the remaining stops from where the driver stands, offline.
    await page.getByTestId('today').waitFor();
    await page.getByTestId('reoptimise').click();
    await page.getByTestId('local-order').waitFor({ timeout: 20_000 });
    await waitQueued(page, 8);
    const shown = await page
      .getByTestId('route-block')
      .filter({ hasText: 'Run North' })
      .getByTestId('stop-row')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-hawb')));
    const openByRank = [1, 2, 3, 4, 5].map((i) => HAWBS[RANK.indexOf(i + 0)]).filter((h) => h !== HAWBS[0]);
    expect(shown.slice(0, openByRank.length)).toEqual(openByRank);
    await screenshot(page, 'driver-today-offline');

    // Reload with no network: the shell comes from the service worker, the queue from IndexedDB.
    await page.reload();
    await page.getByTestId('today').waitFor({ timeout: 30_000 });
    expect(await chip(page)).toEqual({ queued: 8, online: 'no' });
    expect(await page.getByTestId('count-delivered').textContent()).toBe('1');
    expect(await page.getByTestId('count-failed').textContent()).toBe('1');
    await page.locator('.drv-tabs').getByRole('link', { name: /Sync/ }).click();
    await page.getByTestId('sync-screen').waitFor();
    // The rows come from IndexedDB after the screen is drawn: wait for them (a loaded machine is slower).
    await expect.poll(() => page.getByTestId('outbox-row').count(), { timeout: 15_000 }).toBe(8);
    await screenshot(page, 'driver-sync-offline');

    // Signal again: everything goes, the unknown code comes back refused with the server's reason.
    await ctx.setOffline(false);
    await waitQueued(page, 0, 60_000);
    await page.getByTestId('rejected-banner').waitFor({ timeout: 30_000 });
    const refused = page.locator('[data-testid=outbox-row][data-status=rejected]');
    await refused.first().waitFor();
    expect(await refused.count()).toBe(1);
    expect(await refused.textContent()).toContain('NOPE-0001');
    await screenshot(page, 'driver-sync-rejected');
    await refused.getByRole('button', { name: 'Discard' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Discard' }).click();
    await page.locator('[data-testid=outbox-row]').first().waitFor({ state: 'detached' });

    // The server holds each action once, with its files.
    const q = (sql: string, ...args: unknown[]) =>
      sqliteOf(srv.db)!
        .prepare(sql)
        .all(...args) as Row[];
    const status = new Map(q('select id, status, is_scanned, sequence_no from package').map((r) => [r.id as number, r]));
    expect(ids.map((id) => status.get(id)?.status)).toEqual([
      'delivered',
      'failed',
      'out_for_delivery',
      'out_for_delivery',
      'assigned',
      'assigned',
    ]);
    for (const id of ids.slice(0, 4)) {
      expect(q("select count(*) n from package_event where package_id = ? and to_status = 'out_for_delivery'", id)[0]!.n).toBe(1);
    }
    expect(q("select count(*) n from package_event where package_id = ? and to_status = 'delivered'", ids[0])[0]!.n).toBe(1);
    expect(q("select count(*) n from package_event where package_id = ? and to_status = 'failed'", ids[1])[0]!.n).toBe(1);
    expect(q('select count(*) n from delivery_attempt where package_id = ?', ids[1])[0]!.n).toBe(1);
    const files = q('select kind, mime, size from stored_file where owner_id = ? order by id', driver.id);
    expect(files.length).toBe(4);
    expect(files.every((f) => (f.size as number) < 600_000)).toBe(true);
    const record = q('select recipient_name, latitude from delivery_record where package_id = ?', ids[0]);
    expect(record).toHaveLength(1);
    expect(record[0]!.recipient_name).toBe('Sam Receiver');
    expect(record[0]!.latitude).toBeCloseTo(HERE.latitude, 3);
    const slots = q('select slot from package_photo where package_id = ? order by slot', ids[0]).map((r) => r.slot);
    expect(slots).toEqual(['photo_one', 'photo_two', 'signature']);
    const seq = ids
      .slice(1)
      .map((id) => [id, status.get(id)?.sequence_no as number] as const)
      .sort((a, b) => a[1] - b[1])
      .map(([id]) => HAWBS[ids.indexOf(id)]);
    expect(seq).toEqual(openByRank);
    expect(q("select count(*) n from package_event where action = 'route_sequence'")[0]!.n).toBeGreaterThan(0);
    expect(errors).toEqual([]);

    // Screens that need signal, and every main screen at phone and tablet size.
    for (const viewport of [PHONE, TABLET]) {
      await page.setViewportSize(viewport);
      const tag = viewport === PHONE ? '' : '-tablet';
      const shots: [string, string, string][] = [
        ['#/driver', 'today', 'driver-today'],
        [`#/driver/stop/${ids[2]}`, 'stop-card', 'driver-stop'],
        ['#/driver/scan', 'scan-screen', 'driver-scan-idle'],
        [`#/driver/deliver/${ids[2]}`, 'deliver-screen', 'driver-deliver-empty'],
        [`#/driver/fail/${ids[2]}`, 'fail-screen', 'driver-fail-empty'],
        ['#/driver/sync', 'sync-screen', 'driver-sync'],
        ['#/driver/history', 'history', 'driver-history'],
        ['#/driver/earnings', 'earnings', 'driver-earnings'],
        ['#/driver/support', 'support', 'driver-support'],
        ['#/driver/profile', 'profile', 'driver-profile'],
      ];
      for (const [hash, testId, name] of shots) {
        await page.goto(`${srv.url}/${hash}`);
        await page.getByTestId(testId).first().waitFor();
        await page.waitForLoadState('networkidle');
        await screenshot(page, `${name}${tag}`);
      }
    }
    await page.goto(`${srv.url}/#/driver/history`);
    await page.locator(`a[href="#/driver/history/${ids[0]}"]`).click();
    await page.getByRole('heading', { name: /Proof of delivery/ }).waitFor();
    await page.locator('.thumbs img').nth(2).waitFor({ timeout: 15_000 });
    await screenshot(page, 'driver-history-detail');

    // A support ticket, then logout with nothing waiting: the phone forgets the day.
    await page.goto(`${srv.url}/#/driver/support`);
    await page.getByLabel('Subject').fill('Van door sticks');
    await page.getByLabel('Message').fill('The side door of van 3 does not close.');
    await page.getByRole('button', { name: 'Send to the office' }).click();
    await page.getByText('Van door sticks').nth(0).waitFor();
    expect(q('select count(*) n from support_ticket where driver_id = ?', driver.id)[0]!.n).toBe(1);
    await page.goto(`${srv.url}/#/driver/profile`);
    await page.getByTestId('logout').click();
    await page.getByRole('button', { name: 'Log in' }).waitFor({ timeout: 30_000 });
    const left = await page.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const req = indexedDB.open('courier');
          req.onerror = () => reject(req.error);
          req.onsuccess = () => {
            const db = req.result;
            if (!db.objectStoreNames.contains('packages')) {
              db.close();
              resolve(0);
              return;
            }
            const count = db.transaction('packages').objectStore('packages').count();
            count.onsuccess = () => {
              db.close();
              resolve(count.result);
            };
          };
        }),
    );
    expect(left).toBe(0);
    await ctx.close();
  }, 600_000);
});
