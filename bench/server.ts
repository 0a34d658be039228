import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../server/app';
import { systemClock } from '../server/clock';
import { startCheckpointer } from '../server/db/checkpointer';
import { openDatabase, sqliteOf } from '../server/db/client';
import { diskFileStore } from '../server/files';

/**
 * The real app on the bench database, plus two bare Hono routes on the same connection: one SQLite
 * insert and one indexed read. The ratio real/bare is the figure the bench reports.
 */
const db = await openDatabase(process.env.DATABASE_PATH ?? '');
// As server/main.ts does: WAL checkpoints off the event loop.
const sqlite = sqliteOf(db)!;
const checkpoints = startCheckpointer(sqlite);
const app = createApp({ db, files: diskFileStore(mkdtempSync(join(tmpdir(), 'bench-files-'))), clock: systemClock });
sqlite.exec('create table if not exists bare_write (id integer primary key, v text not null, at integer not null)');
const insert = sqlite.prepare('insert into bare_write (v, at) values (?, ?)');
const read = sqlite.prepare('select id, hawb, status from package where id = ?');
const outer = new Hono();
outer.post('/bare/insert', async (c) => {
  const body = await c.req.json<{ v: string }>();
  const r = insert.run(body.v, Date.now());
  return c.json({ id: Number(r.lastInsertRowid) });
});
outer.get('/bare/read/:id', (c) => c.json(read.get(Number(c.req.param('id'))) ?? {}));
outer.route('/', app);
const server = serve({ fetch: outer.fetch, port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1' }, (info) => {
  process.send?.({ port: info.port });
});
process.on('SIGTERM', () => server.close(() => { void checkpoints.stop().finally(async () => { await db.$engine.close(); process.exit(0); }); }));
