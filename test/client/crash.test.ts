import 'fake-indexeddb/auto';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createSyncEngine, type SyncEngine } from '../../client/sync/index';
import type { Package } from '../../shared/schemas/package';
import { callApi, seedOverHttp, spawnServer } from '../helpers/server';
import { uniqueDbName } from './support';

const N = 500;

/** Until the outbox holds at most `left` rows (the engine is sending on its own timers meanwhile). */
async function drainedTo(engine: SyncEngine, left: number): Promise<void> {
  while ((await engine.db.outbox.count()) > left) await new Promise((ok) => setTimeout(ok, 10));
}

describe('exactly once through a crashing server and restarting clients', () => {
  it(`${N} offline scans: server SIGKILLed mid-sync and restarted, engine restarted twice`, async () => {
    const server = await spawnServer();
    try {
      const seed = await seedOverHttp(server.baseUrl, N, 'CR');
      const dbName = uniqueDbName('courier-crash');
      const make = () =>
        createSyncEngine({
          baseUrl: server.baseUrl,
          dbName,
          lock: 'lease',
          backoff: { baseMs: 20, maxMs: 200 },
          pollMs: 100,
          timeoutMs: 10_000,
        });

      let engine = make();
      await engine.login(seed.driver.email, seed.driver.password);
      await engine.syncNow();
      expect(await engine.db.packages.count()).toBe(N);

      // Offline: the server is gone; the driver loads every parcel, in an order of their own.
      await server.kill();
      const order = seed.hawbs
        .map((h, i) => ({ h, k: (i * 7919) % N }))
        .sort((a, b) => a.k - b.k)
        .map((x) => x.h);
      for (const h of order) await engine.enqueue(engine.actions.inboundScan(h));
      expect(await engine.syncNow()).toMatchObject({ online: false, queued: N });

      // Signal returns; mid-sync the server dies (SIGKILL) and comes back.
      await server.restart();
      await engine.start();
      await drainedTo(engine, N - 120);
      await server.kill();
      await server.restart();
      await drainedTo(engine, N - 240);

      // Tab closed and reopened mid-sync: a new engine on the same IndexedDB.
      await engine.stop();
      engine = make();
      await engine.start();
      await drainedTo(engine, N - 360);
      await server.kill();
      await engine.stop();

      // Reopened again while the server is still down, then the server returns.
      engine = make();
      await engine.syncNow();
      await server.restart();
      while ((await engine.db.outbox.count()) > 0 || engine.status().lastError) await engine.syncNow();
      expect(engine.status()).toMatchObject({ queued: 0, sending: 0, rejected: 0 });

      const token = (await engine.db.meta.get('token'))?.value as string;
      const deviceId = await engine.deviceId;
      const copies = (await engine.db.packages.toArray()).map(({ syncedAt: _s, ...p }) => p).sort((a, b) => a.id - b.id);
      const server1 = await callApi<{ results: Package[] }>(server.baseUrl, 'GET', 'package/?page_size=500&ordering=id', token);
      // The synced copy is the Package answer plus the attempts the phone's must-return rule reads.
      expect(copies).toEqual(server1.results.map((p) => ({ ...p, attempts: 0 })));
      expect(copies.every((p) => p.status === 'out_for_delivery' && p.is_scanned)).toBe(true);
      await engine.stop();
      await server.stop();

      const sqlite = new Database(server.databasePath, { readonly: true });
      try {
        const scans = sqlite
          .prepare(
            `select e.package_id as id, p.hawb as hawb from package_event e join package p on p.id = e.package_id
          where e.action = 'inbound_scan' order by e.id`,
          )
          .all() as { id: number; hawb: string }[];
        expect(scans.map((s) => s.hawb)).toEqual(order);
        const repeats = sqlite.prepare(`select count(*) as n from package_event where action like 'scan%'`).get() as { n: number };
        expect(repeats.n).toBe(0);
        const keys = sqlite
          .prepare('select device_seq as seq from idempotency_key where device_id = ? order by device_seq')
          .all(deviceId) as { seq: number }[];
        expect(keys.map((k) => k.seq)).toEqual(Array.from({ length: N }, (_, i) => i + 1));
        const dev = sqlite.prepare('select last_seq from device where device_id = ?').get(deviceId) as { last_seq: number };
        expect(dev.last_seq).toBe(N);
      } finally {
        sqlite.close();
      }
    } finally {
      await server.kill().catch(() => undefined);
    }
  }, 600_000);
});
