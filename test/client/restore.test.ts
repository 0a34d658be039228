import 'fake-indexeddb/auto';
import Database from 'better-sqlite3';
import { and, eq, inArray } from 'drizzle-orm';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSyncEngine, type SyncEngine } from '../../client/sync/index';
import { packageEvent } from '../../server/db/schema/index';
import { backupDatabase } from '../../scripts/backup';
import { makeApp, PASSWORD } from '../helpers/app';
import { seedOverHttp, spawnServer, type SpawnedServer } from '../helpers/server';
import { engineOn, network, seedAssigned, syncUntil, uniqueDbName } from './support';

interface Sent {
  method: string;
  path: string;
  key: string | null;
  status: number;
  replayed: boolean;
}

/** An engine on the spawned server through the real network, recording what it sent. */
function engineFor(server: SpawnedServer, dbName: string, sent: Sent[]): SyncEngine {
  return createSyncEngine({
    baseUrl: server.baseUrl,
    dbName,
    lock: 'lease',
    backoff: { baseMs: 20, maxMs: 200 },
    pollMs: 100,
    timeoutMs: 10_000,
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      sent.push({
        method: init?.method ?? 'GET',
        path: new URL(url).pathname,
        key: new Headers(init?.headers).get('idempotency-key'),
        status: res.status,
        replayed: res.headers.get('idempotent-replayed') === 'true',
      });
      return res;
    },
  });
}

async function scanAll(engine: SyncEngine, hawbs: string[]): Promise<string[]> {
  const keys: string[] = [];
  for (const h of hawbs) keys.push((await engine.enqueue(engine.actions.inboundScan(h))).key);
  await syncUntil([engine], async () => (await engine.db.outbox.count()) === 0);
  expect(engine.status()).toMatchObject({ rejected: 0, lastError: null });
  return keys;
}

/** Per docs/operations.md: server stopped, backup over DATABASE_PATH, no -wal/-shm, start. */
async function restoreOnto(server: SpawnedServer, backup: string): Promise<void> {
  await server.stop();
  copyFileSync(backup, server.databasePath);
  for (const ext of ['-wal', '-shm']) rmSync(`${server.databasePath}${ext}`, { force: true });
  await server.restart();
}

function serverScans(server: SpawnedServer, deviceId: string) {
  const sqlite = new Database(server.databasePath, { readonly: true });
  try {
    const scans = (
      sqlite
        .prepare(
          `select p.hawb as hawb from package_event e join package p on p.id = e.package_id
      where e.action = 'inbound_scan' order by e.id`,
        )
        .all() as { hawb: string }[]
    ).map((r) => r.hawb);
    const seqs = (
      sqlite.prepare('select device_seq as seq from idempotency_key where device_id = ? order by device_seq').all(deviceId) as {
        seq: number;
      }[]
    ).map((r) => r.seq);
    const lastSeq = (sqlite.prepare('select last_seq from device where device_id = ?').get(deviceId) as { last_seq: number }).last_seq;
    return { scans, seqs, lastSeq };
  } finally {
    sqlite.close();
  }
}

const DAY = 24 * 3600_000;
const PNG = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
);
const backupPath = () => join(mkdtempSync(join(tmpdir(), 'courier-restore-')), 'courier.db');

