import type { FleetCosts } from '../../../shared/routing/fleet/index';
import type { PlanRoute } from '../../../shared/schemas/dispatch';

/**
 * What a planned route costs the courier at the rates it was planned with (issue 32): the van's fixed
 * cost once it has a stop, its hourly rate over the route's whole time (waits, breaks and the drive back
 * included, as `duration_s` counts them) and its rate per km of `distance_m`. In the office's currency,
 * to the cent. The balance term the optimiser also weighs is not money and is left out, so the board can
 * show what a balanced plan costs against one planned at the rates alone.
 */
export function routeCost(costs: FleetCosts, route: Pick<PlanRoute, 'stops' | 'duration_s' | 'distance_m'>): number {
  if (route.stops.length === 0) return 0;
  const money = (costs.fixed ?? 0) + (costs.perTime ?? 0) * route.duration_s + (costs.perDistance ?? 0) * route.distance_m;
  return Math.round(money * 100) / 100;
}
