import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * `npm run backup [target]`: a consistent online copy through SQLite's backup API, safe while the
 * server runs and writes (WAL readers do not block the writer). Restore: stop the server, copy the
 * backup over DATABASE_PATH (remove any -wal/-shm beside it), start the server.
 */
export async function backupDatabase(source: string, target: string): Promise<{ pages: number; target: string }> {
  mkdirSync(dirname(target), { recursive: true });
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    let pages = 0;
    await db.backup(target, { progress: ({ totalPages }) => { pages = totalPages; return 200; } });
    const check = new Database(target, { readonly: true });
    const ok = (check.pragma('integrity_check', { simple: true }) as string) === 'ok';
    check.close();
    if (!ok) throw new Error(`backup ${target} failed its integrity check`);
    return { pages, target };
  } finally {
    db.close();
  }
}

const isMain = import.meta.url === new URL(`file://${resolve(process.argv[1] ?? '')}`).href;
if (isMain) {
  const source = resolve(process.env.DATABASE_PATH ?? './data/courier.db');
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = resolve(process.argv[2] ?? join(dirname(source), 'backups', `courier-${stamp}.db`));
  const { pages } = await backupDatabase(source, target);
  console.log(`backed up ${source} -> ${target} (${pages} pages, integrity ok)`);
}
