import type { Db } from './client';
import type { Units } from './engine/types';

/**
 * Runs `work` all or nothing: in a savepoint when the caller is already inside a unit of work (what
 * it throws undoes only its own effects), else as a unit of its own.
 */
export function atomically<T>(deps: { db: Db; writes: Units }, work: () => Promise<T>): Promise<T> {
  return deps.writes.inside() ? deps.db.$engine.savepoint(work) : deps.writes.run(work);
}
