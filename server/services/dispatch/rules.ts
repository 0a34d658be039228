import { timeOnDay } from '../../../shared/routing/eta';
import type { PlanRules } from '../../../shared/schemas/dispatch';
import type { PlanDriver, PlanParcel } from './planTypes';
import type { DayProblem } from './solveDay';

/**
 * A break's window as epoch ms: minutes into the working day, counted from when the driver really
 * set off (the route's `started_at`) where known, else from the rostered shift start (a driver who
 * left at 09:40 for an 08:00 shift takes lunch later, not sooner).
 */
export function breakWindow(
  pause: { after_min: number; after_max: number },
  rosteredStart: number,
  startedAt?: number | null,
): [number, number] {
  const from = startedAt ?? rosteredStart;
  return [from + pause.after_min * 60_000, from + pause.after_max * 60_000];
}

/** A van with a rate of its own. */
const hasOwnRates = (own: PlanDriver['rates']) => own.per_km != null || own.per_hour != null || own.fixed != null;

/** A van's rates: its own where it has them, else the office's (plan settings), else nothing. Shared by the plan and the insertion (amend.ts). */
export const vehicleRates = (own: PlanDriver['rates'], costs: PlanRules['costs'] | undefined) => ({
  per_km: own.per_km ?? costs?.per_km ?? 0,
  per_hour: own.per_hour ?? costs?.per_hour ?? 0,
  fixed: own.fixed ?? costs?.per_vehicle ?? 0,
});

/**
 * The office's plan rules (issue 32) onto the day's fleet problem, whose times are seconds from
 * `dayStart`. The rules are the stored settings with the request's own parts on top
 * (`effectiveRules`); each van's own rates, each shift's own break and the skills stored on
 * drivers, vans and parcels join them here. Costs (per hour of a route, waits included; per km; per van used; per parcel left
 * out), one break per shift, route limits, balance and skills. Without rules the problem is left
 * as it was, and the plan minimises distance as before.
 */
export function applyPlanRules(
  problem: DayProblem,
  rules: Partial<PlanRules>,
  at: { date: string; dayStart: number; drivers: PlanDriver[]; parcels: PlanParcel[] },
): void {
  const { costs } = rules;
  const driverSkills = new Map((rules.driver_skills ?? []).map((d) => [d.driver, d.skills]));
  const parcelSkills = new Map((rules.parcel_skills ?? []).map((p) => [p.package, p.skills]));
  // Costs apply when the office set rates, or a van has its own; vans without their own take the settings'.
  const priced = costs !== undefined || at.drivers.some((d) => hasOwnRates(d.rates));
  const rateOf = (d: PlanDriver) => vehicleRates(d.rates, costs);
  // The cost of a second of route: the hourly rate, else one unit per second of travel.
  const perSecond = costs && costs.per_hour > 0 ? costs.per_hour / 3600 : 1;
  let longestShift = 1;
  let perKm = false;
  problem.vehicles = problem.vehicles.map((veh, v) => {
    const d = at.drivers[v];
    const next = { ...veh };
    if (priced) {
      const r = rateOf(d);
      next.costs = { fixed: r.fixed, perTime: r.per_hour / 3600, perDistance: r.per_km / 1000 };
      if (r.per_km > 0) perKm = true;
    }
    const skills = [...new Set([...d.skills, ...(driverSkills.get(d.id) ?? [])])];
    if (skills.length) next.skills = skills;
    if (rules.max_route_minutes !== undefined) next.maxDuration = rules.max_route_minutes * 60;
    if (rules.max_stops !== undefined) next.maxStops = rules.max_stops;
    const pause = d.break ?? rules.break;
    if (pause) {
      const [open, close] = breakWindow(pause, timeOnDay(at.date, d.shiftStart, d.zone), d.startedAt);
      next.breaks = [
        { duration: pause.minutes * 60, window: [Math.round((open - at.dayStart) / 1000), Math.round((close - at.dayStart) / 1000)] },
      ];
    }
    if (veh.shift) longestShift = Math.max(longestShift, veh.shift[1] - veh.shift[0]);
    return next;
  });
  problem.jobs = problem.jobs.map((job, j) => {
    const p = at.parcels[j];
    const skills = [...new Set([...p.window.skills, ...(parcelSkills.get(p.row.id) ?? [])])];
    return {
      ...job,
      ...(skills.length ? { skills } : {}),
      ...(costs?.unserved_penalty !== undefined ? { penalty: costs.unserved_penalty } : {}),
    };
  });
  if (perKm) problem.distances = true;
  if (rules.balance && rules.balance.weight > 0) {
    const w = rules.balance.weight;
    // Quadratic in the share, so even shares cost least. Duration: a route as long as the longest
    // shift costs w x that shift's time again. Stops: a route with the mean stop count costs w
    // hours more.
    const meanStops = Math.max(1, problem.jobs.length / Math.max(1, problem.vehicles.length));
    problem.balance =
      rules.balance.by === 'duration'
        ? { by: 'duration', weight: (w * perSecond) / longestShift }
        : { by: 'stops', weight: (w * perSecond * 3600) / meanStops };
  }
}
