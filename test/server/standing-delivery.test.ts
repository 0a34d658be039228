import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { localTimeToInstant } from '../../shared/time/zone';
import { pkg, standingRun } from '../../server/db/schema/index';
import { isoWeekday, runsOn, runStandingDeliveries } from '../../server/services/standing/run';
import { makeApp } from '../helpers/app';
import { shipper, type Json } from './money-fixtures';

const SYD = 'Australia/Sydney';

async function world() {
  const t = await makeApp({ config: { timeZone: SYD, staffIdleMs: 366 * 24 * 3600_000 } });
  t.clock.set(Date.UTC(2026, 2, 20, 0));
  const admin = await t.login('admin');
  await t.json('POST', '/api/delivery-rate/', admin.token, { base_cents: 1000 });
  const co = await shipper(t, 'postpaid');
  const pass = async (day: string, hhmm: string) => {
    t.clock.set(localTimeToInstant(day, hhmm, SYD));
    return await runStandingDeliveries(t.app.deps);
  };
  const parcels = async () =>
    (await t.db.select({ hawb: pkg.hawb, date: pkg.delivery_date, company: pkg.company_id, status: pkg.status }).from(pkg).all()).sort(
      (a, b) => a.hawb.localeCompare(b.hawb),
    );
  return { t, admin, co, pass, parcels };
}

describe('standing deliveries', () => {
  it('the weekday rule is a plain function of the local day', () => {
    expect(isoWeekday('2026-04-05')).toBe(7);
    expect(isoWeekday('2026-04-06')).toBe(1);
    const rule = { weekdays: '12345', starts_on: '2026-04-01', ends_on: null, is_active: true, deleted_at: null };
    expect(runsOn(rule, '2026-03-31', new Set())).toBe(false);
    expect(runsOn(rule, '2026-04-02', new Set())).toBe(true);
    expect(runsOn(rule, '2026-04-02', new Set(['2026-04-02']))).toBe(false);
    expect(runsOn(rule, '2026-04-04', new Set())).toBe(false);
    expect(runsOn({ ...rule, is_active: false }, '2026-04-02', new Set())).toBe(false);
  });

  it('creates one ordinary parcel per rule per local day across the April and October daylight-saving changes, skips a listed holiday, pauses', async () => {
    const { t, admin, co, pass, parcels } = await world();
    const bad = await t.json<Json>('POST', '/api/standing-delivery/', admin.token, {
      company: co.companyId,
      weekdays: '128',
      at_time: '8:00',
      shipper_address: 'A',
      customer_address: 'B',
    });
    expect(bad.status).toBe(400);
    const made = await t.json<Json>('POST', '/api/standing-delivery/', admin.token, {
      name: 'Pharmacy run',
      company: co.companyId,
      weekdays: '12345',
      at_time: '08:00',
      starts_on: '2026-04-01',
      shipper_name: 'Pharmacy',
      shipper_address: '1 King St, Newtown',
      customer_name: 'Clinic',
      customer_address: '9 Queen St, Glebe',
      description_of_goods: 'Prescriptions',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const rule = made.body.id as number;
    // Good Friday, listed by the company.
    expect((await t.json('POST', '/api/public-holiday/', admin.token, { day: '2026-04-03', name: 'Good Friday' })).status).toBe(201);
    expect((await t.json('POST', '/api/public-holiday/', admin.token, { day: '2026-04-03', name: 'again' })).status).toBe(409);

    // Wed 1 April .. Tue 7 April; Sydney leaves daylight time at 03:00 on Sunday 5 April. Passes just after
    // local midnight (still the previous day in UTC), twice, and late in the day: each day's parcel once.
    const created: Record<string, number> = {};
    for (const day of ['2026-04-01', '2026-04-02', '2026-04-03', '2026-04-04', '2026-04-05', '2026-04-06', '2026-04-07']) {
      created[day] = (await pass(day, '00:10')) + (await pass(day, '00:10')) + (await pass(day, '23:50'));
    }
    expect(created).toEqual({
      '2026-04-01': 1,
      '2026-04-02': 1,
      '2026-04-03': 0,
      '2026-04-04': 0,
      '2026-04-05': 0,
      '2026-04-06': 1,
      '2026-04-07': 1,
    });
    const runs = await t.db.select().from(standingRun).where(eq(standingRun.rule_id, rule)).all();
    const due = Object.fromEntries(runs.map((r) => [r.day, new Date(r.due_at).toISOString()]));
    // 08:00 in Sydney: 21:00 UTC the evening before in daylight time (UTC+11), 22:00 after the change (UTC+10).
    expect(due).toEqual({
      '2026-04-01': '2026-03-31T21:00:00.000Z',
      '2026-04-02': '2026-04-01T21:00:00.000Z',
      '2026-04-06': '2026-04-05T22:00:00.000Z',
      '2026-04-07': '2026-04-06T22:00:00.000Z',
    });
    expect(await parcels()).toEqual(
      ['20260401', '20260402', '20260406', '20260407'].map((d) => ({
        hawb: `SD${rule}-${d}`,
        date: `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}`,
        company: co.companyId,
        status: 'created',
      })),
    );
    // Ordinary parcels: the shipper sees them in its list, charged like any other.
    const listed = await t.json<{ count: number }>('GET', '/api/package/', co.token);
    expect(listed.body.count).toBe(4);

    // Paused: no parcel; resumed: the next day's. A company sees only its own rules.
    expect(
      (await t.json<Json>('POST', `/api/standing-delivery/${rule}/status-change/`, admin.token, { is_active: false })).body,
    ).toMatchObject({ is_active: false });
    expect(await pass('2026-04-08', '00:10')).toBe(0);
    expect((await t.json('POST', `/api/standing-delivery/${rule}/status-change/`, admin.token, { is_active: true })).status).toBe(200);
    expect(await pass('2026-04-09', '00:10')).toBe(1);
    const other = await shipper(t, 'postpaid');
    expect((await t.json<{ count: number }>('GET', '/api/standing-delivery/', other.token)).body.count).toBe(0);
    expect((await t.json('GET', `/api/standing-delivery/${rule}/`, other.token)).status).toBe(404);
    expect((await t.json<{ count: number }>('GET', '/api/standing-delivery/', co.token)).body.count).toBe(1);

    // October: daylight time starts at 02:00 on Sunday 4 October; Friday 2 and Monday 5 at 08:00 local.
    expect((await t.json('PATCH', `/api/standing-delivery/${rule}/`, admin.token, { weekdays: '15' })).status).toBe(200);
    for (const day of ['2026-10-01', '2026-10-02', '2026-10-03', '2026-10-04', '2026-10-05']) await pass(day, '00:10');
    const oct = (await t.db.select().from(standingRun).where(eq(standingRun.rule_id, rule)).all()).filter((r) => r.day >= '2026-10-01');
    expect(Object.fromEntries(oct.map((r) => [r.day, new Date(r.due_at).toISOString()]))).toEqual({
      '2026-10-02': '2026-10-01T22:00:00.000Z',
      '2026-10-05': '2026-10-04T21:00:00.000Z',
    });
  }, 120_000);
});
