import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { company, messageOutbox, user } from '../../server/db/schema/index';
import { ensureSuperAdmin } from '../../server/services/auth/bootstrap';
import { makeApp, PASSWORD } from '../helpers/app';

const afterAnswer = () =>
  new Promise<void>((ok) => {
    setImmediate(ok);
  });

describe('auth', () => {
  it('logs in with the shape DESIGN.md section 5 fixes, and logout revokes the token', async () => {
    const t = await makeApp();
    const a = await t.login('admin', { email: 'boss@example.com', name: 'Boss' });
    const res = await t.json<Record<string, unknown>>('POST', '/api/auth/web-login/', null, {
      email: 'BOSS@example.com ',
      password: PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      user: { id: a.id, name: 'Boss', email: 'boss@example.com', role: 'admin', company: null },
    });
    expect(typeof res.body.token).toBe('string');
    const token = res.body.token as string;
    expect((await t.json('GET', '/api/warehouse/', token)).status).toBe(200);
    expect((await t.json('POST', '/api/auth/logout/', token)).status).toBe(200);
    expect((await t.json('GET', '/api/warehouse/', token)).status).toBe(401);
    // the other session of the same user is untouched
    expect((await t.json('GET', '/api/warehouse/', a.token)).status).toBe(200);
  });

  it('refuses wrong passwords, unknown users, drivers on the web login, and malformed headers', async () => {
    const t = await makeApp();
    const d = await t.login('driver');
    expect((await t.json('POST', '/api/auth/login/', null, { email: d.email, password: 'wrong-password' })).status).toBe(401);
    expect((await t.json('POST', '/api/auth/login/', null, { email: 'nobody@example.com', password: PASSWORD })).status).toBe(401);
    const web = await t.json('POST', '/api/auth/web-login/', null, { email: d.email, password: PASSWORD });
    expect(web.status).toBe(403);
    expect((await t.json('POST', '/api/auth/login/', null, { email: 'not-an-email', password: 'x' })).status).toBe(400);
    const bad = await t.json('GET', '/api/warehouse/', null, undefined, { authorization: 'Token abc' });
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ code: 'not_authenticated' });
  });

  it('slows down repeated failed logins with 429 (growing delays, no hard lock)', async () => {
    const t = await makeApp();
    const d = await t.login('driver');
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push((await t.json('POST', '/api/auth/login/', null, { email: d.email, password: 'wrong-password' })).status);
    // Five failures are free; the sixth is checked and sets a delay that refuses what follows at once.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
    const locked = await t.json('POST', '/api/auth/login/', null, { email: d.email, password: PASSWORD });
    expect(locked.status).toBe(429);
    t.clock.advance(1_000);
    expect((await t.json('POST', '/api/auth/login/', null, { email: d.email, password: PASSWORD })).status).toBe(200);
  });

  it('stops the token of a disabled user, an archived user and a suspended company at once', async () => {
    const t = await makeApp();
    const d = await t.login('driver');
    await t.db.update(user).set({ is_active: false }).where(eq(user.id, d.id)).run();
    expect((await t.json('GET', '/api/failed-delivery-status/', d.token)).status).toBe(401);

    const d2 = await t.login('driver');
    await t.db.update(user).set({ deleted_at: t.clock.now() }).where(eq(user.id, d2.id)).run();
    expect((await t.json('GET', '/api/failed-delivery-status/', d2.token)).status).toBe(401);

    const c = await t.login('company');
    expect((await t.json('GET', '/api/package/', c.token)).status).toBe(200);
    const companyId = (await t.db.select().from(user).where(eq(user.id, c.id)).get())?.company_id as number;
    await t.db.update(company).set({ status: 'suspended' }).where(eq(company.id, companyId)).run();
    expect((await t.json('GET', '/api/package/', c.token)).status).toBe(401);
    const again = await t.json('POST', '/api/auth/web-login/', null, { email: c.email, password: PASSWORD });
    expect(again.status).toBe(403);
  });

  it('expires tokens after their lifetime', async () => {
    const t = await makeApp();
    const a = await t.login('admin');
    t.clock.advance(31 * 24 * 3600_000);
    expect((await t.json('GET', '/api/warehouse/', a.token)).status).toBe(401);
  });

  it('resets a forgotten password with a one-time, expiring token sent to the outbox', async () => {
    const t = await makeApp();
    const d = await t.login('driver');
    const unknown = await t.json<{ message: string }>('POST', '/api/auth/forget-password/', null, { email: 'ghost@example.com' });
    const known = await t.json<{ message: string }>('POST', '/api/auth/forget-password/', null, { email: d.email });
    expect(known.status).toBe(200);
    expect(unknown.body.message).toBe(known.body.message); // no account enumeration
    await afterAnswer(); // the reset is written after the answer, so its timing tells nothing
    await t.app.deps.writes.settled();
    const mails = await t.db.select().from(messageOutbox).all();
    expect(mails).toHaveLength(1);
    const token = /Reset token: (\S+)/.exec(mails[0]!.body ?? '')?.[1] as string;
    expect(token).toBeTruthy();

    const tooShort = await t.json('POST', '/api/auth/reset-password/', null, { token, password: 'short' });
    expect(tooShort.status).toBe(400);
    const ok = await t.json('POST', '/api/auth/reset-password/', null, { token, password: 'a-brand-new-pass' });
    expect(ok.status).toBe(200);
    expect((await t.json('GET', '/api/failed-delivery-status/', d.token)).status).toBe(401); // sessions signed out
    expect((await t.json('POST', '/api/auth/reset-password/', null, { token, password: 'another-new-pass' })).status).toBe(400);
    expect((await t.json('POST', '/api/auth/login/', null, { email: d.email, password: 'a-brand-new-pass' })).status).toBe(200);

    await t.json('POST', '/api/auth/forget-password/', null, { email: d.email });
    await afterAnswer();
    await t.app.deps.writes.settled();
    const second = /Reset token: (\S+)/.exec((await t.db.select().from(messageOutbox).all())[1]!.body ?? '')?.[1] as string;
    t.clock.advance(2 * 3600_000);
    expect((await t.json('POST', '/api/auth/reset-password/', null, { token: second, password: 'too-late-pass' })).status).toBe(400);
  });

  it('changes a password with the current one, keeping this session and ending the others', async () => {
    const t = await makeApp();
    const a = await t.login('admin');
    const other = await t.json<{ token: string }>('POST', '/api/auth/web-login/', null, { email: a.email, password: PASSWORD });
    const wrong = await t.json('POST', '/api/auth/change-password/', a.token, { old_password: 'nope', new_password: 'new-password-1' });
    expect(wrong.status).toBe(400);
    const ok = await t.json('POST', '/api/auth/change-password/', a.token, { old_password: PASSWORD, new_password: 'new-password-1' });
    expect(ok.status).toBe(200);
    expect((await t.json('GET', '/api/warehouse/', a.token)).status).toBe(200);
    expect((await t.json('GET', '/api/warehouse/', other.body.token)).status).toBe(401);

    const byEmail = await t.json('POST', '/api/auth/password-change-with-email/', null, {
      email: a.email,
      old_password: 'new-password-1',
      new_password: 'new-password-2',
    });
    expect(byEmail.status).toBe(200);
    expect((await t.json('POST', '/api/auth/web-login/', null, { email: a.email, password: 'new-password-2' })).status).toBe(200);
  });

  it('creates the first super admin from the environment only when there is no user', async () => {
    const t = await makeApp();
    expect(await ensureSuperAdmin(t.db, t.clock, 'Root@Example.com', 'root-password')).toBe('root@example.com');
    expect(await ensureSuperAdmin(t.db, t.clock, 'second@example.com', 'root-password')).toBeNull();
    const res = await t.json<{ user: { role: string } }>('POST', '/api/auth/web-login/', null, {
      email: 'root@example.com',
      password: 'root-password',
    });
    expect(res.body.user.role).toBe('super_admin');
  });
});
