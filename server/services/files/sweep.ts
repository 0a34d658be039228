import { inArray } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { storedFile } from '../../db/schema/index';
import type { FileEntry } from '../../files/index';

/**
 * A write still in progress (another process sharing the directory) is never this old: its temp file
 * is written and renamed within seconds, so one older than this is a crash's leftover whatever the
 * configured grace period.
 */
export const PARTIAL_FILE_MIN_AGE_MS = 3600_000;
const CHUNK = 500;

/**
 * Removes stored bytes that no `stored_file` row names and that are older than the grace period:
 * an upload refused after its bytes were written, a crash between the write and the COMMIT, a
 * half-written temp file. The grace period covers uploads whose row is still being committed, by
 * this process or any other sharing the store. Every process may run it: removing is idempotent.
 * Answers how many files went.
 */
export async function sweepOrphanFiles(deps: Pick<Deps, 'db' | 'files' | 'clock' | 'config'>): Promise<number> {
  const now = deps.clock.now();
  const cutoff = now - deps.config.orphanFileGraceMs;
  const partialCutoff = now - Math.max(deps.config.orphanFileGraceMs, PARTIAL_FILE_MIN_AGE_MS);
  let removed = 0;
  let chunk: FileEntry[] = [];
  const settle = async () => {
    const named = new Set(
      chunk.length
        ? (
            await deps.db
              .select({ key: storedFile.key })
              .from(storedFile)
              .where(
                inArray(
                  storedFile.key,
                  chunk.map((f) => f.key),
                ),
              )
              .all()
          ).map((r) => r.key)
        : [],
    );
    for (const f of chunk) {
      if (named.has(f.key)) continue;
      await deps.files.delete(f.key);
      removed += 1;
    }
    chunk = [];
  };
  // Listed page by page (a bucket may hold millions of objects), looked up 500 at a time.
  for await (const f of deps.files.list()) {
    if (f.partial) {
      if (f.writtenAt < partialCutoff) {
        await deps.files.delete(f.key);
        removed += 1;
      }
      continue;
    }
    if (f.writtenAt >= cutoff) continue;
    chunk.push(f);
    if (chunk.length >= CHUNK) await settle();
  }
  await settle();
  return removed;
}
