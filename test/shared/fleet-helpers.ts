import type { FleetInput, FleetResult } from '../../shared/routing';
import { createRng } from '../../shared/routing/rng';

const TOL = 1e-6;

/**
 * Feasibility checker written apart from the solver (no shared code): replays every route from
 * the raw input and lists every broken rule. Also returns total travel.
 */
export function checkPlan(input: FleetInput, res: FleetResult): { violations: string[]; travel: number; served: number } {
  const v: string[] = [];
  const jobs = new Map(input.jobs.map((j) => [j.id, j]));
  const vehicles = new Map(input.vehicles.map((x) => [x.id, x]));
  const seen = new Set<number>();
  const usedVehicles = new Set<number>();
  let travel = 0;
  for (const route of res.routes) {
    const veh = vehicles.get(route.vehicle);
    if (!veh) {
      v.push(`unknown vehicle ${route.vehicle}`);
      continue;
    }
    if (usedVehicles.has(veh.id)) v.push(`vehicle ${veh.id} has two routes`);
    usedVehicles.add(veh.id);
    const shiftStart = veh.shift ? veh.shift[0] : 0;
    const shiftEnd = veh.shift ? veh.shift[1] : Infinity;
    let time = shiftStart;
    let here = veh.start;
    const load: number[] = [];
    for (const id of route.jobs) {
      const job = jobs.get(id);
      if (!job) {
        v.push(`unknown job ${id}`);
        continue;
      }
      if (seen.has(id)) v.push(`job ${id} served twice`);
      seen.add(id);
      travel += input.matrix[here][job.location];
      time += input.matrix[here][job.location];
      if (job.windows && job.windows.length > 0) {
        // Earliest moment inside any window at or after arrival.
        let startAt = Infinity;
        for (const [a, b] of job.windows) if (time <= b + TOL) startAt = Math.min(startAt, Math.max(time, a));
        if (startAt === Infinity) v.push(`vehicle ${veh.id}: job ${id} reached at ${time} after its windows`);
        else time = startAt;
      }
      time += job.service ?? 0;
      here = job.location;
      (job.demand ?? []).forEach((q, k) => { load[k] = (load[k] ?? 0) + q; });
    }
    if (veh.end !== undefined && route.jobs.length > 0) {
      travel += input.matrix[here][veh.end];
      time += input.matrix[here][veh.end];
    }
    if (time > shiftEnd + TOL) v.push(`vehicle ${veh.id}: done at ${time}, after shift end ${shiftEnd}`);
    load.forEach((q, k) => {
      const c = veh.capacity?.[k];
      if (c !== undefined && q > c + TOL) v.push(`vehicle ${veh.id}: load ${q} over capacity ${c} (dimension ${k})`);
    });
  }
  for (const id of res.unassigned) {
    if (!jobs.has(id)) v.push(`unknown unassigned job ${id}`);
    if (seen.has(id)) v.push(`job ${id} both served and unassigned`);
  }
  const accounted = new Set([...seen, ...res.unassigned]);
  for (const id of jobs.keys()) if (!accounted.has(id)) v.push(`job ${id} neither served nor unassigned`);
  return { violations: v, travel, served: seen.size };
}

/** A small random instance: points on a plane (optionally asymmetric), mixed fleet, windows, 2 dimensions. */
export function randomFleet(seed: number, opts: { jobs: number; vehicles: number; asymmetric?: boolean }): FleetInput {
  const rng = createRng(seed);
  const nLoc = opts.jobs + 2;
  const xs = Array.from({ length: nLoc }, () => rng.next() * 100);
  const ys = Array.from({ length: nLoc }, () => rng.next() * 100);
  const matrix = xs.map((_, i) => xs.map((__, j) => {
    const base = Math.hypot(xs[i] - xs[j], ys[i] - ys[j]);
    return i === j ? 0 : opts.asymmetric ? Math.round(base * (1 + 0.5 * rng.next())) : Math.round(base);
  }));
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
 * Exhaustive optimum: most jobs served, then least travel. Depth-first over "append one more
 * job to one vehicle", pruning a branch as soon as a route breaks a rule.
 */
export function bruteForceFleet(input: FleetInput): { served: number; travel: number } {
  const routes: number[][] = input.vehicles.map(() => []);
  const used = new Set<number>();
  let best = { served: -1, travel: Infinity };
  const evaluate = (): void => {
    const res: FleetResult = {
      routes: routes.map((jobs, k) => ({ vehicle: input.vehicles[k].id, jobs: jobs.slice() })).filter((r) => r.jobs.length > 0),
      unassigned: input.jobs.filter((j) => !used.has(j.id)).map((j) => j.id),
    };
    const c = checkPlan(input, res);
    if (c.violations.length > 0) return;
    if (c.served > best.served || (c.served === best.served && c.travel < best.travel - 1e-9)) best = { served: c.served, travel: c.travel };
  };
  const feasiblePrefix = (k: number): boolean => {
    // Only route k changed: check it alone, ignoring the return (more jobs may follow).
    const veh = input.vehicles[k];
    const res: FleetResult = { routes: [{ vehicle: veh.id, jobs: routes[k] }], unassigned: input.jobs.filter((j) => !routes[k].includes(j.id)).map((j) => j.id) };
    const relaxed: FleetInput = { ...input, vehicles: [{ ...veh, end: undefined, shift: [veh.shift?.[0] ?? 0, Infinity] }] };
    return checkPlan(relaxed, res).violations.length === 0;
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
