import { haversineDistance, haversineMatrix, type LatLng } from './haversine';

/**
 * Source of the travel-cost matrix fed to the optimisers. Road-network engines (OSRM `table`,
 * Valhalla `sources_to_targets`) implement it; the default needs no network at all.
 * `name` keys caches (a matrix from one provider is never served as another's).
 */
export interface TravelTimeProvider {
  /** Square matrix, [from][to]; travel seconds for time providers (metres for `haversineProvider`). */
  matrix(points: LatLng[]): Promise<number[][]>;
  readonly name?: string;
}

/** Great-circle metres, exactly symmetric: the phone's optimiser uses it offline. */
export const haversineProvider: TravelTimeProvider = {
  name: 'haversine-m',
  matrix: (points) => Promise.resolve(haversineMatrix(points)),
};

export interface GreatCircleOptions {
  /** Average speed on the roads driven, km/h. */
  speedKmh: number;
  /** Road distance ÷ straight-line distance; around 1.3 in cities. */
  detourFactor: number;
}

/** Seconds to drive from a to b by the great-circle estimate: distance × detour factor at the speed. */
export function greatCircleSeconds(a: LatLng, b: LatLng, o: GreatCircleOptions): number {
  return (haversineDistance(a, b) * o.detourFactor) / (o.speedKmh / 3.6);
}

/** The default travel times: great-circle distance × a detour factor at a configured speed, in seconds. */
export function greatCircleProvider(o: GreatCircleOptions): TravelTimeProvider {
  if (!(o.speedKmh > 0) || !(o.detourFactor >= 1)) throw new RangeError('speedKmh must be > 0 and detourFactor >= 1');
  return {
    name: `great-circle:${o.speedKmh}:${o.detourFactor}`,
    matrix: (points) => Promise.resolve(haversineMatrix(points).map((row) => row.map((m) => (m * o.detourFactor) / (o.speedKmh / 3.6)))),
  };
}

export class TravelTimeError extends Error {}

export interface OsrmOptions {
  /** e.g. http://localhost:5000 (the osrm-routed server). */
  baseUrl: string;
  profile?: string;
  timeoutMs?: number;
  /** osrm-routed's --max-table-size (default 100): larger sets are asked in blocks of sources × destinations. */
  maxTableSize?: number;
  /** Pairs OSRM cannot route (null in its answer) get this estimate instead. */
  unroutable?: GreatCircleOptions;
  fetch?: typeof fetch;
}

/**
 * OSRM's table service: `GET /table/v1/{profile}/{lng,lat;...}?sources=..&destinations=..&annotations=duration`,
 * answering `{ code: "Ok", durations: number[][] }` in seconds. Any other answer, an HTTP error or
 * a timeout throws TravelTimeError (callers fall back to the great-circle estimate).
 */
export function osrmTableProvider(o: OsrmOptions): TravelTimeProvider {
  const profile = o.profile ?? 'driving';
  const block = Math.max(2, Math.floor((o.maxTableSize ?? 100) / 2));
  const doFetch = o.fetch ?? fetch;
  const base = o.baseUrl.replace(/\/+$/, '');
  const ask = async (points: LatLng[], sources: number[], targets: number[]): Promise<(number | null)[][]> => {
    const idx = [...new Set([...sources, ...targets])];
    const at = new Map(idx.map((p, i) => [p, i]));
    const coords = idx.map((p) => `${points[p].longitude.toFixed(6)},${points[p].latitude.toFixed(6)}`).join(';');
    const url =
      `${base}/table/v1/${encodeURIComponent(profile)}/${coords}?sources=${sources.map((s) => at.get(s)).join(';')}` +
      `&destinations=${targets.map((t) => at.get(t)).join(';')}&annotations=duration`;
    let res: Response;
    try {
      res = await doFetch(url, { signal: AbortSignal.timeout(o.timeoutMs ?? 10_000) });
    } catch (err) {
      throw new TravelTimeError(`OSRM unreachable or too slow: ${err instanceof Error ? err.message : String(err)}`);
    }
    let body: { code?: string; message?: string; durations?: unknown };
    try {
      body = (await res.json()) as typeof body;
    } catch {
      throw new TravelTimeError(`OSRM answered HTTP ${res.status} without JSON`);
    }
    if (!res.ok || body.code !== 'Ok') throw new TravelTimeError(`OSRM: ${body.code ?? res.status} ${body.message ?? ''}`.trim());
    const d = body.durations;
    if (!Array.isArray(d) || d.length !== sources.length || d.some((r) => !Array.isArray(r) || r.length !== targets.length)) {
      throw new TravelTimeError('OSRM: durations do not match the request');
    }
    return d as (number | null)[][];
  };
  return {
    name: `osrm:${profile}`,
    async matrix(points) {
      const n = points.length;
      const m: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
      if (n < 2) return m;
      const all = points.map((_, i) => i);
      for (let s = 0; s < n; s += block) {
        for (let t = 0; t < n; t += block) {
          const sources = all.slice(s, s + block);
          const targets = all.slice(t, t + block);
          const d = await ask(points, sources, targets);
          sources.forEach((i, a) =>
            targets.forEach((j, b) => {
              const v = d[a][b];
              if (typeof v === 'number' && Number.isFinite(v)) m[i][j] = i === j ? 0 : v;
              else if (o.unroutable) m[i][j] = greatCircleSeconds(points[i], points[j], o.unroutable);
              else throw new TravelTimeError(`OSRM cannot route ${i} -> ${j}`);
            }),
          );
        }
      }
      return m;
    },
  };
}
