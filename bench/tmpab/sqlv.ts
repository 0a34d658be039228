import Database from 'better-sqlite3';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
const f = readdirSync('/tmp').filter((d) => d.startsWith('pair-')).map((d) => join('/tmp', d, 'a.db'))[0]!;
const d = new Database(f, { readonly: true });
d.pragma('cache_size = -65536');
const ids = (d.prepare('select distinct driver_id from bare_json').pluck().all() as number[]);
const W = `p.assigned_to_id = ? and p.is_scanned = 0 and p.deleted_at is null and p.status not in ('delivered', 'returned_to_sender', 'cancelled') and not (p.status = 'failed' and p.attempts >= 3) order by p.sequence_no, p.id`;
const v: Record<string, Database.Statement> = {
  bare: d.prepare('select json from bare_json where driver_id = ? order by sequence_no, id'),
  'id + coalesce(a.json, built-ish)': d.prepare(`select p.id, coalesce(a.json, json_object('id', p.id)) from package p left join package_answer a on a.package_id = p.id where ${W}`),
  'coalesce only': d.prepare(`select coalesce(a.json, json_object('id', p.id)) from package p left join package_answer a on a.package_id = p.id where ${W}`),
  'a.json only, inner join': d.prepare(`select a.json from package p join package_answer a on a.package_id = p.id where ${W}`),
};
for (const s of Object.values(v)) s.raw(true);
for (let r = 0; r < 3; r++) for (const [k, s] of Object.entries(v)) {
  const c0 = process.cpuUsage(); const N = 2000;
  for (let n = 0; n < N; n++) s.all(ids[n % ids.length]);
  const c = process.cpuUsage(c0);
  if (r === 2) console.log(k.padEnd(36), ((c.user + c.system) / N).toFixed(0), 'us');
}
