import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { travelMatrixCache } from '../../db/schema/index';
import { greatCircleProvider, osrmTableProvider, TravelTimeError, type TravelTimeProvider } from '../../../shared/routing/provider';
import type { LatLng } from '../../../shared/routing/haversine';

export interface TravelMatrix {
  /** Seconds, [from][to]. */
  matrix: number[][];
  /** The provider that made it (`osrm:driving`, `great-circle:30:1.3`). */
  source: string;
  cached: boolean;
  /** Set when the configured road engine failed and the great-circle estimate stood in. */
  fallback: string | null;
}

/** How many days of matrices are kept: a day's plan and its re-plans share one. */
const KEEP_DAYS = 7;

const pointsHash = (points: LatLng[]) =>
  createHash('sha256')
    .update(points.map((p) => `${p.latitude.toFixed(6)},${p.longitude.toFixed(6)}`).join(';'))
    .digest('hex');

/** The configured providers: OSRM's table when OSRM_URL is set, else (and as its stand-in) the great-circle estimate. */
export function travelProviders(
  config: Deps['config'],
  fetchFn?: typeof fetch,
): { primary: TravelTimeProvider; fallback: TravelTimeProvider } {
  const gc = { speedKmh: config.travelSpeedKmh, detourFactor: config.detourFactor };
  const fallback = greatCircleProvider(gc);
  const primary = config.osrmUrl ? osrmTableProvider({ baseUrl: config.osrmUrl, unroutable: gc, fetch: fetchFn }) : fallback;
  return { primary, fallback };
}

/**
 * Travel times between points for a day's plan, cached per day and point set: the dispatcher's
 * plan, its re-plans and the ETAs read one matrix, and the road engine is asked once. A failing
 * road engine never stops planning: the great-circle estimate answers (not cached, so the engine is
 * asked again next time) and says why.
 */
export async function travelMatrix(
  deps: Pick<Deps, 'db' | 'config' | 'writes' | 'clock'>,
  points: LatLng[],
  day: string,
  fetchFn?: typeof fetch,
): Promise<TravelMatrix> {
  const { primary, fallback } = travelProviders(deps.config, fetchFn);
  const hash = pointsHash(points);
  const name = primary.name ?? 'unnamed';
  const hit = await deps.db
    .select()
    .from(travelMatrixCache)
    .where(and(eq(travelMatrixCache.day, day), eq(travelMatrixCache.provider, name), eq(travelMatrixCache.points_hash, hash)))
    .get();
  if (hit) return { matrix: JSON.parse(hit.matrix) as number[][], source: name, cached: true, fallback: null };
  let matrix: number[][];
  try {
    matrix = await primary.matrix(points);
  } catch (err) {
    if (!(err instanceof TravelTimeError) || primary === fallback) throw err;
    return { matrix: await fallback.matrix(points), source: fallback.name ?? 'great-circle', cached: false, fallback: err.message };
  }
  const oldest = new Date(Date.parse(`${day}T00:00:00Z`) - KEEP_DAYS * 86_400_000).toISOString().slice(0, 10);
  await deps.writes.run(async () => {
    await deps.db.delete(travelMatrixCache).where(lt(travelMatrixCache.day, oldest)).run();
    await deps.db
      .insert(travelMatrixCache)
      .values({ day, provider: name, points_hash: hash, matrix: JSON.stringify(matrix), created_at: deps.clock.now() })
      .onConflictDoNothing()
      .run();
  });
  return { matrix, source: name, cached: false, fallback: null };
}
