import { legVia, stopEtas, travelSeconds, type EtaStop, type StopEta, type TravelModel } from './eta';
import type { LatLng } from './haversine';

/**
 * The one ETA of a route's remaining stops (issue 31): the road legs stored with the route at commit,
 * the time at each door, and the driver's real progress (the last stop worked and when, the van's
 * last position and when). Plain: the server's refresh, the bench and the tests call it; the phone
 * and the recipient read what the server stored from it, so they show the same minute.
 */

/** A stored leg: seconds from `from` (a stop's parcel id, null = the route's start) to `to`. */
export interface RouteLegTime {
  from: number | null;
  to: number;
  durationS: number;
}

/** Where the van was last known to be, and when. */
export type EtaOrigin =
  /** A position reading (fresh): the van is somewhere on the way. */
  | { kind: 'position'; at: LatLng; since: number }
  /** The last stop worked, at the time it was worked (`since`, null when unknown). */
  | { kind: 'stop'; id: number; at: LatLng | null; since: number | null }
  /** Nothing worked yet: the route's start (depot), leaving at the shift's start. */
  | { kind: 'start'; at: LatLng | null };

export interface RoadEtaInput {
  now: number;
  /** Epoch ms the shift starts: the van leaves no earlier. */
  shiftStart: number;
  origin: EtaOrigin;
  /** Stops still to visit, in order. */
  stops: readonly EtaStop[];
  /** The route's stored legs (any order); none for a route planned before they were stored. */
  legs: readonly RouteLegTime[];
  /** The estimate for a pair with no stored leg (a changed order, a position off the plan). */
  model: TravelModel;
}

const placed = (s: { latitude: number | null; longitude: number | null }): s is LatLng => s.latitude != null && s.longitude != null;
const key = (from: number | null, to: number) => `${from ?? 'start'}>${to}`;

/**
 * How much slower (or faster) the roads of this route are than the estimate: stored seconds over
 * estimated seconds on the stored legs between known places. An estimated leg of the same route
 * (a position between stops, a reordered pair) is scaled by it, so a route on slow roads stays slow.
 */
export function roadFactor(legs: readonly RouteLegTime[], places: ReadonlyMap<number | null, LatLng>, model: TravelModel): number {
  let road = 0;
  let est = 0;
  for (const l of legs) {
    const a = places.get(l.from);
    const b = places.get(l.to);
    if (!a || !b) continue;
    const e = travelSeconds(a, b, model);
    if (e < 1) continue;
    road += l.durationS;
    est += e;
  }
  return est > 0 && road > 0 ? road / est : 1;
}

/** Seconds of each leg to the remaining stops: stored where the pair was planned, else the scaled estimate. */
export function remainingLegs(input: Pick<RoadEtaInput, 'origin' | 'stops' | 'legs' | 'model'>, startPlace: LatLng | null): number[] {
  const stored = new Map(input.legs.map((l) => [key(l.from, l.to), l.durationS]));
  const places = new Map<number | null, LatLng>();
  if (startPlace) places.set(null, startPlace);
  for (const s of input.stops) if (placed(s)) places.set(s.id, { latitude: s.latitude, longitude: s.longitude });
  const o = input.origin;
  if (o.kind === 'stop' && o.at) places.set(o.id, o.at);
  const factor = roadFactor(input.legs, places, input.model);
  // Who the van is coming from: a stop's id, the route's start (null), or a point off the plan.
  let fromId: number | null | undefined = o.kind === 'stop' ? o.id : o.kind === 'start' ? null : undefined;
  let here: LatLng | null = o.at;
  return input.stops.map((s) => {
    if (!placed(s)) return 0;
    // A leg by way of the depot (a reload) was never planned as stored: estimated, both halves.
    const given = fromId !== undefined && !s.via ? stored.get(key(fromId, s.id)) : undefined;
    const leg = given ?? legVia(here, s, (a, b) => travelSeconds(a, b, input.model) * factor);
    fromId = s.id;
    here = { latitude: s.latitude, longitude: s.longitude };
    return leg;
  });
}

/**
 * Arrival, service and departure of each remaining stop. The van leaves its origin when it was
 * last known there (a stop worked at 10:02 left at about 10:02; a position read at 10:05 was on the
 * way then), never before the shift starts; a stop it should have reached already is due now, and
 * the stops after it move with it.
 */
export function roadEtas(
  input: RoadEtaInput,
  startPlace: LatLng | null = input.origin.kind === 'start' ? input.origin.at : null,
): StopEta[] {
  const o = input.origin;
  const since = o.kind === 'start' ? null : o.since;
  const leaveAt = Math.max(input.shiftStart, since ?? input.now);
  const legs = remainingLegs(input, startPlace);
  if (!input.stops.length) return [];
  // Late against the plan: the first arrival cannot be before now (the van is not there yet).
  const first = leaveAt + Math.round((legs[0] ?? 0) * 1000);
  if (first < input.now) legs[0] = (input.now - leaveAt) / 1000;
  return stopEtas({ from: o.at, startAt: leaveAt, stops: input.stops, legs, model: input.model });
}
