import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { webhookDelivery, webhookEndpoint } from '../../server/db/schema/index';
import { createWebhookDispatcher } from '../../server/services/webhooks/dispatcher';
import { forbiddenAddress } from '../../server/services/webhooks/outbound';
import { makeApp, type TestApp } from '../helpers/app';
import { companyWithKey } from './webhooks-helpers';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise((r) => {
          s.closeAllConnections();
          s.close(r);
        }),
    ),
  );
});

/** A real listener on every local address (dual stack), counting the connections that reach it. */
async function listener(
  handler: Parameters<typeof createServer>[1] = (_req, res) => {
    res.statusCode = 204;
    res.end();
  },
) {
  const server = createServer(handler);
  servers.push(server);
  let connections = 0;
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((ok) => {
    server.listen(0, '::', ok);
  });
  return { port: (server.address() as AddressInfo).port, connections: () => connections };
}

async function receivedParcel(t: TestApp, companyToken: string, hawb: string) {
  const depot = await t.login('depot_manager');
  const made = await t.json<{ id: number }>('POST', '/api/package/', companyToken, { hawb });
  expect(made.status).toBe(201);
  expect((await t.json('POST', '/api/scan-package-api/scan-assign-zone/', depot.token, { barcode: hawb })).status).toBe(200);
}

/** An endpoint row as one saved before the save-time check existed (or whose name changed address since). */
async function plantEndpoint(t: TestApp, companyId: number, url: string): Promise<number> {
  const now = t.clock.now();
  return (
    await t.db
      .insert(webhookEndpoint)
      .values({
        company_id: companyId,
        url,
        events: JSON.stringify(['package.received']),
        description: '',
        is_active: true,
        created_at: now,
        updated_at: now,
      })
      .returning()
      .get()
  ).id;
}

