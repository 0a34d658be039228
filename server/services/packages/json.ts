import { eq, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { inJsonIds } from '../../db/engine/dialect';
import { ANSWER_JOIN, answerSql, packageAnswer } from '../../db/engine/packageAnswer';
import { prepared } from '../../db/prepared';
import { pkg } from '../../db/schema/index';
import { RawJson } from '../../http/rawJson';
import type { Package } from '../../../shared/schemas/package';

/**
 * The Package answer of spec 2.1 built by the database as JSON text: materialising ~67 columns per row
 * into JS values, shaping objects and stringifying them again was most of a package list request.
 * This is the one shaping of a Package; `packagesByIds()` parses it for callers that need objects.
 */

/**
 * `select id, <package json> from package` (lookups are scalar subqueries inside the expression); add where, order and
 * limit. Every package read (answers, lists, exports) goes through this one select. PostgreSQL
 * answers `json` values as text too (no type parser for them is set), so callers see the same.
 */
export function packageJsonSelect(db: Db) {
  return db
    .select({ id: pkg.id, json: answerSql(db) })
    .from(pkg)
    .leftJoin(packageAnswer, ANSWER_JOIN)
    .$dynamic();
}

/**
 * The answers alone, for lists sent as they are (read with `.values()`, decoded by rawPackages()):
 * an id beside each answer cost a 200-parcel list about 40 µs in SQLite, an array and an integer per row.
 */
export function packageAnswerSelect(db: Db) {
  return db
    .select({ json: answerSql(db) })
    .from(pkg)
    .leftJoin(packageAnswer, ANSWER_JOIN)
    .$dynamic();
}

/** Parcel id and answer, as `package_history_answer` holds them: moving a parcel copies its answer in one statement. */
export function packageAnswerRows(db: Db) {
  return db
    .select({ package_id: pkg.id, answer: answerSql(db).as('answer') })
    .from(pkg)
    .leftJoin(packageAnswer, ANSWER_JOIN)
    .$dynamic();
}

/** Decodes `.values()` of packageAnswerSelect(). */
export function rawPackages(values: unknown[][]): RawJson[] {
  return values.map((row) => new RawJson(row[0] as string));
}

/** Rows of packageJsonSelect() as objects, for code that works on packages (exports, reports). */
export function parsePackages(rows: readonly { json: string }[]): Package[] {
  return rows.map((r) => JSON.parse(r.json) as Package);
}

// The ids travel as one JSON text so that one statement serves any number of them.
const byIds = (db: Db) =>
  prepared(db, 'package-json-by-ids', (d) =>
    packageJsonSelect(d)
      .where(inJsonIds(d, pkg.id, sql.placeholder('ids')))
      .prepare(),
  );
const byId = (db: Db) =>
  prepared(db, 'package-json-by-id', (d) =>
    packageAnswerSelect(d)
      .where(eq(pkg.id, sql.placeholder('id')))
      .prepare(),
  );

/** The packages of `ids` in that order; ids with no package are skipped. */
export async function packageJsonByIds(db: Db, ids: readonly number[]): Promise<RawJson[]> {
  if (!ids.length) return [];
  if (ids.length === 1) {
    const one = await packageJson(db, ids[0]!);
    return one ? [one] : [];
  }
  const found = new Map<number, string>();
  for (const row of (await byIds(db).values({ ids: JSON.stringify(ids) })) as unknown[][]) found.set(row[0] as number, row[1] as string);
  const out: RawJson[] = [];
  for (const id of ids) {
    const text = found.get(id);
    if (text !== undefined) out.push(new RawJson(text));
  }
  return out;
}

/** One package, as scan and delivery answers carry it. */
export async function packageJson(db: Db, id: number): Promise<RawJson | undefined> {
  return rawPackages((await byId(db).values({ id })) as unknown[][])[0];
}

export interface PackageJsonQuery {
  orderBy?: (SQLiteColumn | SQL)[];
  limit?: number;
  offset?: number;
}

/**
 * Packages under a dynamic filter (package columns only), for list endpoints. A page is found by
 * id first: under an ORDER BY no index serves, SQLite computes the result column of every
 * matching row before it sorts and cuts, and here that column is the whole package.
 */
export async function packageJsonWhere(db: Db, where: SQL | undefined, q: PackageJsonQuery = {}): Promise<RawJson[]> {
  if (q.limit == null && !q.offset) {
    let query = packageAnswerSelect(db).where(where).$dynamic();
    if (q.orderBy?.length) query = query.orderBy(...q.orderBy);
    return rawPackages((await query.values()) as unknown[][]);
  }
  let page = db.select({ id: pkg.id }).from(pkg).where(where).$dynamic();
  if (q.orderBy?.length) page = page.orderBy(...q.orderBy);
  // Both engines read a limit this large as "no limit" (PostgreSQL refuses SQLite's -1).
  page = page.limit(q.limit ?? Number.MAX_SAFE_INTEGER);
  if (q.offset) page = page.offset(q.offset);
  return packageJsonByIds(
    db,
    (await page.all()).map((r) => r.id),
  );
}
