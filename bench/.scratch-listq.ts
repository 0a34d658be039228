import { openDatabase } from '../server/db/client';
import { packageJsonSelect } from '../server/services/packages/json';
import { pkg } from '../server/db/schema/index';
import { eq } from 'drizzle-orm';
const db = await openDatabase(process.argv[2]!);
const sqlite = (db.$engine as unknown as { sqlite: import('better-sqlite3').Database }).sqlite;
const driver = (sqlite.prepare('select assigned_to_id from package where assigned_to_id is not null limit 1').get() as { assigned_to_id: number }).assigned_to_id;
const q = packageJsonSelect(db).where(eq(pkg.assigned_to_id, driver)).orderBy(pkg.sequence_no, pkg.id).toSQL();
const variants: Record<string, string> = {
  full: q.sql,
  noFailures: q.sql.replace(/'package_failed_delivery_status', json\(\(select .*? "package_failure"\."package_id" = "package"\."id"\)\)/s, "'package_failed_delivery_status', json('[]')"),
  noIso: q.sql.replace(/coalesce\(strftime\('%Y-%m-%dT%H:%M:%fZ', "package"\."created_at" \/ 1000\.0, 'unixepoch'\), ''\)/, '"package"."created_at"'),
  constBool: q.sql.replace(/json\(case when ("package"\."\w+") = 1 then 'true' else 'false' end\)/g, "case when $1 = 1 then json('true') else json('false') end"),
  plainCols: `select "package"."id", "package".* from package where assigned_to_id = ? order by sequence_no, id`,
};
console.log(q.sql.length);
for (const [name, text] of Object.entries(variants)) {
  const stmt = sqlite.prepare(text).raw(true);
  const run = () => stmt.all(...q.params);
  for (let i = 0; i < 30; i++) run();
  const t0 = performance.now(); let n = 0;
  for (let i = 0; i < 300; i++) n += (run() as unknown[]).length;
  console.log(name, ((performance.now() - t0) / 300).toFixed(3), 'ms per list of', n / 300, text === q.sql && name !== 'full' ? '(unchanged!)' : '');
}