describe('webhook targets cannot reach this machine or its network (SSRF)', () => {
  it('classifies addresses: every loopback/private/link-local/ULA/multicast/unspecified form, mapped ones included', () => {
    const refused = [
      '127.0.0.1',
      '127.255.0.9',
      '0.0.0.0',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:169.254.169.254',
      '::127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '2002:7f00:1::',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      'not-an-ip',
    ];
    const allowed = ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:93.184.216.34', '2a00:1450:4001::200e'];
    expect(refused.filter((a) => !forbiddenAddress(a))).toEqual([]);
    expect(allowed.filter((a) => forbiddenAddress(a))).toEqual([]);
  });

  it('saving an endpoint that is or resolves to a local address is a clear 400, whatever its spelling', async () => {
    const t = await makeApp();
    const co = await companyWithKey(t, 'Attacker');
    const rx = await listener();
    const targets = [
      `http://[::ffff:127.0.0.1]:${rx.port}/`,
      `http://[::]:${rx.port}/`,
      'http://[::ffff:169.254.169.254]/latest/meta-data/',
      `http://localhost:${rx.port}/`,
      `http://127.1:${rx.port}/`,
      `http://2130706433:${rx.port}/`,
      `http://0x7f000001:${rx.port}/`,
      'http://[fd00::1]/',
      'http://[::ffff:7f00:1]/',
      'http://169.254.169.254/',
      `http://user:pw@8.8.8.8/`,
    ];
    for (const url of targets) {
      const res = await t.json<{ code: string; errors: { path: string }[] }>('POST', '/api/webhook-endpoint/', co.login.token, {
        url,
        events: ['package.received'],
      });
      expect([url, res.status, res.body.errors[0]?.path]).toEqual([url, 400, 'url']);
    }
    // Changing a good endpoint to a bad target is refused the same way.
    const ok = await t.json<{ id: number }>('POST', '/api/webhook-endpoint/', co.login.token, {
      url: 'https://8.8.8.8/in',
      events: ['package.received'],
    });
    expect(ok.status).toBe(201);
    expect(
      (await t.json('PATCH', `/api/webhook-endpoint/${ok.body.id}/`, co.login.token, { url: `http://[::ffff:127.0.0.1]:${rx.port}/` }))
        .status,
    ).toBe(400);
    expect((await t.db.select().from(webhookEndpoint).all()).map((e) => e.url)).toEqual(['https://8.8.8.8/in']);
    expect(rx.connections()).toBe(0);
  });

  it('at send time every local target is refused without a connection, and the company sees no error text', async () => {
    const t = await makeApp();
    const co = await companyWithKey(t, 'Planted');
    const rx = await listener();
    for (const url of [
      `http://[::ffff:127.0.0.1]:${rx.port}/`,
      `http://[::]:${rx.port}/`,
      `http://localhost:${rx.port}/`,
      `http://127.0.0.1:${rx.port}/`,
    ]) {
      await plantEndpoint(t, co.id, url);
    }
    await receivedParcel(t, co.login.token, 'SSRF-1');
    const lines: string[] = [];
    expect(await createWebhookDispatcher({ db: t.db, clock: t.clock, log: (l) => lines.push(l) }).runOnce()).toBe(4);
    expect(rx.connections()).toBe(0);
    const list = await t.json<{ results: { last_error: string; last_status_class: string | null }[] }>(
      'GET',
      '/api/webhook-delivery/',
      co.login.token,
    );
    expect(list.body.results.map((d) => [d.last_error, d.last_status_class])).toEqual(
      Array(4).fill(['target refused: it resolves to a private, loopback or reserved address', null]),
    );
    expect(lines).toHaveLength(4);
  });

  it('connects to the vetted address (no second lookup), follows no redirect, and bounds time and answer size', async () => {
    const t = await makeApp();
    const co = await companyWithKey(t, 'OnPrem');
    const elsewhere = await listener();
    const redirector = await listener((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${elsewhere.port}/` });
      res.end();
    });
    const endless = await listener((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 120);
      const pump = () => {
        while (res.write(chunk));
      };
      res.on('drain', pump);
      pump();
    });
    const silent = await listener(() => {
      /* never answers */
    });
    const ok = await listener();
    // 'rebind.test' does not exist in any DNS: only the vetted answer can reach the listener.
    let lookups = 0;
    const resolve = (host: string) => {
      lookups += 1;
      return host === 'rebind.test' ? Promise.resolve([{ address: '127.0.0.1', family: 4 }]) : Promise.reject(new Error('unknown'));
    };
    const ids: number[] = [];
    for (const l of [ok, redirector, endless, silent]) ids.push(await plantEndpoint(t, co.id, `http://rebind.test:${l.port}/hook`));
    await receivedParcel(t, co.login.token, 'SSRF-2');
    const dispatcher = createWebhookDispatcher({ db: t.db, clock: t.clock, allow: ['127.0.0.1/32'], resolve, timeoutMs: 500 });
    await dispatcher.runOnce();
    const byEndpoint = new Map((await t.db.select().from(webhookDelivery).all()).map((d) => [d.endpoint_id, d]));
    expect(lookups).toBe(4);
    expect(byEndpoint.get(ids[0] as number)).toMatchObject({ status: 'delivered', last_status_code: 204 });
    expect(byEndpoint.get(ids[1] as number)).toMatchObject({ status: 'pending', last_status_code: 302, last_error: 'failed: 3xx' });
    expect(elsewhere.connections()).toBe(0);
    // An endless answer is cut after the bound; the status still counts.
    expect(byEndpoint.get(ids[2] as number)).toMatchObject({ status: 'delivered', last_status_code: 200 });
    expect(byEndpoint.get(ids[3] as number)).toMatchObject({
      status: 'pending',
      last_status_code: null,
      last_error: 'failed: no HTTP answer',
    });

    // Without the allowlist the same name is refused: the allowlist is what lets on-premise receivers in.
    await t.db.update(webhookDelivery).set({ status: 'pending', next_attempt_at: 0 }).run();
    const before = ok.connections();
    await createWebhookDispatcher({ db: t.db, clock: t.clock, resolve }).runOnce();
    expect(ok.connections()).toBe(before);
  });

  it('a name allowed by host name reaches its private receiver', async () => {
    const t = await makeApp({ config: { webhookAllow: ['localhost'] } });
    const co = await companyWithKey(t, 'Named');
    const rx = await listener();
    const ep = await t.json('POST', '/api/webhook-endpoint/', co.login.token, {
      url: `http://localhost:${rx.port}/in`,
      events: ['package.received'],
    });
    expect(ep.status).toBe(201);
    await receivedParcel(t, co.login.token, 'SSRF-3');
    await createWebhookDispatcher({ db: t.db, clock: t.clock, allow: t.app.deps.config.webhookAllow }).runOnce();
    expect(await t.db.select().from(webhookDelivery).get()).toMatchObject({ status: 'delivered' });
    expect(rx.connections()).toBe(1);
  });
});
