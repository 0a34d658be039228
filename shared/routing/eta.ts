import { haversineDistance, type LatLng } from './haversine';
import { localTimeToInstant } from '../time/zone';

/**
 * Arrival times along a route, computed the same way on the server (plans, the dispatch board,
 * stored ETAs) and on the driver's phone (offline, from its own copy). One function, so the office
 * and the driver see the same minute.
 */

/** Great-circle travel: straight line × detour factor at a steady speed (the default provider's model). */
export interface TravelModel {
  speedKmh: number;
  detourFactor: number;
}
export const DEFAULT_TRAVEL: TravelModel = { speedKmh: 30, detourFactor: 1.3 };
/** Time at the door when neither the parcel nor its company says otherwise. */
export const DEFAULT_SERVICE_S = 180;

export function travelSeconds(a: LatLng, b: LatLng, model: TravelModel = DEFAULT_TRAVEL): number {
  return (haversineDistance(a, b) * model.detourFactor) / (model.speedKmh / 3.6);
}

export interface EtaStop {
  id: number;
  latitude: number | null;
  longitude: number | null;
  /** Seconds at the door. */
  serviceS: number;
  /** Epoch ms; service starts inside it (arriving early means waiting). */
  window?: readonly [number, number] | null;
  /** A visit made on the way to this stop: back to the depot to load parcels that joined the route after the van left (issue 32). */
  via?: { at: LatLng; serviceS: number } | null;
}

/** Seconds from `here` to `s` by way of its `via` visit, if any; `est` times one leg. */
export function legVia(here: LatLng | null, s: EtaStop & LatLng, est: (a: LatLng, b: LatLng) => number): number {
  if (!s.via) return here ? est(here, s) : 0;
  return (here ? est(here, s.via.at) : 0) + s.via.serviceS + est(s.via.at, s);
}

export interface StopEta {
  id: number;
  /** Epoch ms the van reaches the stop. */
  arrive: number;
  /** Epoch ms service starts (arrive, or the window's opening). */
  begin: number;
  /** Epoch ms the van leaves. */
  depart: number;
  waitS: number;
  /** Arrives after the window closed. */
  late: boolean;
}

export interface EtaInput {
  /** Where the van is now (or its depot); null = unknown, the first leg then costs nothing. */
  from: LatLng | null;
  /** Epoch ms the van leaves `from`. */
  startAt: number;
  stops: readonly EtaStop[];
  /**
   * Seconds of each leg: `legs[0]` from `from` to the first stop, `legs[i]` from stop i-1 to stop i.
   * Given by the server when it has a road matrix; otherwise great-circle time under `model`.
   */
  legs?: readonly number[];
  model?: TravelModel;
}

const placed = (s: { latitude: number | null; longitude: number | null }): s is LatLng => s.latitude != null && s.longitude != null;

/**
 * Walks the stops in order. A stop without coordinates costs no travel (its place is unknown) but
 * still its service time; the next leg is measured from the last known place.
 */
export function stopEtas(input: EtaInput): StopEta[] {
  const model = input.model ?? DEFAULT_TRAVEL;
  let at = input.startAt;
  let here: LatLng | null = input.from;
  return input.stops.map((s, i) => {
    const given = input.legs?.[i];
    let leg = 0;
    if (given != null && Number.isFinite(given)) leg = given;
    else if (placed(s)) leg = legVia(here, s, (a, b) => travelSeconds(a, b, model));
    const arrive = at + Math.round(leg * 1000);
    const open = s.window?.[0] ?? arrive;
    const begin = Math.max(arrive, open);
    const depart = begin + Math.round(s.serviceS * 1000);
    if (placed(s)) here = { latitude: s.latitude, longitude: s.longitude };
    at = depart;
    return { id: s.id, arrive, begin, depart, waitS: Math.round((begin - arrive) / 1000), late: s.window != null && arrive > s.window[1] };
  });
}

/**
 * `HH:MM` on a `YYYY-MM-DD` day, local to `zone` (the depot's: shifts and windows are typed as the
 * depot's wall clock), as epoch ms. A time the clocks skip moves forward; one they show twice is the first.
 */
export function timeOnDay(date: string, hhmm: string, zone: string): number {
  return localTimeToInstant(date, hhmm, zone);
}

/**
 * The half-hour band a recipient is told ("arriving 14:10–14:40"), centred on the ETA and rounded to 5
 * minutes, but never starting before `opensAt`, the stop's window opening when known: a van early for an
 * 18:00–19:00 window waits and is at that door at 18:00, so "17:45–18:15" would promise what cannot happen.
 */
export function etaBand(ms: number, opensAt: number | null = null, widthMin = 30): [number, number] {
  const five = 5 * 60_000;
  const centred = Math.round((ms - (widthMin / 2) * 60_000) / five) * five;
  const from = opensAt != null && opensAt <= ms ? Math.max(centred, opensAt) : centred;
  return [from, from + widthMin * 60_000];
}
