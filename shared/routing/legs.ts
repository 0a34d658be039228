import { haversineDistance, type LatLng } from './haversine';
import { TravelTimeError, type GreatCircleOptions } from './provider';

/**
 * The legs of one route in its driving order (issue 31): leg i reaches point i+1 from point i. From
 * the road engine when one is configured (OSRM's `route` service, which answers the exact order's
 * durations and distances), else the great-circle estimate. Stored with the route at commit so every
 * later ETA walks the same roads the plan promised on.
 */
export interface Leg {
  durationS: number;
  distanceM: number | null;
  source: string;
}

/** The great-circle estimate of a leg: straight line × detour factor at the configured speed. */
export function estimateLeg(a: LatLng, b: LatLng, o: GreatCircleOptions): Leg {
  const m = haversineDistance(a, b) * o.detourFactor;
  return { durationS: m / (o.speedKmh / 3.6), distanceM: m, source: 'estimate' };
}

export function estimateLegs(points: readonly LatLng[], o: GreatCircleOptions): Leg[] {
  return points.slice(1).map((p, i) => estimateLeg(points[i]!, p, o));
}

export interface OsrmRouteOptions {
  baseUrl: string;
  profile?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** osrm-routed answers at most this many waypoints per route request by default (--max-viaroute-size 500). */
const MAX_WAYPOINTS = 500;

/**
 * `GET /route/v1/{profile}/{lng,lat;...}?overview=false` answering `{ code: "Ok", routes: [{ legs:
 * [{ duration, distance }] }] }`. Long routes are asked in overlapping blocks. Any other answer, an
 * HTTP error or a timeout throws TravelTimeError (the caller falls back to the estimate).
 */
export async function osrmRouteLegs(points: readonly LatLng[], o: OsrmRouteOptions): Promise<Leg[]> {
  if (points.length < 2) return [];
  const profile = o.profile ?? 'driving';
  const source = `osrm:${profile}`;
  const base = o.baseUrl.replace(/\/+$/, '');
  const doFetch = o.fetch ?? fetch;
  const out: Leg[] = [];
  for (let s = 0; s < points.length - 1; s += MAX_WAYPOINTS - 1) {
    const block = points.slice(s, s + MAX_WAYPOINTS);
    const coords = block.map((p) => `${p.longitude.toFixed(6)},${p.latitude.toFixed(6)}`).join(';');
    let res: Response;
    try {
      res = await doFetch(`${base}/route/v1/${encodeURIComponent(profile)}/${coords}?overview=false&steps=false`, {
        signal: AbortSignal.timeout(o.timeoutMs ?? 10_000),
      });
    } catch (err) {
      throw new TravelTimeError(`OSRM unreachable or too slow: ${err instanceof Error ? err.message : String(err)}`);
    }
    let body: { code?: string; message?: string; routes?: { legs?: { duration?: unknown; distance?: unknown }[] }[] };
    try {
      body = (await res.json()) as typeof body;
    } catch {
      throw new TravelTimeError(`OSRM answered HTTP ${res.status} without JSON`);
    }
    if (!res.ok || body.code !== 'Ok') throw new TravelTimeError(`OSRM: ${body.code ?? res.status} ${body.message ?? ''}`.trim());
    const legs = body.routes?.[0]?.legs;
    if (!Array.isArray(legs) || legs.length !== block.length - 1) throw new TravelTimeError('OSRM: legs do not match the waypoints');
    for (const l of legs) {
      if (typeof l.duration !== 'number' || !Number.isFinite(l.duration) || l.duration < 0)
        throw new TravelTimeError('OSRM: a leg without a duration');
      out.push({
        durationS: l.duration,
        distanceM: typeof l.distance === 'number' && Number.isFinite(l.distance) ? l.distance : null,
        source,
      });
    }
  }
  return out;
}
