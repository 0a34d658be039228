import { eq, getTableName, sql, type SQL } from 'drizzle-orm';
import { integer, QueryBuilder, SQLiteSyncDialect, sqliteTable, text, type SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Package } from '../../../shared/schemas/package';
import { company, country, FINAL_STATUS_LIST, packageFailure, pkg, state, suburb, user, zone } from '../schema/index';
import type { AnswerSource } from './answerStore';
import { jsonSql, type JsonSql } from './dialect';
import type { EngineKind } from './types';

/**
 * The Package answer of spec 2.1 as one SQL expression per engine, and the `package_answer` store
 * that triggers keep (answerStore.ts). It lives with the engines, below the services, since opening
 * a database (server/db/client.ts) installs the store's triggers from it; the package service
 * (services/packages/json.ts) reads answers through `answerSql` and `ANSWER_JOIN`.
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
    j.object([
      ['id', packageFailure.status_id],
      ['name', packageFailure.name],
      ['note', packageFailure.note],
      ['created_at', j.iso(packageFailure.created_at)],
    ]),
    sql`from ${packageFailure} where ${packageFailure.package_id} = ${pkg.id}`,
    sql`${packageFailure.id}`,
  );
  /** Every Package key in answer order; `satisfies` keeps it in step with the schema. */
  const fields = {
    id: pkg.id,
    hawb: pkg.hawb,
    customer_code: pkg.customer_code,
    customer_name: pkg.customer_name,
    customer_address: pkg.customer_address,
    customer_phone: pkg.customer_phone,
    postcode: pkg.postcode,
    postcode_name: pkg.postcode_name,
    description_of_goods: pkg.description_of_goods,
    count: pkg.count,
    landed: j.bool(pkg.landed),
    company: pkg.company_id,
    company_name: lookup('company_name'),
    weight: pkg.weight,
    price: pkg.price,
    shipper_code: pkg.shipper_code,
    shipper_name: pkg.shipper_name,
    shipper_address: pkg.shipper_address,
    shipper_city: pkg.shipper_city,
    shipper_state: pkg.shipper_state,
    shipper_postcode: pkg.shipper_postcode,
    shipper_country: pkg.shipper_country,
    origin: pkg.origin,
    port: pkg.port,
    total_value: pkg.total_value,
    goods_currency: pkg.goods_currency,
    sac: j.bool(pkg.sac),
    fr_reference: pkg.fr_reference,
    sub_master: pkg.sub_master,
    pkg_type: pkg.pkg_type,
    country_of_origin: pkg.country_of_origin,
    cyber_vendor_account: pkg.cyber_vendor_account,
    customs_code: pkg.customs_code,
    cyber_importer_account: pkg.cyber_importer_account,
    importer_abn: pkg.importer_abn,
    importer_cac: pkg.importer_cac,
    cyber_supplier_account: pkg.cyber_supplier_account,
    supplier_customs_code: pkg.supplier_customs_code,
    is_scanned: j.bool(pkg.is_scanned),
    parcel_no: pkg.parcel_no,
    sequence_no: pkg.sequence_no,
    status: pkg.status,
    zone: pkg.zone_id,
    zone_name: lookup('zone_name'),
    suburb: pkg.suburb_id,
    suburb_name: lookup('suburb_name'),
    state: pkg.state_id,
    state_name: lookup('state_name'),
    country: pkg.country_id,
    country_name: lookup('country_name'),
    height: pkg.height,
    length: pkg.length,
    volume_weighted: pkg.volume_weighted,
    assigned_to_id: pkg.assigned_to_id,
    assigned_to: sql`case when ${pkg.assigned_to_id} is null then null else ${j.object([
      ['id', pkg.assigned_to_id],
      ['name', sql`coalesce(${lookup('driver_name')}, '')`],
    ])} end`,
    coordinates: sql`case when ${pkg.latitude} is null or ${pkg.longitude} is null then null
      else ${j.object([
        ['latitude', pkg.latitude],
        ['longitude', pkg.longitude],
      ])} end`,
    delivery_date: pkg.delivery_date,
    latitude: pkg.latitude,
    longitude: pkg.longitude,
    created_at: j.iso(pkg.created_at),
    package_failed_delivery_status: failures,
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
export const packageAnswer = sqliteTable('package_answer', {
  package_id: integer('package_id').primaryKey(),
  json: text('json').notNull(),
});
export const ANSWER_JOIN = eq(packageAnswer.package_id, pkg.id);
const STORED = sql`${packageAnswer.json}`;
const BUILT: Record<EngineKind, SQL<string>> = {
  sqlite: jsonSql('sqlite').text(PACKAGE_JSON.sqlite),
  postgres: jsonSql('postgres').text(PACKAGE_JSON.postgres),
};
const ANSWER: Record<EngineKind, SQL<string>> = {
  sqlite: sql<string>`coalesce(${STORED}, ${BUILT.sqlite})`,
  postgres: sql<string>`coalesce(${STORED}, ${BUILT.postgres})`,
};

/** What the engine's answer store is made from: the built answer over every parcel, and what it reads. */
export function answerSource(kind: EngineKind): AnswerSource {
  const q = new QueryBuilder()
    .select({ id: pkg.id, json: sql<string>`${BUILT[kind]}`.as('json') })
    .from(pkg)
    .toSQL();
  if (q.params.length) throw new Error('package answer select must not bind parameters');
  return {
    select: q.sql,
    finalStatuses: FINAL_STATUS_LIST,
    lookups: Object.values(LOOKUPS).map((l) => ({ table: getTableName(l.table), column: l.ref.name })),
    children: [{ table: getTableName(packageFailure), column: packageFailure.package_id.name }],
  };
}

/** The answer column of a package read: the stored answer, else the built one. */
export const answerSql = (db: { $engine: { kind: EngineKind } }): SQL<string> => ANSWER[db.$engine.kind];
