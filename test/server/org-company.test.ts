import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { company, messageOutbox, user } from '../../server/db/schema/index';
import { makeApp, PASSWORD } from '../helpers/app';

type Body = Record<string, unknown>;

describe('company: delete, archive, status change', () => {
  it('deletes an unreferenced company, refuses a referenced one, archives and restores', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const made = await t.json<{ id: number }>('POST', '/api/company/', admin.token, {
      name: 'Solo',
      email: 'solo@example.com',
      code: 'SOLO',
    });
    expect(made.status).toBe(201);
    const gone = await t.json('DELETE', `/api/company/${made.body.id}/`, admin.token);
    expect(gone.status).toBe(200);
    expect(await t.db.select().from(company).where(eq(company.id, made.body.id)).get()).toBeUndefined();

    const used = await t.company('Used Co');
    await t.login('company', { companyId: used });
    const refused = await t.json<Body>('DELETE', `/api/company/${used}/`, admin.token);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, code: 'conflict' });

    const archived = await t.json<Body>('POST', '/api/company/archive-company/', admin.token, { deleted: [used] });
    expect(archived.status).toBe(200);
    const list = await t.json<{ results: { id: number }[] }>('GET', '/api/company/', admin.token);
    expect(list.body.results.map((c) => c.id)).not.toContain(used);
    const archList = await t.json<{ results: { id: number }[] }>('GET', '/api/company/archive-company-list/', admin.token);
    expect(archList.body.results.map((c) => c.id)).toEqual([used]);
    const restored = await t.json<{ count: number; results: { data: { id: number }[] } }>(
      'POST',
      '/api/company/restore-company/',
      admin.token,
      { deleted: [used] },
    );
    expect(restored.body.count).toBe(1);
    expect(restored.body.results.data[0]?.id).toBe(used);
    const unknown = await t.json<Body>('POST', '/api/company/restore-company/', admin.token, { deleted: [99999] });
    expect(unknown.status).toBe(400);
  });

  it('suspending a company stops its tokens, its logins and its new packages; reactivating lets it back', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const co = await t.login('company');
    const coId = (await t.db.select().from(user).where(eq(user.id, co.id)).get())?.company_id as number;
    expect((await t.json('GET', '/api/company/', co.token)).status).toBe(200);

    const suspended = await t.json<Body>('PATCH', `/api/company/${coId}/status-change/`, admin.token, { status: 'suspended' });
    expect(suspended.status).toBe(200);
    expect(suspended.body.status).toBe('suspended');
    expect((await t.json('GET', '/api/company/', co.token)).status).toBe(401);
    const login = await t.json<Body>('POST', '/api/auth/web-login/', null, { email: co.email, password: PASSWORD });
    expect(login.status).toBe(403);
    const pkg = await t.json<Body>('POST', '/api/package/', admin.token, { hawb: 'SUSP-1', company: coId });
    expect(pkg.status).toBe(403);

    const active = await t.json<Body>('POST', `/api/company/${coId}/status-change/`, admin.token, { status: 'active' });
    expect(active.body.status).toBe('active');
    expect((await t.json('POST', '/api/auth/web-login/', null, { email: co.email, password: PASSWORD })).status).toBe(200);
  });

  it('refuses status changes from non-admins and bad statuses', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const supervisor = await t.login('supervisor');
    const co = await t.login('company');
    const coId = (await t.db.select().from(user).where(eq(user.id, co.id)).get())?.company_id as number;
    expect((await t.json('PATCH', `/api/company/${coId}/status-change/`, supervisor.token, { status: 'suspended' })).status).toBe(403);
    expect((await t.json('PATCH', `/api/company/${coId}/status-change/`, co.token, { status: 'suspended' })).status).toBe(403);
    expect((await t.json('PATCH', `/api/company/${coId}/status-change/`, admin.token, { status: 'closed' })).status).toBe(400);
    expect((await t.json('PATCH', '/api/company/99999/status-change/', admin.token, { status: 'active' })).status).toBe(404);
    expect((await t.json('PATCH', `/api/company/${coId}/status-change/`, null, { status: 'active' })).status).toBe(401);
  });
});

