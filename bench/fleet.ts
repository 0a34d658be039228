/**
 * Fleet optimiser quality benchmark: the 56 Solomon VRPTW instances against their best-known
 * total distances, and one Gehring & Homberger 1,000-customer instance per class.
 * Run alone: `npx tsx bench/fleet.ts [--only C1,R2,RC101] [--ms 2000] [--big-ms 30000] [--no-big] [--no-solomon] [--wall] [--rich]`.
 * `--rich` gives every vehicle `costs: { perDistance: 1 }`: the same objective, but every insertion
 * goes through the full route evaluation that costs, breaks and limits use (issue 32).
 *
 * By default each run gets the deterministic work budget `optimizeFleet` derives from the time
 * limit (what one unloaded core of this machine does in that time), so the figures reproduce
 * whatever else the machine is doing; the CPU time each run took is printed beside it. `--wall`
 * calls `optimizeFleet` itself with the time limit on the wall clock instead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { optimizeFleet, parseSolomon, routeSchedule, type FleetInput, type FleetResult } from '../shared/routing';
import { buildModel } from '../shared/routing/fleet/model';
import { fleetResult, workBudget } from '../shared/routing/fleet/optimize';
import { solveFleetModel } from '../shared/routing/fleet/search';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'benchmarks');
const CLASSES = ['C1', 'C2', 'R1', 'R2', 'RC1', 'RC2'];

export interface FleetBenchOptions {
  only?: string[];
  ms?: number;
  bigMs?: number;
  solomon?: boolean;
  big?: boolean;
  seed?: number;
  wall?: boolean;
  rich?: boolean;
}

export interface FleetBenchRow {
  instance: string;
  cls: string;
  distance: number;
  bks: number;
  gap: number;
  served: boolean;
  feasible: boolean;
  routes: number;
  ms: number;
}

/** Checks the plan with the ETA function (not the solver's internals) and sums travel. */
function evaluate(input: FleetInput, res: FleetResult): { distance: number; feasible: boolean; served: boolean } {
  let distance = 0;
  let feasible = true;
  const seen = new Set<number>();
  for (const r of res.routes) {
    const s = routeSchedule(input, r);
    distance += s.travel;
    feasible &&= s.feasible;
    for (const j of r.jobs) {
      if (seen.has(j)) feasible = false;
      seen.add(j);
    }
  }
  return { distance, feasible, served: seen.size === input.jobs.length && res.unassigned.length === 0 };
}

/**
 * Two entries of bks-distance.json are below a proven lower bound of their own instance, so no
 * plan can reach them. The optima of the exact methods, as Solomon's benchmark pages
 * (w.cba.neu.edu/~msolomon) list them with travel truncated to one decimal, are R109 13 vehicles
 * / 1146.9 and RC103 11 / 1258.0, against 1101.37 and 1249.86 in the file. Truncating only
 * shortens travel, so every plan feasible with the unrounded travel is feasible there and costs
 * no more: that optimum bounds the unrounded one from below (our 13-route R109 plan of 1152.45
 * costs 1147.70 truncated). These two are measured against the bound; a gap to a lower bound can
 * only overstate the true gap. The other C1, C2, R1 and RC1 entries are at or above the optima.
 */
const SOLOMON_LOWER_BOUNDS: Readonly<Record<string, number>> = { R109: 1146.9, RC103: 1258.0 };

function classOf(name: string): string {
  return name
    .toUpperCase()
    .replace(/_.*$/, '')
    .replace(/\d+$/, '')
    .replace(/^(R|C|RC)(\d).*$/, '$1$2');
}

function solomonClass(name: string): string {
  const m = /^(RC|R|C)(\d)/i.exec(name);
  return m ? `${m[1].toUpperCase()}${m[2]}` : name;
}

function selected(name: string, only: string[] | undefined): boolean {
  if (!only || only.length === 0) return true;
  const cls = solomonClass(name);
  return only.some((o) => o.toUpperCase() === name.toUpperCase() || o.toUpperCase() === cls);
}

function pct(x: number): string {
  return `${x >= 0 ? '+' : ''}${x.toFixed(2)}%`;
}

function solve(input: FleetInput, ms: number, seed: number, wall: boolean): { res: FleetResult; ms: number } {
  const c0 = process.cpuUsage();
  let res: FleetResult;
  if (wall) res = optimizeFleet({ ...input, timeLimitMs: ms, seed });
  else {
    const model = buildModel(input);
    res = fleetResult(input, solveFleetModel(model, { seed, work: workBudget(model.n, ms), timeLimitMs: Infinity }), model);
  }
  const c = process.cpuUsage(c0);
  return { res, ms: (c.user + c.system) / 1000 };
}

