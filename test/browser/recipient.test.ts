/**
 * A recipient's day in real Chromium against the real server, with a real SMTP server in this
 * process and the message dispatcher running in the background: the parcel goes out, "on its way"
 * arrives by e-mail with the tracking link; the recipient opens it on a phone and leaves "behind the
 * side gate"; the driver's phone, offline, shows it; the delivery sends "delivered" whose link shows
 * the photo; a failed parcel lets the recipient pick tomorrow and the parcel is re-planned.
 * Screenshots at phone size land in screenshots/ (git-ignored).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pkg } from '../../server/db/schema/index';
import type { MessageDispatcher } from '../../server/services/messages/dispatcher';
import { messageDispatcherFor } from '../../server/services/messages/setup';
import { logSmsProvider, smtpTransport } from '../../server/services/messages/transports';
import { startSmtp, type ReceivedMail } from '../helpers/messaging';
import { syncNow } from './driverKit';
import {
  buildPwa,
  browsers,
  DESKTOP,
  hasChromium,
  login,
  PASSWORD,
  PHONE,
  ROOT,
  screenshot,
  startServer,
  type Browser,
  type Seeded,
  type TestServer,
} from './harness';

const PHOTO = readFileSync(join(ROOT, 'client', 'public', 'icon-512.png'));

async function waitForMail(mails: ReceivedMail[], match: (m: ReceivedMail) => boolean, timeout = 30_000): Promise<ReceivedMail> {
  const until = Date.now() + timeout;
  for (;;) {
    const found = mails.find(match);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no such mail; got: ${mails.map((m) => m.subject).join(' | ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// The token's alphabet ends in '-' and '_': a token ending in '-' has no word boundary after it, so
// the end is where no token character or '/stop' follows.
const linkIn = (m: ReceivedMail) => {
  const link = /(http:\/\/127\.0\.0\.1:\d+\/track\.html#[A-Za-z0-9_-]{32})(?![A-Za-z0-9_/-])/.exec(m.text)?.[1];
  if (!link) throw new Error(`no tracking link in: ${m.text}`);
  return link;
};

describe.skipIf(!hasChromium)('recipient tracking in Chromium', () => {
  let srv: TestServer;
  let br: Browser;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let messages: MessageDispatcher;
  let admin: Seeded;
  let driver: Seeded;
  let reason = 0;
  let shipper: Seeded;
  const ids: Record<string, number> = {};
  const errors: string[] = [];

  beforeAll(async () => {
    const dist = await buildPwa();
    srv = await startServer(dist, { publicUrl: true });
    smtp = await startSmtp();
    messages = messageDispatcherFor(srv.deps, {
      email: smtpTransport(smtp.url),
      sms: logSmsProvider(() => {}),
      fromAddress: 'notices@courier.test',
    });
    messages.start(200);
    admin = await srv.addUser('admin', { name: 'Ada Admin' });
    driver = await srv.addUser('driver', { name: 'Dana Driver' });
    const co = await srv.addCompany('Bloom Flowers', 'BLOOM');
    shipper = await srv.addUser('company', { name: 'Bloom Office', companyId: co });
    reason = (await srv.api<{ id: number }>(admin, 'POST', 'failed-delivery-status/', { name: 'No one home' })).body.id;
    for (const [hawb, email] of [
      ['RCP-1', 'robin@example.net'],
      ['RCP-2', 'sam@example.net'],
    ] as const) {
      const r = await srv.api<{ id: number }>(admin, 'POST', 'package/', {
        hawb,
        company: co,
        customer_name: hawb === 'RCP-1' ? 'Robin' : 'Sam',
        customer_address: '12 Garden Lane',
        customer_phone: '+61 400 000 111',
        recipient_email: email,
        latitude: -33.87,
        longitude: 151.21,
      });
      expect(r.status).toBe(201);
      ids[hawb] = r.body.id;
    }
    expect(
      (await srv.api(admin, 'POST', 'assign-package/assign-driver/', { driver: driver.id, packages: Object.values(ids) })).status,
    ).toBe(200);
    // Planned on today's route: the dispatch service gives each stop an ETA, which "on its way" tells.
    const route = await srv.api<{ route: { id: number } }>(admin, 'POST', 'route/', {
      name: 'Garden run',
      date: new Date().toISOString().slice(0, 10),
      driver: driver.id,
      packages: Object.values(ids),
    });
    expect(route.status).toBe(201);
    expect(
      (await srv.api(admin, 'POST', `route/${route.body.route.id}/optimize/`, { start_latitude: -33.8, start_longitude: 151.2 })).status,
    ).toBe(200);
    br = browsers();
  }, 300_000);

  afterAll(async () => {
    await messages?.stop();
    await br?.close();
    await smtp?.close();
    await srv?.close();
  });

  async function phonePage(): Promise<Page> {
    const ctx = await br.context(PHONE);
    const page = await ctx.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    // Map tiles come from the internet, which this machine may not reach: only script errors count.
    page.on('console', (m) => {
      if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(m.text());
    });
    return page;
  }

  it('a recipient is told, leaves instructions the offline driver sees, gets the proof, and picks another day', async () => {
    // The driver's phone, logged in while there is signal; both parcels are on it.
    const phoneCtx = await br.context(PHONE);
    const phone = await phoneCtx.newPage();
    await phone.goto(`${srv.url}/#/driver`);
    await phone.getByLabel('E-mail').fill(driver.email);
    await phone.getByLabel('Password').fill(PASSWORD);
    await phone.getByRole('button', { name: 'Log in' }).click();
    await phone.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    await phone.getByTestId('today').waitFor({ timeout: 30_000 });

    // Out for delivery (the van scan): "on its way" arrives over SMTP with the link.
    for (const hawb of ['RCP-1', 'RCP-2']) {
      expect((await srv.api(driver, 'POST', 'scan-package-api/inbound-scan/', { barcode: hawb })).status).toBe(200);
    }
    const onItsWay = await waitForMail(smtp.mails, (m) => m.to.includes('robin@example.net') && /on its way/.test(m.subject));
    expect(onItsWay.subject).toBe('Your parcel RCP-1 is on its way');
    expect(onItsWay.text).toMatch(
      /^Bloom Flowers: your parcel RCP-1 is on its way, arriving \d\d:\d\d–\d\d:\d\d\. Track it or leave instructions: http/,
    );
    const link = linkIn(onItsWay);
    // The van reports where it is: RCP-1 is the next stop, so its recipient may see it.
    expect(
      (
        await srv.api(driver, 'POST', 'driver-position/', {
          positions: [{ latitude: -33.868, longitude: 151.209, occurred_at: new Date().toISOString() }],
        })
      ).status,
    ).toBe(200);

    // The recipient opens the link on a phone and leaves instructions.
    const recipient = await phonePage();
    await recipient.goto(link);
    await recipient
      .getByRole('heading', { name: 'Out for delivery' })
      .waitFor()
      .catch(async (err: unknown) => {
        await screenshot(recipient, 'recipient-debug');
        throw new Error(`${String(err)}\n${errors.join('\n')}\n${await recipient.content()}`);
      });
    await recipient.getByText('Bloom Flowers').first().waitFor();
    await recipient.getByText(/^Arriving between \d\d:\d\d( [AP]M)? and \d\d:\d\d( [AP]M)?$/).waitFor();
    await recipient.getByRole('heading', { name: 'Your driver is nearby' }).waitFor();
    await recipient.locator('[data-testid=driver-map] .leaflet-marker-icon').waitFor({ timeout: 20_000 });
    await screenshot(recipient, 'recipient-out-for-delivery');
    await recipient.getByLabel(/Where should the driver leave it/).fill('behind the side gate');
    await recipient.getByRole('button', { name: 'Save instructions' }).click();
    await recipient.getByRole('status').filter({ hasText: 'on their way to the driver' }).waitFor();
    await screenshot(recipient, 'recipient-instructions-saved');

    // The driver's phone pulls the change with signal, then shows it with none, after a reload too.
    await phone.goto(`${srv.url}/#/driver/sync`);
    await syncNow(phone);
    await phone.goto(`${srv.url}/#/driver/stop/${ids['RCP-1']!}`);
    await phone.getByTestId('recipient-note').filter({ hasText: 'behind the side gate' }).waitFor({ timeout: 30_000 });
    await phoneCtx.setOffline(true);
    await phone.reload();
    await phone.getByTestId('recipient-note').filter({ hasText: 'behind the side gate' }).waitFor({ timeout: 30_000 });
    await screenshot(phone, 'recipient-driver-sees-note-offline');
    await phoneCtx.setOffline(false);

    // Delivered with a photo: "delivered" arrives, its link shows the photo.
    const token = await srv.token(driver);
    const upload = new FormData();
    upload.set('file', new File([PHOTO], 'door.png'));
    upload.set('kind', 'photo');
    const file = (await (
      await fetch(`${srv.url}/api/file/`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: upload })
    ).json()) as { id: number };
    expect(
      (
        await srv.api(driver, 'POST', `package-delivered/${ids['RCP-1']!}/deliver/`, {
          recipient_name: 'Left at side gate',
          photos: [file.id],
        })
      ).status,
    ).toBe(200);
    const delivered = await waitForMail(smtp.mails, (m) => m.to.includes('robin@example.net') && /delivered/.test(m.subject));
    expect(delivered.text).toContain('Proof of delivery: ');
    await recipient.goto('about:blank');
    await recipient.goto(linkIn(delivered));
    await recipient.getByRole('heading', { name: 'Delivered' }).waitFor();
    expect(await recipient.getByTestId('driver-map').count()).toBe(0); // never after delivery
    const photo = recipient.getByTestId('proof-photo');
    await photo.waitFor();
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(512);
    await recipient.getByRole('heading', { name: 'Proof of delivery' }).scrollIntoViewIfNeeded();
    await screenshot(recipient, 'recipient-delivered-proof');
    // And rates it.
    await recipient.locator('.trk-rating label').nth(4).click();
    await recipient.getByLabel('Comment (optional)').fill('Found it right away');
    await recipient.getByRole('button', { name: 'Send rating' }).click();
    await recipient.getByRole('heading', { name: 'Your rating' }).waitFor();
    const ratings = await srv.api<{ results: { driver: number; average: number }[] }>(admin, 'GET', 'report/driver-ratings/');
    expect(ratings.body.results).toEqual([expect.objectContaining({ driver: driver.id, average: 5 })]);

    // The other parcel fails: "we missed you"; its recipient picks tomorrow and the parcel is re-planned.
    expect((await srv.api(driver, 'POST', `package-delivered/${ids['RCP-2']!}/fail/`, { failed_delivery_status: reason })).status).toBe(
      200,
    );
    const missed = await waitForMail(smtp.mails, (m) => m.to.includes('sam@example.net') && /missed/.test(m.subject));
    expect(missed.text).toContain('(No one home)');
    const sam = await phonePage();
    await sam.goto(linkIn(missed));
    await sam.getByRole('heading', { name: 'We missed you' }).waitFor();
    await screenshot(sam, 'recipient-failed');
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await sam.getByLabel(/^Tomorrow/).check();
    await sam.getByRole('button', { name: 'Deliver on this day' }).click();
    await sam
      .getByRole('status')
      .filter({ hasText: `We will deliver on ${tomorrow}` })
      .waitFor();
    await screenshot(sam, 'recipient-rescheduled');
    // Another parcel's link opened in the same tab: while its answer is on its way, the page says it is
    // loading; it never shows the parcel before under the new link.
    const other = linkIn(delivered).split('#')[1]!;
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await sam.route(`**/api/public/track/${other}/`, async (route) => {
      await held;
      await route.continue();
    });
    await sam.evaluate((hash) => (location.hash = hash), other);
    await sam.locator('.trk-loading').waitFor();
    expect(await sam.getByRole('heading', { name: 'We missed you' }).count()).toBe(0);
    release();
    await sam
      .locator('#trk-status')
      .filter({ hasText: /delivered/i })
      .waitFor();
    expect(await srv.db.select().from(pkg).where(eq(pkg.id, ids['RCP-2']!)).get()).toMatchObject({
      delivery_date: tomorrow,
      route_id: null,
    });

    expect(errors).toEqual([]);
    // Each message went once.
    const robin = smtp.mails.filter((m) => m.to.includes('robin@example.net')).map((m) => m.subject);
    expect(robin.filter((s) => /on its way/.test(s))).toHaveLength(1);
    expect(robin.filter((s) => /delivered/.test(s))).toHaveLength(1);
  }, 240_000);

  it('the company sets what its recipients hear and sees the ratings per driver', async () => {
    const ctx = await br.context(DESKTOP);
    const page = await ctx.newPage();
    await login(page, srv.url, shipper);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor({ timeout: 30_000 });
    await page.goto(`${srv.url}/#/integrations/recipients`);
    await page
      .getByLabel('Sender name')
      .fill('Bloom Flowers Sydney')
      .catch(async (err: unknown) => {
        await screenshot(page, 'recipient-settings-debug');
        throw new Error(`${String(err)}\n${errors.join('\n')}`);
      });
    await page.getByLabel('Arriving soon', { exact: true }).uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Recipient messages saved').waitFor();
    await page.getByRole('heading', { name: "Recipients' ratings per driver" }).scrollIntoViewIfNeeded();
    await screenshot(page, 'recipient-company-settings');
    const saved = await srv.api<{ sender_name: string; events: string[] }>(shipper, 'GET', 'recipient-settings/');
    expect(saved.body).toMatchObject({
      sender_name: 'Bloom Flowers Sydney',
      events: ['out_for_delivery', 'delivered', 'failed', 'returned_to_sender'],
    });
    await ctx.close();
  }, 120_000);
});
