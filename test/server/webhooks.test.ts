import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { webhookDelivery } from '../../server/db/schema/index';
import { createWebhookDispatcher } from '../../server/services/webhooks/dispatcher';
import { makeApp, type TestApp } from '../helpers/app';
import { companyWithKey } from './webhooks-helpers';

type Json = Record<string, unknown>;
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise((r) => {
          s.close(r);
        }),
    ),
  );
});

/** A real receiver on loopback that records what it gets and answers `status`. */
function receiver(port = 0, status = 204): Promise<{ url: string; port: number; got: Received[] }> {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = status;
      res.end();
    });
  });
  servers.push(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const p = (server.address() as AddressInfo).port;
      resolve({ url: `http://127.0.0.1:${p}/hooks/courier`, port: p, got });
    });
  });
}

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => {
    s.listen(0, '127.0.0.1', r);
  });
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => {
    s.close(r);
  });
  return port;
}

const verify = (secret: string, r: Received) => {
  const ts = String(r.headers['x-courier-timestamp']);
  const mac = createHmac('sha256', secret).update(`${ts}.${r.body}`).digest('hex');
  return r.headers['x-courier-signature'] === `sha256=${mac}`;
};

async function receivedParcel(t: TestApp, companyToken: string, hawb: string) {
  const depot = await t.login('depot_manager');
  const made = await t.json<{ id: number }>('POST', '/api/package/', companyToken, { hawb });
  expect(made.status).toBe(201);
  expect((await t.json('POST', '/api/scan-package-api/scan-assign-zone/', depot.token, { barcode: hawb })).status).toBe(200);
  return made.body.id;
}

/** The loopback receivers of these tests are on-premise receivers the operator allowed. */
const LOOPBACK = ['127.0.0.1/32'];

const deliveries = (t: TestApp) => t.db.select().from(webhookDelivery).all();

