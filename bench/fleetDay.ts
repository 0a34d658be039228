/**
 * A Sydney-sized day for the fleet optimiser (issue 32 §3): 3,000 parcels and 40 drivers from one
 * depot, generated (seeded, so every run plans the same day). Reports the time to a first feasible
 * plan (`optimizeFleet` with `timeLimitMs: 0`: the model is built, the search's neighbour lists and
 * the greedy construction run, no improvement) and the memory the planning process needs (peak RSS,
 * V8 heap), then the cost after a short improving search beside it.
 *
 * The day: depot at the origin (think Alexandria); 85% of parcels in 20 suburban clusters (centres
 * spread over 50 x 36 km, normal 2 km spread), 15% uniform over 40 x 30 km. Travel time in minutes
 * = straight-line km x 1.35 (road detour) / 32 km/h, made mildly asymmetric (up to +6% one way, as
 * one-way streets and turns do) so the model keeps a transposed copy as a real road matrix would.
 * Service 2 min; a quarter of the parcels have a 3-hour window between 08:00 and 18:00; each
 * driver's shift is 07:00-19:00 with a 120-parcel van.
 *
 * Each measurement runs in a child process of its own so the peak RSS is the plan's alone.
 * Run alone: `npx tsx bench/fleetDay.ts [--parcels 3000] [--drivers 40] [--ms 10000]`.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { optimizeFleet, routeSchedule, type FleetInput } from '../shared/routing';
import { createRng } from '../shared/routing/rng';

interface FleetDayOptions {
  parcels?: number;
  drivers?: number;
  /** Budget of the improving run beside the first plan; 0 skips it. */
  ms?: number;
}

interface DayFigures {
  buildMs: number;
  planCpuMs: number;
  planWallMs: number;
  routes: number;
  served: number;
  feasible: boolean;
  travel: number;
  peakRssMb: number;
  /** V8 heap in use just after the plan, the input still held (typed arrays of the model count in RSS, not here). */
  heapUsedMb: number;
}

/** The generated day (seeded): matrix in minutes, 40 vans, 3,000 parcels. */
function sydneyDay(parcels: number, drivers: number, seed = 20261128): FleetInput {
  const rng = createRng(seed);
  const gauss = (): number => {
    const u = 1 - rng.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
  };
  const centres = Array.from({ length: 20 }, () => [(rng.next() - 0.5) * 50, (rng.next() - 0.5) * 36]);
  const pts: [number, number][] = [[0, 0]];
  for (let i = 0; i < parcels; i++) {
    if (rng.next() < 0.85) {
      const c = centres[rng.int(centres.length)];
      pts.push([c[0] + 2 * gauss(), c[1] + 2 * gauss()]);
    } else pts.push([(rng.next() - 0.5) * 40, (rng.next() - 0.5) * 30]);
  }
  const n = pts.length;
  const matrix: number[][] = [];
  for (let i = 0; i < n; i++) {
    const row = new Array<number>(n);
    for (let j = 0; j < n; j++) {
      const km = Math.hypot(pts[i][0] - pts[j][0], pts[i][1] - pts[j][1]) * 1.35;
      // A fixed skew per ordered pair, so i->j and j->i differ by a few percent.
      const skew = 1 + 0.06 * (((i * 7919 + j * 104729) % 1000) / 1000);
      row[j] = i === j ? 0 : (km / 32) * 60 * skew;
    }
    matrix.push(row);
  }
  const jobs: FleetInput['jobs'] = [];
  for (let k = 1; k < n; k++) {
    const job: FleetInput['jobs'][number] = { id: k, location: k, demand: [1], service: 2 };
    if (rng.next() < 0.25) {
      const open = 480 + 60 * rng.int(8);
      job.windows = [[open, open + 180]];
    }
    jobs.push(job);
  }
  const vehicles = Array.from({ length: drivers }, (_, k) => ({
    id: k + 1,
    start: 0,
    end: 0,
    capacity: [120],
    shift: [420, 1140] as [number, number],
  }));
  return { matrix, vehicles, jobs };
}

function mb(bytes: number): number {
  return Math.round(bytes / 1048576);
}

/** One measurement, in this process: the input is built first (not timed into the plan). */
function measure(parcels: number, drivers: number, ms: number): DayFigures {
  const b0 = performance.now();
  const input = sydneyDay(parcels, drivers);
  const buildMs = performance.now() - b0;
  const w0 = performance.now();
  const c0 = process.cpuUsage();
  const res = optimizeFleet({ ...input, timeLimitMs: ms, seed: 1 });
  const c = process.cpuUsage(c0);
  const planWallMs = performance.now() - w0;
  const heapUsed = process.memoryUsage().heapUsed;
  let travel = 0;
  let feasible = true;
  let served = 0;
  for (const r of res.routes) {
    const s = routeSchedule(input, r);
    travel += s.travel;
    feasible &&= s.feasible;
    served += r.jobs.length;
  }
  return {
    buildMs,
    planCpuMs: (c.user + c.system) / 1000,
    planWallMs,
    routes: res.routes.length,
    served,
    feasible,
    travel,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    heapUsedMb: mb(heapUsed),
  };
}

function child(parcels: number, drivers: number, ms: number): DayFigures {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', String(parcels), String(drivers), String(ms)],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as DayFigures;
}

export function runFleetDayBench(log: (line: string) => void = (l) => console.log(l), opts: FleetDayOptions = {}): void {
  const parcels = opts.parcels ?? 3000;
  const drivers = opts.drivers ?? 40;
  const ms = opts.ms ?? 10000;
  log(`Generated Sydney day: ${parcels} parcels, ${drivers} drivers, one depot (bench/fleetDay.ts), seed 1, a child process per run`);
  log('run                 plan cpu ms  wall ms  routes  served  feasible  travel min  peak RSS MB  heap MB');
  const runs: [string, number][] = [['first plan (0 ms)', 0]];
  if (ms > 0) runs.push([`search ${ms} ms`, ms]);
  for (const [label, budget] of runs) {
    const f = child(parcels, drivers, budget);
    log(
      `${label.padEnd(19)} ${f.planCpuMs.toFixed(0).padStart(11)} ${f.planWallMs.toFixed(0).padStart(8)} ${String(f.routes).padStart(7)} ${String(f.served).padStart(7)}   ${f.feasible ? 'yes' : 'NO '}     ${f.travel.toFixed(0).padStart(10)} ${String(f.peakRssMb).padStart(12)} ${String(f.heapUsedMb).padStart(8)}`,
    );
    if (budget === 0) log(`  (building the ${parcels + 1}² input matrix itself, not timed above: ${f.buildMs.toFixed(0)} ms)`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') {
    console.log(JSON.stringify(measure(Number(argv[1]), Number(argv[2]), Number(argv[3]))));
  } else {
    const opts: FleetDayOptions = {};
    for (let i = 0; i < argv.length; i++) {
      if (argv[i] === '--parcels') opts.parcels = Number(argv[++i]);
      else if (argv[i] === '--drivers') opts.drivers = Number(argv[++i]);
      else if (argv[i] === '--ms') opts.ms = Number(argv[++i]);
    }
    runFleetDayBench((l) => console.log(l), opts);
  }
}
