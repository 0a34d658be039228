import { and, asc, count, eq, gt, inArray, max, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias, type SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import {
  deliveryAttemptHistory,
  deliveryRecordHistory,
  packageHistory,
  packageHistoryAnswer,
  packageHistoryRow,
  pkg,
} from '../../db/schema/index';
import { RawJson } from '../../http/rawJson';
import type { SessionUser } from '../auth/session';
import { canSeePackage } from '../packages/scope';
import { packageJsonByIds } from '../packages/json';

/**
 * The cold tables under the hot tables' names: a filter or join written over `pkg`,
 * `deliveryRecord` or `deliveryAttempt` renders as `"package"."…"` etc., so the very same SQL reads
 * the cold copy when the query's FROM is one of these (the columns are declared once for both).
 */
export const coldPkg = alias(packageHistory, 'package');
export const coldDeliveryRecord = alias(deliveryRecordHistory, 'delivery_record');
export const coldDeliveryAttempt = alias(deliveryAttemptHistory, 'delivery_attempt');

export type HistoryRow = typeof packageHistory.$inferSelect;

const byId = (db: Db, id: number) => db.select().from(packageHistory).where(eq(packageHistory.id, id)).get();

/** A cold parcel by id, whoever asks (callers check scope with `visibleInHistory`). */
export async function historyRow(db: Db, id: number): Promise<HistoryRow | undefined> {
  return await byId(db, id);
}

/** The cold parcel `id` if this caller could see it when it was hot (same rule, same columns). */
export async function visibleInHistory(db: Db, user: SessionUser, id: number): Promise<HistoryRow | undefined> {
  const row = await historyRow(db, id);
  return row && row.deleted_at == null && canSeePackage(user, row) ? row : undefined;
}

/** The Package answer a cold parcel had when it moved. */
export async function frozenAnswer(db: Db, row: HistoryRow): Promise<RawJson> {
  return new RawJson((await historyAnswers(db, [row.id])).get(row.id) ?? 'null');
}

/** Cold parcels under a filter written over `pkg`. */
export async function countHistory(db: Db, where: SQL | undefined): Promise<number> {
  return (await db.select({ n: count() }).from(coldPkg).where(where).get())?.n ?? 0;
}

/** When the newest parcel in history was created (from its index), or null while history is empty. */
export async function newestInHistory(db: Db): Promise<number | null> {
  return (
    (
      await db
        .select({ at: max(packageHistory.created_at) })
        .from(packageHistory)
        .get()
    )?.at ?? null
  );
}

/** The ordering columns a package list may sort by, the id, and which side a row came from. */
export function sortKeys(t: typeof pkg | typeof coldPkg, cold: 0 | 1) {
  return {
    id: t.id,
    created_at: t.created_at,
    hawb: t.hawb,
    status: t.status,
    sequence_no: t.sequence_no,
    customer_name: t.customer_name,
    updated_at: t.updated_at,
    delivery_date: t.delivery_date,
    delivered_at: t.delivered_at,
    cold: sql<number>`${sql.raw(String(cold))}`.as('cold'),
  };
}

/**
 * One page of Package answers over hot and cold parcels together, ordered by `order` (written over
 * `pkg`). Each side answers at most offset + limit rows in that order (its own indexes serve it),
 * then the union of those is sorted and cut: the first offset + limit of the whole are among them.
 * `where` filters the hot side, `coldWhere` the cold one (the same filter, less what cannot differ there).
 * Hot parcels are built now, cold ones answer as they were frozen.
 */
export async function unionPage(
  db: Db,
  where: SQL | undefined,
  coldWhere: SQL | undefined,
  order: (SQLiteColumn | SQL)[],
  limit: number,
  offset: number,
): Promise<RawJson[]> {
  const top = limit + offset;
  const hot = db
    .select(sortKeys(pkg, 0))
    .from(pkg)
    .where(where)
    .orderBy(...order)
    .limit(top);
  const cold = db
    .select(sortKeys(coldPkg, 1))
    .from(coldPkg)
    .where(coldWhere)
    .orderBy(...order)
    .limit(top);
  return await unionOf(db, hot, cold, order, limit, offset);
}

/**
 * The page cut from two candidate lists, `hot` and `cold`, each selecting `sortKeys` in `order` and
 * at most offset + limit rows (for lists that join more than the parcel, e.g. its delivery record).
 */
export async function unionOf(
  db: Db,
  hot: SQLWrapper,
  cold: SQLWrapper,
  order: (SQLiteColumn | SQL)[],
  limit: number,
  offset: number,
): Promise<RawJson[]> {
  const page = await unionKeys(db, hot, cold, order, limit, offset);
  const hotJson = await packageJsonByIds(
    db,
    page.filter((p) => !p.cold).map((p) => p.id),
  );
  const coldJson = await historyAnswers(
    db,
    page.filter((p) => p.cold).map((p) => p.id),
  );
  let h = 0;
  const out: RawJson[] = [];
  for (const p of page) {
    if (!p.cold) {
      const j = hotJson[h++];
      if (j) out.push(j);
      continue;
    }
    const text = coldJson.get(p.id);
    if (text !== undefined) out.push(new RawJson(text));
  }
  return out;
}

/** The ids (and side) of the page cut from two candidate lists as `unionOf` cuts it, in page order. */
export async function unionKeys(
  db: Db,
  hot: SQLWrapper,
  cold: SQLWrapper,
  order: (SQLiteColumn | SQL)[],
  limit: number,
  offset: number,
): Promise<{ id: number; cold: boolean }[]> {
  const rows = await db.all<
    [number, number]
  >(sql`select "package"."id", "package"."cold" from (select * from (${hot}) as hot union all select * from (${cold}) as cold) as "package"
    order by ${sql.join(order, sql`, `)} limit ${limit} offset ${offset}`);
  return rows.map((r) => ({ id: Number(r[0]), cold: Number(r[1]) === 1 }));
}

/** Frozen answers of cold parcels, keyed by id. */
export async function historyAnswers(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    for (const r of await db
      .select({ id: packageHistoryAnswer.package_id, answer: packageHistoryAnswer.answer })
      .from(packageHistoryAnswer)
      .where(inArray(packageHistoryAnswer.package_id, part))
      .all())
      out.set(r.id, r.answer);
  }
  return out;
}

/** The kept rows of one source table for a cold parcel, in their original order, as they were. */
export async function historyRowsOf<T>(db: Db, packageId: number, source: string): Promise<T[]> {
  const rows = await db
    .select({ data: packageHistoryRow.data })
    .from(packageHistoryRow)
    .where(and(eq(packageHistoryRow.package_id, packageId), eq(packageHistoryRow.source, source)))
    .orderBy(asc(packageHistoryRow.row_id), asc(packageHistoryRow.id))
    .all();
  return rows.map((r) => JSON.parse(r.data) as T);
}

/** Cold parcels with their frozen answers under a filter written over `pkg`, by id after `after` (keyset pages). */
export function historyJsonAfter(db: Db, where: SQL | undefined, after: number, limit: number) {
  return db
    .select({ id: coldPkg.id, json: packageHistoryAnswer.answer })
    .from(coldPkg)
    .innerJoin(packageHistoryAnswer, eq(packageHistoryAnswer.package_id, pkg.id))
    .where(and(where, gt(pkg.id, after)))
    .orderBy(asc(pkg.id))
    .limit(limit)
    .all();
}
