export { optimizeFleet, FLEET_DEFAULT_SEED, FLEET_DEFAULT_TIME_LIMIT_MS } from './optimize';
export type { FleetRunOptions } from './optimize';
export { routeSchedule } from './schedule';
export type { RouteSchedule, StopTimes } from './schedule';
export { unassignedReason, unassignedReasons, unassignedDetails } from './reasons';
export type { UnassignedReason, UnassignedDetail } from './reasons';
export { parseSolomon } from './solomon';
export type { SolomonInstance } from './solomon';
export type { FleetInput, FleetJob, FleetResult, FleetRoute, FleetVehicle, FleetCosts, FleetBreak, FleetBalance, FleetRouteBreak } from './types';
