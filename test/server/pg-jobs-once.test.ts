import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresDb, type Db } from '../../server/db/client';
import { freshPostgresUrl } from '../../server/db/engine/open';
import { messageOutbox, webhookDelivery, webhookEndpoint } from '../../server/db/schema/index';
import { jobLease } from '../../server/services/background/lease';
import { createGeocodeWorker } from '../../server/services/geo/geocoder';
import { createMessageDispatcher } from '../../server/services/messages/dispatcher';
import type { EmailTransport, SmsProvider } from '../../server/services/messages/transports';
import { createWebhookDispatcher } from '../../server/services/webhooks/dispatcher';
import { makeApp, type TestApp } from '../helpers/app';
import { csvForm, locateWorld } from './geo-locate-fixtures';
import { nominatimHouse, sendJson, standIn } from './geo-standins';
import { companyWithKey } from './webhooks-helpers';

/**
 * Background jobs claimed once across machines (issue 33): two apps, each with its own connection
 * pool (two machines' first workers), run the same job loops at once over one PostgreSQL database;
 * every webhook, message and geocoder request happens exactly once. SQLite has one process.
 */
const admin = process.env.TEST_DATABASE_URL;
const LOOPBACK = ['127.0.0.1/32'];

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  while (closers.length) await closers.pop()?.();
});

/** Two apps over one fresh database, as two machines see it. */
async function twoMachines(): Promise<[TestApp, TestApp]> {
  const url = await freshPostgresUrl(admin as string);
  const pools: Db[] = [postgresDb(url, { poolSize: 4, idleMs: 1000 }), postgresDb(url, { poolSize: 4, idleMs: 1000 })];
  const [a, b] = await Promise.all(pools.map((db) => makeApp({ db, config: { webhookAllow: LOOPBACK } })));
  return [a as TestApp, b as TestApp];
}

