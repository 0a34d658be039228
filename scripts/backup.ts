import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { promisify } from 'node:util';
import { dirname, join, resolve } from 'node:path';

/** Pages per backup step: 16 MB at the 4 KB page size, a few milliseconds of copying each. */
const STEP_PAGES = 4096;

/**
 * `npm run backup [target]`: a consistent online copy through SQLite's backup API, safe while the
 * server runs and writes (WAL readers do not block the writer). Restore: stop the server, copy the
 * backup over DATABASE_PATH (remove any -wal/-shm beside it), start the server.
 *
 * The copy goes in steps (the process stays responsive and reports progress), inside one read
 * transaction held on the source connection from the first step to the last. Without it SQLite
 * restarts a backup from page one whenever another connection commits between two steps: on a
 * server taking a write every few milliseconds a database of more than a few steps never finished
 * copying. Held, the steps all read the snapshot the backup began with. The WAL grows meanwhile,
 * since checkpoints cannot pass a reader: the server's next checkpoint after the copy folds it back.
 */
export async function backupDatabase(
  source: string,
  target: string,
  {
    onProgress = () => undefined,
    stepPages = STEP_PAGES,
  }: { onProgress?: (copied: number, total: number) => void; stepPages?: number } = {},
): Promise<{ pages: number; target: string; copyMs: number; checkMs: number }> {
  mkdirSync(dirname(target), { recursive: true });
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    let pages = 0;
    const started = performance.now();
    db.prepare('BEGIN').run();
    // BEGIN is deferred: the first read takes the snapshot every step then copies from.
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    try {
      await db.backup(target, {
        progress: ({ totalPages, remainingPages }) => {
          pages = totalPages;
          onProgress(totalPages - remainingPages, totalPages);
          return stepPages;
        },
      });
    } finally {
      db.prepare('COMMIT').run();
    }
    const copyMs = performance.now() - started;
    const check = new Database(target, { readonly: true });
    const ok = (check.pragma('integrity_check', { simple: true }) as string) === 'ok';
    check.close();
    if (!ok) throw new Error(`backup ${target} failed its integrity check`);
    return { pages, target, copyMs, checkMs: performance.now() - started - copyMs };
  } finally {
    db.close();
  }
}

/**
 * PostgreSQL: `pg_dump` in its custom format (compressed, restorable table by table with
 * `pg_restore --clean --if-exists -d <url> <file>`), consistent while the servers write: it reads
 * one snapshot. PostgreSQL's own client tools must match the server's major version or be newer.
 */
export async function backupPostgres(
  url: string,
  target: string,
  pgDump = process.env.PG_DUMP ?? 'pg_dump',
): Promise<{ bytes: number; target: string }> {
  mkdirSync(dirname(target), { recursive: true });
  try {
    await promisify(execFile)(pgDump, ['--format=custom', '--no-owner', `--file=${target}`, `--dbname=${url}`], {
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') {
      throw new Error(
        `${pgDump} was not found: install PostgreSQL's client tools (Debian: apt-get install postgresql-client), set PG_DUMP to its path, or use your managed database's snapshots`,
      );
    }
    throw err;
  }
  return { bytes: statSync(target).size, target };
}

const isMain = import.meta.url === new URL(`file://${resolve(process.argv[1] ?? '')}`).href;
if (isMain && process.env.DATABASE_URL) {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = resolve(process.argv[2] ?? join('data', 'backups', `courier-${stamp}.pgdump`));
  const { bytes } = await backupPostgres(process.env.DATABASE_URL, target);
  console.log(`backed up PostgreSQL -> ${target} (${bytes} bytes, pg_dump custom format; restore with pg_restore)`);
} else if (isMain) {
  const source = resolve(process.env.DATABASE_PATH ?? './data/courier.db');
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = resolve(process.argv[2] ?? join(dirname(source), 'backups', `courier-${stamp}.db`));
  let said = -1;
  const { pages, copyMs, checkMs } = await backupDatabase(source, target, {
    onProgress: (copied, total) => {
      const percent = Math.floor((100 * copied) / total);
      if (percent >= said + 10) {
        said = percent;
        console.log(`copied ${percent}% of ${total} pages`);
      }
    },
  });
  console.log(
    `backed up ${source} -> ${target} (${pages} pages; copied in ${(copyMs / 1000).toFixed(1)} s, integrity checked in ${(checkMs / 1000).toFixed(1)} s)`,
  );
}
