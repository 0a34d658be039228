import type { FleetInput, FleetResult } from '../../shared/routing';
import { createRng } from '../../shared/routing/rng';

const TOL = 1e-6;

type Veh = FleetInput['vehicles'][number];
type Job = FleetInput['jobs'][number];

/** One replayed route under the issue-32 rules (see shared/routing/fleet/evaluate.ts for their statement). */
export interface Replay {
  ok: boolean;
  problems: string[];
  travel: number;
  distance: number;
  departure: number;
  end: number;
  duration: number;
  cost: number;
  starts: number[];
  breaks: { before: number; start: number; end: number }[];
}

/** Every way to place the vehicle's breaks: gap per break, non-decreasing, gaps in order, "not taken" (len + 1) last and then for every later break too. */
function placements(nb: number, len: number): number[][] {
  const out: number[][] = [];
  const rec = (prefix: number[], from: number): void => {
    if (prefix.length === nb) {
      out.push(prefix);
      return;
    }
    for (let g = from; g <= len; g++) rec([...prefix, g], g);
    out.push([...prefix, ...Array<number>(nb - prefix.length).fill(len + 1)]);
  };
  rec([], 0);
  return out;
}

/**
 * Replays one route from the raw input, written apart from the solver: a forward pass per break
 * placement, then a backward pass for the latest departure that keeps the end.
 */
/**
 * `departure`: the departure the plan reports. With jobs of several windows the rules allow a range
 * of departures that keep the same end (the forward pass's windows give the earliest latest one; a
 * later window, where what follows waits anyway, a later one); a reported departure inside that range
 * is replayed as given, and one outside it is replayed at the range's end (and so differs).
 */
