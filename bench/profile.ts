/**
 * Where does a request's time go? Seeds (or reuses) the scale database, starts the bench server
 * under --cpu-prof, drives one endpoint with autocannon and prints the hottest functions.
 * `npx tsx bench/profile.ts <remaining|list|sync0|scan|deliver|bare-read|bare-insert|bare-remaining> [seconds]`
 * (bare-remaining needs BENCH_BARE_LISTS=1 in the environment)
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { load, paced } from './load';
import { SCALE_DEFAULTS, seedScaleDatabase, type ScaleData } from './scale';

const which = process.argv[2] ?? 'remaining';
const seconds = Number(process.argv[3] ?? 5);
const cache = join(tmpdir(), 'courier-profile-template');
if (!existsSync(join(cache, 'data.json'))) {
  const { mkdirSync } = await import('node:fs');
  mkdirSync(cache, { recursive: true });
  const data = await seedScaleDatabase(join(cache, 'scale.db'), SCALE_DEFAULTS);
  writeFileSync(join(cache, 'data.json'), JSON.stringify(data));
}
const data = JSON.parse(readFileSync(join(cache, 'data.json'), 'utf8')) as ScaleData;
const dir = mkdtempSync(join(tmpdir(), 'courier-profile-'));
copyFileSync(join(cache, 'scale.db'), join(dir, 'scale.db'));
const profDir = join(dir, 'prof');
const child = fork(fileURLToPath(new URL('./server.ts', import.meta.url)), [], {
  env: { ...process.env, DATABASE_PATH: join(dir, 'scale.db'), PORT: '0' },
  execArgv: ['--import', 'tsx', ...(process.env.NOPROF ? [] : ['--cpu-prof', `--cpu-prof-dir=${profDir}`])],
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
const port = await new Promise<number>((resolve) => child.once('message', (m) => resolve((m as { port: number }).port)));
const url = `http://127.0.0.1:${port}`;
const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
let i = 0;
const scans = data.drivers.flatMap((d) => d.toScan.map((b) => ({ token: d.token, barcode: b })));
const delivers = data.drivers.flatMap((d) => d.onVan.map((id) => ({ token: d.token, id })));
const gens: Record<string, () => { method?: string; path: string; headers?: Record<string, string>; body?: string }> = {
  'bare-read': () => ({ path: `/bare/read/${1 + (i++ % data.packages)}` }),
  'bare-insert': () => ({
    method: 'POST',
    path: '/bare/insert',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ v: `x${i++}` }),
  }),
  'bare-remaining': () => {
    const d = data.drivers[i++ % data.drivers.length]!;
    return { path: `/bare/remaining/${d.id}` };
  },
  remaining: () => {
    const d = data.drivers[i++ % data.drivers.length]!;
    return { path: `/api/scan-package-api/${d.id}/remaining-packages-list/`, headers: auth(d.token) };
  },
  list: () => ({
    path: `/api/package/?status=assigned&zone=${data.zoneIds[i++ % data.zoneIds.length]}&page_size=50`,
    headers: auth(data.adminToken),
  }),
  sync0: () => {
    const d = data.drivers[i++ % data.drivers.length]!;
    return { path: '/api/sync/changes/?cursor=0', headers: auth(d.token) };
  },
  head: () => {
    const d = data.drivers[i++ % data.drivers.length]!;
    return { path: `/api/sync/changes/?cursor=${data.feedLast}`, headers: auth(d.token) };
  },
  syncN: () => {
    const d = data.drivers[i++ % data.drivers.length]!;
    return { path: `/api/sync/changes/?cursor=${data.feedLast - 2000}`, headers: auth(d.token) };
  },
  scan: () => {
    const s = scans[i++ % scans.length]!;
    return {
      method: 'POST',
      path: '/api/scan-package-api/inbound-scan/',
      headers: auth(s.token),
      body: JSON.stringify({ barcode: s.barcode }),
    };
  },
  deliver: () => {
    const d = delivers[i++ % delivers.length]!;
    return {
      method: 'POST',
      path: `/api/package-delivered/${d.id}/deliver/`,
      headers: auth(d.token),
      body: JSON.stringify({ recipient_name: 'Front desk' }),
    };
  },
};
const gen = gens[which];
if (!gen) throw new Error(`unknown ${which}`);
await load('warm', url, gen, { connections: 10, duration: 1 });
const r = process.env.RATE
  ? await paced(which, url, gen, { connections: 50, duration: seconds, pid: child.pid, rate: Number(process.env.RATE) })
  : await load(which, url, gen, { connections: 50, duration: seconds, pid: child.pid });
console.log(JSON.stringify(r));
await new Promise<void>((resolve) => {
  child.once('exit', () => resolve());
  child.kill('SIGTERM');
});
if (process.env.NOPROF) process.exit(0);
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}
const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'))!;
const prof = JSON.parse(readFileSync(join(profDir, file), 'utf8')) as { nodes: Node[]; samples: number[] };
const total = prof.samples.length;
const self = new Map<string, number>();
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const key = (n: Node) =>
  `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/^.*\/(node_modules|main)\//, '')}:${n.callFrame.lineNumber}`;
for (const n of prof.nodes) self.set(key(n), (self.get(key(n)) ?? 0) + n.hitCount);
// Inclusive time: a node's hits plus its descendants', counted once per key per stack.
const inclusive = new Map<string, number>();
const parent = new Map<number, number>();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
for (const n of prof.nodes) {
  if (!n.hitCount) continue;
  const seen = new Set<string>();
  for (let cur: number | undefined = n.id; cur !== undefined; cur = parent.get(cur)) {
    const k = key(byId.get(cur)!);
    if (!seen.has(k)) {
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + n.hitCount);
    }
  }
}
const top = (m: Map<string, number>, k: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([n, h]) => `${((100 * h) / total).toFixed(1).padStart(5)}%  ${n}`)
    .join('\n');
console.log(`--- self (${total} samples)\n${top(self, 35)}\n--- inclusive\n${top(inclusive, 70)}`);
copyFileSync(join(profDir, file), `/tmp/prof/${which}.cpuprofile`);
