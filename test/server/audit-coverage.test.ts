import { parse } from 'csv-parse/sync';
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { atomically } from '../../server/db/atomically';
import { auditLog, pkg } from '../../server/db/schema/index';
import { transition } from '../../server/services/packages/lifecycle';
import { hawb, moneyWorld, shipper, type Json, type Page } from './money-fixtures';
import type { TestApp } from '../helpers/app';

interface Entry {
  id: number;
  at: string;
  actor: { id: number; name: string } | null;
  action: string;
  target: string;
  details: Json | null;
}

const DAY = 86_400_000;
const lineCount = async (t: TestApp) => (await t.db.select({ n: count() }).from(auditLog).get())?.n ?? 0;

async function trail(t: TestApp, token: string, query = ''): Promise<Page<Entry>> {
  const res = await t.json<Page<Entry>>('GET', `/api/audit-log/${query}`, token);
  expect(res.status, query).toBe(200);
  return res.body;
}

/**
 * Runs one action and checks it left exactly one audit line, by this actor, naming this action and
 * entity, with both `before` and `after` present; answers that line for closer checks.
 */
async function once(
  t: TestApp,
  token: string,
  actorId: number,
  action: string,
  entity: string,
  run: () => Promise<{ status: number }>,
): Promise<Entry> {
  const n = await lineCount(t);
  const res = await run();
  expect(res.status, action).toBeLessThan(300);
  expect(await lineCount(t), action).toBe(n + 1);
  const [line] = (await trail(t, token, '?page_size=1')).results;
  expect(line, action).toMatchObject({ action, actor: { id: actorId } });
  expect(line!.target.startsWith(`${entity}:`), `${action} -> ${line!.target}`).toBe(true);
  expect(line!.details, action).toHaveProperty('before');
  expect(line!.details, action).toHaveProperty('after');
  return line!;
}

