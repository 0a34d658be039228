import { and, desc, eq, inArray, max } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Deps } from '../../deps';
import { deliveryAttempt, deliveryRecord, routeLeg } from '../../db/schema/index';
import type { LatLng } from '../../../shared/routing/haversine';
import { estimateLegs, osrmRouteLegs, type Leg } from '../../../shared/routing/legs';
import { TravelTimeError } from '../../../shared/routing/provider';
import type { RouteLegTime } from '../../../shared/routing/roadEta';

/** One stop of a route about to be stored, in order; unplaced stops cost no travel. */
export interface LegStop {
  id: number;
  latitude: number | null;
  longitude: number | null;
}
/** A stop's incoming leg as stored. */
export interface PlannedLeg {
  to: number;
  from: number | null;
  seq: number;
  durationS: number;
  distanceM: number | null;
  source: string;
}

const placed = (s: LegStop): s is LegStop & LatLng => s.latitude != null && s.longitude != null;

/**
 * The legs of a route in this order: the road engine's (OSRM_URL) or the estimate, and the
 * estimate when the engine fails (planning never depends on it). Called before a transaction.
 */
export async function routeLegs(
  deps: Pick<Deps, 'config'>,
  start: LatLng | null,
  stops: readonly LegStop[],
  fetchFn?: typeof fetch,
): Promise<PlannedLeg[]> {
  const gc = { speedKmh: deps.config.travelSpeedKmh, detourFactor: deps.config.detourFactor };
  const placedStops = stops.filter(placed);
  const points: LatLng[] = [...(start ? [start] : []), ...placedStops.map((s) => ({ latitude: s.latitude, longitude: s.longitude }))];
  let legs: Leg[];
  try {
    legs = deps.config.osrmUrl ? await osrmRouteLegs(points, { baseUrl: deps.config.osrmUrl, fetch: fetchFn }) : estimateLegs(points, gc);
  } catch (err) {
    if (!(err instanceof TravelTimeError)) throw err;
    legs = estimateLegs(points, gc);
  }
  // Without a start the first placed stop is reached from nowhere known: no leg to it.
  const offset = start ? 0 : -1;
  let from: number | null = null;
  let k = 0;
  return stops.map((s, seq) => {
    if (!placed(s)) return { to: s.id, from, seq, durationS: 0, distanceM: null, source: 'unplaced' };
    const leg = k + offset >= 0 ? legs[k + offset] : undefined;
    k++;
    const out = {
      to: s.id,
      from,
      seq,
      durationS: leg?.durationS ?? 0,
      distanceM: leg?.distanceM ?? null,
      source: leg?.source ?? 'no_start',
    };
    from = s.id;
    return out;
  });
}

/** Replaces a route's stored legs (a new plan or order); `planned_at` is set when its ETAs are. */
export async function storeLegs(db: Db, routeId: number, legs: readonly PlannedLeg[], now: number): Promise<void> {
  await db.delete(routeLeg).where(eq(routeLeg.route_id, routeId)).run();
  for (const l of legs) {
    await db
      .insert(routeLeg)
      .values({
        route_id: routeId,
        package_id: l.to,
        from_package_id: l.from,
        seq: l.seq,
        duration_s: l.durationS,
        distance_m: l.distanceM,
        source: l.source,
        planned_at: 0,
        created_at: now,
      })
      .run();
  }
}

export async function storedLegs(db: Db, routeId: number): Promise<RouteLegTime[]> {
  const rows = await db.select().from(routeLeg).where(eq(routeLeg.route_id, routeId)).all();
  return rows.map((r) => ({ from: r.from_package_id, to: r.package_id, durationS: r.duration_s }));
}

/** The promised arrival of each stop, set with the ETAs of a new plan or order. */
export async function promiseLegs(db: Db, routeId: number, planned: ReadonlyMap<number, number>): Promise<void> {
  for (const [id, at] of planned) {
    await db
      .update(routeLeg)
      .set({ planned_at: at })
      .where(and(eq(routeLeg.route_id, routeId), eq(routeLeg.package_id, id)))
      .run();
  }
}

/**
 * When each parcel was worked at its door: the delivery's device time, else its latest failed
 * attempt's. The driver records at the end of the stop, so this is when the van left it.
 */
export async function workedAt(db: Db, ids: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (!ids.length) return out;
  const attempts = await db
    .select({ id: deliveryAttempt.package_id, at: max(deliveryAttempt.occurred_at) })
    .from(deliveryAttempt)
    .where(inArray(deliveryAttempt.package_id, [...ids]))
    .groupBy(deliveryAttempt.package_id)
    .all();
  for (const a of attempts) if (a.at != null) out.set(a.id, Number(a.at));
  const delivered = await db
    .select({ id: deliveryRecord.package_id, at: deliveryRecord.occurred_at })
    .from(deliveryRecord)
    .where(inArray(deliveryRecord.package_id, [...ids]))
    .orderBy(desc(deliveryRecord.occurred_at))
    .all();
  for (const d of delivered) out.set(d.id, d.at);
  return out;
}
