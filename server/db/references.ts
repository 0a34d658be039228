import { sql } from 'drizzle-orm';
import type { Db } from './client';
import { referencesQuery } from './engine/dialect';

interface Ref {
  table: string;
  column: string;
}
const cache = new WeakMap<Db, Map<string, Ref[]>>();

async function referencesTo(db: Db, target: string): Promise<Ref[]> {
  let byTarget = cache.get(db);
  if (!byTarget) {
    byTarget = new Map();
    for (const [from_table, from_column, to_table] of await db.values<[string, string, string]>(referencesQuery(db))) {
      const fk = { from_table, from_column, to_table };
      const list = byTarget.get(fk.to_table) ?? [];
      list.push({ table: fk.from_table, column: fk.from_column });
      byTarget.set(fk.to_table, list);
    }
    cache.set(db, byTarget);
  }
  return byTarget.get(target) ?? [];
}

/** What still points at a row, e.g. `["3 package", "1 suburb"]`, so a refused delete can say why. */
export async function referencingRows(db: Db, target: string, id: number): Promise<string[]> {
  const out: string[] = [];
  for (const ref of await referencesTo(db, target)) {
    const [n] = await db.values<[number]>(
      sql`select count(*) from ${sql.identifier(ref.table)} where ${sql.identifier(ref.column)} = ${id}`,
    );
    const count = Number(n?.[0] ?? 0);
    if (count > 0) out.push(`${count} ${ref.table}`);
  }
  return out;
}
