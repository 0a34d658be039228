import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { companySecret, supportTicket, user } from '../../server/db/schema/index';
import { parsePickupPointCode } from '../../server/services/org/pickupQr';
import { companyWebhookSecret } from '../../server/services/org/webhookKey';
import { makeApp, type TestApp } from '../helpers/app';

type Body = Record<string, unknown>;
const companyOf = async (t: TestApp, userId: number) =>
  (await t.db.select().from(user).where(eq(user.id, userId)).get())?.company_id as number;

describe('driver support', () => {
  it('a driver raises and sees only their own tickets; staff answer and close them', async () => {
    const t = await makeApp();
    const d1 = await t.login('driver', { name: 'Dana' });
    const d2 = await t.login('driver');
    const supervisor = await t.login('supervisor');
    const depot = await t.login('depot_manager');

    const made = await t.json<Body>('POST', '/api/driver-support/', d1.token, {
      subject: 'Scanner broken',
      message: 'It beeps but reads nothing',
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ driver: d1.id, driver_name: 'Dana', status: 'open', response: '', closed_at: null });
    const id = made.body.id as number;
    await t.json('POST', '/api/driver-support/', d2.token, { subject: 'Pay', message: 'Missing earnings' });

    expect((await t.json<{ count: number }>('GET', '/api/driver-support/', d1.token)).body.count).toBe(1);
    expect((await t.json('GET', `/api/driver-support/${id}/`, d2.token)).status).toBe(404);
    expect((await t.json('PATCH', `/api/driver-support/${id}/`, d2.token, { message: 'hijack' })).status).toBe(404);
    expect((await t.json('DELETE', `/api/driver-support/${id}/`, d2.token)).status).toBe(404);
    expect((await t.json('POST', '/api/driver-support/', d2.token, { driver: d1.id, subject: 'x', message: 'y' })).status).toBe(403);
    expect((await t.json('PATCH', `/api/driver-support/${id}/`, d1.token, { response: 'self-answer' })).status).toBe(403);

    expect((await t.json<{ count: number }>('GET', '/api/driver-support/', supervisor.token)).body.count).toBe(2);
    expect((await t.json<{ count: number }>('GET', `/api/driver-support/?driver=${d2.id}`, depot.token)).body.count).toBe(1);
    expect((await t.json('PATCH', `/api/driver-support/${id}/`, depot.token, { status: 'closed' })).status).toBe(403);
    const answered = await t.json<Body>('PATCH', `/api/driver-support/${id}/`, supervisor.token, {
      response: 'New scanner at depot',
      status: 'closed',
    });
    expect(answered.body).toMatchObject({
      status: 'closed',
      response: 'New scanner at depot',
      closed_at: new Date(t.clock.now()).toISOString(),
    });
    expect((await t.json<{ count: number }>('GET', '/api/driver-support/?status=open', supervisor.token)).body.count).toBe(1);

    expect((await t.json('PATCH', `/api/driver-support/${id}/`, d1.token, { status: 'open' })).status).toBe(403);
    expect((await t.json('PATCH', `/api/driver-support/${id}/`, d1.token, { message: 'edit after close' })).status).toBe(403);
    expect((await t.json('PATCH', `/api/driver-support/${id}/`, d1.token, { status: 'pending' })).status).toBe(400);

    const forDriver = await t.json<Body>('POST', '/api/driver-support/', supervisor.token, {
      driver: d2.id,
      subject: 'Call me',
      message: 'About the route',
    });
    expect(forDriver.body.driver).toBe(d2.id);
    expect((await t.json('POST', '/api/driver-support/', supervisor.token, { subject: 'x', message: 'y' })).status).toBe(400);
    expect(
      (await t.json('POST', '/api/driver-support/', supervisor.token, { driver: supervisor.id, subject: 'x', message: 'y' })).status,
    ).toBe(404);
    expect((await t.json('POST', '/api/driver-support/', d1.token, { subject: '', message: 'y' })).status).toBe(400);

    const co = await t.login('company');
    expect((await t.json('GET', '/api/driver-support/', co.token)).status).toBe(403);
    expect((await t.json('DELETE', `/api/driver-support/${id}/`, d1.token)).status).toBe(200);
    expect(await t.db.select().from(supportTicket).where(eq(supportTicket.id, id)).get()).toBeUndefined();
  });
});