describe('outbound webhooks', () => {
  it('round trip: a state change is queued in its transaction, sent signed, and verifies', async () => {
    const t = await makeApp({ config: { webhookAllow: LOOPBACK } });
    const co = await companyWithKey(t, 'Hooked');
    const rx = await receiver();
    const ep = await t.json<Json>('POST', '/api/webhook-endpoint/', co.login.token, {
      url: rx.url,
      events: ['package.received', 'package.delivered'],
    });
    expect(ep.status).toBe(201);
    expect(ep.body).toMatchObject({ company: co.id, url: rx.url, events: ['package.delivered', 'package.received'], is_active: true });

    const id = await receivedParcel(t, co.login.token, 'WH-1');
    const queued = await deliveries(t);
    expect(queued.map((d) => [d.event, d.package_id, d.status])).toEqual([['package.received', id, 'pending']]);

    const dispatcher = createWebhookDispatcher({ db: t.db, clock: t.clock, allow: LOOPBACK });
    expect(await dispatcher.runOnce()).toBe(1);
    expect(rx.got).toHaveLength(1);
    const got = rx.got[0] as Received;
    expect(verify(co.secret, got)).toBe(true);
    expect(got.headers['x-courier-event']).toBe('package.received');
    const payload = JSON.parse(got.body) as { id: string; type: string; data: { package: Json } };
    expect(payload).toMatchObject({
      id: queued[0]?.event_id,
      type: 'package.received',
      data: { package: { id, hawb: 'WH-1', status: 'received', previous_status: 'created' } },
    });
    expect(got.headers['x-courier-event-id']).toBe(payload.id);
    expect((await deliveries(t))[0]).toMatchObject({ status: 'delivered', attempts: 1, last_status_code: 204, last_error: null });
    expect(await dispatcher.runOnce()).toBe(0);

    const list = await t.json<{ count: number; results: Json[] }>('GET', '/api/webhook-delivery/', co.login.token);
    expect(list.body.results[0]).toMatchObject({
      event: 'package.received',
      status: 'delivered',
      attempts: 1,
      package: id,
      last_status_class: '2xx',
    });
    // The receiver lost it: send it again, same event id.
    const replay = await t.json<Json>('POST', `/api/webhook-delivery/${queued[0]?.id}/replay/`, co.login.token);
    expect(replay.body).toMatchObject({ status: 'pending', attempts: 0 });
    await dispatcher.runOnce();
    expect(rx.got).toHaveLength(2);
    expect(rx.got[1]?.headers['x-courier-event-id']).toBe(payload.id);
  });

  it('a receiver that is down at first gets the event after back-off; endless failures end dead', async () => {
    const t = await makeApp({ config: { webhookAllow: LOOPBACK } });
    const co = await companyWithKey(t, 'Flaky');
    const port = await closedPort();
    await t.json('POST', '/api/webhook-endpoint/', co.login.token, { url: `http://127.0.0.1:${port}/in`, events: ['package.received'] });
    await receivedParcel(t, co.login.token, 'WH-2');
    const dispatcher = createWebhookDispatcher({ db: t.db, clock: t.clock, allow: LOOPBACK, baseDelayMs: 60_000, maxAttempts: 3 });

    await dispatcher.runOnce();
    const [first] = await deliveries(t);
    expect(first).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null });
    expect(first?.last_error).toBe('failed: no HTTP answer');
    expect(first?.next_attempt_at).toBe(t.clock.now() + 60_000);
    expect(await dispatcher.runOnce()).toBe(0);

    t.clock.advance(60_000);
    await dispatcher.runOnce();
    expect((await deliveries(t))[0]).toMatchObject({ status: 'pending', attempts: 2, next_attempt_at: t.clock.now() + 120_000 });

    const rx = await receiver(port);
    t.clock.advance(120_000);
    await dispatcher.runOnce();
    expect(rx.got).toHaveLength(1);
    expect(verify(co.secret, rx.got[0] as Received)).toBe(true);
    expect((await deliveries(t))[0]).toMatchObject({ status: 'delivered', attempts: 3, last_error: null });

    // A receiver that always answers 500 is given up on after maxAttempts.
    const broken = await receiver(0, 500);
    const ep2 = await t.json<{ id: number }>('POST', '/api/webhook-endpoint/', co.login.token, {
      url: broken.url,
      events: ['package.received'],
    });
    await receivedParcel(t, co.login.token, 'WH-3');
    for (let i = 0; i < 3; i++) {
      await dispatcher.runOnce();
      t.clock.advance(10 * 60_000);
    }
    const dead = (await deliveries(t)).find((d) => d.endpoint_id === ep2.body.id);
    expect(dead).toMatchObject({ status: 'dead', attempts: 3, last_status_code: 500 });
    expect(broken.got).toHaveLength(3);
    const listed = await t.json<{ count: number; results: Json[] }>('GET', '/api/webhook-delivery/?status=dead', co.login.token);
    expect(listed.body.count).toBe(1);
    // The company sees the class of the answer, never the exact status.
    expect(listed.body.results[0]).toMatchObject({ last_status_class: '5xx', last_error: 'failed: 5xx' });
    expect(JSON.stringify(listed.body)).not.toMatch(/\b500\b/); // (a uuid may hold the digits)
  });

  it('endpoints belong to their company; loopback targets are refused by default', async () => {
    const t = await makeApp();
    const a = await companyWithKey(t, 'Alpha');
    const b = await companyWithKey(t, 'Bravo');
    const admin = await t.login('admin');
    const noKey = await t.login('company');
    expect(
      (await t.json('POST', '/api/webhook-endpoint/', noKey.token, { url: 'https://x.example.com/', events: ['package.created'] })).status,
    ).toBe(409);
    expect(
      (await t.json('POST', '/api/webhook-endpoint/', a.login.token, { url: 'ftp://x.example.com/', events: ['package.created'] })).status,
    ).toBe(400);
    expect(
      (await t.json('POST', '/api/webhook-endpoint/', a.login.token, { url: 'https://x.example.com/', events: ['package.lost'] })).status,
    ).toBe(400);
    expect(
      (await t.json('POST', '/api/webhook-endpoint/', admin.token, { url: 'https://x.example.com/', events: ['package.created'] })).status,
    ).toBe(400);

    expect(
      (await t.json('POST', '/api/webhook-endpoint/', a.login.token, { url: 'http://127.0.0.1:9/x', events: ['package.received'] })).status,
    ).toBe(400);
    const ep = await t.json<{ id: number }>('POST', '/api/webhook-endpoint/', a.login.token, {
      url: 'http://hooks.example.com:9/x',
      events: ['package.received'],
    });
    expect((await t.json('GET', `/api/webhook-endpoint/${ep.body.id}/`, b.login.token)).status).toBe(404);
    expect((await t.json('PATCH', `/api/webhook-endpoint/${ep.body.id}/`, b.login.token, { is_active: false })).status).toBe(404);
    expect((await t.json('DELETE', `/api/webhook-endpoint/${ep.body.id}/`, b.login.token)).status).toBe(404);
    expect((await t.json<{ count: number }>('GET', '/api/webhook-endpoint/', b.login.token)).body.count).toBe(0);
    expect((await t.json<{ count: number }>('GET', '/api/webhook-endpoint/', admin.token)).body.count).toBe(1);

    await receivedParcel(t, a.login.token, 'WH-4');
    const [queued] = await deliveries(t);
    expect((await t.json('GET', `/api/webhook-delivery/${queued?.id}/`, b.login.token)).status).toBe(404);
    expect((await t.json('POST', `/api/webhook-delivery/${queued?.id}/replay/`, b.login.token)).status).toBe(404);
    // The name resolves to loopback by send time (DNS changed): refused then too.
    await createWebhookDispatcher({
      db: t.db,
      clock: t.clock,
      resolve: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]),
    }).runOnce();
    expect(
      (
        await t.db
          .select()
          .from(webhookDelivery)
          .where(eq(webhookDelivery.id, queued?.id ?? 0))
          .get()
      )?.last_error,
    ).toContain('private, loopback');

    const off = await t.json<Json>('PATCH', `/api/webhook-endpoint/${ep.body.id}/`, a.login.token, { is_active: false });
    expect(off.body).toMatchObject({ is_active: false });
    await receivedParcel(t, a.login.token, 'WH-5');
    expect(await deliveries(t)).toHaveLength(1);
    expect((await t.json('DELETE', `/api/webhook-endpoint/${ep.body.id}/`, a.login.token)).status).toBe(200);
    expect(await deliveries(t)).toHaveLength(0);
  });
});