export function replayRoute(input: FleetInput, veh: Veh, jobs: Job[], balance = input.balance, departure?: number): Replay {
  const departure_ = departure;
  const M = input.matrix;
  const DM = input.distance ?? input.matrix;
  const problems: string[] = [];
  const shiftStart = veh.shift ? veh.shift[0] : 0;
  const shiftEnd = veh.shift ? veh.shift[1] : Infinity;
  const breaks = (veh.breaks ?? []).slice().sort((a, b) => a.window[0] - b.window[0] || a.window[1] - b.window[1]);
  let travel = 0;
  let distance = 0;
  {
    let here = veh.start;
    for (const job of jobs) {
      travel += M[here][job.location];
      distance += DM[here][job.location];
      here = job.location;
      for (const sk of job.skills ?? [])
        if (!(veh.skills ?? []).includes(sk)) problems.push(`vehicle ${veh.id}: job ${job.id} needs skill ${sk}`);
    }
    if (veh.end !== undefined && jobs.length > 0) {
      travel += M[here][veh.end];
      distance += DM[here][veh.end];
    }
  }
  if (veh.maxStops !== undefined && jobs.length > veh.maxStops)
    problems.push(`vehicle ${veh.id}: ${jobs.length} stops, over ${veh.maxStops}`);
  const empty: Replay = {
    ok: problems.length === 0,
    problems,
    travel,
    distance,
    departure: shiftStart,
    end: shiftStart,
    duration: 0,
    cost: 0,
    starts: [],
    breaks: [],
  };
  if (jobs.length === 0) return empty;

  /** The day as items: drive to a stop, breaks taken there (or before the return), serve it; then the drive back. */
  type Item =
    { kind: 'drive'; time: number } | { kind: 'break'; lo: number; hi: number; dur: number; before: number } | { kind: 'serve'; job: Job };
  const forward = (items: Item[], from: number) => {
    let t = from;
    const starts: number[] = [];
    const br: Replay['breaks'] = [];
    const his: number[] = [];
    for (const it of items) {
      if (it.kind === 'drive') {
        t += it.time;
        his.push(Infinity);
        continue;
      }
      if (it.kind === 'break') {
        const s = Math.max(t, it.lo);
        if (s > it.hi + TOL) return { broken: `break starts at ${s}, after ${it.hi}` } as const;
        br.push({ before: it.before, start: s, end: s + it.dur });
        his.push(it.hi);
        t = s + it.dur;
        continue;
      }
      let s = t;
      let hi = Infinity;
      if (it.job.windows && it.job.windows.length > 0) {
        s = Infinity;
        for (const [a, b] of it.job.windows)
          if (t <= b + TOL && Math.max(t, a) < s) {
            s = Math.max(t, a);
            hi = b;
          }
        if (s === Infinity) return { broken: `job ${it.job.id} reached at ${t} after its windows` } as const;
      }
      starts.push(s);
      his.push(hi);
      t = s + (it.job.service ?? 0);
    }
    return { end: t, starts, breaks: br, his } as const;
  };
  let best: { end: number; departure: number; items: Item[] } | null = null;
  let why = '';
  for (const place of placements(breaks.length, jobs.length)) {
    const items: Item[] = [];
    let here = veh.start;
    for (let g = 0; g <= jobs.length; g++) {
      if (g < jobs.length) {
        items.push({ kind: 'drive', time: M[here][jobs[g].location] });
        here = jobs[g].location;
      }
      breaks.forEach((b, i) => {
        if (place[i] === g) items.push({ kind: 'break', lo: b.window[0], hi: b.window[1], dur: b.duration, before: g });
      });
      if (g < jobs.length) items.push({ kind: 'serve', job: jobs[g] });
    }
    if (veh.end !== undefined) items.push({ kind: 'drive', time: M[here][veh.end] });
    const f = forward(items, shiftStart);
    if ('broken' in f) {
      why = f.broken ?? '';
      continue;
    }
    const end = f.end;
    if (end > shiftEnd + TOL) {
      why = `done at ${end}, after shift end ${shiftEnd}`;
      continue;
    }
    const skipped = breaks.filter((_, i) => place[i] > jobs.length);
    if (skipped.some((b) => b.window[0] < end - TOL)) {
      why = `a break (window from ${skipped[0].window[0]}) not taken though the route ends at ${end}`;
      continue;
    }
    // Backward: the latest start of each item that still ends at `end` inside the same windows.
    let latestSame = end;
    for (let k = items.length - 1; k >= 0; k--) {
      const it = items[k];
      latestSame = Math.min(f.his[k], latestSame - (it.kind === 'drive' ? it.time : it.kind === 'break' ? it.dur : (it.job.service ?? 0)));
    }
    let latest = end;
    for (let k = items.length - 1; k >= 0; k--) {
      const it = items[k];
      const dur = it.kind === 'drive' ? it.time : it.kind === 'break' ? it.dur : (it.job.service ?? 0);
      const by = latest - dur;
      if (it.kind === 'serve' && it.job.windows && it.job.windows.length > 1) {
        // A job with several windows may be served in a later one than the forward pass chose, when
        // what follows waits anyway: the latest start is the latest window that opens by then.
        let s = -Infinity;
        for (const [a, b] of it.job.windows) if (a <= by + TOL) s = Math.max(s, Math.min(b, by));
        latest = s;
      } else latest = Math.min(f.his[k], by);
    }
    const lo = Math.max(shiftStart, latestSame);
    const hi = Math.max(shiftStart, latest);
    const departure = departure_ !== undefined && departure_ >= lo - TOL && departure_ <= hi + TOL ? departure_ : hi;
    if (veh.maxDuration !== undefined && end - departure > veh.maxDuration + TOL) {
      why = `duration ${end - departure} over ${veh.maxDuration}`;
      continue;
    }
    if (!best || end < best.end - TOL || (end < best.end + TOL && departure > best.departure + TOL)) best = { end, departure, items };
  }
  if (!best) {
    problems.push(`vehicle ${veh.id}: ${why}`);
    return { ...empty, ok: false };
  }
  const duration = best.end - best.departure;
  const c = veh.costs;
  let cost = c ? (c.fixed ?? 0) + (c.perDistance ?? 0) * distance + (c.perTime ?? 0) * duration : distance;
  if (balance && balance.weight > 0) cost += balance.weight * (balance.by === 'duration' ? duration * duration : jobs.length * jobs.length);
  // The schedule as driven, from that departure.
  const driven = forward(best.items, best.departure);
  if ('broken' in driven) throw new Error('the latest departure broke the schedule');
  return {
    ok: problems.length === 0,
    problems,
    travel,
    distance,
    departure: best.departure,
    end: best.end,
    duration,
    cost,
    starts: driven.starts,
    breaks: driven.breaks,
  };
}

/**
 * Feasibility checker written apart from the solver (no shared code): replays every route from
 * the raw input and lists every broken rule (windows, capacity, shift, skills, stops, breaks,
 * maximum duration; pairs: both halves on one vehicle, pickup first, the load counted at every point
 * of the route). `openPairs`: a pickup whose delivery nobody serves yet is allowed (a partial plan). Also returns total travel, the objective (route costs plus the penalties of
 * jobs left out) and how many jobs without a penalty were left out. Where the result reports a
 * schedule (departure, service starts, breaks, cost), it must be the one the rules give.
 */
