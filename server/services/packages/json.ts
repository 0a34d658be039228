import { eq, getTableName, sql, type SQL } from 'drizzle-orm';
import { integer, QueryBuilder, SQLiteSyncDialect, sqliteTable, text, type SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { AnswerSource } from '../../db/engine/answerStore';
import type { Db } from '../../db/client';
import { inJsonIds, jsonSql, type JsonSql } from '../../db/engine/dialect';
import type { EngineKind } from '../../db/engine/types';
import { prepared } from '../../db/prepared';
import { company, country, FINAL_STATUS_LIST, packageFailure, pkg, state, suburb, user, zone } from '../../db/schema/index';
import { RawJson } from '../../http/rawJson';
import type { Package } from '../../../shared/schemas/package';

/**
 * The Package answer of spec 2.1 built by the database as JSON text: materialising ~67 columns per row
 * into JS values, shaping objects and stringifying them again was most of a package list request.
 * This is the one shaping of a Package; `packagesByIds()` parses it for callers that need objects.
 */

/**
 * What the answer shows by name, each read by its own key lookup (a scalar subquery, not a join): a
 * row whose answer SQLite has stored (below) then reads no lookup at all, which a join would still make
 * it do. The answer store's triggers rename through the same list.
 */
const LOOKUPS = {
  company_name: { table: company, name: company.name, id: company.id, ref: pkg.company_id },
  zone_name: { table: zone, name: zone.name, id: zone.id, ref: pkg.zone_id },
  suburb_name: { table: suburb, name: suburb.name, id: suburb.id, ref: pkg.suburb_id },
  state_name: { table: state, name: state.name, id: state.id, ref: pkg.state_id },
  country_name: { table: country, name: country.name, id: country.id, ref: pkg.country_id },
  driver_name: { table: user, name: user.name, id: user.id, ref: pkg.assigned_to_id },
} as const;
const lookup = (key: keyof typeof LOOKUPS): SQL => {
  const l = LOOKUPS[key];
  return sql`(select ${l.name} from ${l.table} where ${l.id} = ${l.ref})`;
};

/** The Package answer as one JSON expression in the engine's own functions. */
function packageExpression(j: JsonSql): SQL {
  const failures = j.arrayOf(
    j.object([['id', packageFailure.status_id], ['name', packageFailure.name], ['note', packageFailure.note], ['created_at', j.iso(packageFailure.created_at)]]),
    sql`from ${packageFailure} where ${packageFailure.package_id} = ${pkg.id}`, sql`${packageFailure.id}`);
  /** Every Package key in answer order; `satisfies` keeps it in step with the schema. */
  const fields = {
    id: pkg.id, hawb: pkg.hawb, customer_code: pkg.customer_code, customer_name: pkg.customer_name,
    customer_address: pkg.customer_address, customer_phone: pkg.customer_phone, postcode: pkg.postcode,
    postcode_name: pkg.postcode_name, description_of_goods: pkg.description_of_goods, count: pkg.count, landed: j.bool(pkg.landed),
    company: pkg.company_id, company_name: lookup('company_name'), weight: pkg.weight, price: pkg.price,
    shipper_code: pkg.shipper_code, shipper_name: pkg.shipper_name, shipper_address: pkg.shipper_address,
    shipper_city: pkg.shipper_city, shipper_state: pkg.shipper_state, shipper_postcode: pkg.shipper_postcode,
    shipper_country: pkg.shipper_country, origin: pkg.origin, port: pkg.port, total_value: pkg.total_value,
    goods_currency: pkg.goods_currency, sac: j.bool(pkg.sac), fr_reference: pkg.fr_reference, sub_master: pkg.sub_master,
    pkg_type: pkg.pkg_type, country_of_origin: pkg.country_of_origin, cyber_vendor_account: pkg.cyber_vendor_account,
    customs_code: pkg.customs_code, cyber_importer_account: pkg.cyber_importer_account, importer_abn: pkg.importer_abn,
    importer_cac: pkg.importer_cac, cyber_supplier_account: pkg.cyber_supplier_account,
    supplier_customs_code: pkg.supplier_customs_code, is_scanned: j.bool(pkg.is_scanned), parcel_no: pkg.parcel_no,
    sequence_no: pkg.sequence_no, status: pkg.status, zone: pkg.zone_id, zone_name: lookup('zone_name'),
    suburb: pkg.suburb_id, suburb_name: lookup('suburb_name'), state: pkg.state_id, state_name: lookup('state_name'),
    country: pkg.country_id, country_name: lookup('country_name'), height: pkg.height, length: pkg.length,
    volume_weighted: pkg.volume_weighted, assigned_to_id: pkg.assigned_to_id,
    assigned_to: sql`case when ${pkg.assigned_to_id} is null then null else ${j.object([['id', pkg.assigned_to_id], ['name', sql`coalesce(${lookup('driver_name')}, '')`]])} end`,
    coordinates: sql`case when ${pkg.latitude} is null or ${pkg.longitude} is null then null
      else ${j.object([['latitude', pkg.latitude], ['longitude', pkg.longitude]])} end`,
    delivery_date: pkg.delivery_date, latitude: pkg.latitude, longitude: pkg.longitude,
    created_at: j.iso(pkg.created_at), package_failed_delivery_status: failures,
  } satisfies Record<keyof Package, SQLiteColumn | SQL>;
  return j.object(Object.entries(fields));
}

/**
 * Rendered to text once per engine: drizzle re-walks every chunk of an expression each time it
 * builds a query, and the list endpoints build theirs per request (their filters vary).
 */
function render(kind: EngineKind): SQL<string> {
  const query = new SQLiteSyncDialect().sqlToQuery(packageExpression(jsonSql(kind)));
  if (query.params.length) throw new Error('package JSON expression must not bind parameters');
  return sql<string>`${sql.raw(query.sql)}`;
}

const PACKAGE_JSON: Record<EngineKind, SQL<string>> = { sqlite: render('sqlite'), postgres: render('postgres') };

/**
 * A live parcel's answer is read from `package_answer`, which triggers keep on either engine (made
 * when the database opens: server/db/engine/answerStore.ts, so not in schema/ and never in a
 * migration); an ended parcel's is built. `coalesce` evaluates the built expression only for rows
 * with no stored answer. The store is read by a left join (ANSWER_JOIN): a correlated subquery per
 * row cost a 200-parcel list about 50 µs more in SQLite.
 */
const packageAnswer = sqliteTable('package_answer', { package_id: integer('package_id').primaryKey(), json: text('json').notNull() });
const ANSWER_JOIN = eq(packageAnswer.package_id, pkg.id);
const STORED = sql`${packageAnswer.json}`;
const BUILT: Record<EngineKind, SQL<string>> = { sqlite: PACKAGE_JSON.sqlite, postgres: sql<string>`(${PACKAGE_JSON.postgres})::text` };
const ANSWER: Record<EngineKind, SQL<string>> = {
  sqlite: sql<string>`coalesce(${STORED}, ${BUILT.sqlite})`,
  postgres: sql<string>`coalesce(${STORED}, ${BUILT.postgres})`,
};

/** What the engine's answer store is made from: the built answer over every parcel, and what it reads. */
export function answerSource(kind: EngineKind): AnswerSource {
  const q = new QueryBuilder().select({ id: pkg.id, json: sql<string>`${BUILT[kind]}`.as('json') }).from(pkg).toSQL();
  if (q.params.length) throw new Error('package answer select must not bind parameters');
  return {
    select: q.sql,
    finalStatuses: FINAL_STATUS_LIST,
    lookups: Object.values(LOOKUPS).map((l) => ({ table: getTableName(l.table), column: l.ref.name })),
    children: [{ table: getTableName(packageFailure), column: packageFailure.package_id.name }],
  };
}

/**
 * `select id, <package json> from package` (lookups are scalar subqueries inside the expression); add where, order and
 * limit. Every package read (answers, lists, exports) goes through this one select. PostgreSQL
 * answers `json` values as text too (no type parser for them is set), so callers see the same.
 */
export function packageJsonSelect(db: Db) {
  return db.select({ id: pkg.id, json: answerSql(db) }).from(pkg).leftJoin(packageAnswer, ANSWER_JOIN).$dynamic();
}

const answerSql = (db: Db): SQL<string> => ANSWER[db.$engine.kind];

/**
 * The answers alone, for lists sent as they are (read with `.values()`, decoded by rawPackages()):
 * an id beside each answer cost a 200-parcel list about 40 µs in SQLite, an array and an integer per row.
 */
export function packageAnswerSelect(db: Db) {
  return db.select({ json: answerSql(db) }).from(pkg).leftJoin(packageAnswer, ANSWER_JOIN).$dynamic();
}

/** Parcel id and answer, as `package_history_answer` holds them: moving a parcel copies its answer in one statement. */
export function packageAnswerRows(db: Db) {
  return db.select({ package_id: pkg.id, answer: answerSql(db).as('answer') }).from(pkg).leftJoin(packageAnswer, ANSWER_JOIN).$dynamic();
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
const byIds = (db: Db) => prepared(db, 'package-json-by-ids', (d) => packageJsonSelect(d)
  .where(inJsonIds(d, pkg.id, sql.placeholder('ids'))).prepare());
const byId = (db: Db) => prepared(db, 'package-json-by-id', (d) => packageAnswerSelect(d)
  .where(eq(pkg.id, sql.placeholder('id'))).prepare());

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

export interface PackageJsonQuery { orderBy?: (SQLiteColumn | SQL)[]; limit?: number; offset?: number }

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
  return packageJsonByIds(db, (await page.all()).map((r) => r.id));
}
