import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { diskFileStore, s3FileStore, type FileStore } from '../server/files/index';
import { startS3Standin } from '../test/helpers/s3Standin';

/**
 * The file stores (server/files/): 200 KB writes (a phone photo) and reads, one at a time and 8 at
 * once. The disk store flushes each file and its directory entry before answering; beside it, a
 * bare writeFile + rename with no flush (what the store did before) shows what durability costs.
 * Then the listing the orphan sweep walks, over 20,000 files. The S3 store runs against the loopback stand-in, so its figure is the client's own cost (signing,
 * CRC32, HTTP), not a real bucket's latency.
 */
const SIZE = 200 * 1024;
const N = 200;
const LISTED = 20_000;

async function timed(n: number, concurrency: number, op: (i: number) => Promise<unknown>): Promise<{ perOpMs: number; perS: number }> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await op(next++);
    }),
  );
  const ms = performance.now() - start;
  return { perOpMs: ms / n, perS: (n * 1000) / ms };
}

async function storeFigures(name: string, store: FileStore, log: (line: string) => void): Promise<void> {
  const bodies = Array.from({ length: 16 }, () => new Uint8Array(randomBytes(SIZE)));
  const keys: string[] = [];
  for (const c of [1, 8]) {
    const put = await timed(N, c, async (i) => {
      keys.push(await store.put(bodies[i % bodies.length] as Uint8Array));
    });
    log(`${name.padEnd(28)} put x${c}: ${put.perOpMs.toFixed(2)} ms/op, ${put.perS.toFixed(0)} files/s`);
  }
  const get = await timed(N, 8, async (i) => {
    await store.get(keys[i] as string);
  });
  log(`${name.padEnd(28)} get x8: ${get.perOpMs.toFixed(2)} ms/op, ${get.perS.toFixed(0)} files/s`);
  // What the hourly orphan sweep pays before any database lookup: listing everything.
  const tiny = Uint8Array.of(1);
  await timed(LISTED - 2 * N, 16, async () => {
    await store.put(tiny);
  });
  const start = performance.now();
  let listed = 0;
  for await (const _ of store.list()) listed += 1;
  const ms = performance.now() - start;
  log(`${name.padEnd(28)} list ${listed} files: ${ms.toFixed(0)} ms (${(((ms / listed) * 1e7) / 60_000).toFixed(1)} min per 10M files)`);
}

export async function runFilesBench(log: (line: string) => void = console.log): Promise<void> {
  const bare = mkdtempSync(join(tmpdir(), 'courier-files-bench-bare-'));
  mkdirSync(join(bare, 'ab'));
  const bodies = Array.from({ length: 16 }, () => new Uint8Array(randomBytes(SIZE)));
  for (const c of [1, 8]) {
    const r = await timed(N, c, async (i) => {
      const path = join(bare, 'ab', `${i}-${c}`);
      await writeFile(`${path}.tmp`, bodies[i % bodies.length] as Uint8Array);
      await rename(`${path}.tmp`, path);
    });
    log(`${'bare write+rename (no flush)'.padEnd(28)} put x${c}: ${r.perOpMs.toFixed(2)} ms/op, ${r.perS.toFixed(0)} files/s`);
  }
  await storeFigures('disk store (flushed)', diskFileStore(mkdtempSync(join(tmpdir(), 'courier-files-bench-'))), log);
  const standin = await startS3Standin();
  try {
    await storeFigures(
      'S3 store (loopback)',
      s3FileStore({
        bucket: 'courier',
        prefix: 'bench/',
        region: standin.region,
        endpoint: standin.endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: standin.accessKeyId, secretAccessKey: standin.secretAccessKey },
      }),
      log,
    );
  } finally {
    await standin.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runFilesBench();
