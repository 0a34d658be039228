import { describe, expect, it } from 'vitest';
import { makeApp } from '../helpers/app';

/**
 * Statements per request on the hot paths. On PostgreSQL each statement is a round trip, so their
 * number is most of a request's latency and a good share of its CPU (both sides of the socket):
 * these budgets keep a change from quietly adding queries to a scan or a poll. Counted through the
 * engine's `onStatement` seam, transaction control included.
 */
async function world() {
  const t = await makeApp();
  const admin = await t.login('admin');
  const driver = await t.login('driver');
  const shipper = await t.login('company');
  const ids: number[] = [];
  for (const hawb of ['SC-1', 'SC-2', 'SC-3']) {
    const res = await t.json<{ id: number }>('POST', '/api/package/', shipper.token, { hawb });
    expect(res.status).toBe(201);
    ids.push(res.body.id);
  }
  expect((await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: ids })).status).toBe(200);
  const seen: string[] = [];
  t.db.$engine.onStatement = (text) => {
    seen.push(text);
  };
  /** The statements one request sent, and its answer. */
  const counted = async (method: string, path: string, body?: unknown) => {
    seen.length = 0;
    const res = await t.json<Record<string, unknown>>(method, path, driver.token, body);
    return { res, statements: [...seen] };
  };
  return { t, driver, counted };
}

describe('statements per request', () => {
  it('an inbound scan and the remaining list stay within their budgets', async () => {
    const { t, driver, counted } = await world();
    // Warm: the first request of a session touches it (once a minute), later ones do not.
    const first = await counted('POST', '/api/scan-package-api/inbound-scan/', { barcode: 'SC-1' });
    expect(first.res.status).toBe(200);

    const scan = await counted('POST', '/api/scan-package-api/inbound-scan/', { barcode: 'SC-2' });
    expect(scan.res.status).toBe(200);
    expect(scan.res.body.package).toMatchObject({ hawb: 'SC-2', status: 'out_for_delivery' });
    if (process.env.SHOW_STATEMENTS) console.log(`inbound scan on ${t.db.$engine.kind}:\n${scan.statements.join('\n')}`);
    // The session, BEGIN (PostgreSQL: with the route's SAVEPOINT, one simple query), the parcel, its
    // update, event, webhook endpoints, recipient settings and recipient, the feed's row (PostgreSQL:
    // after its lock), the answer's JSON, COMMIT. SQLite's unit has a SAVEPOINT and RELEASE of its own
    // (statements in process, no round trip), which the route's savepoint reuses.
    // Issue 34 added two reads as the parcel goes out: its door row and the company's proof rules,
    // which decide whether a one-time code is made for the "out for delivery" message.
    expect(scan.statements.length).toBeLessThanOrEqual(t.db.$engine.kind === 'postgres' ? 14 : 15);

    const repeat = await counted('POST', '/api/scan-package-api/inbound-scan/', { barcode: 'SC-2' });
    expect(repeat.res.body.already_scanned).toBe(true);
    expect(repeat.statements.length).toBeLessThanOrEqual(scan.statements.length);

    const list = await counted('GET', `/api/scan-package-api/${driver.id}/remaining-packages-list/`);
    expect(list.res.status).toBe(200);
    expect((list.res.body.pending_packages as { hawb: string }[]).map((p) => p.hawb)).toEqual(['SC-3']);
    if (process.env.SHOW_STATEMENTS) console.log(`remaining list on ${t.db.$engine.kind}:\n${list.statements.join('\n')}`);
    // The session (with the user's permission groups) and the list: nothing else, no unit of work.
    expect(list.statements.length).toBeLessThanOrEqual(2);
  });
});
