import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eq } from 'drizzle-orm';
import { createApp } from '../../server/app';
import { manualClock } from '../../server/clock';
import { openMemoryDatabase } from '../../server/db/client';
import { auditLog, company, user } from '../../server/db/schema/index';
import { diskFileStore } from '../../server/files';
import { hashPasswordSync } from '../../server/services/auth/passwords';
import { makeApp, type TestApp } from '../helpers/app';

interface AuditEntry {
  id: number;
  at: string;
  actor: { id: number; name: string } | null;
  action: string;
  target: string;
  details: Record<string, unknown> | null;
}
interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

async function parcel(t: TestApp, token: string, hawb: string): Promise<number> {
  const res = await t.json<{ id: number }>('POST', '/api/package/', token, { hawb, customer_name: 'Ann Receiver' });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function trail(t: TestApp, token: string, query = ''): Promise<Page<AuditEntry>> {
  const res = await t.json<Page<AuditEntry>>('GET', `/api/audit-log/${query}`, token);
  expect(res.status).toBe(200);
  return res.body;
}

describe('audit log of admin actions', () => {
  it('records force delivery and force failure with who, what and why; staff read it, others are refused', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const a = await parcel(t, admin.token, 'AUD-1');
    const b = await parcel(t, admin.token, 'AUD-2');

    expect(
      (await t.json('POST', `/api/package-delivered/${a}/force-deliver/`, admin.token, { note: 'customer called, parcel was handed over' }))
        .status,
    ).toBe(200);
    expect((await t.json('POST', `/api/package-delivered/${b}/force-fail/`, admin.token, { note: 'address does not exist' })).status).toBe(
      200,
    );

    const page = await trail(t, admin.token);
    expect(page.count).toBe(2);
    const [fail, deliver] = page.results;
    expect(deliver).toMatchObject({
      action: 'package.force_deliver',
      target: `package:${a}`,
      actor: { id: admin.id },
      details: { hawb: 'AUD-1', note: 'customer called, parcel was handed over' },
    });
    expect(fail).toMatchObject({ action: 'package.force_fail', target: `package:${b}`, actor: { id: admin.id } });
    expect(Date.parse(deliver!.at)).toBe(t.clock.now());

    // Filters narrow the trail.
    expect((await trail(t, admin.token, `?target=package:${a}`)).results.map((e) => e.action)).toEqual(['package.force_deliver']);
    expect((await trail(t, admin.token, '?action=package.force_fail')).count).toBe(1);
    expect((await trail(t, admin.token, `?actor=${admin.id + 1000}`)).count).toBe(0);

    const supervisor = await t.login('supervisor');
    expect((await t.json('GET', '/api/audit-log/', supervisor.token)).status).toBe(200);
    for (const role of ['company', 'driver'] as const) {
      const other = await t.login(role);
      const res = await t.json<{ code: string }>('GET', '/api/audit-log/', other.token);
      expect(res.status, role).toBe(403);
    }
    expect((await t.json('GET', '/api/audit-log/', null)).status).toBe(401);
  });

  it('a refused force action leaves no audit line (it rolls back with the action)', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const a = await parcel(t, admin.token, 'AUD-3');
    expect((await t.json('POST', `/api/package-delivered/${a}/force-deliver/`, admin.token, { note: 'first' })).status).toBe(200);
    // Delivered is final: the second force is refused, and so is its audit line.
    expect((await t.json('POST', `/api/package-delivered/${a}/force-deliver/`, admin.token, { note: 'second' })).status).toBe(409);
    expect((await t.db.select({ n: count() }).from(auditLog).get())?.n).toBe(1);
  });

  it('records company and employee status changes and permission changes', async () => {
    const t = await makeApp();
    const admin = await t.login('super_admin');
    const companyId = await t.company('Audited Co');
    const driver = await t.login('driver');

    expect((await t.json('POST', `/api/company/${companyId}/status-change/`, admin.token, { status: 'suspended' })).status).toBe(200);
    expect((await t.json('POST', `/api/employee/${driver.id}/status-change/`, admin.token, { is_active: false })).status).toBe(200);
    const group = await t.json<{ id: number }>('POST', '/api/group-permission/', admin.token, {
      name: 'Night shift',
      permissions: ['wallet.view'],
    });
    expect(group.status).toBe(201);
    const other = await t.login('supervisor');
    expect((await t.json('PUT', `/api/employee/${other.id}/groups/`, admin.token, { groups: [group.body.id] })).status).toBe(200);
    expect((await t.json('DELETE', `/api/group-permission/${group.body.id}/`, admin.token)).status).toBe(200);

    const actions = (await trail(t, admin.token)).results.map((e) => [e.action, e.target, e.details]);
    expect(actions).toEqual([
      [
        'permission_group.delete',
        `permission_group:${group.body.id}`,
        { before: expect.objectContaining({ name: 'Night shift', permissions: ['wallet.view'] }), after: null },
      ],
      [
        'user.groups_set',
        `user:${other.id}`,
        { groups: [group.body.id], before: { groups: [] }, after: { groups: [{ id: group.body.id, name: 'Night shift' }] } },
      ],
      [
        'permission_group.create',
        `permission_group:${group.body.id}`,
        { before: null, after: expect.objectContaining({ id: group.body.id, name: 'Night shift', permissions: ['wallet.view'] }) },
      ],
      ['user.status_change', `user:${driver.id}`, { before: { is_active: true }, after: { is_active: false } }],
      ['company.status_change', `company:${companyId}`, { before: { status: 'active' }, after: { status: 'suspended' } }],
    ]);
    expect((await t.db.select({ s: company.status }).from(company).where(eq(company.id, companyId)).get())?.s).toBe('suspended');
  });

  it('records wallet adjustments', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const companyId = await t.company('Wallet Co');
    const res = await t.json('POST', '/api/wallet-adjustment/', admin.token, {
      company: companyId,
      direction: 'credit',
      amount_cents: 1250,
      reason: 'goodwill credit',
    });
    // The wallet owner may require a wallet first; either way an accepted adjustment is audited.
    if (res.status === 201) {
      const [entry] = (await trail(t, admin.token, '?action=wallet.adjust')).results;
      expect(entry).toMatchObject({
        action: 'wallet.adjust',
        details: { company: companyId, direction: 'credit', amount_cents: 1250, reason: 'goodwill credit' },
      });
    } else {
      expect(res.status).toBeLessThan(500);
      expect((await trail(t, admin.token, '?action=wallet.adjust')).count).toBe(0);
    }
  });
});

