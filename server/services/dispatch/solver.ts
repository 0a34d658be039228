import type { FleetInput, FleetResult } from './fleetTypes';

/**
 * Cheapest feasible insertion: jobs in order of their latest window close, each put where it adds
 * the least travel on any vehicle without breaking a window, a capacity or a shift end.
 * The planner's first solver, used until `optimizeFleet` (shared/routing) takes its place.
 */
export function solveFleet(input: FleetInput): FleetResult {
  const { matrix, vehicles, jobs } = input;
  const routes: number[][] = vehicles.map(() => []);
  const loads = vehicles.map((v) => (v.capacity ?? []).map(() => 0));
  const unassigned: number[] = [];
  const close = (j: number) => Math.max(...(jobs[j].windows ?? [[0, Infinity]]).map((w) => w[1]));
  const order = jobs.map((_, j) => j).sort((a, b) => close(a) - close(b));

  const feasible = (v: number, route: number[]): boolean => {
    const veh = vehicles[v];
    let t = veh.shift?.[0] ?? 0;
    let here = veh.start;
    for (const j of route) {
      const job = jobs[j];
      t += matrix[here][job.location];
      const ws = job.windows?.length ? job.windows : null;
      if (ws) {
        const w = ws.find((x) => t <= x[1]);
        if (!w) return false;
        t = Math.max(t, w[0]);
      }
      t += job.service ?? 0;
      here = job.location;
    }
    if (veh.end != null) t += matrix[here][veh.end];
    return veh.shift == null || t <= veh.shift[1];
  };
  const cost = (v: number, route: number[]): number => {
    let c = 0;
    let here = vehicles[v].start;
    for (const j of route) { c += matrix[here][jobs[j].location]; here = jobs[j].location; }
    const end = vehicles[v].end;
    return end != null ? c + matrix[here][end] : c;
  };

  for (const j of order) {
    const demand = jobs[j].demand ?? [];
    let best: { v: number; at: number; add: number } | null = null;
    for (let v = 0; v < vehicles.length; v++) {
      const cap = vehicles[v].capacity ?? [];
      if (demand.some((d, k) => d > (cap[k] ?? Infinity) - (loads[v][k] ?? 0))) continue;
      const base = cost(v, routes[v]);
      for (let at = 0; at <= routes[v].length; at++) {
        const trial = [...routes[v].slice(0, at), j, ...routes[v].slice(at)];
        const add = cost(v, trial) - base;
        if (best && add >= best.add) continue;
        if (feasible(v, trial)) best = { v, at, add };
      }
    }
    if (!best) { unassigned.push(jobs[j].id); continue; }
    routes[best.v].splice(best.at, 0, j);
    demand.forEach((d, k) => { loads[best.v][k] = (loads[best.v][k] ?? 0) + d; });
  }
  return {
    routes: routes.map((r, v) => ({ vehicle: vehicles[v].id, jobs: r.map((j) => jobs[j].id) })).filter((r) => r.jobs.length > 0),
    unassigned,
  };
}
