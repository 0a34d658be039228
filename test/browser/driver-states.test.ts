/**
 * Issue 19, items 2, 4 and 5 in real Chromium against the real server, behind a switchable front
 * on the phone's origin:
 * 4. "No signal" (context offline), "the office is not answering" (server port closed while the
 *    context is online) and "the office system is busy" (503) are told apart in the top bar and Sync.
 * 5. The Sync list names actions by tracking number and recipient.
 * 2. A parcel cancelled by the office while the driver was offline, then delivered with a photo:
 *    refused, its photo kept on the server with the refused attempt, flagged; the driver reads what
 *    happened and what to do with the parcel; Discard deletes the phone's copy only because the
 *    server holds it. A parcel reassigned away and delivered offline: accepted, flagged, and the
 *    driver is told.
 */
import { sqliteOf } from '../../server/db/client';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browsers,
  buildPwa,
  DESKTOP,
  hasChromium,
  login,
  PHONE,
  screenshot,
  startServer,
  type Browser,
  type Seeded,
  type TestServer,
} from './harness';
import { front, loginDriver, phoneOutbox, seedDay, waitChip, type DayParcel, type Front } from './driverKit';
import { hasFfmpeg, mediaDir, photoJpeg } from './fixtures/media';

describe.skipIf(!hasChromium || !hasFfmpeg)('driver app: what the top bar and Sync say, and refused deliveries', () => {
  let srv: TestServer;
  let fr: Front;
  let admin: Seeded;
  let media: string;
  let br: Browser;

  beforeAll(async () => {
    const dist = await buildPwa();
    srv = await startServer(dist);
    fr = await front(srv.url);
    admin = await srv.addUser('admin', { name: 'Ada Admin' });
    media = mediaDir();
    br = browsers();
  }, 300_000);

  afterAll(async () => {
    await br?.close();
    await fr?.close();
    await srv?.close();
    if (media) rmSync(media, { recursive: true, force: true });
  });

  const count = (sql: string, ...args: unknown[]) =>
    (
      sqliteOf(srv.db)!
        .prepare(sql)
        .get(...args) as { n: number }
    ).n;

  it('tells no signal, a silent server and a busy server apart; names actions by label; explains refusals', async () => {
    const driver = await srv.addUser('driver', { name: 'Sam Signal' });
    const other = await srv.addUser('driver', { name: 'Oli Other' });
    const [p1, p2, p3] = (await seedDay(srv, admin, driver, ['STA-001', 'STA-002', 'STA-003'])) as [DayParcel, DayParcel, DayParcel];
    const ctx = await br.context(PHONE);
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await loginDriver(page, fr.url, driver, 3);
    // P3 goes on the van while there is signal; the service worker takes the page.
    await page.goto(`${fr.url}/#/driver/scan`);
    await page.locator('#drv-scan').focus();
    await page.keyboard.type(p3.hawb, { delay: 5 });
    await page.keyboard.press('Enter');
    await expect
      .poll(() => count("select count(*) n from package_event where package_id = ? and action = 'inbound_scan'", p3.id), {
        timeout: 60_000,
        interval: 250,
      })
      .toBe(1);
    await waitChip(page, { queued: 0 });
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    await page.reload();
    await page.getByTestId('scan-screen').waitFor();

    // No signal.
    await ctx.setOffline(true);
    await waitChip(page, { reach: 'no_signal' });
    expect(await page.getByTestId('sync-chip').textContent()).toContain('No signal');

    // Offline work: load P1, deliver P2 with a photo, deliver P3.
    await page.locator('#drv-scan').focus();
    await page.keyboard.type(p1.hawb, { delay: 5 });
    await page.keyboard.press('Enter');
    await waitChip(page, { queued: 1 });
    await page.goto(`${fr.url}/#/driver/deliver/${p2.id}`);
    await page.getByTestId('deliver-screen').waitFor();
    await page.getByTestId('photo-input').setInputFiles(await photoJpeg(media, 'sta-door', 'steelblue'));
    await page.getByRole('img', { name: 'Photo 1' }).waitFor({ timeout: 20_000 });
    await page.getByTestId('confirm-delivery').click();
    await page.getByRole('button', { name: 'OK' }).click();
    await waitChip(page, { queued: 2 });
    await page.goto(`${fr.url}/#/driver/deliver/${p3.id}`);
    await page.getByTestId('deliver-screen').waitFor();
    await page.getByLabel('Note').fill('Left with the neighbour at no. 12');
    await page.getByTestId('confirm-delivery').click();
    await page.getByRole('button', { name: 'OK' }).click();
    await waitChip(page, { queued: 3 });

    // Item 5: the Sync list says which parcel and for whom, as on the label.
    await page.goto(`${fr.url}/#/driver/sync`);
    await page.getByTestId('sync-screen').waitFor();
    expect(await page.getByTestId('sync-online').textContent()).toBe('No signal');
    const labels = await page.getByTestId('outbox-row').locator('.what').allTextContents();
    expect(labels).toEqual([
      `Load ${p1.hawb} · ${p1.receiver}`,
      `Deliver ${p2.hawb} · ${p2.receiver}`,
      `Deliver ${p3.hawb} · ${p3.receiver}`,
    ]);
    expect(labels.join(' ')).not.toMatch(/parcel \d+/);
    await screenshot(page, 'driver-sync-no-signal');

    // Meanwhile at the office: P2 is cancelled, P3 given to another driver.
    expect((await srv.api(admin, 'POST', `package/${p2.id}/cancel/`, { note: 'Shipper called it off' })).status).toBe(200);
    expect((await srv.api(admin, 'POST', 'assign-package/assign-driver/', { driver: other.id, packages: [p3.id] })).status).toBe(200);

    // Item 4: signal back, but the server is down (its port closed).
    await fr.mode('down');
    await ctx.setOffline(false);
    await waitChip(page, { reach: 'no_answer' });
    expect(await page.getByTestId('sync-chip').textContent()).toBe('Office not answering · 3 saved');
    expect(await page.getByTestId('sync-online').textContent()).toBe('Signal, but the office is not answering');
    expect(await page.getByTestId('reach-note').textContent()).toContain('Your work is saved on the phone');
    await screenshot(page, 'driver-sync-no-answer');

    // The server answers, but cannot take work (503).
    await fr.mode('busy');
    await page.getByTestId('sync-now').click();
    await waitChip(page, { reach: 'server_error' });
    expect(await page.getByTestId('sync-chip').textContent()).toBe('Office system busy · 3 saved');
    expect(await page.getByTestId('sync-online').textContent()).toBe('The office system has a problem');
    await screenshot(page, 'driver-sync-busy');
    expect(count("select count(*) n from package_event where package_id = ? and action = 'inbound_scan'", p1.id)).toBe(0);

    // Back: everything goes; P2 refused (cancelled), P3 accepted and flagged.
    await fr.mode('pass');
    await page.getByTestId('sync-now').click();
    await waitChip(page, { queued: 0, reach: 'ok' }, 60_000);
    await page.getByTestId('rejected-banner').waitFor();
    await page.getByTestId('notice-banner').waitFor();
    const refused = page.locator('[data-testid=outbox-row][data-status=rejected]');
    await refused.waitFor();
    expect(await refused.locator('.what').textContent()).toBe(`Deliver ${p2.hawb} · ${p2.receiver}`);
    expect(await refused.getByTestId('refusal-what').textContent()).toBe('The office cancelled this parcel while you were offline.');
    expect(await refused.getByTestId('refusal-todo').textContent()).toMatch(
      /keep it and bring it back to the depot.*A supervisor has your photos/,
    );
    // Cancelled is final: sending the delivery again would only be refused again, so it is not offered.
    expect(await refused.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    expect(await refused.getByTestId('no-retry').textContent()).toContain('would be refused again');
    const notice = page.getByTestId('notice');
    expect(await notice.textContent()).toContain(`Deliver ${p3.hawb}`);
    expect(await notice.textContent()).toMatch(/flagged for a supervisor: it had been reassigned/);
    await screenshot(page, 'driver-sync-refused-cancelled');

    // The server: P2 still cancelled, flagged, its photo kept with the refused delivery; P3 delivered and flagged.
    expect(count("select count(*) n from package where id = ? and status = 'cancelled' and flagged = 1", p2.id)).toBe(1);
    expect(
      count('select count(*) n from refused_delivery_file f join refused_delivery r on r.id = f.refused_id where r.package_id = ?', p2.id),
    ).toBe(1);
    expect(count("select count(*) n from package where id = ? and status = 'delivered' and flagged = 1", p3.id)).toBe(1);
    const flagged = await srv.api<{ results: { id: number }[] }>(admin, 'GET', 'package-delivered/flagged/');
    expect(flagged.body.results.map((p) => p.id).sort()).toEqual([p2.id, p3.id].sort());

    // The parcel's screen says what happened even though it left the phone's list.
    await page.goto(`${fr.url}/#/driver/stop/${p2.id}`);
    await page.getByTestId('stop-refused').waitFor();
    expect(await page.getByTestId('stop-refused').textContent()).toContain('The office cancelled this parcel');
    await screenshot(page, 'driver-stop-cancelled');

    // Discard: the server holds the photo, so the phone may let its copy go.
    await page.goto(`${fr.url}/#/driver/sync`);
    await refused.getByRole('button', { name: 'Discard' }).click();
    expect(await page.getByRole('dialog').textContent()).toContain('with your photos and signature');
    expect(await page.getByTestId('discard-unsent').count()).toBe(0);
    await page.getByRole('dialog').getByRole('button', { name: 'Discard' }).click();
    await refused.waitFor({ state: 'detached' });
    expect(await phoneOutbox(page)).toEqual([]);
    await notice.getByRole('button', { name: 'OK, understood' }).click();
    await notice.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await ctx.close();

    // The supervisor's side: the dashboard's flagged list names both; the parcel shows the refused delivery with its photo.
    const office = await br.context(DESKTOP);
    const desk = await office.newPage();
    const supervisor = await srv.addUser('supervisor', { name: 'Sue Supervisor' });
    await login(desk, srv.url, supervisor);
    const flaggedCard = desk.getByTestId('flagged');
    await flaggedCard.getByText(p2.hawb).waitFor({ timeout: 30_000 });
    await flaggedCard.getByText(p3.hawb).waitFor();
    await desk.goto(`${srv.url}/#/packages/${p2.id}`);
    const card = desk.getByTestId('refused-deliveries');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.textContent()).toContain('cancelled');
    await card.getByRole('img', { name: 'Photo one' }).waitFor({ timeout: 20_000 });
    await screenshot(desk, 'admin-package-refused-delivery');
    await office.close();
  }, 400_000);
});
