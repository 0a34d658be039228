/**
 * Issue 15, the attacks on accounts and sign-in, each performed with real requests and refused:
 * reset-link poisoning, login throttle bypasses, rank takeover, escalation through permission
 * groups, inbound webhook shadowing, idle and per-device sessions.
 */
import { eq } from 'drizzle-orm';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { authToken, company, messageOutbox, permissionGroup, user, userPermissionGroup } from '../../server/db/schema/index';
import { memoryRateLimiter } from '../../server/http/rateLimit';
import { securityConfig } from '../../server/securityConfig';
import { ACCOUNT_FREE, IP_LIMIT, PAIR_FREE } from '../../server/services/auth/throttle';
import { makeApp, PASSWORD, type TestApp } from '../helpers/app';
import { launchServer } from '../helpers/server';
import { companyWithKey, packageCount, signed } from './webhooks-helpers';

const loginAs = (t: TestApp, email: string, password: string, headers: Record<string, string> = {}) =>
  t.json<{ token: string; details?: { retry_after: number } }>('POST', '/api/auth/login/', null, { email, password }, headers);
/** The reset mail is written just after the answer (its timing must not tell who has an account). */
const outbox = async (t: TestApp) => {
  // The reset is written after the answer: once that unit has begun, wait for it to be durable.
  await new Promise<void>((ok) => {
    setImmediate(ok);
  });
  await t.app.deps.writes.settled();
  return t.db.select().from(messageOutbox).all();
};

