/**
 * Security issue 30, sections 7 and 8 ("Round three: quotas, queues, headers" in docs/security.md):
 * each test performs the attack and checks the refusal. Run on SQLite and on PostgreSQL
 * (scripts/with-postgres.sh), where the upload reservations are rows every process shares.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { company, messageOutbox, storedFile, throttle, user } from '../../server/db/schema/index';
import { throttleSubject } from '../../server/http/client';
import { HOLD_MS, reserveUpload } from '../../server/services/files/allowance';
import { messageDispatcherFor } from '../../server/services/messages/setup';
import { logSmsProvider, smtpTransport } from '../../server/services/messages/transports';
import { POSITION_STOPS_MAX } from '../../server/services/recipients/view';
import type { RecipientView } from '../../shared/schemas/recipients';
import { createGeocodeWorker } from '../../server/services/geo/geocoder';
import { makeApp, PASSWORD, type TestApp } from '../helpers/app';
import { startSmtp } from '../helpers/messaging';
import { csvForm, locateWorld } from './geo-locate-fixtures';
import { sendJson, standIn } from './geo-standins';

/** A "PDF" of about `size` bytes, different for each `n`. */
const pdf = (n: number, size: number) => new TextEncoder().encode(`%PDF-1.4\n%${n}\n${'x'.repeat(size - 24)}\n%%EOF\n`);
const PNG = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64'),
);

function upload(t: TestApp, token: string, bytes: Uint8Array) {
  const form = new FormData();
  form.append('file', new File([new Uint8Array(bytes)], 'f.pdf'));
  form.append('kind', 'document');
  return t.json<{ id: number; code: string }>('POST', '/api/file/', token, form);
}

const onDisk = (t: TestApp) =>
  readdirSync(t.filesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(join(t.filesDir, d.name)));

const heldRows = (t: TestApp) => t.db.select().from(throttle).where(like(throttle.key, 'upload-held:%')).all();

describe('7. upload allowances are reserved before the bytes, and every account has one', () => {
  it('12 parallel uploads by one driver cannot all pass the per-minute allowance, across two app instances', async () => {
    const t = await makeApp({ config: { uploadBytesPerMinute: 1_000_000 } });
    // A second instance on the same database: another process of a WORKERS=N deployment.
    const t2 = await makeApp({ db: t.db, config: { uploadBytesPerMinute: 1_000_000 } });
    const driver = await t.login('driver');
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => upload(i % 2 ? t2 : t, driver.token, pdf(i, 200_000))));
    const statuses = answers.map((a) => a.status).sort();
    // 5 x 200,000 bytes fit in 1,000,000; the rest are refused, however they interleaved.
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    expect(answers.filter((a) => a.status === 429).every((a) => a.body.code === 'rate_limited')).toBe(true);
    const stored = await t.db.select({ size: storedFile.size }).from(storedFile).where(eq(storedFile.owner_id, driver.id)).all();
    expect(stored.reduce((n, f) => n + f.size, 0)).toBeLessThanOrEqual(1_000_000);
    expect(onDisk(t).length + onDisk(t2).length).toBe(5);
    // Every reservation was released once its upload settled.
    expect((await heldRows(t)).map((r) => r.n)).toEqual([0]);
    t.clock.advance(61_000);
    expect((await upload(t, driver.token, pdf(99, 200_000))).status).toBe(201);
  });

  it("parallel uploads cannot all pass a company's total quota", async () => {
    const t = await makeApp({ config: { uploadBytesPerMinute: 100_000_000, uploadQuotaBytes: 1_000_000 } });
    const companyId = await t.company('Filler');
    const logins = [await t.login('company', { companyId }), await t.login('company', { companyId })];
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => upload(t, logins[i % 2]!.token, pdf(i, 200_000))));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 413).every((a) => a.body.code === 'payload_too_large')).toBe(true);
    expect(answers.filter((a) => a.status === 413)).toHaveLength(7);
    expect(onDisk(t)).toHaveLength(5);
  });

  it('a driver (no company) has a total quota over 30 days; it frees up as the days pass', async () => {
    const t = await makeApp({ config: { uploadAccountQuotaBytes: 500_000 } });
    const driver = await t.login('driver');
    const staff = await t.login('supervisor');
    expect((await upload(t, driver.token, pdf(1, 200_000))).status).toBe(201);
    expect((await upload(t, driver.token, pdf(2, 200_000))).status).toBe(201);
    const full = await upload(t, driver.token, pdf(3, 200_000));
    expect([full.status, full.body.code]).toEqual([413, 'payload_too_large']);
    // Staff without a company have one too, each their own.
    expect((await upload(t, staff.token, pdf(4, 200_000))).status).toBe(201);
    t.clock.advance(31 * 86_400_000);
    const again = await t.json<{ token: string }>('POST', '/api/auth/login/', null, { email: driver.email, password: PASSWORD });
    expect((await upload(t, again.body.token, pdf(5, 200_000))).status).toBe(201);
  });

  it('a reservation left by a process that died mid-upload holds the quota only until HOLD_MS', async () => {
    const t = await makeApp({ config: { uploadQuotaBytes: 500_000 } });
    const co = await t.login('company');
    // Reserved and never released: the process "died" before writing or releasing.
    await reserveUpload(t.app.deps, co.id, 400_000);
    const held = await upload(t, co.token, pdf(1, 200_000));
    expect([held.status, held.body.code]).toEqual([413, 'payload_too_large']);
    t.clock.advance(HOLD_MS + 1000);
    expect((await upload(t, co.token, pdf(2, 200_000))).status).toBe(201);
    // A released reservation gives its bytes back at once.
    const hold = await reserveUpload(t.app.deps, co.id, 250_000);
    expect((await upload(t, co.token, pdf(3, 200_000))).status).toBe(413);
    await hold.release();
    await hold.release();
    expect((await upload(t, co.token, pdf(4, 200_000))).status).toBe(201);
  });
});