describe('company integrations', () => {
  it('API keys: a company system reads only its own packages; revoked keys stop at once', async () => {
    const t = await makeApp();
    const a = await companyWithKey(t, 'Keyed');
    const b = await companyWithKey(t, 'Other');
    await t.json('POST', '/api/package/', a.login.token, { hawb: 'K-1' });
    await t.json('POST', '/api/package/', a.login.token, { hawb: 'K-2' });
    await t.json('POST', '/api/package/', b.login.token, { hawb: 'O-1' });

    const made = await t.json<{ key: string; id: number; prefix: string }>('POST', '/api/company-api-key/', a.login.token, { name: 'ERP' });
    expect(made.status).toBe(201);
    expect(made.body.key).toMatch(/^ck_/);
    const keys = await t.json<{ results: Json[] }>('GET', '/api/company-api-key/', a.login.token);
    expect(JSON.stringify(keys.body)).not.toContain(made.body.key);
    expect((await t.json<{ count: number }>('GET', '/api/company-api-key/', b.login.token)).body.count).toBe(0);

    const read = (key: string, q = '') =>
      t.json<{ count: number; results: Json[] }>('GET', `/api/company-key/package/${q}`, null, undefined, { 'x-api-key': key });
    const all = await read(made.body.key);
    expect(all.status).toBe(200);
    expect(all.body.results.map((p) => p.hawb)).toEqual(['K-2', 'K-1']);
    expect((await read(made.body.key, '?hawb=O-1')).body.count).toBe(0);
    expect((await read(made.body.key, '?hawb=K-1')).body.results.map((p) => p.hawb)).toEqual(['K-1']);
    // Change the last character for sure (a key may already end in 'A').
    const last = made.body.key.slice(-1) === 'A' ? 'B' : 'A';
    expect((await read(`${made.body.key.slice(0, -1)}${last}`)).status).toBe(401);
    expect((await t.json('GET', '/api/company-key/package/', null)).status).toBe(401);

    expect((await t.json('DELETE', `/api/company-api-key/${made.body.id}/`, b.login.token)).status).toBe(404);
    expect((await t.json('DELETE', `/api/company-api-key/${made.body.id}/`, a.login.token)).status).toBe(200);
    expect((await read(made.body.key)).status).toBe(401);
  });

  it('company CSV and Excel uploads create its own packages and raise package.created', async () => {
    const t = await makeApp();
    const co = await companyWithKey(t, 'Uploader');
    const admin = await t.login('admin');
    await t.json('POST', '/api/webhook-endpoint/', co.login.token, { url: 'https://hooks.example.com/in', events: ['package.created'] });
    const form = (text: string, name = 'p.csv') => {
      const f = new FormData();
      f.set('file', new File([text], name));
      return f;
    };

    const ok = await t.json<{ created: number; report: Json[] }>(
      'POST',
      '/api/company-package/csv-upload/',
      co.login.token,
      form('hawb,customer_name\nC-1,Ann\nC-2,Ben\n'),
    );
    expect(ok.status).toBe(200);
    expect(ok.body.created).toBe(2);
    expect((await deliveries(t)).map((d) => d.event)).toEqual(['package.created', 'package.created']);

    const other = await t.company('Someone Else');
    const refused = await t.json('POST', '/api/company-package/csv-upload/', co.login.token, form(`hawb,company\nC-3,${other}\n`));
    expect(refused.status).toBe(400);
    expect((await t.json('POST', '/api/company-package/csv-upload/', admin.token, form('hawb\nC-4\n'))).status).toBe(403);
    expect((await t.json('POST', '/api/company-package/excel-upload/', co.login.token, form('hawb\nC-5\n', 'p.xlsx'))).status).toBe(415);
    expect(await deliveries(t)).toHaveLength(2);
  });
});