describe('audit coverage of manager actions', () => {
  it('every change a manager could be asked about is one line with who, what and before -> after', async () => {
    const { t, admin } = await moneyWorld();
    const boss = await t.login('super_admin');
    const post = <T = Json>(path: string, body: Json, token = admin.token) => t.json<T>('POST', path, token, body);
    const patch = <T = Json>(path: string, body: Json, token = admin.token) => t.json<T>('PATCH', path, token, body);

    // Companies: create, update, status.
    let coId = 0;
    const created = await once(t, admin.token, admin.id, 'company.create', 'company', async () => {
      const r = await post<{ id: number }>('/api/company/', { name: 'Acme Freight', email: 'ops@acme.test', code: 'ACME' });
      coId = r.body.id;
      return r;
    });
    expect(created.target).toBe(`company:${coId}`);
    expect(created.details).toMatchObject({ before: null, after: { name: 'Acme Freight', status: 'active' } });
    // Contact details and secrets never enter the trail.
    expect(JSON.stringify(created.details)).not.toContain('ops@acme.test');
    const renamed = await once(t, admin.token, admin.id, 'company.update', 'company', () =>
      patch(`/api/company/${coId}/`, { name: 'Acme Logistics' }),
    );
    expect(renamed.details).toEqual({ before: { name: 'Acme Freight' }, after: { name: 'Acme Logistics' } });
    const suspended = await once(t, admin.token, admin.id, 'company.status_change', 'company', () =>
      post(`/api/company/${coId}/status-change/`, { status: 'suspended' }),
    );
    expect(suspended.details).toEqual({ before: { status: 'active' }, after: { status: 'suspended' } });

    // Employees: create, role change, status; the password never appears.
    let empId = 0;
    const hired = await once(t, boss.token, boss.id, 'user.create', 'user', async () => {
      const r = await post<{ id: number }>(
        '/api/employee/',
        { name: 'Sam Sorter', email: 'sam@courier.test', role: 'supervisor', password: 'correct horse battery' },
        boss.token,
      );
      empId = r.body.id;
      return r;
    });
    expect(hired.details).toMatchObject({ before: null, after: { name: 'Sam Sorter', role: 'supervisor' } });
    expect(JSON.stringify(hired.details)).not.toMatch(/sam@courier|password|hash/);
    const promoted = await once(t, boss.token, boss.id, 'user.update', 'user', () =>
      patch(`/api/employee/${empId}/`, { role: 'depot_manager' }, boss.token),
    );
    expect(promoted.details).toEqual({ before: { role: 'supervisor' }, after: { role: 'depot_manager' } });
    const off = await once(t, boss.token, boss.id, 'user.status_change', 'user', () =>
      post(`/api/employee/${empId}/status-change/`, { is_active: false }, boss.token),
    );
    expect(off.details).toEqual({ before: { is_active: true }, after: { is_active: false } });

    // Permission groups: create, update, membership.
    let groupId = 0;
    await once(t, boss.token, boss.id, 'permission_group.create', 'permission_group', async () => {
      const r = await post<{ id: number }>('/api/group-permission/', { name: 'Billing', permissions: ['wallet.view'] }, boss.token);
      groupId = r.body.id;
      return r;
    });
    const widened = await once(t, boss.token, boss.id, 'permission_group.update', 'permission_group', () =>
      patch(`/api/group-permission/${groupId}/`, { permissions: ['wallet.view', 'invoice.view'] }, boss.token),
    );
    expect(widened.details).toEqual({ before: { permissions: ['wallet.view'] }, after: { permissions: ['invoice.view', 'wallet.view'] } });
    const member = await once(t, boss.token, boss.id, 'user.groups_set', 'user', () =>
      t.json('PUT', `/api/employee/${empId}/groups/`, boss.token, { groups: [groupId] }),
    );
    expect(member.details).toMatchObject({ before: { groups: [] }, after: { groups: [{ id: groupId, name: 'Billing' }] } });

    // Rate lines.
    const rate = await once(t, admin.token, admin.id, 'delivery_rate.create', 'delivery_rate', () =>
      post('/api/delivery-rate/', { base_cents: 1000 }),
    );
    expect(rate.details).toMatchObject({ before: null, after: { base_cents: 1000 } });

    // Wallet: recharge and adjustment move the balance; the line says from what to what.
    const prepaid = await shipper(t, 'prepaid');
    const recharge = await once(t, admin.token, admin.id, 'wallet.recharge', 'wallet', () =>
      post('/api/wallet/prepaid-recharge-by-company/', { company: prepaid.companyId, amount_cents: 5000 }),
    );
    expect(recharge.details).toMatchObject({
      company: prepaid.companyId,
      amount_cents: 5000,
      before: { balance_cents: 0 },
      after: { balance_cents: 5000 },
    });
    const adjust = await once(t, admin.token, admin.id, 'wallet.adjust', 'wallet', () =>
      post('/api/wallet-adjustment/', { company: prepaid.companyId, direction: 'debit', amount_cents: 700, reason: 'damaged pallet' }),
    );
    expect(adjust.details).toMatchObject({ before: { balance_cents: 5000 }, after: { balance_cents: 4300 } });

    // Statements issued, paid and voided: two postpaid shippers with one January parcel each.
    const billed = [await shipper(t, 'postpaid'), await shipper(t, 'postpaid')];
    for (const co of billed) expect((await post('/api/package/', { hawb: hawb() }, co.token)).status).toBe(201);
    t.clock.set(Date.UTC(2026, 1, 2, 9));
    const statements: number[] = [];
    for (const co of billed) {
      const issued = await once(t, admin.token, admin.id, 'invoice.issue', 'invoice', async () => {
        const r = await post<{ id: number }>('/api/invoice/generate-invoice/', {
          company: co.companyId,
          period_from: '2026-01-01',
          period_to: '2026-01-31',
        });
        statements.push(r.body.id);
        return r;
      });
      expect(issued.details).toMatchObject({ before: null, after: { status: 'issued', company_id: co.companyId } });
    }
    const paid = await once(t, admin.token, admin.id, 'invoice.paid', 'invoice', () =>
      post(`/api/invoice/${statements[0]}/status-change/`, { status: 'paid', reference: 'EFT 42' }),
    );
    expect(paid.details).toMatchObject({ reference: 'EFT 42', before: { status: 'issued' }, after: { status: 'paid' } });
    const voided = await once(t, admin.token, admin.id, 'invoice.void', 'invoice', () =>
      post(`/api/invoice/${statements[1]}/status-change/`, { status: 'void', reason: 'wrong rate' }),
    );
    expect(voided.details).toMatchObject({ reason: 'wrong rate', before: { status: 'issued' }, after: { status: 'void' } });

    // Force actions.
    const parcel = await post<{ id: number }>('/api/package/', { hawb: hawb(), customer_name: 'Ann' });
    const row = await t.db.select().from(pkg).where(eq(pkg.id, parcel.body.id)).get();
    if (!row) throw new Error('package missing');
    await atomically(t.app.deps, () => transition(t.db, t.clock.now(), row, 'received', 'receive', { userId: admin.id }));
    const forced = await once(t, admin.token, admin.id, 'package.force_deliver', 'package', () =>
      post(`/api/package-delivered/${parcel.body.id}/force-deliver/`, { note: 'handed over' }),
    );
    expect(forced.details).toMatchObject({ note: 'handed over', before: { status: 'received' }, after: { status: 'delivered' } });

    // A write that changes nothing leaves no line.
    const n = await lineCount(t);
    expect((await patch(`/api/company/${coId}/`, { name: 'Acme Logistics' })).status).toBe(200);
    expect(await lineCount(t)).toBe(n);
  });

  it('filters by actor, entity and date; the CSV export holds the same lines; only staff read either', async () => {
    const { t, admin } = await moneyWorld();
    // A name a spreadsheet would run as a formula: the export must keep it text.
    const boss = await t.login('super_admin', { name: '=1+2' });
    const day1 = new Date(t.clock.now()).toISOString().slice(0, 10);
    const co = await t.json<{ id: number }>('POST', '/api/company/', admin.token, {
      name: '=HYPERLINK("http://x")',
      email: 'a@b.test',
      code: 'EVIL',
    });
    expect(co.status).toBe(201);
    t.clock.advance(2 * DAY);
    const day3 = new Date(t.clock.now()).toISOString().slice(0, 10);
    expect(
      (await t.json('POST', '/api/employee/', boss.token, { name: 'Kim', email: 'kim@courier.test', role: 'supervisor' })).status,
    ).toBe(201);
    expect((await t.json('PATCH', `/api/company/${co.body.id}/`, boss.token, { name: 'Plain Co' })).status).toBe(200);

    const all = await trail(t, admin.token);
    expect(all.results.map((e) => e.action)).toEqual(['company.update', 'user.create', 'company.create']);
    expect((await trail(t, admin.token, `?actor=${admin.id}`)).results.map((e) => e.action)).toEqual(['company.create']);
    expect((await trail(t, admin.token, `?actor=${boss.id}`)).count).toBe(2);
    expect((await trail(t, admin.token, '?entity=company')).results.map((e) => e.action)).toEqual(['company.update', 'company.create']);
    expect((await trail(t, admin.token, '?entity=user')).results.map((e) => e.action)).toEqual(['user.create']);
    expect((await trail(t, admin.token, `?from=${day1}&to=${day1}`)).results.map((e) => e.action)).toEqual(['company.create']);
    expect((await trail(t, admin.token, `?from=${day3}`)).count).toBe(2);
    expect((await t.json('GET', '/api/audit-log/?entity=Company%3B', admin.token)).status).toBe(400);

    const csv = await t.call('GET', '/api/audit-log/csv-download/?entity=company', admin.token);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const rows = parse(await csv.text(), { columns: true }) as Record<string, string>[];
    const listed = (await trail(t, admin.token, '?entity=company')).results;
    expect(rows.map((r) => Number(r.id))).toEqual(listed.map((e) => e.id));
    expect(rows.map((r) => r.action)).toEqual(listed.map((e) => e.action));
    expect(rows[0]).toMatchObject({ actor_id: String(boss.id), actor_name: "'=1+2", target: `company:${co.body.id}` });
    expect(JSON.parse(rows[0]!.before!)).toEqual({ name: '=HYPERLINK("http://x")' });
    expect(JSON.parse(rows[0]!.after!)).toEqual({ name: 'Plain Co' });
    // The create line's `after` is JSON text starting with '{', never a formula; the name inside stays data.
    expect(rows[1]!.before).toBe('null');
    const full = await t.call('GET', '/api/audit-log/csv-download/', admin.token);
    expect(parse(await full.text(), { columns: true })).toHaveLength(3);

    for (const role of ['company', 'driver'] as const) {
      const other = await t.login(role);
      expect((await t.call('GET', '/api/audit-log/csv-download/', other.token)).status, role).toBe(403);
      expect((await t.json('GET', '/api/audit-log/', other.token)).status, role).toBe(403);
    }
    expect((await t.call('GET', '/api/audit-log/csv-download/', null)).status).toBe(401);
  });
});
