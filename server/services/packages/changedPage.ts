import { desc, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { pkg } from '../../db/schema/index';
import { pageLinks } from '../../resources/list';

/**
 * One page of the ids of the parcels under `where`, latest change first (the work queues: flagged
 * and returned parcels), with the count and links of the page. The caller shapes the parcels.
 */
export async function latestChangedIds(db: Db, where: SQL | undefined, q: { page: number; page_size: number }, url: string) {
  const count =
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(pkg)
        .where(where)
        .get()
    )?.n ?? 0;
  const ids = (
    await db
      .select({ id: pkg.id })
      .from(pkg)
      .where(where)
      .orderBy(desc(pkg.updated_at), desc(pkg.id))
      .limit(q.page_size)
      .offset((q.page - 1) * q.page_size)
      .all()
  ).map((r) => r.id);
  return { count, ...pageLinks(url, q.page, q.page_size, count), ids };
}
