import Database from 'better-sqlite3';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKSTOP_PAGES, startCheckpointer } from '../../server/db/checkpointer';
import { openDatabase, sqliteOf } from '../../server/db/client';

// A SQLite file of its own (openDatabase with a path), whatever TEST_DATABASE_URL says.
describe('background WAL checkpoints', () => {
  it('moves committed pages into the database file from a worker, and the last one runs at stop', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'courier-ckpt-')), 'c.db');
    const db = await openDatabase(path);
    const sqlite = sqliteOf(db)!;
    const checkpoints = startCheckpointer(sqlite, { intervalMs: 20 });
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_PAGES);
    sqlite.exec('create table t (id integer primary key, v text)');
    const before = statSync(path).size;
    const insert = sqlite.prepare('insert into t (v) values (?)');
    // Far below the backstop: only the worker can have copied these pages into the file.
    sqlite.transaction(() => {
      for (let i = 0; i < 500; i++) insert.run('x'.repeat(1000));
    })();
    const deadline = Date.now() + 10_000;
    while (statSync(path).size <= before + 400_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(statSync(path).size).toBeGreaterThan(before + 400_000);

    sqlite.transaction(() => {
      for (let i = 0; i < 100; i++) insert.run('y'.repeat(1000));
    })();
    await checkpoints.stop();
    await db.$engine.close();
    const reopened = new Database(path, { readonly: true });
    expect(reopened.pragma('integrity_check', { simple: true })).toBe('ok');
    expect((reopened.prepare('select count(*) as n from t').get() as { n: number }).n).toBe(600);
    reopened.close();
  });
});
