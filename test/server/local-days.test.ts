import { describe, expect, it } from 'vitest';
import { makeApp } from '../helpers/app';

/**
 * Issue 31, section 1 leftovers: the package list's created_from/created_to are the business's local
 * days. Sydney's clocks go back at 03:00 on 5 April 2026 (AEDT +11 to AEST +10): that day runs from
 * 4 April 13:00 UTC to 5 April 14:00 UTC, 25 hours.
 */
describe("package list days are the business's local days", () => {
  it("created_from/created_to cover Sydney's 25-hour day across the April change, not a UTC day", async () => {
    const t = await makeApp();
    t.clock.set(Date.parse('2026-04-04T12:00:00Z'));
    const admin = await t.login('admin');
    expect((await t.json('PATCH', '/api/settings/business-profile/', admin.token, { time_zone: 'Australia/Sydney' })).status).toBe(200);
    const made: [string, string][] = [
      ['BEFORE', '2026-04-04T12:30:00Z'], // 4 April 23:30 AEDT
      ['EARLY', '2026-04-04T13:30:00Z'], // 5 April 00:30 AEDT (still 4 April in UTC)
      ['LATE', '2026-04-05T13:30:00Z'], // 5 April 23:30 AEST
      ['AFTER', '2026-04-05T14:30:00Z'], // 6 April 00:30 AEST (still 5 April in UTC)
    ];
    for (const [hawb, when] of made) {
      t.clock.set(Date.parse(when));
      const shipper = await t.login('company');
      const r = await t.json('POST', '/api/package/', shipper.token, { hawb, customer_name: hawb, postcode: 2000 });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    const office = await t.login('admin');
    const list = async (q: string) =>
      (await t.json<{ results: { hawb: string }[] }>('GET', `/api/package/?ordering=created_at&${q}`, office.token)).body.results.map(
        (p) => p.hawb,
      );
    expect(await list('created_from=2026-04-05&created_to=2026-04-05')).toEqual(['EARLY', 'LATE']);
    expect(await list('created_from=2026-04-06')).toEqual(['AFTER']);
    expect(await list('created_to=2026-04-04')).toEqual(['BEFORE']);
  }, 60_000);
});
