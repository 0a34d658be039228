/**
 * A recipient opens an old tracking link, months after the delivery, when the parcel has moved to
 * history: the page still shows the delivery, and stopping messages works and stays said, after a
 * reload too (the parcel in history is never rewritten; the page reads the company's opt-out list),
 * and no longer offers a rating it would refuse.
 * Screenshot at phone size in screenshots/ (git-ignored).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { company } from '../../server/db/schema/index';
import { manualClock } from '../../server/clock';
import { moveToHistory } from '../../server/services/history/move';
import { browsers, buildPwa, hasChromium, PHONE, screenshot, startServer, type Browser, type TestServer } from './harness';

const DAY = 86_400_000;

describe.skipIf(!hasChromium)('an old tracking link, the parcel in history, in Chromium', () => {
  // A running clock that can jump months ahead (the mover moves parcels older than its age).
  const clock = manualClock(Date.now());
  let srv: TestServer;
  let br: Browser;
  let link = '';

  beforeAll(async () => {
    srv = await startServer(await buildPwa(), { publicUrl: true, clock });
    const admin = await srv.addUser('admin', { name: 'Ada Admin' });
    const driver = await srv.addUser('driver', { name: 'Dana Driver' });
    const co = await srv.addCompany('Bloom Flowers', 'BLOOM');
    const shipper = await srv.addUser('company', { name: 'Bloom Office', companyId: co });
    // A postpaid shipper with a rate, so the parcel is priced and charged: the mover leaves unpriced parcels for the office.
    await srv.db.update(company).set({ billing_type: 'postpaid' }).where(eq(company.id, co)).run();
    expect((await srv.api(admin, 'POST', 'delivery-rate/', { base_cents: 1000 })).status).toBe(201);
    const made = await srv.api<{ id: number }>(shipper, 'POST', 'package/', {
      hawb: 'OLD-RCP-1',
      customer_name: 'Robin',
      customer_address: '12 Garden Lane',
      customer_phone: '+61 400 000 222',
      recipient_email: 'robin@example.net',
    });
    expect(made.status).toBe(201);
    const tracking = await srv.api<{ url: string }>(shipper, 'GET', `package/${made.body.id}/tracking-link/`);
    expect(tracking.status).toBe(200);
    link = tracking.body.url;
    expect((await srv.api(admin, 'POST', 'assign-package/assign-driver/', { driver: driver.id, packages: [made.body.id] })).status).toBe(
      200,
    );
    expect((await srv.api(driver, 'POST', 'scan-package-api/inbound-scan/', { barcode: 'OLD-RCP-1' })).status).toBe(200);
    expect((await srv.api(driver, 'POST', `package-delivered/${made.body.id}/deliver/`, { recipient_name: 'Robin' })).status).toBe(200);
    clock.advance(91 * DAY);
    expect(await moveToHistory(srv.deps, { afterDays: 90 })).toMatchObject({ moved: 1 });
    br = browsers();
  }, 300_000);

  afterAll(async () => {
    await br?.close();
    await srv?.close();
  });

  it('shows the delivery and stops messages, and says so after a reload', async () => {
    const ctx = await br.context(PHONE);
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(link);
    await page.getByRole('heading', { name: 'Delivered' }).first().waitFor();
    const stopLink = page.getByRole('link', { name: 'Stop messages about this parcel' });
    await stopLink.click();
    await page.getByRole('button', { name: 'Stop all messages' }).click();
    await page.getByRole('status').filter({ hasText: 'You will get no more messages' }).waitFor();
    // The plain link again, loaded afresh: before, the page offered to stop messages once more.
    await page.goto(link);
    await page.reload();
    await page.getByRole('heading', { name: 'Delivered' }).first().waitFor();
    await page.getByText('You will get no more messages about your parcels from Bloom Flowers.').waitFor();
    expect(await stopLink.count()).toBe(0);
    // Nothing on the page is an action it would refuse: no rating form for a parcel in history.
    expect(await page.getByRole('button', { name: 'Send rating' }).count()).toBe(0);
    await page.getByText('You will get no more messages about your parcels from Bloom Flowers.').scrollIntoViewIfNeeded();
    await screenshot(page, 'recipient-history-opted-out');
    expect(errors).toEqual([]);
  }, 120_000);
});
