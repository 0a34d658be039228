import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { EngineKind } from './types';

/**
 * The one place for SQL that differs between the engines. Everything else is drizzle's query builder
 * and plain SQL both engines read alike (docs/decisions-data-layer.md); add here, never inline.
 */
interface HasEngine {
  $engine: { kind: EngineKind };
}
const kindOf = (db: HasEngine | EngineKind): EngineKind => (typeof db === 'string' ? db : db.$engine.kind);

/** Every foreign key as (from_table, from_column, to_table) rows. */
export function referencesQuery(db: HasEngine): SQL {
  if (kindOf(db) === 'postgres') {
    return sql`select cl.relname, att.attname, ref.relname from pg_constraint con
      join pg_class cl on cl.oid = con.conrelid join pg_class ref on ref.oid = con.confrelid
      join pg_namespace ns on ns.oid = cl.relnamespace
      join pg_attribute att on att.attrelid = con.conrelid and att.attnum = con.conkey[1]
      where con.contype = 'f' and ns.nspname = current_schema()`;
  }
  return sql`select m.name, f."from", f."table" from sqlite_master m, pragma_foreign_key_list(m.name) f
    where m.type = 'table' and m.name not like 'sqlite_%' and m.name not like '__drizzle%'`;
}

/** The larger of two values (SQLite's scalar max()). */
export function greatest(db: HasEngine, a: SQLWrapper, b: SQLWrapper): SQL {
  return kindOf(db) === 'postgres' ? sql`greatest(${a}, ${b})` : sql`max(${a}, ${b})`;
}

/** `column` is one of the ids in a JSON array bound as one parameter: one statement text for any count. */
export function inJsonIds(db: HasEngine, column: SQLWrapper, ids: SQLWrapper): SQL {
  return kindOf(db) === 'postgres'
    ? sql`${column} in (select value::bigint from json_array_elements_text(${ids}::json))`
    : sql`${column} in (select value from json_each(${ids}))`;
}

/**
 * An ORDER BY term with its NULLs placed explicitly (issue 31: a bare column sorted NULL first on
 * SQLite, last on PostgreSQL). Both engines read `nulls first|last` (SQLite since 3.30), and the
 * PostgreSQL engine's own placement of a bare ASC/DESC (postgres.ts `sqliteNullOrder`) leaves such a
 * term alone. Every ORDER BY on a nullable column says where its NULLs go, with this.
 */
export function orderNulls(column: SQLWrapper, dir: 'asc' | 'desc', nulls: 'first' | 'last'): SQL {
  return sql`${column} ${sql.raw(dir)} nulls ${sql.raw(nulls)}`;
}

/** JSON building for answers made by the database (server/services/packages/json.ts). */
export interface JsonSql {
  object(members: [string, SQL | SQLWrapper][]): SQL;
  /** A JSON array of `element` over the rows of `from ... where ...`, `[]` when none. */
  arrayOf(element: SQL, from: SQL, orderBy: SQL): SQL;
  /** A 0/1 column as JSON true/false. */
  bool(column: SQLWrapper): SQL;
  /** Epoch milliseconds as ISO 8601 text (`''` for null), the same text as `iso()` in server/clock.ts. */
  iso(ms: SQLWrapper): SQL;
  /** JSON as its text (node-postgres would parse a json column into objects). */
  text(json: SQL): SQL<string>;
}

const keys = (members: [string, SQL | SQLWrapper][]) => members.map(([k, v]) => sql`${sql.raw(`'${k.replace(/'/g, "''")}'`)}, ${v}`);

const sqliteJson: JsonSql = {
  object: (members) => sql`json_object(${sql.join(keys(members), sql`, `)})`,
  arrayOf: (element, from, orderBy) => sql`json((select json_group_array(${element} order by ${orderBy}) ${from}))`,
  // json('true') is a constant SQLite evaluates once per statement, not a JSON parse per row (~20% of a 200-parcel list).
  bool: (col) => sql`case when ${col} = 1 then json('true') else json('false') end`,
  // SQLite rounds unixepoch seconds to whole milliseconds, so `%f` is exact.
  iso: (ms) => sql`coalesce(strftime('%Y-%m-%dT%H:%M:%fZ', ${ms} / 1000.0, 'unixepoch'), '')`,
  text: (json) => sql<string>`${json}`,
};

/** PostgreSQL functions take at most 100 arguments: larger objects are built in parts and joined as text. */
const PG_PAIRS_PER_CALL = 50;
function postgresObject(members: [string, SQL | SQLWrapper][]): SQL {
  const parts: SQL[] = [];
  for (let i = 0; i < members.length; i += PG_PAIRS_PER_CALL) {
    parts.push(sql`json_build_object(${sql.join(keys(members.slice(i, i + PG_PAIRS_PER_CALL)), sql`, `)})::text`);
  }
  if (parts.length === 1) return sql`json_build_object(${sql.join(keys(members), sql`, `)})`;
  // '{"a" : 1}' and '{"b" : 2}' make '{"a" : 1, "b" : 2}'.
  const inner = parts.map((p, i) =>
    i === 0 ? sql`left(${p}, -1)` : i === parts.length - 1 ? sql`substr(${p}, 2)` : sql`substr(left(${p}, -1), 2)`,
  );
  return sql`(${sql.join(inner, sql` || ', ' || `)})::json`;
}

const postgresJson: JsonSql = {
  object: postgresObject,
  arrayOf: (element, from, orderBy) => sql`coalesce((select json_agg(${element} order by ${orderBy}) ${from}), '[]'::json)`,
  bool: (col) => sql`(${col} = 1)`,
  iso: (ms) => sql`coalesce(to_char(to_timestamp(${ms} / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '')`,
  text: (json) => sql<string>`(${json})::text`,
};

export function jsonSql(db: HasEngine | EngineKind): JsonSql {
  return kindOf(db) === 'postgres' ? postgresJson : sqliteJson;
}

/** Any fixed number: the one lock every writer of the change feed takes (see `feedOrder`). */
const FEED_LOCK = 0x66656564; // "feed"

/**
 * Call in a unit before appending to the change feed. Devices read the feed by `seq` and remember
 * the last one seen, so rows must become visible in `seq` order. SQLite runs one unit at a time, so
 * they do. On PostgreSQL two transactions could take seq 10 and 11 and commit 11 first: a device
 * reading then would skip 10 for good. A transaction lock held to COMMIT makes feed writers take
 * their numbers and commit one after another.
 */
export async function feedOrder(db: HasEngine & { run(query: SQL): Promise<unknown> }): Promise<void> {
  if (kindOf(db) === 'postgres') await db.run(sql`select pg_advisory_xact_lock(${sql.raw(String(FEED_LOCK))})`);
}