describe('7. registration answers the same whether the e-mail has an account or not', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await smtp.close();
  });

  it("the super admin's e-mail gets the new-company answer; its owner is told by e-mail and nothing is created", async () => {
    const t = await makeApp();
    const boss = await t.login('super_admin');
    const form = (email: string) => ({ name: 'Probe Pty', email, password: 'probe-password-1' });
    const known = await t.json('POST', '/api/company/register/', null, form(boss.email));
    const fresh = await t.json('POST', '/api/company/register/', null, form('new.owner@example.net'));
    expect(known.status).toBe(201);
    expect(known.status).toBe(fresh.status);
    // The same answer but for the address the caller typed.
    expect(JSON.stringify(known.body).replace(boss.email, 'X')).toBe(JSON.stringify(fresh.body).replace('new.owner@example.net', 'X'));
    expect(Object.keys(known.body as object).sort()).toEqual(['message', 'success']);
    // Nothing created for the known address, and its password and role are untouched.
    expect(await t.db.select().from(company).where(eq(company.email, boss.email)).all()).toHaveLength(0);
    expect((await t.db.select().from(user).where(eq(user.email, boss.email)).all()).map((u) => [u.role, u.company_id])).toEqual([
      ['super_admin', null],
    ]);
    expect((await t.json('POST', '/api/auth/web-login/', null, { email: boss.email, password: PASSWORD })).status).toBe(200);
    expect(await t.db.select().from(company).where(eq(company.email, 'new.owner@example.net')).all()).toHaveLength(1);

    // Both e-mails go out through the outbox and a real SMTP server.
    const dispatcher = messageDispatcherFor(t.app.deps, {
      email: smtpTransport(smtp.url),
      sms: logSmsProvider(() => undefined),
      fromAddress: 'notices@courier.example',
    });
    await dispatcher.runOnce();
    const toBoss = smtp.mails.filter((m) => m.to.includes(boss.email));
    expect(toBoss).toHaveLength(1);
    expect(toBoss[0]!.subject).toMatch(/tried to register a company with your e-mail/);
    expect(toBoss[0]!.text).toMatch(/Nothing was changed/);
    expect(smtp.mails.filter((m) => m.to.includes('new.owner@example.net')).map((m) => m.subject)).toEqual([
      'Your Courier registration is waiting for approval',
    ]);
    expect((await t.db.select().from(messageOutbox).all()).every((m) => m.status === 'sent')).toBe(true);
  });
});

describe('7. the geocoder is shared fairly between companies', () => {
  it("a hundred junk rows of one shipper do not hold up another shipper's single parcel", async () => {
    const w = await locateWorld();
    const geo = await standIn((_url, _req, res) => sendJson(res, 200, []));
    w.t.app.deps.config.geocoderUrl = `${geo.url}/search`;
    try {
      const otherId = await w.t.company('Second');
      await w.t.db.update(company).set({ billing_type: 'postpaid', currency: 'AUD' }).where(eq(company.id, otherId)).run();
      const other = await w.t.login('company', { companyId: otherId });
      const junk = [
        'hawb,customer_address,postcode,postcode_name,latitude,longitude',
        ...Array.from({ length: 100 }, (_, i) => `JUNK-${i},${i} Junk Road,2026,Bondi,,`),
      ].join('\n');
      expect((await w.t.json('POST', '/api/company-package/csv-upload/', w.shipper.token, csvForm(junk))).status).toBe(200);
      const one = await w.t.json<{ id: number }>('POST', '/api/package/', other.token, {
        hawb: 'ONE-1',
        customer_address: '5 Real Street',
        postcode: 2026,
        postcode_name: 'Bondi',
      });
      expect(one.status, JSON.stringify(one.body)).toBe(201);
      const clock = { now: 1_000_000 };
      const wk = createGeocodeWorker(w.t.app.deps, {
        now: () => clock.now,
        sleep: async (ms) => {
          clock.now += ms;
        },
      });
      await wk.runOnce(4);
      const asked = geo.requests.map((u) => u.searchParams.get('q') ?? '');
      expect(asked).toHaveLength(4);
      // Served in its turn (the second request), not after the 100 older junk rows.
      expect(asked.findIndex((q) => q.startsWith('5 Real Street'))).toBeLessThanOrEqual(1);
      expect(asked.filter((q) => q.includes('Junk Road'))).toHaveLength(3);
      // The shipper's own rows still go oldest first.
      expect(asked.filter((q) => q.includes('Junk Road'))).toEqual([
        '0 Junk Road, Bondi, 2026',
        '1 Junk Road, Bondi, 2026',
        '2 Junk Road, Bondi, 2026',
      ]);
    } finally {
      await geo.close();
    }
  }, 120_000);
});

