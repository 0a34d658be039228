export { optimizeRoute } from './optimize';
export { routeCost } from './matrix';
export { haversineMatrix } from './haversine';
export type { LatLng } from './haversine';
export { haversineProvider } from './provider';
export { parseTsplib, euc2dMatrix } from './tsplib';
export { optimizeFleet, routeSchedule, unassignedReason, unassignedReasons, parseSolomon } from './fleet';
export type { FleetInput, FleetResult } from './fleet';
