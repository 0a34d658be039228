import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU seconds used by a process and everything below it, from /proc (Linux; 0 elsewhere). The root's
 * cutime/cstime add children that already exited (a PostgreSQL backend that closed), so work done in
 * the measured window is counted even when its process is gone.
 */
export function treeCpuSeconds(root: number | undefined): number {
  if (!root) return 0;
  const procs = new Map<number, { ppid: number; cpu: number; children: number }>();
  let pids: string[] = [];
  try { pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p)); } catch { return 0; }
  for (const p of pids) {
    try {
      const f = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      procs.set(Number(p), { ppid: Number(f[1]), cpu: Number(f[11]) + Number(f[12]), children: Number(f[13]) + Number(f[14]) });
    } catch { /* exited meanwhile */ }
  }
  const top = procs.get(root);
  if (!top) return 0;
  let ticks = top.cpu + top.children;
  const inTree = new Set([root]);
  // Parents have lower pids only usually; iterate until no process joins.
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, p] of procs) if (!inTree.has(pid) && inTree.has(p.ppid)) { inTree.add(pid); ticks += p.cpu; grew = true; }
  }
  return ticks / 100;
}

/** What a measured window cost: the server's process tree and, on PostgreSQL, the cluster's. */
export interface CpuProbe { server(): number; database(): number }
