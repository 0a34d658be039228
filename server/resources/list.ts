import { asc, desc, eq, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { getTableColumns } from 'drizzle-orm';
import type { Db } from '../db/client';
import { badRequest } from '../errors';
import type { Page } from '../../shared/schemas/common';

export interface ListOptions {
  page: number;
  page_size: number;
  search?: string;
  ordering?: string;
}

export interface ListSpec {
  /** Columns `?search=` looks in (substring, case-insensitive for ASCII). */
  search?: readonly string[];
  /** Columns `?ordering=` accepts; `-name` sorts descending. */
  ordering?: readonly string[];
  defaultOrdering?: string;
  /** Query parameter name -> column, exact match; comma-separated values mean any of them. */
  filters?: Readonly<Record<string, string>>;
}

export function columnsOf(table: SQLiteTable): Record<string, SQLiteColumn> {
  return getTableColumns(table) as Record<string, SQLiteColumn>;
}

export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (m) => `\\${m}`);
}

function coerce(column: SQLiteColumn, raw: string): unknown {
  if (column.columnType === 'SQLiteBoolean') {
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    throw badRequest(`Filter ${column.name} takes true or false`, [{ path: column.name, message: 'expected true or false' }]);
  }
  if (column.dataType === 'number') {
    const n = Number(raw);
    if (raw === '' || !Number.isFinite(n))
      throw badRequest(`Filter ${column.name} takes a number`, [{ path: column.name, message: 'expected a number' }]);
    return n;
  }
  return raw;
}

/**
 * `column` contains `term`, ignoring case, the same on both engines (SQLite's LIKE ignores ASCII
 * case, PostgreSQL's does not; lower() on both sides makes them agree).
 */
export function containsText(column: SQLWrapper, term: string): SQL {
  return sql`lower(${column}) like lower(${`%${escapeLike(term)}%`}) escape '\\'`;
}

/** The `where` parts for DRF-style `search` and field filters. */
export function listConditions(table: SQLiteTable, spec: ListSpec, query: Record<string, string | undefined>): SQL[] {
  const cols = columnsOf(table);
  const parts: SQL[] = [];
  const term = query.search?.trim();
  if (term && spec.search?.length) {
    const ors = spec.search.map((name) => containsText(cols[name] as SQLiteColumn, term));
    const any = or(...ors);
    if (any) parts.push(any);
  }
  for (const [param, colName] of Object.entries(spec.filters ?? {})) {
    const raw = query[param];
    const column = cols[colName];
    if (raw == null || raw === '' || !column) continue;
    const values = raw
      .split(',')
      .slice(0, 100)
      .map((v) => coerce(column, v.trim()));
    if (values.length === 1) parts.push(eq(column, values[0]));
    else parts.push(sql`${column} in ${values}`);
  }
  return parts;
}

export function orderBy(table: SQLiteTable, spec: ListSpec, ordering: string | undefined): SQL[] {
  const cols = columnsOf(table);
  const wanted = (ordering ?? spec.defaultOrdering ?? '-id')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const allowed = new Set([...(spec.ordering ?? []), 'id']);
  const out: SQL[] = [];
  for (const field of wanted) {
    const name = field.replace(/^-/, '');
    const column = cols[name];
    if (!allowed.has(name) || !column) {
      throw badRequest(`Cannot order by "${name}"; allowed: ${[...allowed].join(', ')}`, [
        { path: 'ordering', message: `unknown field ${name}` },
      ]);
    }
    out.push(field.startsWith('-') ? desc(column) : asc(column));
  }
  if (!wanted.some((f) => f.replace(/^-/, '') === 'id')) out.push(desc(cols.id as SQLiteColumn));
  return out;
}

export function pageLinks(url: string, page: number, pageSize: number, count: number): { next: string | null; previous: string | null } {
  const make = (p: number) => {
    const u = new URL(url);
    u.searchParams.set('page', String(p));
    u.searchParams.set('page_size', String(pageSize));
    // Path and query only: the origin of the request URL comes from the Host header, which the
    // caller writes (a shared cache could hand a poisoned link to others).
    return `${u.pathname}${u.search}`;
  };
  return {
    next: page * pageSize < count ? make(page + 1) : null,
    previous: page > 1 ? make(Math.min(page - 1, Math.max(1, Math.ceil(count / pageSize)))) : null,
  };
}

/** One page of rows of `table` under `where`, shaped by `shape`. */
export async function listPage<TTable extends SQLiteTable, T>(
  db: Db,
  table: TTable,
  where: SQL | undefined,
  order: (SQL | SQLiteColumn)[],
  opts: ListOptions,
  url: string,
  shape: (rows: TTable['$inferSelect'][]) => T[] | Promise<T[]>,
): Promise<Page<T>> {
  const countRow = await db
    .select({ n: sql<number>`count(*)` })
    .from(table)
    .where(where)
    .get();
  const count = countRow?.n ?? 0;
  const rows = (await db
    .select()
    .from(table)
    .where(where)
    .orderBy(...order)
    .limit(opts.page_size)
    .offset((opts.page - 1) * opts.page_size)
    .all()) as TTable['$inferSelect'][];
  return { count, ...pageLinks(url, opts.page, opts.page_size, count), results: await shape(rows) };
}
