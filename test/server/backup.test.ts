import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backupDatabase } from '../../scripts/backup';
import { callApi, seedOverHttp, spawnServer, type SpawnedServer } from '../helpers/server';

/** docs/operations.md "Backup and restore", done for real against the running server under write load. */
describe('online backup and restore', () => {
  it('a backup taken while devices write is consistent, restores, and devices ahead of it are told to re-pull', async () => {
    const live = await spawnServer();
    let restored: SpawnedServer | undefined;
    try {
      const seeded = await seedOverHttp(live.baseUrl, 80, 'BK');
      const { token } = await callApi<{ token: string }>(live.baseUrl, 'POST', 'auth/login/', null, {
        email: seeded.driver.email,
        password: seeded.driver.password,
      });
      const acked: number[] = [];
      let stop = false;
      let seq = 0;
      // One device scanning parcels one after another, as the outbox does, during the whole backup.
      const writer = (async () => {
        for (let i = 0; i < seeded.hawbs.length && !stop; i++) {
          seq += 1;
          const res = await fetch(new URL('scan-package-api/inbound-scan/', live.baseUrl), {
            method: 'POST',
            body: JSON.stringify({ barcode: seeded.hawbs[i] }),
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': 'application/json',
              'idempotency-key': `bk-${i}-${process.pid}`,
              'x-device-id': 'bk-device',
              'x-device-seq': String(seq),
            },
          });
          await res.arrayBuffer();
          if (res.status === 200) acked.push(i);
        }
      })();
      while (acked.length < 20) await new Promise((r) => setTimeout(r, 10));
      const ackedBefore = acked.length;
      const target = join(mkdtempSync(join(tmpdir(), 'courier-backup-')), 'backups', 'courier.db');
      const { pages } = await backupDatabase(live.databasePath, target);
      const ackedAfter = acked.length;
      expect(pages).toBeGreaterThan(0);
      await writer.then(() => undefined);
      stop = true;
      const cursorLive = (await callApi<{ cursor: number }>(live.baseUrl, 'GET', 'sync/changes/?cursor=0&limit=1000', token)).cursor;
      await live.stop();

      // The copy is whole and holds every scan answered before the backup began.
      const copy = new Database(target, { readonly: true });
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.pragma('foreign_key_check')).toEqual([]);
      const loaded = (
        copy.prepare("select hawb from package where hawb like 'BK%' and status = 'out_for_delivery' order by hawb").all() as {
          hawb: string;
        }[]
      ).map((r) => r.hawb);
      for (const i of acked.slice(0, ackedBefore)) expect(loaded).toContain(seeded.hawbs[i]);
      // The one device sends one scan at a time: at most one was committed but not yet answered when the copy ended.
      expect(loaded.length).toBeLessThanOrEqual(ackedAfter + 1);
      // Never half an action: every loaded parcel has its event and its stored answer.
      const orphans = copy
        .prepare(
          `select count(*) as n from package p where hawb like 'BK%' and status = 'out_for_delivery' and (
          not exists (select 1 from package_event e where e.package_id = p.id and e.action = 'inbound_scan'))`,
        )
        .get() as { n: number };
      expect(orphans.n).toBe(0);
      const backupSeq = (copy.prepare("select last_seq from device where device_id = 'bk-device'").get() as { last_seq: number }).last_seq;
      copy.close();
      expect(backupSeq).toBeLessThan(seq);

      // Restore per docs/operations.md: server stopped, backup copied over DATABASE_PATH (no -wal/-shm), start.
      restored = await spawnServer();
      await restored.stop();
      mkdirSync(restored.dir, { recursive: true });
      copyFileSync(target, restored.databasePath);
      for (const ext of ['-wal', '-shm']) rmSync(`${restored.databasePath}${ext}`, { force: true });
      await restored.restart();
      const again = await callApi<{ token: string }>(restored.baseUrl, 'POST', 'auth/login/', null, {
        email: seeded.driver.email,
        password: seeded.driver.password,
      });
      const remaining = await callApi<{ pending_packages: unknown[] }>(
        restored.baseUrl,
        'GET',
        `scan-package-api/${seeded.driver.id}/remaining-packages-list/`,
        again.token,
      );
      expect(remaining.pending_packages.length).toBe(80 - loaded.length);
      // A device whose cursor is ahead of the restored feed is told to drop its copies and pull again.
      const pulled = await callApi<{ reset: boolean }>(restored.baseUrl, 'GET', `sync/changes/?cursor=${cursorLive}`, again.token);
      expect(pulled.reset).toBe(true);
      // Its acknowledged actions that the backup lacks are re-sent with their keys and apply once.
      for (const i of acked.filter((k) => !loaded.includes(seeded.hawbs[k]!))) {
        const res = await fetch(new URL('scan-package-api/inbound-scan/', restored.baseUrl), {
          method: 'POST',
          body: JSON.stringify({ barcode: seeded.hawbs[i] }),
          headers: {
            authorization: `Bearer ${again.token}`,
            'content-type': 'application/json',
            'idempotency-key': `bk-${i}-${process.pid}`,
            'x-device-id': 'bk-device',
            'x-device-seq': String(i + 1),
          },
        });
        expect(res.status).toBe(200);
        expect(res.headers.get('idempotent-replayed')).toBeNull();
      }
    } finally {
      if (restored) await restored.stop().catch(() => undefined);
    }
  }, 300_000);

  it('a backup many steps long finishes while another connection commits all the time, and holds the state it began with', async () => {
    // The server's connection, as server/db/client.ts opens it (WAL), committing every millisecond or two.
    const dir = mkdtempSync(join(tmpdir(), 'courier-backup-busy-'));
    const source = join(dir, 'courier.db');
    const server = new Database(source);
    server.pragma('journal_mode = WAL');
    server.exec('create table scan (id integer primary key, barcode text not null)');
    const insert = server.prepare('insert into scan (barcode) values (?)');
    // ~30 MB, copied 1 MB a step: commits land between its steps.
    server.transaction(() => {
      for (let i = 0; i < 150_000; i++) insert.run(`B-${i}-${'x'.repeat(160)}`);
    })();
    const count = () => (server.prepare('select count(*) as n from scan').get() as { n: number }).n;
    let commits = 0;
    const writer = setInterval(() => {
      insert.run(`LIVE-${commits++}`);
    }, 1);
    try {
      const before = count();
      let steps = 0;
      const copy = join(dir, 'backups', 'copy.db');
      // Before the fix each of those commits sent the copy back to page one: it never finished.
      const { pages } = await backupDatabase(source, copy, {
        stepPages: 256,
        onProgress: () => {
          steps++;
        },
      });
      const after = count();
      expect(steps).toBeGreaterThan(20);
      expect(commits).toBeGreaterThan(0);
      const copied = new Database(copy, { readonly: true });
      const rows = (copied.prepare('select count(*) as n from scan').get() as { n: number }).n;
      copied.close();
      expect(pages).toBeGreaterThan(5000);
      // One state of the database, the one the backup began in: not a mix of pages from different moments.
      expect(rows).toBeGreaterThanOrEqual(before);
      expect(rows).toBeLessThan(after);
    } finally {
      clearInterval(writer);
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
