/**
 * Issue 34's cash-on-delivery day in real Chromium against the real server (en-AU, Sydney): three
 * parcels with amounts; the driver sees each amount and collects (one in full in cash, one short-paid
 * that the phone refuses until the office waives the rest, one on the company's card terminal); the
 * depot counts the driver's cash with a difference; the shipper's statement shows what it is owed and
 * its settlement (a pay-out).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawSignature, loginDriver, syncNow, waitChip } from './driverKit';
import {
  buildPwa,
  browsers,
  DESKTOP,
  hasChromium,
  login,
  PHONE,
  screenshot,
  startServer,
  type Browser,
  type Seeded,
  type TestServer,
  SYDNEY,
} from './harness';

describe.skipIf(!hasChromium)('a cash-on-delivery day in Chromium (issue 34)', () => {
  let srv: TestServer;
  let br: Browser;
  let admin: Seeded;
  let driver: Seeded;
  let co: number;
  const errors: string[] = [];

  beforeAll(async () => {
    const dist = await buildPwa();
    srv = await startServer(dist);
    admin = await srv.addUser('admin', { name: 'Ada Admin' });
    driver = await srv.addUser('driver', { name: 'Dana Driver' });
    co = await srv.addCompany('Corner Pharmacy', 'PHARM');
    br = browsers();
  }, 300_000);

  afterAll(async () => {
    await br?.close();
    await srv?.close();
  });

  it('collects, refuses a short payment until waived, counts the cash with a difference, and settles the shipper', async () => {
    const ids: Record<string, number> = {};
    for (const [hawb, cents] of [
      ['COD-A', 5000],
      ['COD-B', 3000],
      ['COD-C', 2000],
    ] as const) {
      const r = await srv.api<{ id: number }>(admin, 'POST', 'package/', {
        hawb,
        company: co,
        customer_name: `Recipient ${hawb.slice(-1)}`,
        customer_address: '10 George Street, Sydney NSW 2000',
        cod_amount_cents: cents,
      });
      expect(r.status).toBe(201);
      ids[hawb] = r.body.id;
    }
    expect(
      (await srv.api(admin, 'POST', 'assign-package/assign-driver/', { driver: driver.id, packages: Object.values(ids) })).status,
    ).toBe(200);
    expect((await srv.api(admin, 'POST', 'cod/float/', { driver: driver.id, amount_cents: 10_000 })).status).toBe(201);

    const phoneCtx = await br.context(PHONE, SYDNEY);
    const phone = await phoneCtx.newPage();
    phone.on('pageerror', (e) => errors.push(e.message));
    await loginDriver(phone, srv.url, driver, 3);
    for (const hawb of Object.keys(ids))
      expect((await srv.api(driver, 'POST', 'scan-package-api/inbound-scan/', { barcode: hawb })).status).toBe(200);
    await phone.goto(`${srv.url}/#/driver/sync`);
    await syncNow(phone);

    // The stop shows the amount before the driver knocks.
    await phone.goto(`${srv.url}/#/driver/stop/${ids['COD-A']}`);
    await phone.getByTestId('cod-amount').filter({ hasText: 'AUD 50.00' }).waitFor({ timeout: 30_000 });
    await screenshot(phone, 'cod-stop');

    const deliver = async (hawb: string, amount: string | null, method: 'cash' | 'card' = 'cash') => {
      await phone.goto(`${srv.url}/#/driver/deliver/${ids[hawb]}`);
      await phone.getByTestId('cod-collect').waitFor({ timeout: 30_000 });
      await drawSignature(phone);
      if (amount != null) await phone.locator('input[data-testid=cod-collected]').fill(amount);
      await phone.getByTestId(`cod-${method}`).check();
      await phone.getByTestId('confirm-delivery').click();
    };
    // A: paid in full, in cash (the field holds what is due).
    await deliver('COD-A', null);
    await phone.getByRole('button', { name: 'OK' }).click();
    await waitChip(phone, { queued: 0 }, 60_000);

    // B: the recipient pays 25.00 of 30.00: the phone refuses with the shared rule.
    await deliver('COD-B', '25.00');
    await phone.getByRole('alert').filter({ hasText: 'Collected AUD 25.00 of the AUD 30.00 due' }).waitFor();
    await screenshot(phone, 'cod-short-refused');

    // The office waives the 5.00 on the parcel's page.
    const office = await (await br.context(DESKTOP, SYDNEY)).newPage();
    office.on('pageerror', (e) => errors.push(e.message));
    await login(office, srv.url, admin);
    await office.getByRole('heading', { name: 'Dashboard' }).waitFor({ timeout: 30_000 });
    await office.goto(`${srv.url}/#/packages/${ids['COD-B']}`);
    await office.getByTestId('cod-card').waitFor({ timeout: 30_000 });
    await office.getByLabel(/^Waive/).fill('5.00');
    await office.getByLabel(/^Why/).fill('Recipient paid 25.00; agreed with the pharmacy');
    await office.getByRole('button', { name: 'Waive' }).click();
    await office.getByTestId('cod-waived').filter({ hasText: '5.00' }).waitFor();

    // The waiver reaches the phone with its next sync; then 25.00 is enough.
    await phone.goto(`${srv.url}/#/driver/sync`);
    await syncNow(phone);
    await phone.goto(`${srv.url}/#/driver/stop/${ids['COD-B']}`);
    await phone.getByTestId('cod-amount').filter({ hasText: 'AUD 25.00' }).waitFor({ timeout: 30_000 });
    await deliver('COD-B', '25.00');
    await phone.getByRole('button', { name: 'OK' }).click();
    await waitChip(phone, { queued: 0 }, 60_000);
    // C: on the company's card terminal.
    await deliver('COD-C', null, 'card');
    await phone.getByRole('button', { name: 'OK' }).click();
    await waitChip(phone, { queued: 0 }, 60_000);

    // The driver's cash for the day: float 100.00 + 75.00 collected in cash.
    await phone.goto(`${srv.url}/#/driver/cash`);
    await phone.getByTestId('cash-held').filter({ hasText: 'AUD 175.00' }).waitFor({ timeout: 30_000 });
    expect(await phone.getByTestId('card-collected').textContent()).toBe('AUD 20.00');
    await screenshot(phone, 'cod-driver-cash');

    // The depot counts 170.00 of the 175.00 expected: short by 5.00, recorded against the driver.
    await office.goto(`${srv.url}/#/cod/cash`);
    await office.getByLabel('Driver').selectOption({ label: 'Dana Driver' });
    await office.getByTestId('fig-expected').filter({ hasText: '175.00' }).waitFor({ timeout: 30_000 });
    await office.getByLabel(/^Counted/).fill('170.00');
    await office.getByTestId('count-difference').filter({ hasText: 'short by $5.00' }).waitFor();
    await office.getByRole('button', { name: 'Record hand-over' }).click();
    await office.getByTestId('handover-difference').filter({ hasText: 'short by $5.00' }).waitFor();
    await screenshot(office, 'cod-handover');

    // The shipper's statement: 95.00 collected (50 + 25 cash, 20 card) is owed; paid out, nothing is.
    await office.goto(`${srv.url}/#/cod/shippers`);
    await office.getByLabel('Shipper', { exact: true }).selectOption({ label: 'Corner Pharmacy (PHARM)' });
    await office.getByTestId('pos-owed').filter({ hasText: '95.00' }).waitFor({ timeout: 30_000 });
    await screenshot(office, 'cod-statement-owed');
    await office.getByLabel(/^Amount/).fill('95.00');
    await office.getByLabel('Reference').fill('EFT 2026-001');
    await office.getByRole('button', { name: 'Pay out' }).click();
    await office.getByTestId('pos-owed').filter({ hasText: '0.00' }).waitFor();
    expect(await office.getByTestId('pos-paid').locator('b').textContent()).toContain('95.00');
    await screenshot(office, 'cod-statement-settled');

    // The report: per day and driver, and the shippers' line.
    await office.goto(`${srv.url}/#/cod/report`);
    await office.getByTestId('cod-report-total').waitFor({ timeout: 30_000 });
    const total = await office.getByTestId('cod-report-total').textContent();
    expect(total).toContain('$75.00');
    expect(total).toContain('$20.00');
    await screenshot(office, 'cod-report');
    expect(errors).toEqual([]);
  }, 300_000);
});
