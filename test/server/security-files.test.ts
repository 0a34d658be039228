import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { recipientSettings, storedFile } from '../../server/db/schema/index';
import type { RecipientView } from '../../shared/schemas/recipients';
import { formOf, makeApp } from '../helpers/app';

const png = (n: number) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, n & 255, (n >> 8) & 255]);

/** Security issue 30, section 4: a file is used only for the purpose it was uploaded for, by that purpose's owners. */
describe('round three: files serve the purpose they were uploaded for', () => {
  it("a company cannot make its driver's passport scan (or any non-logo upload) its public logo, nor read it through the tracking page", async () => {
    const t = await makeApp({ config: { publicUrl: 'https://track.example.com' } });
    const admin = await t.login('admin');
    const companyId = await t.company('Walker');
    const shipper = await t.login('company', { companyId });
    const driver = await t.login('driver', { companyId });
    // The driver's passport scan, stored through its own document slot.
    const doc = await t.json<{ passport_file: number | null } & Record<string, unknown>>(
      'POST',
      `/api/employee/${driver.id}/document/passport/`,
      driver.token,
      formOf({ file: png(7) }),
    );
    expect(doc.status, JSON.stringify(doc.body)).toBe(200);
    const passport = (await t.db.select().from(storedFile).where(eq(storedFile.owner_id, driver.id)).all())[0].id;
    // Its direct URL refuses the company.
    expect((await t.call('GET', `/api/file/${passport}/`, shipper.token)).status).toBe(404);

    // The attack: walk file ids into the logo slot. Refused, whoever's the file and whatever its id.
    const walk = await t.json<{ errors: { path: string }[] }>('PATCH', '/api/recipient-settings/', shipper.token, { logo_file: passport });
    expect(walk.status).toBe(400);
    expect(walk.body.errors[0].path).toBe('logo_file');
    // The driver's ordinary photo, and the company's own photo: not uploaded as a logo either.
    const driverPhoto = await t.upload(driver.token, png(8));
    expect((await t.json('PATCH', '/api/recipient-settings/', shipper.token, { logo_file: driverPhoto })).status).toBe(400);
    const ownPhoto = await t.upload(shipper.token, png(9));
    expect((await t.json('PATCH', '/api/recipient-settings/', shipper.token, { logo_file: ownPhoto })).status).toBe(400);
    // Even a logo uploaded by the company's driver is not the company's logo (drivers upload proof and ID documents).
    const driverLogo = await t.upload(driver.token, png(10), { kind: 'logo' });
    expect((await t.json('PATCH', '/api/recipient-settings/', shipper.token, { logo_file: driverLogo })).status).toBe(400);
    // Staff saving for the company cannot slip it in either.
    expect((await t.json('PATCH', `/api/recipient-settings/?company=${companyId}`, admin.token, { logo_file: passport })).status).toBe(400);
    expect((await t.json<{ logo_file: number | null }>('GET', '/api/recipient-settings/', shipper.token)).body.logo_file).toBeNull();

    // A parcel and its public tracking page.
    const p = await t.json<{ id: number }>('POST', '/api/package/', shipper.token, { hawb: 'F-1', customer_address: '1 Somewhere St' });
    const link = await t.json<{ token: string }>('GET', `/api/package/${p.body.id}/tracking-link/`, shipper.token);
    const page = (id: number) => t.call('GET', `/api/public/track/${link.body.token}/file/${id}/`);
    expect((await page(passport)).status).toBe(404);
    // Settings saved before this rule (naming the passport) do not publish it: the logo slot serves only a logo upload.
    const now = t.clock.now();
    await t.db
      .insert(recipientSettings)
      .values({
        company_id: companyId,
        events: '[]',
        channels: '[]',
        templates: '{}',
        logo_file_id: passport,
        stops_away: 3,
        reschedule_days: 7,
        created_at: now,
        updated_at: now,
      })
      .onConflictDoUpdate({ target: recipientSettings.company_id, set: { logo_file_id: passport } })
      .run();
    expect((await page(passport)).status).toBe(404);

    // The honest path still works: an image uploaded as a logo by the company's own login.
    const logo = await t.upload(shipper.token, png(11), { kind: 'logo' });
    expect((await t.json('PATCH', '/api/recipient-settings/', shipper.token, { logo_file: logo })).status).toBe(200);
    const view = await t.json<RecipientView>('GET', `/api/public/track/${link.body.token}/`);
    expect(view.body.company.logo?.url).toBe(`/api/public/track/${link.body.token}/file/${logo}/`);
    expect((await page(logo)).status).toBe(200);
  });

  it("a driver cannot name its ID document (or a logo) as delivery proof, which the recipient's page would show", async () => {
    const t = await makeApp({ config: { publicUrl: 'https://track.example.com' } });
    const admin = await t.login('admin');
    const companyId = await t.company('Walker');
    const shipper = await t.login('company', { companyId });
    const driver = await t.login('driver');
    const p = await t.json<{ id: number }>('POST', '/api/package/', shipper.token, { hawb: 'F-2', customer_address: '2 Somewhere St' });
    expect(
      (await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: [p.body.id] })).status,
    ).toBe(200);
    expect((await t.json('POST', `/api/employee/${driver.id}/document/passport/`, driver.token, formOf({ file: png(12) }))).status).toBe(
      200,
    );
    const passport = (await t.db.select().from(storedFile).where(eq(storedFile.owner_id, driver.id)).all())[0].id;
    const logo = await t.upload(driver.token, png(13), { kind: 'logo' });
    for (const file of [passport, logo]) {
      const refused = await t.json<{ errors: { path: string }[] }>('POST', `/api/package-delivered/${p.body.id}/deliver/`, driver.token, {
        photos: [file],
      });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    }
    const photo = await t.upload(driver.token, png(14));
    const delivered = await t.json('POST', `/api/package-delivered/${p.body.id}/deliver/`, driver.token, { photos: [photo] });
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
  });
});