/** A receiver that answers slowly enough for both dispatchers to be mid-pass together. */
async function slowReceiver(): Promise<{ url: string; got: string[] }> {
  const got: string[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      got.push(String(req.headers['x-courier-delivery']));
      setTimeout(() => {
        res.statusCode = 204;
        res.end();
      }, 5);
    });
  });
  await new Promise<void>((r) => {
    server.listen(0, '127.0.0.1', r);
  });
  closers.push(
    () =>
      new Promise((r) => {
        server.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got };
}

const counts = (ids: string[]) => ids.reduce((m, id) => m.set(id, (m.get(id) ?? 0) + 1), new Map<string, number>());

describe.skipIf(!admin)('background jobs across two machines on one PostgreSQL database', () => {
  it('each webhook delivery is sent once though both dispatchers run at the same time', async () => {
    const [a, b] = await twoMachines();
    const co = await companyWithKey(a, 'Hooked');
    const rx = await slowReceiver();
    const now = a.clock.now();
    b.clock.set(now);
    const ep = await a.db
      .insert(webhookEndpoint)
      .values({ company_id: co.id, url: rx.url, events: '["package.received"]', created_at: now, updated_at: now })
      .returning()
      .get();
    const N = 40;
    await a.db
      .insert(webhookDelivery)
      .values(
        Array.from({ length: N }, (_, i) => ({
          endpoint_id: ep.id,
          company_id: co.id,
          event_id: `evt-${i}`,
          event: 'package.received',
          payload: JSON.stringify({ i }),
          next_attempt_at: now,
          created_at: now,
          updated_at: now,
        })),
      )
      .run();
    const one = createWebhookDispatcher({ db: a.db, clock: a.clock, allow: LOOPBACK, batchSize: N });
    const two = createWebhookDispatcher({ db: b.db, clock: b.clock, allow: LOOPBACK, batchSize: N });
    const [x, y] = await Promise.all([one.runOnce(), two.runOnce()]);
    expect(x + y).toBe(N);
    expect(rx.got).toHaveLength(N);
    expect([...counts(rx.got).values()].every((n) => n === 1)).toBe(true);
    const rows = await a.db.select().from(webhookDelivery).all();
    expect(rows.every((r) => r.status === 'delivered' && r.attempts === 1)).toBe(true);
    // Nothing is left for a second round on either machine.
    expect(await Promise.all([one.runOnce(), two.runOnce()])).toEqual([0, 0]);
  });

  it('each queued message is sent once', async () => {
    const [a, b] = await twoMachines();
    const sent: string[] = [];
    const email: EmailTransport = {
      kind: 'smtp',
      send: async (mail) => {
        sent.push(mail.to);
        await new Promise((r) => setTimeout(r, 2));
        return { ok: true };
      },
    };
    const sms: SmsProvider = { kind: 'http', send: () => Promise.resolve({ ok: false, retry: false, error: 'unused' }) };
    const now = a.clock.now();
    b.clock.set(now);
    const N = 30;
    await a.db
      .insert(messageOutbox)
      .values(
        Array.from({ length: N }, (_, i) => ({
          channel: 'email',
          to: `r${i}@example.com`,
          kind: 'account',
          subject: 'Hello',
          body: 'Hi',
          next_attempt_at: now,
          created_at: now,
          updated_at: now,
        })),
      )
      .run();
    const dispatcherOf = (t: TestApp) =>
      createMessageDispatcher({
        db: t.db,
        clock: t.clock,
        writes: t.app.deps.writes,
        email,
        sms,
        fromAddress: 'x@courier.test',
        batchSize: N,
      });
    await Promise.all([dispatcherOf(a).runOnce(), dispatcherOf(b).runOnce()]);
    expect(sent).toHaveLength(N);
    expect([...counts(sent).values()].every((n) => n === 1)).toBe(true);
  });

  it('one machine asks the geocoder: each address once, the other machine waits for the lease', async () => {
    const [a, b] = await twoMachines();
    const w = await locateWorld(a);
    const geo = await standIn((url, _req, res) => {
      const q = url.searchParams.get('q') ?? '';
      if (q.includes('Hall')) return sendJson(res, 200, nominatimHouse(-33.8902, 151.274, '7, Hall Street, Bondi, 2026'));
      return sendJson(res, 200, []);
    });
    closers.push(geo.close);
    const csv = [
      'hawb,customer_address,postcode,postcode_name,latitude,longitude',
      'GO-1,7 Hall St,2026,Bondi,,',
      'GO-2,9 Hall St,2026,Bondi,,',
    ];
    for (let i = 3; i <= 6; i++) csv.push(`GO-${i},${i} Nowhere Lane,2026,Bondi,,`);
    for (const t of [a, b]) t.app.deps.config.geocoderUrl = `${geo.url}/search`;
    const up = await w.t.json('POST', '/api/company-package/csv-upload/', w.shipper.token, csvForm(csv.join('\n')));
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    b.clock.set(a.clock.now());
    const workerOf = (t: TestApp) => createGeocodeWorker(t.app.deps, { sleep: () => Promise.resolve() });
    const one = workerOf(a);
    const two = workerOf(b);
    const [x, y] = await Promise.all([one.runOnce(), two.runOnce()]);
    expect(x.asked + y.asked).toBe(6);
    // One of them held the lease and did it all; the other asked nothing.
    expect(Math.min(x.asked, y.asked)).toBe(0);
    const asked = geo.requests.map((u) => u.searchParams.get('q') ?? '');
    expect(asked).toHaveLength(6);
    expect([...counts(asked).values()].every((n) => n === 1)).toBe(true);
    expect(await one.waiting()).toBe(0);
  });

  it('a lease has one holder at a time; a released or lapsed one passes to the other machine', async () => {
    const [a, b] = await twoMachines();
    b.clock.set(a.clock.now());
    const la = jobLease(a.db, a.clock, 'probe', 60_000);
    const lb = jobLease(b.db, b.clock, 'probe', 60_000);
    const first = await Promise.all([la.hold(), lb.hold(), la.hold(), lb.hold()]);
    expect(first.filter(Boolean)).toHaveLength(2);
    expect(first[0]).toBe(first[2]);
    const [holder, other] = first[0] ? [la, lb] : [lb, la];
    expect(await holder.hold()).toBe(true);
    expect(await other.hold()).toBe(false);
    await holder.release();
    expect(await other.hold()).toBe(true);
    expect(await holder.hold()).toBe(false);
    // The new holder stops renewing (its machine died): after the lease the first takes over.
    a.clock.advance(60_001);
    b.clock.advance(60_001);
    expect(await holder.hold()).toBe(true);
  });
});
