import { and, getTableColumns, ne, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from './client';

/**
 * Another row matching `where` (a name, code or e-mail that must stay unique), leaving out the row
 * being updated: the one lookup behind every "already used" refusal, each of which words its own answer.
 */
export async function twinOf(
  db: Db,
  table: SQLiteTable,
  where: (SQL | undefined)[],
  exceptId?: unknown,
): Promise<{ id: number } | undefined> {
  const idCol = getTableColumns(table).id as SQLiteColumn;
  return (await db
    .select({ id: idCol })
    .from(table)
    .where(and(...where, exceptId != null ? ne(idCol, exceptId as number) : undefined))
    .get()) as { id: number } | undefined;
}