describe('1. password-reset links come from PUBLIC_URL only', () => {
  it('without PUBLIC_URL the reset is refused with a clear 503 and no mail is written, whatever the Host', async () => {
    const t = await makeApp({ config: { publicUrl: undefined } });
    const d = await t.login('driver');
    const res = await t.json<{ code: string; message: string }>(
      'POST',
      'http://evil.example/api/auth/forget-password/',
      null,
      { email: d.email },
      { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    );
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('service_unavailable');
    expect(res.body.message).toContain('PUBLIC_URL');
    expect(await outbox(t)).toHaveLength(0);
  });

  it('with PUBLIC_URL the link names it, never the Host or X-Forwarded-Host of the request', async () => {
    const t = await makeApp({ config: { publicUrl: 'https://courier.example.com/app/' } });
    const d = await t.login('driver');
    const res = await t.json(
      'POST',
      'http://evil.example/api/auth/forget-password/',
      null,
      { email: d.email },
      { host: 'evil.example', 'x-forwarded-host': 'evil.example', forwarded: 'host=evil.example' },
    );
    expect(res.status).toBe(200);
    const mails = await outbox(t);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body).toContain('Link: https://courier.example.com/app/#/reset-password?token=');
    expect(mails[0]!.body).not.toContain('evil');
  });

  it('page links carry no origin the caller chose', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    await t.login('driver');
    const page = await t.json<{ next: string | null }>('GET', 'http://evil.example/api/employee/?page_size=1', admin.token, undefined, {
      host: 'evil.example',
    });
    expect(page.body.next).toBe('/api/employee/?page_size=1&page=2');
  });

  it('configuration: a warning without PUBLIC_URL, TRUST_PROXY read strictly', () => {
    expect(securityConfig({}).warnings.join('\n')).toContain('PUBLIC_URL is not set');
    expect(securityConfig({}).config.trustProxy).toBe(0);
    expect(securityConfig({ PUBLIC_URL: 'https://c.example/', TRUST_PROXY: '1' })).toMatchObject({
      warnings: [],
      config: { publicUrl: 'https://c.example', trustProxy: 1 },
    });
    expect(() => securityConfig({ TRUST_PROXY: 'yes please' })).toThrow(/TRUST_PROXY/);
    expect(() => securityConfig({ PUBLIC_URL: 'javascript:alert(1)' })).toThrow(/PUBLIC_URL/);
  });

  it('the real server warns at start-up and refuses a poisoned reset request', async () => {
    const saved = process.env.PUBLIC_URL;
    delete process.env.PUBLIC_URL;
    const server = await launchServer(mkdtempSync(join(tmpdir(), 'courier-sec-')));
    try {
      expect(server.output()).toContain('WARNING: PUBLIC_URL is not set');
      const res = await fetch(`${server.baseUrl}auth/forget-password/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-host': 'evil.example' },
        body: JSON.stringify({ email: 'admin@spawned.test' }),
      });
      expect(res.status).toBe(503);
    } finally {
      server.child.kill('SIGTERM');
      await server.exit;
      if (saved !== undefined) process.env.PUBLIC_URL = saved;
    }
  }, 120_000);
});

describe('1b. X-Forwarded-For is trusted only with TRUST_PROXY', () => {
  it('without TRUST_PROXY a client cannot dodge the per-address limit by writing X-Forwarded-For', async () => {
    const t = await makeApp();
    const statuses: number[] = [];
    for (let i = 0; i <= IP_LIMIT; i++) {
      statuses.push((await loginAs(t, `nobody${i}@example.com`, 'wrong-password', { 'x-forwarded-for': `10.0.${i}.1` })).status);
    }
    expect(statuses.slice(0, IP_LIMIT).every((s) => s === 401)).toBe(true);
    expect(statuses[IP_LIMIT]).toBe(429);
    // 31 wrong passwords in a row, each hashed (the same work for unknown accounts): slow on a loaded machine.
  }, 120_000);

  it('with TRUST_PROXY=1 the address the proxy appended counts, not what the client put before it', async () => {
    const t = await makeApp({ config: { trustProxy: 1 } });
    // The same real client (203.0.113.9, appended by our proxy) forging different left-hand entries.
    const statuses: number[] = [];
    for (let i = 0; i <= IP_LIMIT; i++) {
      statuses.push(
        (await loginAs(t, `nobody${i}@example.com`, 'wrong-password', { 'x-forwarded-for': `10.0.${i}.1, 203.0.113.9` })).status,
      );
    }
    expect(statuses[IP_LIMIT]).toBe(429);
    // Another client behind the same proxy is not affected.
    expect((await loginAs(t, 'someone@example.com', 'wrong-password', { 'x-forwarded-for': '198.51.100.7' })).status).toBe(401);
  }, 120_000);
});

describe('2. login throttling', () => {
  it('100 parallel wrong passwords and the right one in the same burst: the right one is refused', async () => {
    const t = await makeApp();
    const d = await t.login('driver');
    const burst = [...Array.from({ length: 100 }, () => loginAs(t, d.email, 'wrong-password')), loginAs(t, d.email, PASSWORD)];
    const answers = await Promise.all(burst);
    const statuses = answers.map((a) => a.status);
    // Counted before hashing: only the free attempts reached the password check.
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(PAIR_FREE + 1);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(100 - PAIR_FREE - 1);
    expect(statuses[100]).toBe(429);
    expect(answers[100]!.body.details?.retry_after).toBeGreaterThan(0);
  });

  it('the same burst spread over 101 addresses (a botnet) still refuses the right password', async () => {
    const t = await makeApp({ config: { trustProxy: 1 } });
    const d = await t.login('driver');
    const burst = [
      ...Array.from({ length: 100 }, (_, i) => loginAs(t, d.email, 'wrong-password', { 'x-forwarded-for': `10.1.${i}.1` })),
      loginAs(t, d.email, PASSWORD, { 'x-forwarded-for': '10.2.0.1' }),
    ];
    const statuses = (await Promise.all(burst)).map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(ACCOUNT_FREE + 1);
    expect(statuses[100]).toBe(429);
  });

  it('delays grow per account and address; the real user on their own address is not locked out by an attacker', async () => {
    const t = await makeApp({ config: { trustProxy: 1 } });
    const d = await t.login('driver');
    const attacker = { 'x-forwarded-for': '198.51.100.66' };
    const user = { 'x-forwarded-for': '203.0.113.10' };
    const first: number[] = [];
    for (let i = 0; i < PAIR_FREE + 2; i++) first.push((await loginAs(t, d.email, 'wrong-password', attacker)).status);
    expect(first).toEqual([...Array(PAIR_FREE + 1).fill(401), 429]);
    // Wait out the first delay: one more guess, then a longer delay (1 s, then 2 s...).
    t.clock.advance(1_000);
    expect((await loginAs(t, d.email, 'wrong-password', attacker)).status).toBe(401);
    const refused = await loginAs(t, d.email, 'wrong-password', attacker);
    expect(refused.status).toBe(429);
    expect(refused.body.details?.retry_after).toBe(2);
    // Meanwhile the real user, elsewhere, signs in at once.
    expect((await loginAs(t, d.email, PASSWORD, user)).status).toBe(200);
  });

  it('a botnet keeping the account delayed cannot keep its owner out: an address they signed in from before skips that layer', async () => {
    const t = await makeApp({ config: { trustProxy: 1 } });
    const d = await t.login('driver');
    const home = { 'x-forwarded-for': '203.0.113.10' };
    expect((await loginAs(t, d.email, PASSWORD, home)).status).toBe(200);
    t.clock.advance(60_000);
    // 40 guesses from 40 addresses: the account-wide layer now delays everyone else.
    for (let i = 0; i < 40; i++) await loginAs(t, d.email, 'wrong-password', { 'x-forwarded-for': `10.4.0.${i}` });
    expect((await loginAs(t, d.email, PASSWORD, { 'x-forwarded-for': '10.4.1.1' })).status).toBe(429);
    expect((await loginAs(t, d.email, PASSWORD, home)).status).toBe(200);
  }, 120_000);

  it('flooding the limiter with e-mail keys does not forget a live delay (bounded, separate tables)', async () => {
    const t = await makeApp({ config: { trustProxy: 1, limiterCapacity: 10 } });
    const d = await t.login('driver');
    const attacker = { 'x-forwarded-for': '198.51.100.66' };
    for (let i = 0; i < PAIR_FREE + 1; i++) await loginAs(t, d.email, 'wrong-password', attacker);
    expect((await loginAs(t, d.email, PASSWORD, attacker)).status).toBe(429);
    // 100 forget-password e-mails from 100 addresses (ten times the capacity), and 25 login e-mails.
    for (let i = 0; i < 100; i++) {
      const from = { 'x-forwarded-for': `10.3.${i >> 8}.${i & 255}` };
      await t.json('POST', '/api/auth/forget-password/', null, { email: `flood${i}@example.com` }, from);
      if (i < 25) await loginAs(t, `flood${i}@example.com`, 'wrong-password', from);
    }
    expect((await loginAs(t, d.email, PASSWORD, attacker)).status).toBe(429);
    // The limiter still works for newcomers (it evicted unlocked entries, it did not stop counting).
    expect((await loginAs(t, 'late@example.com', 'wrong-password', { 'x-forwarded-for': '10.9.9.9' })).status).toBe(401);
  }, 120_000);

  it('forget-password checks the address before counting the e-mail', async () => {
    const t = await makeApp();
    const statuses: number[] = [];
    for (let i = 0; i < 52; i++)
      statuses.push((await t.json('POST', '/api/auth/forget-password/', null, { email: `x${i}@example.com` })).status);
    expect(statuses.slice(0, 50).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(50)).toEqual([429, 429]);
  });

  it('password-change-with-email is throttled like a login, and answers an unknown e-mail like a wrong password', async () => {
    const t = await makeApp();
    const a = await t.login('admin');
    const unknown = await t.json('POST', '/api/auth/password-change-with-email/', null, {
      email: 'ghost@example.com',
      old_password: 'whatever-1',
      new_password: 'new-password-1',
    });
    const wrong = await t.json('POST', '/api/auth/password-change-with-email/', null, {
      email: a.email,
      old_password: 'whatever-1',
      new_password: 'new-password-1',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(wrong.body);
    const statuses: number[] = [];
    for (let i = 0; i < PAIR_FREE + 2; i++) {
      statuses.push(
        (
          await t.json('POST', '/api/auth/password-change-with-email/', null, {
            email: a.email,
            old_password: `guess-${i}-x`,
            new_password: 'new-password-1',
          })
        ).status,
      );
    }
    expect(statuses.at(-1)).toBe(429);
    // The right password is refused too while the delay lasts.
    expect(
      (
        await t.json('POST', '/api/auth/password-change-with-email/', null, {
          email: a.email,
          old_password: PASSWORD,
          new_password: 'new-password-1',
        })
      ).status,
    ).toBe(429);
  });
});

describe('3. the rank rule: nobody takes over an account of their rank or above', () => {
  it('an admin cannot edit, re-role, reset, deactivate, archive, delete or regroup a super admin or another admin', async () => {
    const t = await makeApp();
    const boss = await t.login('super_admin');
    const admin = await t.login('admin');
    const peer = await t.login('admin');
    const before = await t.db.select().from(user).where(eq(user.id, boss.id)).get();
    const takeover = await t.json('PATCH', `/api/employee/${boss.id}/`, admin.token, {
      role: 'admin',
      email: 'mine@evil.example',
      password: 'taken-over-42',
    });
    expect(takeover.status).toBe(403);
    expect(await t.db.select().from(user).where(eq(user.id, boss.id)).get()).toEqual(before);
    expect((await t.json('GET', '/api/profile/', boss.token)).status).toBe(200);
    for (const target of [boss, peer]) {
      expect((await t.json('PATCH', `/api/employee/${target.id}/`, admin.token, { name: 'Renamed' })).status).toBe(403);
      expect((await t.json('PUT', `/api/employee/${target.id}/`, admin.token, { password: 'taken-over-42' })).status).toBe(403);
      expect((await t.json('POST', `/api/employee/${target.id}/status-change/`, admin.token, { is_active: false })).status).toBe(403);
      expect((await t.json('POST', '/api/employee/archive-employee/', admin.token, { deleted: [target.id] })).status).toBe(403);
      expect((await t.json('DELETE', `/api/employee/${target.id}/`, admin.token)).status).toBe(403);
      expect((await t.json('PUT', `/api/employee/${target.id}/groups/`, admin.token, { groups: [] })).status).toBe(403);
      expect((await t.json('GET', `/api/employee/${target.id}/sessions/`, admin.token)).status).toBe(403);
    }
    expect((await t.json('GET', '/api/profile/', peer.token)).status).toBe(200);
    // Downwards it works, and a super admin may act on anyone.
    const sup = await t.login('supervisor');
    expect((await t.json('PATCH', `/api/employee/${sup.id}/`, admin.token, { name: 'Sup' })).status).toBe(200);
    expect((await t.json('PATCH', `/api/employee/${peer.id}/`, boss.token, { name: 'Peer' })).status).toBe(200);
  });

  it('nobody gives a role of their own rank or above, on create or on update', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const sup = await t.login('supervisor');
    const make = (role: string, n: number) => ({
      name: `New ${role}`,
      email: `new-${role}-${n}@example.com`,
      role,
      password: 'new-password-1',
    });
    expect((await t.json('POST', '/api/employee/', admin.token, make('super_admin', 1))).status).toBe(403);
    expect((await t.json('POST', '/api/employee/', admin.token, make('admin', 1))).status).toBe(403);
    expect((await t.json('POST', '/api/employee/', admin.token, make('supervisor', 1))).status).toBe(201);
    expect((await t.json('PATCH', `/api/employee/${sup.id}/`, admin.token, { role: 'admin' })).status).toBe(403);
    expect((await t.db.select({ role: user.role }).from(user).where(eq(user.id, sup.id)).get())?.role).toBe('supervisor');
  });
});

describe('8. permission groups cannot lift a company login out of its company', () => {
  it('a company given employee.manage creates only drivers of its own company, never staff', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const co = await t.login('company');
    const group = await t.json<{ id: number }>('POST', '/api/group-permission/', admin.token, {
      name: 'People',
      permissions: ['employee.manage'],
    });
    expect((await t.json('PUT', `/api/employee/${co.id}/groups/`, admin.token, { groups: [group.body.id] })).status).toBe(200);
    const make = (role: string) => ({ name: `X ${role}`, email: `x-${role}@example.com`, role, password: 'new-password-1' });
    for (const role of ['supervisor', 'depot_manager', 'admin', 'company']) {
      expect((await t.json('POST', '/api/employee/', co.token, make(role))).status, role).toBe(403);
    }
    expect(await t.db.select().from(user).where(eq(user.email, 'x-supervisor@example.com')).get()).toBeUndefined();
    const driver = await t.json<{ company: number }>('POST', '/api/employee/', co.token, { ...make('driver'), company: 999 });
    expect(driver.status).toBe(201);
    const coRow = await t.db.select({ company_id: user.company_id }).from(user).where(eq(user.id, co.id)).get();
    expect(driver.body.company).toBe(coRow?.company_id);
  });

  it('permissions that act outside one company cannot be granted to a company login, nor smuggled in by editing its group', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const co = await t.login('company');
    const wide = await t.json<{ id: number }>('POST', '/api/group-permission/', admin.token, {
      name: 'Wide',
      permissions: ['company.manage', 'rate.manage'],
    });
    const refused = await t.json<{ message: string }>('PUT', `/api/employee/${co.id}/groups/`, admin.token, { groups: [wide.body.id] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('company.manage');
    const narrow = await t.json<{ id: number }>('POST', '/api/group-permission/', admin.token, {
      name: 'Narrow',
      permissions: ['package.view'],
    });
    await t.json('PUT', `/api/employee/${co.id}/groups/`, admin.token, { groups: [narrow.body.id] });
    expect(
      (await t.json('PATCH', `/api/group-permission/${narrow.body.id}/`, admin.token, { permissions: ['package.view', 'geo.manage'] }))
        .status,
    ).toBe(400);
    // A group written straight into the database still gives a company login nothing outside its scope.
    const now = t.clock.now();
    const gid = (
      await t.db
        .insert(permissionGroup)
        .values({ name: 'Legacy', permissions: JSON.stringify(['warehouse.manage']), created_at: now, updated_at: now })
        .returning()
        .get()
    ).id;
    await t.db.insert(userPermissionGroup).values({ user_id: co.id, group_id: gid, created_at: now }).run();
    expect((await t.json('POST', '/api/warehouse/', co.token, { name: 'Sneaky' })).status).toBe(403);
  });

  it('nobody grants a permission they do not hold, nor edits a group of a higher-ranked member', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const sup = await t.login('supervisor');
    const dm = await t.login('depot_manager');
    const managers = await t.json<{ id: number }>('POST', '/api/group-permission/', admin.token, {
      name: 'Managers',
      permissions: ['permission.manage', 'permission.view'],
    });
    await t.json('PUT', `/api/employee/${sup.id}/groups/`, admin.token, { groups: [managers.body.id] });
    // The supervisor now manages groups, but cannot mint powers it lacks or hand out its own.
    expect((await t.json('POST', '/api/group-permission/', sup.token, { name: 'All', permissions: ['rate.manage'] })).status).toBe(403);
    expect((await t.json('PUT', `/api/employee/${sup.id}/groups/`, sup.token, { groups: [managers.body.id] })).status).toBe(403);
    const adminGroup = await t.json<{ id: number }>('POST', '/api/group-permission/', admin.token, {
      name: 'Admins',
      permissions: ['report.view'],
    });
    await t.json('PUT', `/api/employee/${admin.id}/groups/`, (await t.login('super_admin')).token, { groups: [adminGroup.body.id] });
    expect((await t.json('PATCH', `/api/group-permission/${adminGroup.body.id}/`, sup.token, { name: 'Renamed' })).status).toBe(403);
    expect((await t.json('DELETE', `/api/group-permission/${adminGroup.body.id}/`, sup.token)).status).toBe(403);
    // Below its rank, with what it holds, it may.
    const scan = await t.json<{ id: number }>('POST', '/api/group-permission/', sup.token, {
      name: 'Scanners',
      permissions: ['scan.manage'],
    });
    expect(scan.status).toBe(201);
    expect((await t.json('PUT', `/api/employee/${dm.id}/groups/`, sup.token, { groups: [scan.body.id] })).status).toBe(200);
  });
});

describe('7. inbound webhooks: the sender is named one way only', () => {
  it('a company code cannot look like an id (register, create, update)', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const reg = await t.json('POST', '/api/company/register/', null, {
      name: 'Shadow',
      email: 'shadow@example.com',
      code: '2',
      password: 'shadow-password-1',
    });
    expect(reg.status).toBe(400);
    const made = await t.json('POST', '/api/company/', admin.token, { name: 'Numeric', email: 'n@example.com', code: '0042' });
    expect(made.status).toBe(400);
    const ok = await t.json<{ id: number }>('POST', '/api/company/', admin.token, { name: 'Fine', email: 'f@example.com', code: 'FINE-2' });
    expect(ok.status).toBe(201);
    expect((await t.json('PATCH', `/api/company/${ok.body.id}/`, admin.token, { code: '7' })).status).toBe(400);
    // A derived code holds a letter even for a name of digits.
    const derived = await t.json('POST', '/api/company/register/', null, {
      name: '1234',
      email: 'digits@example.com',
      password: 'digits-password-1',
    });
    expect(derived.status).toBe(201);
    expect((await t.db.select({ code: company.code }).from(company).where(eq(company.email, 'digits@example.com')).get())?.code).toMatch(
      /[A-Z]/,
    );
  });

  it('X-Courier-Company is the code: an id is refused, and a legacy numeric code cannot shadow a company id', async () => {
    const t = await makeApp();
    const victim = await companyWithKey(t, 'Victim');
    // A company stored before the rule with a code equal to the victim's id.
    const now = t.clock.now();
    await t.db
      .insert(company)
      .values({ name: 'Squatter', code: String(victim.id), email: 's@example.com', status: 'active', created_at: now, updated_at: now })
      .run();
    const body = JSON.stringify({ hawb: 'V-1' });
    const ts = Math.floor(now / 1000);
    const before = await packageCount(t);
    expect(
      (await t.json('POST', '/api/pickup-package/webhook/', null, body, signed(victim.secret, body, ts, String(victim.id)))).status,
    ).toBe(401);
    expect(await packageCount(t)).toBe(before);
    const good = await t.json('POST', '/api/pickup-package/webhook/', null, body, signed(victim.secret, body, ts, victim.code));
    expect(good.status).toBe(201);
  });
});

describe('sessions: idle expiry for staff, per-device revocation by an admin', () => {
  it('a staff session unused for the idle time stops; a driver session does not; use keeps it alive', async () => {
    const t = await makeApp({ config: { staffIdleMs: 60 * 60_000 } });
    const admin = await t.login('admin');
    const busy = await t.login('supervisor');
    const driver = await t.login('driver');
    for (let i = 0; i < 3; i++) {
      t.clock.advance(40 * 60_000);
      expect((await t.json('GET', '/api/profile/', busy.token)).status).toBe(200);
    }
    // 120 minutes later: the idle admin is out, the busy supervisor and the silent driver are not.
    expect((await t.json('GET', '/api/profile/', admin.token)).status).toBe(401);
    expect((await t.json('GET', '/api/profile/', busy.token)).status).toBe(200);
    expect((await t.json('GET', '/api/profile/', driver.token)).status).toBe(200);
  });

  it("an admin lists a driver's devices and signs one phone out; the other keeps working", async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const d = await t.login('driver');
    const phone = async (device: string) => (await loginAs(t, d.email, PASSWORD, { 'x-device-id': device })).body.token;
    const lost1 = await phone('phone-lost');
    const lost2 = await phone('phone-lost');
    const spare = await phone('phone-spare');
    const list = await t.json<{ count: number; results: { id: number; device_id: string | null; kind: string }[] }>(
      'GET',
      `/api/employee/${d.id}/sessions/`,
      admin.token,
    );
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(4);
    expect(JSON.stringify(list.body)).not.toContain(lost1);
    const target = list.body.results.find((s) => s.device_id === 'phone-lost')!;
    const revoked = await t.json<{ revoked: number }>('DELETE', `/api/employee/${d.id}/sessions/${target.id}/`, admin.token);
    expect(revoked.body.revoked).toBe(2);
    expect((await t.json('GET', '/api/profile/', lost1)).status).toBe(401);
    expect((await t.json('GET', '/api/profile/', lost2)).status).toBe(401);
    expect((await t.json('GET', '/api/profile/', spare)).status).toBe(200);
    expect((await t.json('GET', '/api/profile/', d.token)).status).toBe(200);
    // Another account's session id, or another company's driver, is not found.
    const other = await t.login('driver');
    expect((await t.json('DELETE', `/api/employee/${other.id}/sessions/${target.id}/`, admin.token)).status).toBe(404);
    const co = await t.login('company');
    expect((await t.json('GET', `/api/employee/${d.id}/sessions/`, co.token)).status).toBe(403);
    expect((await t.db.select().from(authToken).where(eq(authToken.user_id, d.id)).all()).filter((r) => r.revoked_at == null)).toHaveLength(
      2,
    );
  });
});

describe('own sessions', () => {
  it("a driver signs out their lost phone from the new one; another account's session is not theirs to end", async () => {
    const t = await makeApp();
    const d = await t.login('driver');
    const lost = (await loginAs(t, d.email, PASSWORD, { 'x-device-id': 'old-phone' })).body.token;
    const mine = await t.json<{ results: { id: number; device_id: string | null; current: boolean }[] }>(
      'GET',
      '/api/auth/sessions/',
      d.token,
    );
    expect(mine.body.results.filter((s) => s.current)).toHaveLength(1);
    const old = mine.body.results.find((s) => s.device_id === 'old-phone')!;
    const other = await t.login('driver');
    expect((await t.json('DELETE', `/api/auth/sessions/${old.id}/`, other.token)).status).toBe(404);
    expect((await t.json('GET', '/api/profile/', lost)).status).toBe(200);
    expect((await t.json('DELETE', `/api/auth/sessions/${old.id}/`, d.token)).status).toBe(200);
    expect((await t.json('GET', '/api/profile/', lost)).status).toBe(401);
    expect((await t.json('GET', '/api/profile/', d.token)).status).toBe(200);
  });
});

describe('the bounded limiter table (server/http/rateLimit.ts)', () => {
  it('drops expired entries first, then the oldest unlocked one, never a live lock; full of locks, it refuses', async () => {
    const limiter = memoryRateLimiter(3);
    await limiter.hit('s:a', 1, 1000, 0); // at its limit: a live lock until 1000
    await expect(limiter.hit('s:a', 1, 1000, 0)).rejects.toThrow(/Too many/);
    await limiter.hit('s:b', 5, 100, 0); // expires at 100
    await limiter.hit('s:c', 5, 1000, 0);
    await limiter.hit('s:d', 5, 1000, 200); // full: b (expired) goes
    expect(await limiter.count('s:b', 200)).toBe(0);
    expect(await limiter.count('s:c', 200)).toBe(1);
    await limiter.hit('s:e', 5, 1000, 200); // full, nothing expired: c (oldest unlocked) goes, a stays
    expect(await limiter.count('s:c', 200)).toBe(0);
    await expect(limiter.hit('s:a', 1, 1000, 300)).rejects.toThrow(/Too many/);
    // Another scope has its own table.
    await limiter.hit('other:x', 5, 1000, 300);
    expect(await limiter.count('s:d', 300)).toBe(1);
    const locks = memoryRateLimiter(2);
    for (const k of ['s:1', 's:2']) await locks.hit(k, 1, 1000, 0);
    await expect(locks.hit('s:3', 5, 1000, 0)).rejects.toThrow(/throttled/);
  });
});
