import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, startBenchServer } from '../load';
import { seedBenchDatabase } from '../seed';
const dir = mkdtempSync(join(tmpdir(), 'pair-'));
const data = await seedBenchDatabase(join(dir, 'a.db'), { companies: 20, drivers: 100, perDriver: 200, unassigned: 0 });
const S = await startBenchServer(join(dir, 'a.db'), { BENCH_BARE_LISTS: '1' });
let i = 0;
const real = () => { const d = data.drivers[i++ % data.drivers.length]!; return { path: `/api/scan-package-api/${d.id}/remaining-packages-list/`, headers: { authorization: `Bearer ${d.token}` } }; };
const bare = () => { const d = data.drivers[i++ % data.drivers.length]!; return { path: `/bare/remaining/${d.id}` }; };
for (const g of [real, bare]) await load('warm', S.url, g, { connections: 10, amount: 500 });
const res: Record<string, { cpu: number[]; rps: number[] }> = { real: { cpu: [], rps: [] }, bare: { cpu: [], rps: [] } };
for (let r = 0; r < 6; r++) for (const [name, g] of [['bare', bare], ['real', real]] as const) {
  const out = await load(name, S.url, g, { connections: 10, amount: 1500, pid: S.child.pid });
  res[name]!.cpu.push(out.cpuMs ?? NaN); res[name]!.rps.push(out.rps);
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
for (const k of ['bare', 'real']) console.log(k, 'cpu', res[k]!.cpu.map((x) => x.toFixed(2)).join(' '), 'median', med(res[k]!.cpu).toFixed(2), 'rps median', med(res[k]!.rps));
console.log('paired cpu ratio real/bare', res.real!.cpu.map((x, j) => (x / res.bare!.cpu[j]!).toFixed(2)).join(' '));
S.child.kill();
process.exit(0);