describe('acknowledged actions survive a server restore', () => {
  it('re-sends what the restored server lost, once, with the original keys and seqs', async () => {
    const server = await spawnServer();
    try {
      const seed = await seedOverHttp(server.baseUrl, 10, 'RS');
      const dbName = uniqueDbName('courier-restore');
      const sent: Sent[] = [];
      let engine = engineFor(server, dbName, sent);
      await engine.login(seed.driver.email, seed.driver.password);
      const deviceId = await engine.deviceId;

      const early = await scanAll(engine, seed.hawbs.slice(0, 5));
      const backup = (await backupDatabase(server.databasePath, backupPath())).target;
      const late = await scanAll(engine, seed.hawbs.slice(5));
      expect(await engine.db.journal.count()).toBe(10);
      await engine.stop();

      await restoreOnto(server, backup);
      expect(serverScans(server, deviceId).lastSeq).toBe(5);

      // The app is opened again on the restored server.
      sent.length = 0;
      engine = engineFor(server, dbName, sent);
      await engine.start();
      while ((await engine.db.outbox.count()) > 0 || engine.status().resentAfterRestore === 0 || engine.status().syncing) {
        await new Promise((ok) => setTimeout(ok, 20));
      }
      expect(engine.status()).toMatchObject({ resentAfterRestore: 5, queued: 0, rejected: 0 });
      expect(await engine.db.meta.get('restoreResend')).toMatchObject({ value: { count: 5, serverLastSeq: 5 } });
      const resent = sent.filter((r) => r.key);
      expect(resent.map((r) => [r.key, r.status, r.replayed])).toEqual(late.map((k) => [k, 200, false]));
      expect(resent.map((r) => r.key)).not.toContain(early[0]);
      // Journaled again under the same seqs; the copies came from the reset snapshot.
      expect((await engine.db.journal.orderBy('seq').toArray()).map((j) => j.seq)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
      expect((await engine.db.packages.toArray()).every((p) => p.status === 'out_for_delivery')).toBe(true);
      await engine.stop();
      await server.stop();

      const after = serverScans(server, deviceId);
      expect(after.scans).toEqual(seed.hawbs);
      expect(after.seqs).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
      expect(after.lastSeq).toBe(10);
    } finally {
      await server.kill().catch(() => undefined);
    }
  }, 180_000);

  it('a device that sent newer actions before noticing the restore re-sends its whole journal when the feed resets', async () => {
    const server = await spawnServer();
    try {
      const seed = await seedOverHttp(server.baseUrl, 11, 'RI');
      const dbName = uniqueDbName('courier-restore');
      const sent: Sent[] = [];
      // Never started: no timer and no failed request tells it the server went away.
      const engine = engineFor(server, dbName, sent);
      await engine.login(seed.driver.email, seed.driver.password);
      const deviceId = await engine.deviceId;
      await scanAll(engine, seed.hawbs.slice(0, 5));
      const backup = (await backupDatabase(server.databasePath, backupPath())).target;
      await scanAll(engine, seed.hawbs.slice(5, 10));
      await restoreOnto(server, backup);

      // Action 11 goes first and hides the gap from last_seq; the reset pull then brings the journal back.
      sent.length = 0;
      await scanAll(engine, seed.hawbs.slice(10));
      expect(engine.status()).toMatchObject({ resentAfterRestore: 11, queued: 0, rejected: 0 });
      const resent = sent.filter((r) => r.key);
      expect(resent.filter((r) => !r.replayed).length).toBe(6);
      expect(resent.filter((r) => r.replayed).length).toBe(6);
      await engine.stop();
      await server.stop();

      const after = serverScans(server, deviceId);
      expect([...after.scans].sort()).toEqual(seed.hawbs);
      expect(after.scans.slice(0, 6)).toEqual([...seed.hawbs.slice(0, 5), seed.hawbs[10]]);
      expect(after.lastSeq).toBe(11);
    } finally {
      await server.kill().catch(() => undefined);
    }
  }, 180_000);

  it('re-sending to a server that lost nothing only replays the stored answers', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const driver = await t.login('driver');
    const hawbs = Array.from({ length: 10 }, (_, i) => `RN${String(i).padStart(4, '0')}`);
    const ids = await seedAssigned(t, admin.token, driver.id, hawbs);
    const net = network(t);
    // The server answers with a last_seq lower than the truth, as one restored from a backup would.
    let understate = false;
    const real = net.fetch;
    net.fetch = async (url, init) => {
      if (understate && new URL(url).pathname === '/api/sync/device/') {
        return new Response(JSON.stringify({ device_id: new URL(url).searchParams.get('device_id'), last_seq: 0 }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }
      return real(url, init);
    };
    const engine = engineOn(net, uniqueDbName());
    await engine.login(driver.email, PASSWORD);
    await engine.syncNow();
    const keys: string[] = [];
    for (const h of hawbs) keys.push((await engine.enqueue(engine.actions.inboundScan(h))).key);
    await syncUntil([engine], async () => (await engine.db.outbox.count()) === 0);
    const events = () =>
      t.db
        .select()
        .from(packageEvent)
        .where(and(inArray(packageEvent.package_id, ids), eq(packageEvent.action, 'inbound_scan')))
        .all();
    const before = await events();
    expect(before.length).toBe(10);
    const copies = await engine.pendingView();

    understate = true;
    net.sent.length = 0;
    await engine.stop();
    const again = engineOn(net, engine.db.name);
    await again.start();
    await syncUntil([again], async () => (await again.db.outbox.count()) === 0 && again.status().resentAfterRestore === 10);
    const resent = net.sent.filter((r) => r.key);
    expect(resent.map((r) => [r.key, r.status, r.replayed])).toEqual(keys.map((k) => [k, 200, true]));
    expect(await events()).toEqual(before);
    // Replayed answers are days-old states: they do not overwrite the copies.
    expect(await again.pendingView()).toEqual(copies);
    expect(again.status()).toMatchObject({ resentAfterRestore: 10, queued: 0, rejected: 0 });
    await again.stop();
  });

  it('keeps the files of journaled actions until the journal row ages out (7 days, pruned at start)', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const driver = await t.login('driver');
    const [id] = await seedAssigned(t, admin.token, driver.id, ['RP0001']);
    let clock = Date.now();
    const net = network(t);
    const dbName = uniqueDbName();
    const engine = engineOn(net, dbName, { now: () => clock });
    await engine.login(driver.email, PASSWORD);
    await engine.syncNow();
    await engine.enqueue(engine.actions.deliver(id, { photos: [{ bytes: PNG, mime: 'image/png' }] }));
    await syncUntil([engine], async () => (await engine.db.outbox.count()) === 0);
    expect(await engine.db.journal.count()).toBe(1);
    expect(await engine.db.blobs.count()).toBe(1);
    await engine.stop();

    clock += 6 * DAY;
    const later = engineOn(net, dbName, { now: () => clock });
    await later.start();
    expect(await later.db.journal.count()).toBe(1);
    await later.stop();

    clock += 2 * DAY;
    const weekOn = engineOn(net, dbName, { now: () => clock });
    await weekOn.start();
    expect(await weekOn.db.journal.count()).toBe(0);
    expect(await weekOn.db.blobs.count()).toBe(0);
    await weekOn.stop();
  });
});