describe('8. private answers are never stored by a cache', () => {
  it('API answers, errors, private files, public tracking and the API document say no-store', async () => {
    const t = await makeApp();
    const co = await t.login('company');
    const file = (await upload(t, co.token, pdf(1, 1000))).body.id;
    const photo = await t.upload(co.token, PNG);
    const answers = {
      profile: await t.call('GET', '/api/profile/', co.token),
      refused: await t.call('GET', '/api/profile/', 'x'.repeat(40)),
      missing: await t.call('GET', '/api/no-such-thing/', co.token),
      document: await t.call('GET', `/api/file/${file}/`, co.token),
      photo: await t.call('GET', `/api/file/${photo}/`, co.token),
      tracking: await t.call('GET', '/api/track/NO-SUCH/'),
      openapi: await t.call('GET', '/api/openapi.json'),
    };
    expect(answers.document.status).toBe(200);
    expect(answers.photo.status).toBe(200);
    for (const [name, res] of Object.entries(answers))
      expect(`${name}: ${res.headers.get('cache-control')}`).toMatch(new RegExp(`^${name}: (private, )?no-store$`));
  });
});

describe('8. per-address throttles count an IPv6 client by its /64', () => {
  it('the subject: /64 for IPv6, the IPv4 address for an IPv4-mapped one', () => {
    expect(throttleSubject('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(throttleSubject('2001:DB8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(throttleSubject('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(throttleSubject('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(throttleSubject('::ffff:cb00:7109')).toBe('203.0.113.9');
    expect(throttleSubject('203.0.113.9')).toBe('203.0.113.9');
  });

  it('rotating through addresses of one /64 does not get past the registration limit; another /64 is not affected', async () => {
    const t = await makeApp({ config: { trustProxy: 1 } });
    const form = (n: number) => ({ name: `Rotator ${n}`, email: `r${n}@example.net`, password: 'rotator-password-1' });
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) {
      statuses.push(
        (await t.json('POST', '/api/company/register/', null, form(i), { 'x-forwarded-for': `2001:db8:77:1:${i.toString(16)}::${i}` }))
          .status,
      );
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    // The same client's IPv4-mapped form is its IPv4 address, counted as one too.
    for (let i = 0; i < 5; i++)
      await t.json('POST', '/api/company/register/', null, form(10 + i), {
        'x-forwarded-for': i % 2 ? '198.51.100.7' : '::ffff:198.51.100.7',
      });
    expect((await t.json('POST', '/api/company/register/', null, form(20), { 'x-forwarded-for': '198.51.100.7' })).status).toBe(429);
    expect((await t.json('POST', '/api/company/register/', null, form(21), { 'x-forwarded-for': '2001:db8:77:2::1' })).status).toBe(201);
  }, 120_000);
});

describe('8. the tracking page shows the van coarsely, and only a few stops ahead', () => {
  it('a company with stops_away = 20 cannot follow its driver: beyond a few stops nothing, within them a rounded position', async () => {
    const t = await makeApp({ config: { publicUrl: 'https://track.example.com' } });
    const admin = await t.login('admin');
    const shipper = await t.login('company');
    const driver = await t.login('driver');
    expect((await t.json('PATCH', '/api/recipient-settings/', shipper.token, { stops_away: 20 })).status).toBe(200);
    const links: string[] = [];
    for (let i = 0; i < 6; i++) {
      const hawb = `FOLLOW-${i}`;
      const made = await t.json<{ id: number }>('POST', '/api/package/', shipper.token, {
        hawb,
        customer_name: 'R',
        customer_address: `${i} Long Road`,
        recipient_email: `f${i}@example.net`,
      });
      expect(made.status).toBe(201);
      links.push((await t.json<{ token: string }>('GET', `/api/package/${made.body.id}/tracking-link/`, shipper.token)).body.token);
      expect(
        (await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: [made.body.id] })).status,
      ).toBe(200);
      expect((await t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, { barcode: hawb })).status).toBe(200);
    }
    await t.json('POST', '/api/driver-position/', driver.token, {
      positions: [{ latitude: -33.87654, longitude: 151.21234, occurred_at: new Date(t.clock.now()).toISOString() }],
    });
    const views = await Promise.all(links.map((l) => t.json<RecipientView>('GET', `/api/public/track/${l}/`)));
    expect(views.map((v) => v.body.stops_before)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(views.map((v) => v.body.driver_position != null)).toEqual([0, 1, 2, 3, 4, 5].map((s) => s < POSITION_STOPS_MAX));
    // About 200 m: the street block, never the GPS fix.
    expect(views[0]!.body.driver_position).toMatchObject({ latitude: -33.876, longitude: 151.212 });
  });
});
