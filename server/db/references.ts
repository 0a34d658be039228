import type { Db } from './client';

interface Ref { table: string; column: string }
const cache = new WeakMap<Db, Map<string, Ref[]>>();

function referencesTo(db: Db, target: string): Ref[] {
  let byTarget = cache.get(db);
  if (!byTarget) {
    byTarget = new Map();
    const tables = db.$client.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%'").all() as { name: string }[];
    for (const { name } of tables) {
      const fks = db.$client.prepare(`pragma foreign_key_list("${name.replace(/"/g, '""')}")`).all() as { table: string; from: string }[];
      for (const fk of fks) {
        const list = byTarget.get(fk.table) ?? [];
        list.push({ table: name, column: fk.from });
        byTarget.set(fk.table, list);
      }
    }
    cache.set(db, byTarget);
  }
  return byTarget.get(target) ?? [];
}

/** What still points at a row, e.g. `["3 package", "1 suburb"]`, so a refused delete can say why. */
export function referencingRows(db: Db, target: string, id: number): string[] {
  const out: string[] = [];
  for (const ref of referencesTo(db, target)) {
    const row = db.$client.prepare(`select count(*) as n from "${ref.table}" where "${ref.column}" = ?`).get(id) as { n: number };
    if (row.n > 0) out.push(`${row.n} ${ref.table}`);
  }
  return out;
}
