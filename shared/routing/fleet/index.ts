export { optimizeFleet, FLEET_DEFAULT_SEED, FLEET_DEFAULT_TIME_LIMIT_MS } from './optimize';
export { routeSchedule } from './schedule';
export type { RouteSchedule, StopTimes } from './schedule';
export { unassignedReason, unassignedReasons } from './reasons';
export type { UnassignedReason } from './reasons';
export { parseSolomon } from './solomon';
export type { SolomonInstance } from './solomon';
export type { FleetInput, FleetJob, FleetResult, FleetRoute, FleetVehicle } from './types';
