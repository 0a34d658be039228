import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { inJsonIds } from '../../db/engine/dialect';
import { prepared } from '../../db/prepared';
import { pkg } from '../../db/schema/index';
import { RawJson } from '../../http/rawJson';

const attemptsOf = (db: Db) =>
  db
    .select({ id: pkg.id, attempts: pkg.attempts })
    .from(pkg)
    .where(inJsonIds(db, pkg.id, sql.placeholder('ids')))
    .prepare();

// SQLite writes `{"id":1,`, PostgreSQL `{"id" : 1, `.
const ID_PREFIX = /^\{\s*"id"\s*:\s*(\d+)\s*[,}]/;

/**
 * The parcels of a sync page with `attempts`, the failed attempts of the current delivery cycle (a
 * member of the synced copy only, shared/schemas/sync.ts SyncPackage): the phone applies the
 * must-return rule offline with the count the server applies it with (shared/driverActions.ts).
 * Parcels moved to history (final) have no live row and go without it.
 */
export async function withAttempts(db: Db, packages: RawJson[]): Promise<RawJson[]> {
  if (!packages.length) return packages;
  const ids = packages.map((p) => Number(ID_PREFIX.exec(p.text)?.[1]));
  const found = new Map(
    (await prepared(db, 'sync.attemptsOf', attemptsOf).all({ ids: JSON.stringify(ids) })).map((r) => [r.id, r.attempts]),
  );
  return packages.map((p, i) => {
    const n = found.get(ids[i]!);
    return n == null ? p : new RawJson(`${p.text.slice(0, -1)},"attempts":${n}}`);
  });
}
