export interface LatLng {
  latitude: number;
  longitude: number;
}

/** Mean Earth radius (IUGG), metres. */
const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;

export function haversineDistance(a: LatLng, b: LatLng): number {
  const dLat = (b.latitude - a.latitude) * RAD;
  const dLng = (b.longitude - a.longitude) * RAD;
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * RAD) * Math.cos(b.latitude * RAD) * Math.sin(dLng / 2) ** 2;
  // Clamp: rounding can push s a hair above 1 for antipodal points, making asin NaN.
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(Math.min(1, s)));
}

/** Great-circle distances in metres; computed once per pair so the matrix is exactly symmetric. */
export function haversineMatrix(points: LatLng[]): number[][] {
  const n = points.length;
  for (let i = 0; i < n; i++) {
    const p = points[i];
    if (!Number.isFinite(p.latitude) || !Number.isFinite(p.longitude)) {
      throw new RangeError(`haversineMatrix: point ${i} has a non-finite coordinate`);
    }
  }
  const m: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const d = haversineDistance(points[i], points[j]);
      m[i][j] = d;
      m[j][i] = d;
    }
  }
  return m;
}
