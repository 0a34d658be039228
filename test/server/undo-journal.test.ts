import { readdirSync, readlinkSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, sqliteOf, type Db } from '../../server/db/client';
import type { Units } from '../../server/db/engine/types';
import { makeApp } from '../helpers/app';

/**
 * Where a unit's undo journal goes (server/db/engine/sqliteUnits.ts, `JournalIn`): batches of small
 * units keep it in memory; any other unit runs in a batch whose journal may spill to a temporary file.
 */

/** SQLite's temporary files this process holds open now (unlinked when opened, so only /proc sees them). */
const openTempFiles = (): string[] =>
  readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return /etilqs_/.test(target) ? [target] : [];
    } catch {
      return [];
    }
  });

/** What each COMMIT saw while its batch was still open: the journal's place and SQLite's temp files. */
function commitWatch() {
  const seen: { tempStore: number; tempFiles: number }[] = [];
  let db: Db | null = null;
  return {
    seen,
    attach(to: Db) {
      db = to;
    },
    beforeCommit: () => {
      const sqlite = sqliteOf(db!)!;
      seen.push({ tempStore: Number(sqlite.pragma('temp_store', { simple: true })), tempFiles: openTempFiles().length });
    },
  };
}

/** A file database with a table whose four indexes spread over many pages: each row changed moves four of them. */
async function spreadTable() {
  const dir = mkdtempSync(join(tmpdir(), 'courier-journal-'));
  const db = await openDatabase(join(dir, 'journal.db'));
  const sqlite = sqliteOf(db)!;
  sqlite.exec('create table spread (id integer primary key, a integer, b integer, c integer, d integer)');
  for (const col of ['a', 'b', 'c', 'd']) sqlite.exec(`create index spread_${col} on spread (${col}, id)`);
  const insert = sqlite.prepare('insert into spread (a, b, c, d) values (?, ?, ?, ?)');
  sqlite.transaction(() => {
    for (let i = 0; i < 20_000; i++)
      insert.run((i * 7919) % 20_000, (i * 104_729) % 20_000, (i * 1_299_709) % 20_000, (i * 15_485_863) % 20_000);
  })();
  // Thirty rows far apart: ~150 pages, far past the 16 a journal holds before it spills.
  const update = sqlite.prepare('update spread set a = a + 1, b = b + 1, c = c + 1, d = d + 1 where id = ?');
  const work = () => {
    for (let k = 0; k < 30; k++) update.run(1 + k * 641);
  };
  return { db, sqlite, work };
}

describe.skipIf(!!process.env.TEST_DATABASE_URL)('the undo journal of a unit of work', () => {
  it('a unit that is not small journals to a temporary file past 64 KiB; a small one the same size keeps it in memory', async () => {
    const { db, work } = await spreadTable();
    const watch = commitWatch();
    watch.attach(db);
    const units: Units = db.$engine.units({ beforeCommit: watch.beforeCommit });
    await units.run(work);
    await units.run(work, { small: true });
    expect(watch.seen).toEqual([
      { tempStore: 0, tempFiles: 1 },
      { tempStore: 2, tempFiles: 0 },
    ]);
    await db.$engine.close();
  });

  it('a unit that is not small never joins a batch kept in memory: that batch commits first, and small units after it share its batch on files', async () => {
    const { db, sqlite, work } = await spreadTable();
    const watch = commitWatch();
    watch.attach(db);
    const units = db.$engine.units({ beforeCommit: watch.beforeCommit });
    const order: string[] = [];
    db.$engine.onStatement = (text) => {
      if (/^(BEGIN|COMMIT)/.test(text)) order.push(text.split(' ')[0]!);
    };
    const place = () => Number(sqlite.pragma('temp_store', { simple: true }));
    // All three in one turn: the first opens a batch in memory; the second may be large.
    const [first, second, third] = await Promise.all([
      units.run(
        () => {
          order.push('small');
          work();
          return place();
        },
        { small: true },
      ),
      units.run(() => {
        order.push('large');
        work();
        return place();
      }),
      units.run(
        () => {
          order.push('small after');
          work();
          return place();
        },
        { small: true },
      ),
    ]);
    expect([first, second, third]).toEqual([2, 0, 0]);
    expect(order).toEqual(['BEGIN', 'small', 'COMMIT', 'BEGIN', 'large', 'small after', 'COMMIT']);
    expect(watch.seen.map((s) => s.tempStore)).toEqual([2, 0]);
    // Between batches the connection is back on files, for reads as well.
    expect(place()).toBe(0);
    await db.$engine.close();
  });

  it('a small unit that fails is undone from its journal in memory, and the units beside it keep their rows', async () => {
    const { db, sqlite, work } = await spreadTable();
    const units = db.$engine.units();
    const before = sqlite.prepare('select sum(a) from spread').pluck().get() as number;
    const results = await Promise.allSettled([
      units.run(work, { small: true }),
      units.run(
        () => {
          work();
          throw new Error('refused half-way');
        },
        { small: true },
      ),
      units.run(work, { small: true }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    // Two units' thirty rows each moved by one; the failed unit's thirty did not.
    expect(sqlite.prepare('select sum(a) from spread').pluck().get()).toBe(before + 60);
    await db.$engine.close();
  });

  it("a driver's scans and deliveries run as small units over HTTP: every COMMIT of them has the journal in memory and no temporary file", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'courier-journal-app-'));
    const db = await openDatabase(join(dir, 'app.db'));
    const watch = commitWatch();
    watch.attach(db);
    const t = await makeApp({ db, writeBatch: { beforeCommit: watch.beforeCommit } });
    const admin = await t.login('admin');
    const driver = await t.login('driver');
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await t.json<{ id: number }>('POST', '/api/package/', admin.token, { hawb: `UJ${i}`, customer_name: `Receiver ${i}` });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    expect((await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: ids })).status).toBe(
      200,
    );
    // The setup's own commits (a list of parcels assigned) were on files.
    expect(watch.seen.every((s) => s.tempStore === 0)).toBe(true);
    watch.seen.length = 0;
    const scans = await Promise.all(
      ids.map((_, i) => t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, { barcode: `UJ${i}` })),
    );
    expect(scans.map((r) => r.status)).toEqual(ids.map(() => 200));
    const delivered = await Promise.all(
      ids.slice(0, 4).map((id) => t.json('POST', `/api/package-delivered/${id}/deliver/`, driver.token, { recipient_name: 'Front desk' })),
    );
    expect(delivered.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(watch.seen.length).toBeGreaterThan(0);
    expect(watch.seen).toEqual(watch.seen.map(() => ({ tempStore: 2, tempFiles: 0 })));
  });
});
