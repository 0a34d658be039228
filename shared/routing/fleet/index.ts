export { optimizeFleet } from './optimize';
export { routeSchedule } from './schedule';
export { unassignedReason, unassignedReasons } from './reasons';
export type { UnassignedReason } from './reasons';
export { parseSolomon } from './solomon';
export type { FleetInput, FleetResult } from './types';
