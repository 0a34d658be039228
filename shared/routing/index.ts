export { optimizeRoute } from './optimize';
export { routeCost } from './matrix';
export { haversineMatrix } from './haversine';
export type { LatLng } from './haversine';
export { haversineProvider } from './provider';
export { parseTsplib, euc2dMatrix } from './tsplib';
export type { TsplibInstance } from './tsplib';
export { stopEtas, travelSeconds, timeOnDay, clockTime, etaBand, DEFAULT_TRAVEL, DEFAULT_SERVICE_S } from './eta';
export type { EtaStop, StopEta, EtaInput, TravelModel } from './eta';
export {
  optimizeFleet, routeSchedule, unassignedReason, unassignedReasons, unassignedDetails, parseSolomon, FLEET_DEFAULT_SEED, FLEET_DEFAULT_TIME_LIMIT_MS,
} from './fleet';
export type {
  FleetInput, FleetJob, FleetResult, FleetRoute, FleetVehicle, RouteSchedule, StopTimes, UnassignedReason, UnassignedDetail, SolomonInstance,
  FleetCosts, FleetBreak, FleetBalance, FleetRouteBreak, FleetRunOptions,
} from './fleet';
