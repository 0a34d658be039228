export { optimizeRoute, DEFAULT_SEED, DEFAULT_TIME_LIMIT_MS } from './optimize';
export type { OptimizeInput, OptimizeResult } from './optimize';
export { routeCost } from './matrix';
export { haversineMatrix, haversineDistance } from './haversine';
export type { LatLng } from './haversine';
export { haversineProvider, greatCircleProvider, greatCircleSeconds, osrmTableProvider, TravelTimeError } from './provider';
export type { TravelTimeProvider, GreatCircleOptions, OsrmOptions } from './provider';
export { parseTsplib, euc2dMatrix } from './tsplib';
export type { TsplibInstance } from './tsplib';
