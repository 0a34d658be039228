export { optimizeRoute, DEFAULT_SEED, DEFAULT_TIME_LIMIT_MS } from './optimize';
export type { OptimizeInput, OptimizeResult } from './optimize';
export { routeCost } from './matrix';
export { haversineMatrix, haversineDistance } from './haversine';
export type { LatLng } from './haversine';
export { haversineProvider, greatCircleProvider, greatCircleSeconds, osrmTableProvider, TravelTimeError } from './provider';
export type { TravelTimeProvider, GreatCircleOptions, OsrmOptions } from './provider';
export { parseTsplib, euc2dMatrix } from './tsplib';
export type { TsplibInstance } from './tsplib';
export {
  optimizeFleet, routeSchedule, unassignedReason, parseSolomon, FLEET_DEFAULT_SEED, FLEET_DEFAULT_TIME_LIMIT_MS,
} from './fleet';
export type {
  FleetInput, FleetJob, FleetResult, FleetRoute, FleetVehicle, RouteSchedule, StopTimes, UnassignedReason, SolomonInstance,
} from './fleet';
