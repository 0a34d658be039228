/**
 * Issue 19, items 1 and 3 in real Chromium against the real server.
 * 1. A delivery is durable the moment the driver confirms: the browser process is SIGKILLed inside
 *    the 5-second undo window, relaunched on the same profile, and the delivery is queued and sent
 *    (once, with its photo and signature).
 * 3. A mouse double-click on Confirm delivery queues one delivery.
 */
import { sqliteOf } from '../../server/db/client';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browsers, buildPwa, hasChromium, PHONE, screenshot, startServer, type Browser, type Seeded, type TestServer } from './harness';
import { drawSignature, loginDriver, ownChromium, phoneOutbox, seedDay, waitChip, type DayParcel } from './driverKit';
import { hasFfmpeg, mediaDir, photoJpeg } from './fixtures/media';

describe.skipIf(!hasChromium || !hasFfmpeg)('driver app: the undo window and the Confirm button', () => {
  let srv: TestServer;
  let admin: Seeded;
  let media: string;
  let br: Browser;
  const profiles: string[] = [];

  beforeAll(async () => {
    const dist = await buildPwa();
    srv = await startServer(dist);
    admin = await srv.addUser('admin', { name: 'Ada Admin' });
    media = mediaDir();
    br = browsers();
  }, 300_000);

  afterAll(async () => {
    await br?.close();
    await srv?.close();
    for (const p of profiles) rmSync(p, { recursive: true, force: true });
    if (media) rmSync(media, { recursive: true, force: true });
  });

  const count = (sql: string, ...args: unknown[]) =>
    (
      sqliteOf(srv.db)!
        .prepare(sql)
        .get(...args) as { n: number }
    ).n;

  it('keeps a delivery confirmed seconds before the browser process is killed, and sends it after relaunch', async () => {
    const driver = await srv.addUser('driver', { name: 'Kim Killed' });
    const [p1] = (await seedDay(srv, admin, driver, ['KILL-001', 'KILL-002'])) as [DayParcel, DayParcel];
    const profile = mkdtempSync(join(tmpdir(), 'courier-kill-profile-'));
    profiles.push(profile);

    let chrome = await ownChromium(profile);
    let page = await chrome.ctx.newPage();
    await page.setViewportSize(PHONE);
    await loginDriver(page, srv.url, driver, 2);

    await page.goto(`${srv.url}/#/driver/deliver/${p1.id}`);
    await page.getByTestId('deliver-screen').waitFor();
    await page.getByTestId('photo-input').setInputFiles(await photoJpeg(media, 'kill-door', 'steelblue'));
    await page.getByRole('img', { name: 'Photo 1' }).waitFor({ timeout: 20_000 });
    await drawSignature(page);
    await page.getByLabel('Received by').fill('Pat Porch');
    await page.getByTestId('confirm-delivery').click();
    await page.getByTestId('undo-bar').waitFor();

    // Inside the window: on the phone as held, counted by the top bar, not sent.
    await waitChip(page, { held: 1, queued: 1 });
    expect(await page.getByTestId('sync-chip').textContent()).toContain('1 saved');
    const rows = await phoneOutbox(page);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'held',
      path: `package-delivered/${p1.id}/deliver/`,
      label: `Deliver ${p1.hawb} · ${p1.receiver}`,
    });
    expect(rows[0]!.blobRefs).toHaveLength(2);
    await screenshot(page, 'driver-undo-held');
    expect(count("select count(*) n from package_event where package_id = ? and to_status = 'delivered'", p1.id)).toBe(0);

    // The browser process dies inside the window (no pagehide, no visibilitychange).
    await chrome.kill();
    expect(count("select count(*) n from package_event where package_id = ? and to_status = 'delivered'", p1.id)).toBe(0);

    chrome = await ownChromium(profile);
    page = await chrome.ctx.newPage();
    await page.setViewportSize(PHONE);
    await page.goto(`${srv.url}/#/driver`);
    await page.getByTestId('today').waitFor({ timeout: 30_000 });
    // The chip reads 0 for a moment before the engine has counted; the server is the judge.
    await expect
      .poll(() => count("select count(*) n from package_event where package_id = ? and to_status = 'delivered'", p1.id), {
        timeout: 60_000,
        interval: 250,
      })
      .toBe(1);
    await page.locator('[data-testid=sync-chip][data-queued="0"][data-reach=ok]').waitFor({ timeout: 60_000 });
    await page.locator('[data-testid=count-delivered]', { hasText: '1' }).waitFor();
    expect(count('select count(*) n from package_photo where package_id = ?', p1.id)).toBe(2);
    expect(count("select count(*) n from delivery_record where package_id = ? and recipient_name = 'Pat Porch'", p1.id)).toBe(1);
    await expect.poll(() => phoneOutbox(page), { timeout: 30_000, interval: 250 }).toEqual([]);
    await chrome.browser.close().catch(() => undefined);
    await chrome.kill();
  }, 300_000);

  it('a mouse double-click on Confirm delivery queues one delivery, sent once with its files uploaded once', async () => {
    const driver = await srv.addUser('driver', { name: 'Dee Double' });
    const [p1] = (await seedDay(srv, admin, driver, ['DBL-001', 'DBL-002'])) as [DayParcel, DayParcel];
    const ctx = await br.context(PHONE);
    const page = await ctx.newPage();
    await loginDriver(page, srv.url, driver, 2);
    await page.goto(`${srv.url}/#/driver/deliver/${p1.id}`);
    await page.getByTestId('deliver-screen').waitFor();
    await page.getByTestId('photo-input').setInputFiles(await photoJpeg(media, 'dbl-door', 'darkolivegreen'));
    await page.getByRole('img', { name: 'Photo 1' }).waitFor({ timeout: 20_000 });
    await drawSignature(page);
    await page.getByTestId('confirm-delivery').dblclick();
    await page.getByTestId('undo-bar').waitFor();
    expect((await phoneOutbox(page)).filter((r) => r.path.endsWith('/deliver/'))).toHaveLength(1);
    expect(await page.getByTestId('undo-bar').locator('.undo-item').count()).toBe(1);
    await page.getByRole('button', { name: 'OK' }).click();
    await waitChip(page, { queued: 0 }, 60_000);
    await page.locator('[data-testid=count-delivered]', { hasText: '1' }).waitFor();
    expect(await phoneOutbox(page)).toEqual([]);
    expect(count("select count(*) n from package_event where package_id = ? and to_status = 'delivered'", p1.id)).toBe(1);
    expect(count("select count(*) n from package_event where package_id = ? and action like '%rejected'", p1.id)).toBe(0);
    expect(count('select count(*) n from stored_file where owner_id = ?', driver.id)).toBe(2);
    await ctx.close();
  }, 300_000);
});