export function checkPlan(
  input: FleetInput,
  res: FleetResult,
  opts: { openPairs?: boolean } = {},
): { violations: string[]; travel: number; served: number; cost: number; hardUnserved: number } {
  const v: string[] = [];
  const jobs = new Map(input.jobs.map((j) => [j.id, j]));
  // Pairs: the pickup's demand rides from the pickup to the delivery; unpaired demand from the start.
  const pairOf = new Map<number, { pickup: number; delivery: number }>();
  for (const p of input.pairs ?? []) {
    pairOf.set(p.pickup, p);
    pairOf.set(p.delivery, p);
  }
  const servedIds = new Set(res.routes.flatMap((r) => r.jobs));
  const vehicles = new Map(input.vehicles.map((x) => [x.id, x]));
  const seen = new Set<number>();
  const usedVehicles = new Set<number>();
  let travel = 0;
  let cost = 0;
  for (const route of res.routes) {
    const veh = vehicles.get(route.vehicle);
    if (!veh) {
      v.push(`unknown vehicle ${route.vehicle}`);
      continue;
    }
    if (usedVehicles.has(veh.id)) v.push(`vehicle ${veh.id} has two routes`);
    usedVehicles.add(veh.id);
    const list: Job[] = [];
    const load: number[] = [];
    const demandOf = (id: number): number[] => jobs.get(id)?.demand ?? [];
    const change = (q: number[], sign: number) =>
      q.forEach((x, k) => {
        load[k] = (load[k] ?? 0) + sign * x;
      });
    const checkLoad = (where: string) =>
      load.forEach((q, k) => {
        const c = veh.capacity?.[k];
        if (c !== undefined && q > c + TOL) v.push(`vehicle ${veh.id}: load ${q} over capacity ${c} (dimension ${k}) ${where}`);
      });
    for (const id of route.jobs) if (!pairOf.has(id)) change(demandOf(id), 1);
    checkLoad('leaving the start');
    route.jobs.forEach((id, at) => {
      const job = jobs.get(id);
      if (!job) {
        v.push(`unknown job ${id}`);
        return;
      }
      if (seen.has(id)) v.push(`job ${id} served twice`);
      seen.add(id);
      list.push(job);
      const pair = pairOf.get(id);
      if (!pair) change(demandOf(id), -1);
      else if (id === pair.pickup) {
        change(demandOf(id), 1);
        const d = route.jobs.indexOf(pair.delivery);
        if (d < 0 && !(opts.openPairs && !servedIds.has(pair.delivery)))
          v.push(`pair ${pair.pickup}->${pair.delivery}: the delivery is not on vehicle ${veh.id} with its pickup`);
        if (d >= 0 && d < at) v.push(`pair ${pair.pickup}->${pair.delivery}: delivered before its pickup`);
      } else {
        change(demandOf(pair.pickup), -1);
        if (!route.jobs.includes(pair.pickup))
          v.push(`pair ${pair.pickup}->${pair.delivery}: delivered without its pickup on vehicle ${veh.id}`);
      }
      checkLoad(`after job ${id}`);
    });
    const r = replayRoute(input, veh, list, input.balance, route.departure);
    v.push(...r.problems);
    travel += r.travel;
    cost += r.cost;
    if (!r.ok) continue;
    const near = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));
    if (route.departure !== undefined && !near(route.departure, r.departure))
      v.push(`vehicle ${veh.id}: departure ${route.departure}, the rules give ${r.departure}`);
    if (route.starts && route.starts.some((s, k) => !near(s, r.starts[k])))
      v.push(`vehicle ${veh.id}: service starts differ from the rules'`);
    if (
      route.breaks &&
      (route.breaks.length !== r.breaks.length ||
        route.breaks.some((b, k) => b.before !== r.breaks[k].before || !near(b.start, r.breaks[k].start)))
    ) {
      v.push(`vehicle ${veh.id}: breaks ${JSON.stringify(route.breaks)}, the rules give ${JSON.stringify(r.breaks)}`);
    }
    if (route.cost !== undefined && !near(route.cost, r.cost)) v.push(`vehicle ${veh.id}: cost ${route.cost}, the rules give ${r.cost}`);
  }
  for (const id of res.unassigned) {
    if (!jobs.has(id)) v.push(`unknown unassigned job ${id}`);
    if (seen.has(id)) v.push(`job ${id} both served and unassigned`);
  }
  if (!opts.openPairs)
    for (const p of input.pairs ?? [])
      if (seen.has(p.pickup) !== seen.has(p.delivery)) v.push(`pair ${p.pickup}->${p.delivery}: one half served, the other not`);
  const accounted = new Set([...seen, ...res.unassigned]);
  for (const id of jobs.keys()) if (!accounted.has(id)) v.push(`job ${id} neither served nor unassigned`);
  let hardUnserved = 0;
  for (const job of input.jobs) {
    if (seen.has(job.id)) continue;
    if (job.penalty === undefined) hardUnserved++;
    else cost += job.penalty;
  }
  return { violations: v, travel, served: seen.size, cost, hardUnserved };
}