export async function runFleetBench(
  log: (line: string) => void = (l) => console.log(l),
  opts: FleetBenchOptions = {},
): Promise<FleetBenchRow[]> {
  const ms = opts.ms ?? 2000;
  const seed = opts.seed ?? 1;
  const rows: FleetBenchRow[] = [];
  if (opts.solomon !== false) {
    const dir = join(ROOT, 'solomon');
    const bks = JSON.parse(readFileSync(join(dir, 'bks-distance.json'), 'utf8')) as Record<string, { best_known_distance: number }>;
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.txt'))
      .sort();
    log(`Solomon VRPTW, ${ms} ms per instance (${opts.wall ? 'wall clock' : 'its work budget'}), seed ${seed}, minimising total distance`);
    log('instance   distance      best    gap     routes  served  feasible  cpu ms');
    for (const f of files) {
      const name = f.replace(/\.txt$/, '');
      if (!selected(name, opts.only)) continue;
      const inst = parseSolomon(readFileSync(join(dir, f), 'utf8'));
      const input = opts.rich
        ? { ...inst.input, vehicles: inst.input.vehicles.map((v) => ({ ...v, costs: { perDistance: 1 } })) }
        : inst.input;
      const { res, ms: took } = solve(input, ms, seed, opts.wall ?? false);
      const ev = evaluate(inst.input, res);
      const best = Math.max(bks[name].best_known_distance, SOLOMON_LOWER_BOUNDS[name] ?? 0);
      const row: FleetBenchRow = {
        instance: name,
        cls: solomonClass(name),
        distance: ev.distance,
        bks: best,
        gap: ((ev.distance - best) / best) * 100,
        served: ev.served,
        feasible: ev.feasible,
        routes: res.routes.length,
        ms: took,
      };
      rows.push(row);
      log(
        `${name.padEnd(9)} ${ev.distance.toFixed(2).padStart(9)} ${best.toFixed(2).padStart(9)}${best > bks[name].best_known_distance ? '*' : ' '}${pct(row.gap).padStart(8)} ${String(row.routes).padStart(5)}   ${row.served ? 'yes' : 'NO '}     ${row.feasible ? 'yes' : 'NO '}    ${took.toFixed(0)}`,
      );
    }
    if (rows.length > 0) {
      log('');
      log('class  n   mean gap  worst gap  all served+feasible');
      for (const cls of [...CLASSES, 'all']) {
        const rs = cls === 'all' ? rows : rows.filter((r) => r.cls === cls);
        if (rs.length === 0) continue;
        const mean = rs.reduce((s, r) => s + r.gap, 0) / rs.length;
        const worst = Math.max(...rs.map((r) => r.gap));
        const ok = rs.every((r) => r.served && r.feasible);
        log(`${cls.padEnd(5)} ${String(rs.length).padStart(3)}  ${pct(mean).padStart(8)}  ${pct(worst).padStart(9)}  ${ok ? 'yes' : 'NO'}`);
      }
      if (rows.some((r) => r.instance in SOLOMON_LOWER_BOUNDS)) {
        log("* proven lower bound (Solomon optimum, travel truncated): the file's best-known is below it");
      }
      const sorted = rows.map((r) => r.gap).sort((a, b) => a - b);
      log(
        `median gap ${pct(sorted[Math.floor(sorted.length / 2)])}, at best-known (<0.01%): ${rows.filter((r) => r.gap < 0.01).length}/${rows.length}  (VROOM published: mean +1.63%, worst +7.54%)`,
      );
    }
  }
  if (opts.big !== false) {
    const bigMs = opts.bigMs ?? 30000;
    const dir = join(ROOT, 'homberger-1000');
    const bks = JSON.parse(readFileSync(join(dir, 'bks.json'), 'utf8')) as Record<
      string,
      { best_known_cost: number; vehicles_used: number }
    >;
    log('');
    log(`Gehring & Homberger 1,000 customers, ${bigMs} ms each (best-known minimises vehicles first, then distance)`);
    log('instance   distance   best-known  diff     routes (bks)  served  feasible  cpu ms');
    for (const f of readdirSync(dir)
      .filter((x) => x.endsWith('.txt'))
      .sort()) {
      const name = f.replace(/\.txt$/, '');
      if (!selected(name, opts.only)) continue;
      const inst = parseSolomon(readFileSync(join(dir, f), 'utf8'));
      const { res, ms: took } = solve(inst.input, bigMs, seed, opts.wall ?? false);
      const ev = evaluate(inst.input, res);
      const b = bks[name];
      const gap = ((ev.distance - b.best_known_cost) / b.best_known_cost) * 100;
      rows.push({
        instance: name,
        cls: classOf(name),
        distance: ev.distance,
        bks: b.best_known_cost,
        gap,
        served: ev.served,
        feasible: ev.feasible,
        routes: res.routes.length,
        ms: took,
      });
      log(
        `${name.padEnd(9)} ${ev.distance.toFixed(1).padStart(9)} ${b.best_known_cost.toFixed(1).padStart(11)} ${pct(gap).padStart(8)} ${String(res.routes.length).padStart(6)} (${b.vehicles_used})   ${ev.served ? 'yes' : 'NO '}     ${ev.feasible ? 'yes' : 'NO '}    ${took.toFixed(0)}`,
      );
    }
  }
  return rows;
}

function parseArgs(argv: string[]): FleetBenchOptions {
  const o: FleetBenchOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--only') o.only = argv[++i].split(',').filter(Boolean);
    else if (a === '--ms') o.ms = Number(argv[++i]);
    else if (a === '--big-ms') o.bigMs = Number(argv[++i]);
    else if (a === '--seed') o.seed = Number(argv[++i]);
    else if (a === '--no-big') o.big = false;
    else if (a === '--wall') o.wall = true;
    else if (a === '--rich') o.rich = true;
    else if (a === '--no-solomon') o.solomon = false;
  }
  return o;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runFleetBench((l) => console.log(l), parseArgs(process.argv.slice(2)));
}
