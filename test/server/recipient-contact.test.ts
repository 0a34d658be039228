/**
 * Issue 36, recipient contact: the recipient's e-mail is kept from every way a parcel comes in
 * (single create, the API, an upload's `recipient_email` column, a pickup webhook), phones are stored
 * in international form read with the business's country, "not a phone" is refused in the one error
 * shape, and the office and the shipper can read which notices went out and which failed.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { country, messageOutbox, packageRecipient, pkg } from '../../server/db/schema/index';
import { makeApp, type TestApp } from '../helpers/app';
import { companyWithKey, webhookCall } from './webhooks-helpers';

type Json = Record<string, unknown>;
const emailOf = async (t: TestApp, id: number) =>
  (await t.db.select().from(packageRecipient).where(eq(packageRecipient.package_id, id)).get())?.email ?? null;
const rowOf = async (t: TestApp, hawb: string) => t.db.select().from(pkg).where(eq(pkg.hawb, hawb)).get();

function csv(text: string): FormData {
  const form = new FormData();
  form.append('file', new File([text], 'parcels.csv', { type: 'text/csv' }));
  return form;
}

describe('recipient contact', () => {
  it('single create keeps the e-mail and stores the phone in international form; not a phone is a 400 that changes nothing', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const shipper = await t.login('company');
    const made = await t.json<Json>('POST', '/api/package/', shipper.token, {
      hawb: 'RC-1',
      customer_name: 'Ann',
      customer_phone: '0417 123 456',
      recipient_email: 'Ann@Example.com',
    });
    expect(made.status).toBe(201);
    expect(made.body.customer_phone).toBe('+61417123456');
    expect(await emailOf(t, made.body.id as number)).toBe('ann@example.com');

    for (const bad of ['not a phone', '1', '02 1234']) {
      const refused = await t.json<{ code: string; errors: { path: string; message: string }[] }>('POST', '/api/package/', admin.token, {
        hawb: `RC-BAD-${bad.length}`,
        customer_phone: bad,
      });
      expect(refused.status, bad).toBe(400);
      expect(refused.body.code).toBe('validation_error');
      expect(refused.body.errors.map((e) => e.path)).toEqual(['customer_phone']);
      expect(await rowOf(t, `RC-BAD-${bad.length}`)).toBeUndefined();
    }

    // An edit normalises too, and refuses a non-phone without touching the stored one.
    const id = made.body.id as number;
    expect(
      (await t.json<Json>('PATCH', `/api/package/${id}/`, admin.token, { customer_phone: '(02) 9876 5432' })).body.customer_phone,
    ).toBe('+61298765432');
    const badEdit = await t.json<{ errors: { path: string }[] }>('PATCH', `/api/package/${id}/`, admin.token, {
      customer_phone: 'call me',
    });
    expect(badEdit.status).toBe(400);
    expect(badEdit.body.errors[0]!.path).toBe('customer_phone');
    expect((await rowOf(t, 'RC-1'))?.customer_phone).toBe('+61298765432');
    // A number with its own country code keeps it.
    expect(
      (await t.json<Json>('PATCH', `/api/package/${id}/`, admin.token, { customer_phone: '+44 20 7946 0958' })).body.customer_phone,
    ).toBe('+442079460958');
  });

  it('reads local numbers with the business country of the master data', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const now = t.clock.now();
    await t.db.insert(country).values({ name: 'New Zealand', iso2: 'NZ', currency: 'NZD', created_at: now, updated_at: now }).run();
    const made = await t.json<Json>('POST', '/api/package/', admin.token, { hawb: 'NZ-1', customer_phone: '021 123 4567' });
    expect(made.status).toBe(201);
    expect(made.body.customer_phone).toBe('+64211234567');
  });

  it('an upload keeps every recipient_email and rejects the rows whose phone is not a phone', async () => {
    const t = await makeApp();
    const shipper = await t.login('company');
    const rows = Array.from({ length: 6 }, (_, i) => `UP-${i},Person ${i},0400 00${i} 00${i},person${i}@example.com`);
    const ok = await t.json<{ created: number }>(
      'POST',
      '/api/package/bulk-upload/',
      shipper.token,
      csv(`hawb,customer_name,customer_phone,recipient_email\n${rows.join('\n')}\n`),
    );
    expect(ok.status).toBe(200);
    expect(ok.body.created).toBe(6);
    for (let i = 0; i < 6; i++) {
      const row = await rowOf(t, `UP-${i}`);
      expect(row?.customer_phone).toBe(`+6140000${i}00${i}`);
      expect(await emailOf(t, row!.id)).toBe(`person${i}@example.com`);
    }
    const mixed = await t.json<{ code: string; errors: { path: string; message: string }[] }>(
      'POST',
      '/api/package/bulk-upload/',
      shipper.token,
      csv(
        'hawb,customer_phone,recipient_email\nUP-A,0412 345 678,a@example.com\nUP-B,not a phone,b@example.com\n,0412 345 679,c@example.com\nUP-D,,not-mail\n',
      ),
    );
    expect(mixed.status).toBe(400);
    // Row errors read as sentences, not "hawb: Invalid input: expected string, received undefined".
    expect(mixed.body.errors).toEqual([
      { path: 'row 3.customer_phone', message: '"not a phone" is not a phone number' },
      { path: 'row 4.hawb', message: 'the cell is empty; this column is required' },
      { path: 'row 5.recipient_email', message: 'not an e-mail address' },
    ]);
    expect(await rowOf(t, 'UP-A')).toBeUndefined();
  });

  it('a pickup webhook keeps the recipient e-mail and phone, and its update changes them', async () => {
    const t = await makeApp();
    const co = await companyWithKey(t, 'Acme Widgets');
    const created = await webhookCall(t, 'POST', co, {
      hawb: 'PU-RC',
      customer_phone: '0417 000 111',
      recipient_email: 'carla@example.com',
    });
    expect(created.status).toBe(201);
    const id = (created.body.package as Json).id as number;
    expect((await rowOf(t, 'PU-RC'))?.customer_phone).toBe('+61417000111');
    expect(await emailOf(t, id)).toBe('carla@example.com');
    const changed = await webhookCall(t, 'PATCH', co, { hawb: 'PU-RC', recipient_email: 'carla.new@example.com' });
    expect(changed.status).toBe(200);
    expect(await emailOf(t, id)).toBe('carla.new@example.com');
    const bad = await webhookCall(t, 'PATCH', co, { hawb: 'PU-RC', customer_phone: 'nope' });
    expect(bad.status).toBe(400);
    expect((await rowOf(t, 'PU-RC'))?.customer_phone).toBe('+61417000111');
  });

  it('lists sent and failed notices per parcel and per company, each caller only what it may see', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const shipper = await t.login('company');
    const rival = await t.login('company');
    const driver = await t.login('driver');
    const mine = await t.json<Json>('POST', '/api/package/', shipper.token, { hawb: 'ML-1', customer_phone: '0417 123 456' });
    const theirs = await t.json<Json>('POST', '/api/package/', rival.token, { hawb: 'ML-2' });
    const companyOf = async (id: unknown) =>
      (await t.db
        .select()
        .from(pkg)
        .where(eq(pkg.id, id as number))
        .get())!.company_id;
    const now = t.clock.now();
    const msg = (packageId: unknown, companyId: number | null, kind: string, status: string, extra: Json = {}) => ({
      channel: 'sms',
      to: '+61417123456',
      kind,
      status,
      company_id: companyId,
      package_id: packageId as number,
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
      ...extra,
    });
    const mineCo = await companyOf(mine.body.id);
    await t.db
      .insert(messageOutbox)
      .values([
        msg(mine.body.id, mineCo, 'out_for_delivery', 'sent', { sent_at: now, subject: 'On its way' }),
        msg(mine.body.id, mineCo, 'delivered', 'dead', { last_error: 'provider said 400: unknown number', attempts: 5 }),
        msg(theirs.body.id, await companyOf(theirs.body.id), 'delivered', 'sent'),
        {
          channel: 'email',
          to: 'staff@example.com',
          kind: 'password_reset',
          status: 'sent',
          body: 'secret link',
          next_attempt_at: now,
          created_at: now,
          updated_at: now,
        },
      ])
      .run();

    type Log = { count: number; results: Json[] };
    const own = await t.json<Log>('GET', '/api/recipient-messages/', shipper.token);
    expect(own.status).toBe(200);
    expect(own.body.results.map((m) => [m.hawb, m.kind, m.status])).toEqual([
      ['ML-1', 'delivered', 'dead'],
      ['ML-1', 'out_for_delivery', 'sent'],
    ]);
    expect(own.body.results[0]).not.toHaveProperty('body');
    expect(
      (await t.json<Log>('GET', '/api/recipient-messages/?status=failed', shipper.token)).body.results.map((m) => m.last_error),
    ).toEqual(['provider said 400: unknown number']);
    expect((await t.json<Log>('GET', `/api/recipient-messages/?package=${theirs.body.id as number}`, shipper.token)).body.count).toBe(0);
    expect((await t.json('GET', `/api/recipient-messages/?company=${await companyOf(theirs.body.id)}`, shipper.token)).status).toBe(403);
    expect((await t.json('GET', '/api/recipient-messages/', driver.token)).status).toBe(403);
    // Staff see every company's recipient notices, never account mail.
    const all = await t.json<Log>('GET', '/api/recipient-messages/', admin.token);
    expect(all.body.count).toBe(3);
    expect((await t.json<Log>('GET', `/api/recipient-messages/?package=${mine.body.id as number}`, admin.token)).body.count).toBe(2);
    expect((await t.json('GET', '/api/recipient-messages/?status=lost', admin.token)).status).toBe(400);
  });
});
