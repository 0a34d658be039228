import { haversineMatrix, type LatLng } from './haversine';

/**
 * Source of the travel-cost matrix fed to optimizeRoute. Road-network engines (OSRM `table`,
 * Valhalla `sources_to_targets`) can implement this; the default needs no network at all.
 */
export interface TravelTimeProvider {
  matrix(points: LatLng[]): Promise<number[][]>;
}

export const haversineProvider: TravelTimeProvider = {
  matrix: (points) => Promise.resolve(haversineMatrix(points)),
};
