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
 * PostgreSQL translation's placement of a bare ASC/DESC (`sqliteNullOrder` below) leaves such a
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

/*
 * PostgreSQL's text for a statement drizzle's SQLite dialect wrote. Services are written once,
 * against drizzle's SQLite query builder (docs/decisions-data-layer.md); the PostgreSQL engine runs
 * what it renders after the few rewrites below, made once per statement text and cached
 * (postgres.ts). Why a translation and not drizzle's own pg dialect: docs/decisions-engine-joint.md.
 * test/server/drizzle-sql.test.ts snapshots drizzle's real output and this translation of it for every
 * statement shape the services use, so a drizzle upgrade that changes either shows its diff.
 */

/** A statement as PostgreSQL runs it, and how many parameters it binds. */
export interface PostgresText {
  text: string;
  params: number;
}

/**
 * SQLite's dialect binds every parameter as `?`; PostgreSQL numbers them `$1, $2...` in the same
 * order. A `?` inside a quoted string or identifier is text, not a parameter.
 */
function numberParams(text: string): PostgresText {
  let out = '';
  let n = 0;
  let from = 0;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === "'" || ch === '"') {
      const close = text.indexOf(ch, i + 1);
      // A doubled quote inside is an escaped one: the scan ends at one close and starts again at the next.
      i = close < 0 ? text.length : close;
    } else if (ch === '?') {
      n += 1;
      out += `${text.slice(from, i)}$${n}`;
      from = i + 1;
    }
  }
  return { text: out + text.slice(from), params: n };
}

/**
 * SQLite's dialect writes NULL for an identity column (`identities`: table -> column) an insert leaves out (SQLite numbers such a rowid itself);
 * PostgreSQL's identity column wants DEFAULT there.
 */
function identityDefaults(text: string, identities: Readonly<Record<string, string>>): string {
  const head = /^insert into "([^"]+)" \(([^)]*)\) values /.exec(text);
  const column = head ? identities[head[1]!] : undefined;
  if (!head || !column) return text;
  const at = head[2]!.split(', ').indexOf(`"${column}"`);
  if (at < 0) return text;
  let out = text.slice(0, head[0].length);
  let i = head[0].length;
  // Each tuple `( ... )` at depth 0: its top-level items split by ", ".
  while (text[i] === '(') {
    let depth = 0;
    let j = i;
    const starts = [i + 1];
    for (; j < text.length; j += 1) {
      const ch = text[j];
      if (ch === '(') depth += 1;
      else if (ch === ')' && --depth === 0) break;
      else if (ch === ',' && depth === 1) starts.push(j + 2);
    }
    const items = starts.map((st, k) => text.slice(st, k + 1 < starts.length ? starts[k + 1]! - 2 : j));
    if (items[at] === 'null') items[at] = 'default';
    out += `(${items.join(', ')})`;
    i = j + 1;
    if (text.startsWith(', (', i)) {
      out += ', ';
      i += 2;
    } else break;
  }
  return out + text.slice(i);
}

/** SQLite's dialect names conflict targets with their table (`"t"."c"`); PostgreSQL takes bare columns. */
function conflictTargets(text: string): string {
  return text.replace(/ on conflict \(([^)]*)\)/g, (_, cols: string) => ` on conflict (${cols.replace(/"[^"]+"\.("[^"]+")/g, '$1')})`);
}

/**
 * SQLite sorts NULL below every value, PostgreSQL above: the queries are written for SQLite's order
 * (undated stops first...), so each ASC/DESC drizzle renders gets SQLite's placement of NULLs.
 */
function sqliteNullOrder(text: string): string {
  return text.replace(/ (asc|desc)(?=,|\)| limit | offset |$)/g, (_, dir: string) =>
    dir === 'asc' ? ' asc nulls first' : ' desc nulls last',
  );
}

/**
 * The text PostgreSQL runs for `sqliteText` (drizzle's SQLite dialect output): numbered parameters,
 * identity columns asked for, bare conflict targets, SQLite's placement of NULLs. `identities` maps
 * each table to its identity column (its single integer primary key).
 */
export function forPostgres(sqliteText: string, identities: Readonly<Record<string, string>>): PostgresText {
  const { text, params } = numberParams(sqliteText);
  return { text: identityDefaults(conflictTargets(sqliteNullOrder(text)), identities), params };
}

/** The comparison that treats two NULLs as equal and a NULL and a value as different. */
export const isDistinctFrom = (kind: EngineKind): string => (kind === 'postgres' ? 'is distinct from' : 'is not');
