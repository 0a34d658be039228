import { eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { twinOf } from '../../db/twin';
import { ApiError, badRequest } from '../../errors';

export type Row = Record<string, unknown>;

const columnsOf = (table: SQLiteTable) => getTableColumns(table) as Record<string, SQLiteColumn>;

/**
 * A parent named by an input must exist. A new reference to an archived parent is refused, but a
 * record keeps the archived parent it already had (archiving never invalidates references).
 */
export async function requireParent(
  db: Db,
  table: SQLiteTable,
  id: unknown,
  field: string,
  label: string,
  previous?: unknown,
): Promise<Row> {
  const cols = columnsOf(table);
  const row =
    typeof id === 'number'
      ? ((await db
          .select()
          .from(table)
          .where(eq(cols.id as SQLiteColumn, id))
          .get()) as Row | undefined)
      : undefined;
  if (!row) throw badRequest(`Unknown ${label} ${String(id)}`, [{ path: field, message: `no ${label} ${String(id)}` }]);
  if (row.deleted_at != null && id !== previous) {
    throw badRequest(`${capitalise(label)} ${String(id)} is archived; restore it first`, [
      { path: field, message: `${label} ${String(id)} is archived` },
    ]);
  }
  return row;
}

/** Names are compared without case so "Sydney" and "SYDNEY" cannot both exist under one parent. */
export function sameText(column: SQLiteColumn, value: unknown): SQL {
  return sql`lower(${column}) = lower(${String(value)})`;
}

/**
 * Refuses a duplicate among siblings, archived ones included: restoring the archived twin is the way
 * back, and a silent second copy would split references between the two.
 */
export async function assertUnique(
  db: Db,
  table: SQLiteTable,
  where: (SQL | undefined)[],
  existing: Row | undefined,
  field: string,
  message: string,
): Promise<void> {
  const twin = await twinOf(db, table, where, existing?.id);
  if (twin)
    throw new ApiError(409, 'conflict', `${message} (id ${twin.id})`, [{ path: field, message: 'already exists' }], {
      existing_id: twin.id,
    });
}

export function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