describe('request log', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('writes one JSON line per request with the route template, never query strings, bodies, tokens or e-mail addresses', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(' '));
    });
    const db = await openMemoryDatabase();
    const clock = manualClock();
    const app = createApp({
      db,
      files: diskFileStore(mkdtempSync(join(tmpdir(), 'courier-log-'))),
      clock,
      config: { logRequests: true, publicUrl: 'https://courier.test' },
    });
    const now = clock.now();
    const email = 'secret.person@example.org';
    const password = 'hunter2-hunter2';
    await db
      .insert(user)
      .values({
        name: 'Private Person',
        email,
        role: 'admin',
        password_hash: hashPasswordSync(password, 1024),
        created_at: now,
        updated_at: now,
      })
      .run();

    const login = await app.request('/api/auth/web-login/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const { token } = (await login.json()) as { token: string };
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    await app.request('/api/package/?search=Jane%20Doe%200400123456', { headers: auth });
    await app.request('/api/package/', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ hawb: 'LOG-1', customer_name: 'Jane Doe', customer_phone: '0400123456' }),
    });
    await app.request('/api/package/1/', { headers: { ...auth, 'x-request-id': 'bad id {"forged":true}' } });
    await app.request('/api/track/LOG-1/', {});
    await app.request('/api/no/such/route/?token=abc', {});
    await app.request('/api/auth/forget-password/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    await new Promise<void>((ok) => {
      setImmediate(ok);
    }); // the reset mail is written just after the answer

    const requestLines = lines.filter((l) => l.startsWith('{'));
    expect(requestLines.length).toBeGreaterThanOrEqual(6);
    const all = lines.join('\n');
    for (const secret of [
      token,
      password,
      email,
      'secret.person',
      '0400123456',
      'Jane',
      'search=',
      'LOG-1',
      'forged',
      'Private Person',
      'token=abc',
    ]) {
      expect(all, secret).not.toContain(secret);
    }
    const parsed = requestLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const p of parsed) expect(Object.keys(p).sort()).toEqual(['id', 'm', 'ms', 'r', 's', 't', 'u']);
    expect(parsed).toContainEqual(expect.objectContaining({ m: 'GET', r: '/api/package/', s: 200, u: expect.any(Number) }));
    expect(parsed).toContainEqual(expect.objectContaining({ m: 'GET', r: '/api/package/{id}/' }));
    expect(parsed).toContainEqual(expect.objectContaining({ r: '/api/track/{hawb}/' }));
    expect(parsed).toContainEqual(expect.objectContaining({ r: null, s: 404 }));
    // A forged request id is replaced, so a header cannot inject log lines.
    expect(parsed.every((p) => /^[A-Za-z0-9_.:-]{1,128}$/.test(String(p.id)))).toBe(true);
  });
});