describe('webhook secret key', () => {
  it('a company generates and regenerates its own key; admins for any company; others refused', async () => {
    const t = await makeApp();
    const a = await t.login('company');
    const b = await t.login('company');
    const aCo = await companyOf(t, a.id);
    const bCo = await companyOf(t, b.id);

    const first = await t.json<Body>('POST', '/api/webhook-secret-key/generate-key/', a.token, {});
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ success: true, company: aCo, regenerated: false });
    expect(String(first.body.secret_key)).toMatch(/^[0-9a-f]{64}$/);
    expect(await companyWebhookSecret(t.db, aCo)).toBe(first.body.secret_key);

    const second = await t.json<Body>('POST', '/api/webhook-secret-key/generate-key/', a.token, { company: aCo });
    expect(second.body.regenerated).toBe(true);
    expect(second.body.secret_key).not.toBe(first.body.secret_key);
    expect(await companyWebhookSecret(t.db, aCo)).toBe(second.body.secret_key);
    expect(await t.db.select().from(companySecret).all()).toHaveLength(1);

    expect((await t.json('POST', '/api/webhook-secret-key/generate-key/', a.token, { company: bCo })).status).toBe(404);
    expect(await companyWebhookSecret(t.db, bCo)).toBeUndefined();

    const admin = await t.login('admin');
    expect((await t.json('POST', '/api/webhook-secret-key/generate-key/', admin.token, {})).status).toBe(400);
    expect((await t.json('POST', '/api/webhook-secret-key/generate-key/', admin.token, { company: 99999 })).status).toBe(404);
    expect((await t.json('POST', '/api/webhook-secret-key/generate-key/', admin.token, { company: 'b' })).status).toBe(400);
    const forB = await t.json<Body>('POST', '/api/webhook-secret-key/generate-key/', admin.token, { company: bCo });
    expect(forB.status).toBe(201);
    expect(await companyWebhookSecret(t.db, bCo)).toBe(forB.body.secret_key);

    for (const role of ['supervisor', 'driver'] as const) {
      const who = await t.login(role);
      expect((await t.json('POST', '/api/webhook-secret-key/generate-key/', who.token, { company: aCo })).status).toBe(403);
    }
    expect((await t.json('POST', '/api/webhook-secret-key/generate-key/', null, {})).status).toBe(401);
  });
});

describe('pickup point QR code', () => {
  const point = (company?: number) => ({
    person_name: 'Front desk',
    email: 'desk@example.com',
    phone: '02 9000 0000',
    address: '5 Market St',
    suburb: 'Sydney',
    state: 'NSW',
    pincode: '2000',
    ...(company ? { company } : {}),
  });

  it('renders PNG and SVG holding a signed code; company scope and archive respected', async () => {
    const t = await makeApp();
    const a = await t.login('company');
    const b = await t.login('company');
    const made = await t.json<{ id: number }>('POST', '/api/pickup-point/', a.token, point());
    expect(made.status).toBe(201);
    const id = made.body.id;

    const png = await t.call('GET', `/api/pickup-point/${id}/qr-code/`, a.token);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    const bytes = new Uint8Array(await png.arrayBuffer());
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const text = png.headers.get('x-qr-text') ?? '';
    expect(text).toMatch(new RegExp(`^COURIER-PP:${id}:[0-9a-f]{8}$`));
    expect(await parsePickupPointCode(t.db, text, t.clock.now())).toBe(id);
    expect(await parsePickupPointCode(t.db, text.replace(/:[0-9a-f]{8}$/, ':00000000'), t.clock.now())).toBeNull();
    expect(await parsePickupPointCode(t.db, `COURIER-PP:${id + 1}:${text.slice(-8)}`, t.clock.now())).toBeNull();
    // Knowing the format is not enough to forge a code without the server's key.
    const forged = createHmac('sha256', 'guess').update(`COURIER-PP:${id}`).digest('hex').slice(0, 8);
    expect(await parsePickupPointCode(t.db, `COURIER-PP:${id}:${forged}`, t.clock.now())).toBeNull();

    const svg = await t.call('GET', `/api/pickup-point/${id}/qr-code/?format=svg&size=200`, a.token);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(await svg.text()).toContain('<svg');
    expect(svg.headers.get('x-qr-text')).toBe(text);

    const driver = await t.login('driver');
    // The code proves a driver stands at the point (issue 30, section 6): a driver never reads it here.
    expect((await t.call('GET', `/api/pickup-point/${id}/qr-code/`, driver.token)).status).toBe(403);
    expect((await t.json('GET', `/api/pickup-point/${id}/qr-code/`, b.token)).status).toBe(404);
    expect((await t.json('GET', `/api/pickup-point/${id}/qr-code/?format=gif`, a.token)).status).toBe(400);
    expect((await t.json('GET', `/api/pickup-point/${id}/qr-code/?size=10`, a.token)).status).toBe(400);
    expect((await t.json('GET', '/api/pickup-point/99999/qr-code/', a.token)).status).toBe(404);
    expect((await t.json('GET', `/api/pickup-point/${id}/qr-code/`, null)).status).toBe(401);
    // Company B cannot reach A's pickup point through the plain CRUD either.
    expect((await t.json('GET', `/api/pickup-point/${id}/`, b.token)).status).toBe(404);
    expect((await t.json('PATCH', `/api/pickup-point/${id}/`, b.token, { suburb: 'X' })).status).toBe(404);

    await t.json('POST', '/api/pickup-point/archive-pickup-point/', a.token, { deleted: [id] });
    expect((await t.json('GET', `/api/pickup-point/${id}/qr-code/`, a.token)).status).toBe(404);
  });
});
