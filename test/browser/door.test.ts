/**
 * Issue 34's "Done means" at the door, in real Chromium against the real server, with a real SMTP
 * server and the SMS provider's loopback stand-in: a company sets "signature + age 18 + one-time
 * code" as its default; the recipient gets the code by e-mail and SMS; the driver, offline, is
 * refused with a wrong code and with an under-age date of birth, then delivers with the right one;
 * the server refuses a replay without the code. A second recipient sets "leave at the back door";
 * the driver sees it offline and delivers there with a photo.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageDispatcher } from '../../server/services/messages/dispatcher';
import { messageDispatcherFor } from '../../server/services/messages/setup';
import { httpSmsProvider, smtpTransport } from '../../server/services/messages/transports';
import { startSmsStandIn, startSmtp, type ReceivedMail } from '../helpers/messaging';
import { drawSignature, loginDriver, syncNow, waitChip } from './driverKit';
import {
  buildPwa,
  browsers,
  DESKTOP,
  hasChromium,
  login,
  PHONE,
  ROOT,
  scannerBurst,
  screenshot,
  startServer,
  type Browser,
  type Seeded,
  type TestServer,
} from './harness';

const PHOTO = readFileSync(join(ROOT, 'client', 'public', 'icon-512.png'));

async function waitFor<T>(find: () => T | undefined, what: string, timeout = 30_000): Promise<T> {
  const until = Date.now() + timeout;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!hasChromium)('proof at the door in Chromium (issue 34)', () => {
  let srv: TestServer;
  let br: Browser;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let sms: Awaited<ReturnType<typeof startSmsStandIn>>;
  let messages: MessageDispatcher;
  let admin: Seeded;
  let driver: Seeded;
  let shipper: Seeded;
  let other: number;
  const errors: string[] = [];

  beforeAll(async () => {
    const dist = await buildPwa();
    srv = await startServer(dist, { publicUrl: true });
    smtp = await startSmtp();
    sms = await startSmsStandIn();
    messages = messageDispatcherFor(srv.deps, {
      email: smtpTransport(smtp.url),
      sms: httpSmsProvider({ url: sms.url, accountSid: sms.sid, authToken: sms.authToken, from: '+61400000000' }),
      fromAddress: 'notices@courier.test',
    });
    messages.start(200);
    admin = await srv.addUser('admin', { name: 'Ada Admin' });
    driver = await srv.addUser('driver', { name: 'Dana Driver' });
    shipper = await srv.addUser('company', { name: 'Cellar Office', companyId: await srv.addCompany('Cellar Door Wines', 'CELLAR') });
    other = await srv.addCompany('Garden Supplies', 'GARDEN');
    br = browsers();
  }, 300_000);

  afterAll(async () => {
    await messages?.stop();
    await br?.close();
    await smtp?.close();
    await sms?.close();
    await srv?.close();
  });

  it('signature + age 18 + one-time code, enforced offline; and "leave at the back door" with a photo', async () => {
    // The company sets its default on its Integrations page.
    const office = await (await br.context(DESKTOP)).newPage();
    office.on('pageerror', (e) => errors.push(e.message));
    await login(office, srv.url, shipper);
    await office.getByRole('heading', { name: 'Dashboard' }).waitFor({ timeout: 30_000 });
    await office.goto(`${srv.url}/#/integrations/proof`);
    await office.getByLabel('Signature').check();
    await office.getByLabel(/One-time code/).check();
    await office.getByLabel(/Minimum age/).fill('18');
    await office.getByRole('button', { name: 'Save proof rules' }).click();
    await office.getByText('Proof at the door saved').waitFor();
    expect((await srv.api<{ requirements: unknown }>(shipper, 'GET', 'company-proof-rules/')).body.requirements).toMatchObject({
      signature: true,
      min_age: 18,
      code: true,
      photos: 0,
      scan: false,
    });

    const wine = (
      await srv.api<{ id: number }>(shipper, 'POST', 'package/', {
        hawb: 'WINE-1',
        customer_name: 'Robin',
        customer_address: '3 Vine St',
        customer_phone: '+61 400 000 301',
        recipient_email: 'robin@example.net',
      })
    ).body.id;
    const pots = (
      await srv.api<{ id: number }>(admin, 'POST', 'package/', {
        hawb: 'POTS-1',
        company: other,
        customer_name: 'Sam',
        customer_address: '8 Fern Rd',
        customer_phone: '+61 400 000 302',
        recipient_email: 'sam@example.net',
        // This parcel raises its company's (empty) default: its barcode is scanned at the door.
        proof_requirements: { scan: true },
      })
    ).body.id;
    expect((await srv.api(admin, 'POST', 'assign-package/assign-driver/', { driver: driver.id, packages: [wine, pots] })).status).toBe(200);

    // Sam, before the van leaves: "leave it at the back door".
    const link = await srv.api<{ url: string }>(admin, 'GET', `package/${pots}/tracking-link/`);
    const sam = await (await br.context(PHONE)).newPage();
    sam.on('pageerror', (e) => errors.push(e.message));
    await sam.goto(link.body.url);
    await sam.getByLabel('Leave it in a safe place').check();
    await sam.getByLabel('Where exactly?').fill('at the back door');
    await sam.getByRole('button', { name: 'Save my choice' }).click();
    await sam.getByRole('status').filter({ hasText: 'the driver will see it' }).waitFor();

    // The driver's phone, with signal; then the van is loaded and the code goes out by e-mail and SMS.
    const phoneCtx = await br.context(PHONE);
    const phone = await phoneCtx.newPage();
    phone.on('pageerror', (e) => errors.push(e.message));
    await loginDriver(phone, srv.url, driver, 2);
    await phone.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    for (const hawb of ['WINE-1', 'POTS-1'])
      expect((await srv.api(driver, 'POST', 'scan-package-api/inbound-scan/', { barcode: hawb })).status).toBe(200);
    const mail = await waitFor(
      () => smtp.mails.find((m: ReceivedMail) => m.to.includes('robin@example.net') && /on its way/.test(m.subject)),
      'the e-mail',
    );
    const code = /Your delivery code: (\d{6})/.exec(mail.text)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const text = await waitFor(() => sms.accepted().find((r) => r.form.get('To') === '+61400000301'), 'the SMS');
    expect(text.form.get('Body')).toContain(`Delivery code: ${code!}`);

    await phone.goto(`${srv.url}/#/driver/sync`);
    await syncNow(phone);
    await phone.goto(`${srv.url}/#/driver/deliver/${wine}`);
    await phone
      .getByTestId('door-requirements')
      .filter({ hasText: 'Signature · Age 18+ (ID) · One-time code' })
      .waitFor({ timeout: 30_000 });

    // No signal from here on.
    await phoneCtx.setOffline(true);
    await phone.reload();
    await phone.getByTestId('door-requirements').filter({ hasText: 'One-time code' }).waitFor({ timeout: 30_000 });
    await drawSignature(phone);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    await phone.locator('input[data-testid=door-dob]').fill('1990-05-01');
    await phone.locator('input[data-testid=door-code]').fill(wrong);
    await phone.getByTestId('confirm-delivery').click();
    await phone.getByRole('alert').filter({ hasText: 'The one-time code is wrong' }).waitFor();
    const now = new Date();
    const young = `${now.getUTCFullYear() - 17}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-${String(now.getUTCDate()).padStart(2, '0')}`;
    await phone.locator('input[data-testid=door-dob]').fill(young);
    await phone.locator('input[data-testid=door-code]').fill(code!);
    await phone.getByTestId('confirm-delivery').click();
    await phone.getByRole('alert').filter({ hasText: 'The recipient is 17: under 18' }).waitFor();
    await screenshot(phone, 'door-under-age-offline');
    await phone.locator('input[data-testid=door-dob]').fill('1990-05-01');
    await phone.getByTestId('confirm-delivery').click();
    await phone.getByRole('button', { name: 'OK' }).click();
    await waitChip(phone, { queued: 1 });

    // Sam's parcel: the choice is on the phone with no signal; leaving it needs a photo.
    await phone.goto(`${srv.url}/#/driver/deliver/${pots}`);
    await phone.getByTestId('door-choice').filter({ hasText: 'Leave in a safe place: at the back door' }).waitFor({ timeout: 30_000 });
    await phone.getByTestId('outcome-safe_place').check();
    await phone.getByTestId('confirm-delivery').click();
    await phone.getByRole('alert').filter({ hasText: 'Take a photo of where you left it' }).waitFor();
    await phone.getByTestId('photo-input').setInputFiles({ name: 'door.png', mimeType: 'image/png', buffer: PHOTO });
    await phone.getByRole('img', { name: 'Photo 1' }).waitFor({ timeout: 20_000 });
    await phone.getByTestId('confirm-delivery').click();
    await phone.getByRole('alert').filter({ hasText: "Scan the parcel's barcode at the door" }).waitFor();
    // The wedge scanner at the door, wherever the focus is (client/ui/useScanner.ts).
    await phone.getByRole('heading', { name: 'Deliver POTS-1' }).click();
    await scannerBurst(phone, 'POTS-1');
    await expect.poll(() => phone.locator('input[data-testid=door-scan]').inputValue()).toBe('POTS-1');
    await phone.getByTestId('confirm-delivery').click();
    await phone.getByRole('button', { name: 'OK' }).click();
    await waitChip(phone, { queued: 2 });

    // Signal again: both reach the server, which checked the same rule.
    await phoneCtx.setOffline(false);
    await phone.goto(`${srv.url}/#/driver/sync`);
    await phone.getByRole('button', { name: 'Send and refresh now' }).click();
    await waitChip(phone, { queued: 0 }, 60_000);
    const proofA = await srv.api<{ status: string; checked: Record<string, unknown> }>(admin, 'GET', `photo-upload/${wine}/`);
    expect(proofA.body).toMatchObject({
      status: 'delivered',
      checked: { outcome: 'handed', signature: true, code: true, age: { min: 18 } },
    });
    const proofB = await srv.api<{ status: string; checked: Record<string, unknown> }>(admin, 'GET', `photo-upload/${pots}/`);
    expect(proofB.body).toMatchObject({
      status: 'delivered',
      checked: { outcome: 'safe_place', photos: 1, door_scan: true, choice: { note: 'at the back door' } },
    });
    // A replay without the code is refused.
    expect((await srv.api(driver, 'POST', `package-delivered/${wine}/deliver/`, {})).status).toBe(409);

    // Sam's tracking page says where it was left.
    await sam.reload();
    await sam
      .getByTestId('door-checked')
      .filter({ hasText: 'Left in a safe place (at the back door), as the recipient allowed' })
      .waitFor();
    expect(errors).toEqual([]);
  }, 180_000);
});
