import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/**
 * WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside the COMMIT that
 * crosses the threshold, on the one thread that serves every request: copying ~1000 pages into the
 * database file and fsyncing it stalled all answers for tens to hundreds of milliseconds (the write
 * p99 of the scale bench). A worker thread with its own connection runs PASSIVE checkpoints instead,
 * which never wait for or block the server's reads and writes; the server's connection keeps a far
 * larger automatic threshold only as a backstop, should the worker stop.
 */
export interface Checkpointer {
  stop(): Promise<void>;
}

export const BACKSTOP_PAGES = 20_000;

// Plain CommonJS evaluated in the worker: it only needs better-sqlite3 and the database path.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 1000');
const tick = () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); }
  catch (err) { parentPort.postMessage(String(err && err.message || err)); }
};
const timer = setInterval(tick, workerData.intervalMs);
parentPort.on('message', () => { clearInterval(timer); tick(); db.close(); parentPort.close(); });
`;

export function startCheckpointer(
  sqlite: Database.Database,
  options: { intervalMs?: number; log?: (line: string) => void } = {},
): Checkpointer {
  sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: {
      path: sqlite.name,
      intervalMs: options.intervalMs ?? 500,
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
    },
  });
  worker.unref();
  worker.on('message', (line: string) => options.log?.(`[courier] background checkpoint failed: ${line}`));
  worker.on('error', (err) => options.log?.(`[courier] checkpoint worker stopped: ${String(err)}`));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      // Held open until the last checkpoint ran, even if nothing else keeps the process alive.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