/** A small random instance: points on a plane (optionally asymmetric), mixed fleet, windows, 2 dimensions. */
export function randomFleet(seed: number, opts: { jobs: number; vehicles: number; asymmetric?: boolean }): FleetInput {
  const rng = createRng(seed);
  const nLoc = opts.jobs + 2;
  const xs = Array.from({ length: nLoc }, () => rng.next() * 100);
  const ys = Array.from({ length: nLoc }, () => rng.next() * 100);
  const matrix = xs.map((_, i) =>
    xs.map((__, j) => {
      const base = Math.hypot(xs[i] - xs[j], ys[i] - ys[j]);
      return i === j ? 0 : opts.asymmetric ? Math.round(base * (1 + 0.5 * rng.next())) : Math.round(base);
    }),
  );
  const vehicles = Array.from({ length: opts.vehicles }, (_, k) => {
    const start = rng.int(2);
    const kind = rng.int(3);
    const shiftEnd = 150 + rng.int(400);
    return {
      id: 100 + k,
      start,
      ...(kind === 0 ? {} : { end: kind === 1 ? start : 1 - start }),
      capacity: [10 + rng.int(20), 3 + rng.int(5)],
      shift: [rng.int(20), shiftEnd] as [number, number],
    };
  });
  const jobs = Array.from({ length: opts.jobs }, (_, k) => {
    const nw = rng.int(3);
    const windows: [number, number][] = [];
    let t = rng.int(100);
    for (let w = 0; w < nw; w++) {
      const len = 10 + rng.int(80);
      windows.push([t, t + len]);
      t += len + rng.int(100);
    }
    return {
      id: 1 + k * 3,
      location: 2 + k,
      demand: [1 + rng.int(8), rng.int(3)],
      service: rng.int(15),
      ...(nw > 0 ? { windows } : {}),
    };
  });
  return { matrix, vehicles, jobs };
}

/**
 * Exhaustive optimum: fewest jobs without a penalty left out, then least cost (travel by default). Depth-first over "append one more
 * job to one vehicle", pruning a branch as soon as a route breaks a rule.
 */
export function bruteForceFleet(input: FleetInput): {
  served: number;
  travel: number;
  cost: number;
  hardUnserved: number;
  plan?: FleetResult;
} {
  const routes: number[][] = input.vehicles.map(() => []);
  const used = new Set<number>();
  let best: ReturnType<typeof bruteForceFleet> = { served: -1, travel: Infinity, cost: Infinity, hardUnserved: Infinity };
  const evaluate = (): void => {
    const res: FleetResult = {
      routes: routes.map((jobs, k) => ({ vehicle: input.vehicles[k].id, jobs: jobs.slice() })).filter((r) => r.jobs.length > 0),
      unassigned: input.jobs.filter((j) => !used.has(j.id)).map((j) => j.id),
    };
    const c = checkPlan(input, res);
    if (c.violations.length > 0) return;
    if (c.hardUnserved < best.hardUnserved || (c.hardUnserved === best.hardUnserved && c.cost < best.cost - 1e-9)) {
      best = { served: c.served, travel: c.travel, cost: c.cost, hardUnserved: c.hardUnserved, plan: res };
    }
  };
  const feasiblePrefix = (k: number): boolean => {
    // Only route k changed: check it alone, ignoring the return, breaks and duration (more jobs may follow).
    const veh = input.vehicles[k];
    const res: FleetResult = {
      routes: [{ vehicle: veh.id, jobs: routes[k] }],
      unassigned: input.jobs.filter((j) => !routes[k].includes(j.id)).map((j) => j.id),
    };
    const relaxed: FleetInput = {
      ...input,
      vehicles: [{ ...veh, end: undefined, shift: [veh.shift?.[0] ?? 0, Infinity], breaks: undefined, maxDuration: undefined }],
    };
    return checkPlan(relaxed, res, { openPairs: true }).violations.length === 0;
  };
  const dfs = (): void => {
    evaluate();
    for (const job of input.jobs) {
      if (used.has(job.id)) continue;
      for (let k = 0; k < routes.length; k++) {
        routes[k].push(job.id);
        used.add(job.id);
        if (feasiblePrefix(k)) dfs();
        used.delete(job.id);
        routes[k].pop();
      }
    }
  };
  dfs();
  return best;
}
