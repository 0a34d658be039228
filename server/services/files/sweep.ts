import { inArray } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { storedFile } from '../../db/schema/index';

/**
 * Removes bytes on disk that no `stored_file` row names and that are older than the grace period:
 * an upload refused after its bytes were written, a crash between the write and the COMMIT, a
 * half-written `.tmp`. The grace period covers uploads whose row is still being committed.
 * Answers how many files went.
 */
export async function sweepOrphanFiles(deps: Pick<Deps, 'db' | 'files' | 'clock' | 'config'>): Promise<number> {
  const cutoff = deps.clock.now() - deps.config.orphanFileGraceMs;
  const old = (await deps.files.list()).filter((f) => f.writtenAt < cutoff);
  let removed = 0;
  for (let i = 0; i < old.length; i += 500) {
    const chunk = old.slice(i, i + 500);
    const named = new Set((await deps.db.select({ key: storedFile.key }).from(storedFile)
      .where(inArray(storedFile.key, chunk.map((f) => f.key))).all()).map((r) => r.key));
    for (const f of chunk) {
      if (named.has(f.key)) continue;
      await deps.files.delete(f.key);
      removed += 1;
    }
  }
  return removed;
}
