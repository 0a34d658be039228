/**
 * Pickup-and-delivery benchmark (issue 32): a handful of Li & Lim 100-task PDPTW instances
 * (bench/data/li-lim-100, one per class and tightness, with their best-known values; see the README
 * there for the source) against the best-known total distance.
 * Run alone: `npx tsx bench/pdptw.ts [--only lc101,lr2] [--ms 2000] [--seed 1]`.
 *
 * The best-known solutions minimise vehicles first, then distance; `optimizeFleet` minimises
 * distance, so it may beat the best-known distance with more vehicles: compare where the vehicle
 * counts match. Each run gets the deterministic work budget of its time limit (as bench/fleet.ts);
 * the CPU time it took is printed beside it. Every plan is replayed by `routeSchedule` (windows,
 * shift, the load along the route, pairs whole and pickup first).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { routeSchedule } from '../shared/routing';
import { parseLiLim } from '../shared/routing/fleet/lilim';
import { buildModel } from '../shared/routing/fleet/model';
import { fleetResult, workBudget } from '../shared/routing/fleet/optimize';
import { solveFleetModel } from '../shared/routing/fleet/search';

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'data', 'li-lim-100');

export interface PdptwBenchOptions {
  only?: string[];
  ms?: number;
  seed?: number;
}

function pct(x: number): string {
  return `${x >= 0 ? '+' : ''}${x.toFixed(2)}%`;
}

export function runPdptwBench(log: (line: string) => void = (l) => console.log(l), opts: PdptwBenchOptions = {}): void {
  const ms = opts.ms ?? 2000;
  const seed = opts.seed ?? 1;
  const bks = JSON.parse(readFileSync(join(DIR, 'bks.json'), 'utf8')) as Record<string, { best_known_cost: number; vehicles_used: number }>;
  log(`Li & Lim PDPTW 100 tasks, ${ms} ms per instance (its work budget), seed ${seed}, minimising total distance`);
  log('instance  distance  best-known     gap  routes (bks)  served  feasible  cpu ms');
  const gaps: number[] = [];
  const matched: number[] = [];
  let allOk = true;
  for (const f of readdirSync(DIR)
    .filter((x) => x.endsWith('.txt'))
    .sort()) {
    const name = f.replace(/\.txt$/, '');
    if (opts.only && !opts.only.some((o) => name.startsWith(o.toLowerCase()))) continue;
    const inst = parseLiLim(readFileSync(join(DIR, f), 'utf8'));
    const c0 = process.cpuUsage();
    const model = buildModel(inst.input);
    const res = fleetResult(inst.input, solveFleetModel(model, { seed, work: workBudget(model.n, ms), timeLimitMs: Infinity }), model);
    const c = process.cpuUsage(c0);
    let distance = 0;
    let feasible = true;
    for (const r of res.routes) {
      const s = routeSchedule(inst.input, r);
      distance += s.travel;
      feasible &&= s.feasible && s.load.every((q) => q <= inst.capacity + 1e-6);
    }
    const served = res.unassigned.length === 0;
    allOk &&= served && feasible;
    const b = bks[name];
    const gap = ((distance - b.best_known_cost) / b.best_known_cost) * 100;
    gaps.push(gap);
    if (res.routes.length === b.vehicles_used) matched.push(gap);
    log(
      `${name.padEnd(8)} ${distance.toFixed(2).padStart(9)} ${b.best_known_cost.toFixed(2).padStart(11)} ${pct(gap).padStart(8)} ${String(res.routes.length).padStart(6)} (${b.vehicles_used})     ${served ? 'yes' : 'NO '}     ${feasible ? 'yes' : 'NO '}    ${((c.user + c.system) / 1000).toFixed(0)}`,
    );
  }
  if (gaps.length === 0) return;
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  log(
    `mean gap ${pct(mean(gaps))}, worst ${pct(Math.max(...gaps))}; where the vehicle count matches the best-known (${matched.length}/${gaps.length}): mean ${matched.length ? pct(mean(matched)) : '-'}, worst ${matched.length ? pct(Math.max(...matched)) : '-'}; all served and feasible: ${allOk ? 'yes' : 'NO'}`,
  );
}

function parseArgs(argv: string[]): PdptwBenchOptions {
  const o: PdptwBenchOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--only') o.only = argv[++i].split(',').filter(Boolean);
    else if (a === '--ms') o.ms = Number(argv[++i]);
    else if (a === '--seed') o.seed = Number(argv[++i]);
  }
  return o;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runPdptwBench((l) => console.log(l), parseArgs(process.argv.slice(2)));
}
