export { optimizeFleet } from './optimize';
export type { FleetRunOptions } from './optimize';
export { routeSchedule } from './schedule';
export { unassignedReason, unassignedReasons, unassignedDetails } from './reasons';
export type { UnassignedReason } from './reasons';
export { parseSolomon } from './solomon';
export type { FleetCosts, FleetInput, FleetResult, FleetRoute } from './types';