describe('company: register without auth', () => {
  const form = (n: number) => ({
    name: `Acme Freight ${n}`,
    email: `ops${n}@acme.example`,
    phone: '+61 2 9999 0000',
    password: 'long-enough-pw',
  });

  it('creates a pending company that can log in only after an admin approves it', async () => {
    const t = await makeApp();
    const reg = await t.json<Body>('POST', '/api/company/register/', null, form(1));
    expect(reg.status).toBe(201);
    expect(Object.keys(reg.body).sort()).toEqual(['message', 'success']);
    const made = await t.db.select().from(company).where(eq(company.email, 'ops1@acme.example')).get();
    expect(made).toMatchObject({ name: 'Acme Freight 1', status: 'pending' });
    expect(String(made?.code)).toMatch(/^ACMEFREI-[0-9A-F]{4}$/);
    expect(
      await t.db.select({ role: user.role, company: user.company_id }).from(user).where(eq(user.email, 'ops1@acme.example')).get(),
    ).toEqual({ role: 'company', company: made?.id });

    const early = await t.json<Body>('POST', '/api/auth/web-login/', null, { email: 'ops1@acme.example', password: 'long-enough-pw' });
    expect(early.status).toBe(403);
    expect(early.body.message).toMatch(/approval/);

    const admin = await t.login('admin');
    const pending = await t.json<{ count: number }>('GET', '/api/company/?status=pending', admin.token);
    expect(pending.body.count).toBe(1);
    await t.json('PATCH', `/api/company/${String(made?.id)}/status-change/`, admin.token, { status: 'active' });
    const ok = await t.json<{ token: string }>('POST', '/api/auth/web-login/', null, {
      email: 'ops1@acme.example',
      password: 'long-enough-pw',
    });
    expect(ok.status).toBe(200);
    const mine = await t.json<{ results: Body[] }>('GET', '/api/company/', ok.body.token);
    expect(mine.body.results.map((c) => c.id)).toEqual([made?.id]);
    const mails = (await t.db.select().from(messageOutbox).all()).map((m) => m.subject ?? '');
    expect(mails.some((s) => /approved/.test(s))).toBe(true);
  });

  it('refuses bad input, taken codes, and too many registrations from one address', async () => {
    const t = await makeApp();
    expect((await t.json('POST', '/api/company/register/', null, { ...form(1), password: 'short' })).status).toBe(400);
    expect((await t.json('POST', '/api/company/register/', null, { ...form(1), role: 'admin' })).status).toBe(400);
    expect((await t.json('POST', '/api/company/register/', null, { ...form(1), email: 'not-an-email' })).status).toBe(400);
    expect((await t.json('POST', '/api/company/register/', null, { ...form(1), code: 'ACME1' })).status).toBe(201);
    // A taken e-mail gets the same answer as a new one (security-quotas.test.ts); it creates nothing.
    const dupEmail = await t.json<Body>('POST', '/api/company/register/', null, form(1));
    expect(dupEmail.status).toBe(201);
    expect(await t.db.select().from(company).where(eq(company.email, 'ops1@acme.example')).all()).toHaveLength(1);
    expect((await t.json('POST', '/api/company/register/', null, { ...form(2), code: 'ACME1' })).status).toBe(409);
    // Refused attempts count too, so an address cannot probe which e-mails are registered.
    for (let i = 3; i <= 4; i += 1) expect((await t.json('POST', '/api/company/register/', null, form(i))).status).toBe(201);
    const limited = await t.json<Body>('POST', '/api/company/register/', null, form(6));
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ success: false, code: 'rate_limited' });
    t.clock.advance(3600_000);
    expect((await t.json('POST', '/api/company/register/', null, form(7))).status).toBe(201);
  });
});

describe('company: depot addresses', () => {
  it('a company manages only its own depots; staff manage any; others are refused', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const a = await t.login('company');
    const b = await t.login('company');
    const aCo = (await t.db.select().from(user).where(eq(user.id, a.id)).get())?.company_id as number;
    const bCo = (await t.db.select().from(user).where(eq(user.id, b.id)).get())?.company_id as number;

    const first = await t.json<Body>('POST', '/api/company/depot-address/', a.token, {
      name: 'Main',
      street_address: '1 Dock Rd',
      suburb: 'Botany',
      postcode: '2019',
      is_default: true,
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ company: aCo, name: 'Main', is_default: true });
    const second = await t.json<Body>('POST', '/api/company/depot-address/', a.token, { street_address: '9 Yard St', is_default: true });
    const firstAgain = await t.json<Body>('GET', `/api/company/depot-address/${String(first.body.id)}/`, a.token);
    expect(firstAgain.body.is_default).toBe(false);
    expect(second.body.is_default).toBe(true);

    const updated = await t.json<Body>('PATCH', `/api/company/depot-address/${String(first.body.id)}/`, a.token, { suburb: 'Mascot' });
    expect(updated.body.suburb).toBe('Mascot');

    // Company B sees nothing of A's and cannot reach A's records or write into A.
    const bList = await t.json<{ count: number }>('GET', '/api/company/depot-address/', b.token);
    expect(bList.body.count).toBe(0);
    expect((await t.json('GET', `/api/company/depot-address/${String(first.body.id)}/`, b.token)).status).toBe(404);
    expect((await t.json('PATCH', `/api/company/depot-address/${String(first.body.id)}/`, b.token, { suburb: 'X' })).status).toBe(404);
    expect((await t.json('DELETE', `/api/company/depot-address/${String(first.body.id)}/`, b.token)).status).toBe(404);
    expect((await t.json('POST', '/api/company/depot-address/', b.token, { company: aCo, street_address: 'x' })).status).toBe(404);

    const forB = await t.json<Body>('POST', '/api/company/depot-address/', admin.token, { company: bCo, street_address: '3 Hub Ln' });
    expect(forB.body.company).toBe(bCo);
    expect((await t.json('POST', '/api/company/depot-address/', admin.token, { street_address: 'x' })).status).toBe(400);
    expect((await t.json('POST', '/api/company/depot-address/', admin.token, { company: 99999, street_address: 'x' })).status).toBe(404);
    expect((await t.json('POST', '/api/company/depot-address/', admin.token, { company: bCo, street_address: '' })).status).toBe(400);
    const all = await t.json<{ count: number }>('GET', `/api/company/depot-address/?company=${aCo}`, admin.token);
    expect(all.body.count).toBe(2);

    const supervisor = await t.login('supervisor');
    expect((await t.json('GET', '/api/company/depot-address/', supervisor.token)).status).toBe(200);
    expect((await t.json('POST', '/api/company/depot-address/', supervisor.token, { company: bCo, street_address: 'x' })).status).toBe(403);
    expect((await t.json('DELETE', `/api/company/depot-address/${String(forB.body.id)}/`, supervisor.token)).status).toBe(403);
    const driver = await t.login('driver');
    expect((await t.json('GET', '/api/company/depot-address/', driver.token)).status).toBe(403);

    expect((await t.json('DELETE', `/api/company/depot-address/${String(first.body.id)}/`, a.token)).status).toBe(200);
    expect((await t.json('GET', `/api/company/depot-address/${String(first.body.id)}/`, a.token)).status).toBe(404);
  });
});
