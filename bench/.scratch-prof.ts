import { readFileSync } from 'node:fs';
interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount: number; children?: number[] }
const prof = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { nodes: Node[]; samples: number[] };
const total = prof.samples.length;
const self = new Map<string, number>();
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const key = (n: Node) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/^.*\/(node_modules|perf)\//, '')}:${n.callFrame.lineNumber}`;
for (const n of prof.nodes) self.set(key(n), (self.get(key(n)) ?? 0) + n.hitCount);
const inclusive = new Map<string, number>();
const parent = new Map<number, number>();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
for (const n of prof.nodes) {
  if (!n.hitCount) continue;
  const seen = new Set<string>();
  for (let cur: number | undefined = n.id; cur !== undefined; cur = parent.get(cur)) {
    const k = key(byId.get(cur)!);
    if (!seen.has(k)) { seen.add(k); inclusive.set(k, (inclusive.get(k) ?? 0) + n.hitCount); }
  }
}
const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([n, h]) => `${((100 * h) / total).toFixed(1).padStart(5)}%  ${n}`).join('\n');
console.log(`--- self (${total} samples)\n${top(self, 30)}\n--- inclusive\n${top(inclusive, Number(process.argv[3] ?? 60))}`);
