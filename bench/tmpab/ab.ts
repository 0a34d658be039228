import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork } from 'node:child_process';
import { load } from '../load';
import { seedBenchDatabase } from '../seed';
const dir = mkdtempSync(join(tmpdir(), 'ab-'));
const data = await seedBenchDatabase(join(dir, 'a.db'), { companies: 20, drivers: 100, perDriver: 200, unassigned: 0 });
copyFileSync(join(dir, 'a.db'), join(dir, 'b.db'));
async function start(tree: string, db: string) {
  const child = fork(join(tree, 'bench/server.ts'), [], { env: { ...process.env, DATABASE_PATH: db, PORT: '0' }, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'], cwd: tree });
  const port = await new Promise<number>((r) => child.once('message', (m) => r((m as { port: number }).port)));
  return { url: `http://127.0.0.1:${port}`, child };
}
const A = await start('/work/wt/ab', join(dir, 'a.db'));
const B = await start('/work/main', join(dir, 'b.db'));
let i = 0;
const gen = () => { const d = data.drivers[i++ % data.drivers.length]!; return { path: `/api/scan-package-api/${d.id}/remaining-packages-list/`, headers: { authorization: `Bearer ${d.token}` } }; };
for (const s of [A, B]) await load('warm', s.url, gen, { connections: 10, amount: 500 });
const res: Record<string, number[]> = { A: [], B: [] };
for (let r = 0; r < 6; r++) for (const [name, s] of [['A', A], ['B', B]] as const) {
  const out = await load(name, s.url, gen, { connections: 10, amount: 1500, pid: s.child.pid });
  res[name]!.push(out.cpuMs ?? NaN);
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
console.log('A (before) cpu ms/req', res.A!.map((x) => x.toFixed(2)).join(' '), 'median', med(res.A!).toFixed(2));
console.log('B (after)  cpu ms/req', res.B!.map((x) => x.toFixed(2)).join(' '), 'median', med(res.B!).toFixed(2));
A.child.kill(); B.child.kill();
process.exit(0);
