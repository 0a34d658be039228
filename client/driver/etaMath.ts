import { DEFAULT_RELOAD_S } from '../../shared/routing/amend';
import { DEFAULT_SERVICE_S, stopEtas, timeOnDay } from '../../shared/routing/eta';
import type { LatLng } from '../../shared/routing/haversine';
import type { RouteEtas } from '../../shared/schemas/dispatch';
import type { RouteRecord } from '../../shared/schemas/routes';

/** Stops the van still drives to (the server's TO_VISIT in server/services/dispatch/eta.ts). */
const TO_VISIT = new Set(['created', 'received', 'assigned', 'out_for_delivery']);

const placed = (p: { latitude: number | null; longitude: number | null }): p is LatLng => p.latitude != null && p.longitude != null;

/**
 * Arrival time (epoch ms) of each stop still to visit, in the driver's order: the server's stored
 * ETA when the phone's copy of the plan is current, else (work done offline, not yet sent) computed
 * on the phone with the shared function and the same rules as the server: now (not before the shift starts),
 * from the phone's position, else the last stop worked, else the route's start; `done` holds stops
 * worked on the phone but not yet sent.
 */
export function phoneEtas(
  route: Pick<RouteRecord, 'date'>,
  ordered: readonly { id: number; status: string; latitude: number | null; longitude: number | null; sequence_no?: number | null }[],
  plan: RouteEtas | undefined,
  here: Partial<LatLng>,
  now: number,
  done: ReadonlySet<number> = new Set(),
  collections: readonly Collection[] = [],
): Map<number, number> {
  // Collections still to make (issue 32) are stops on the way, keyed by the parcel's id negated (as
  // the server walks them); their parcels' deliveries are still to make too.
  const collecting = collections.filter((c) => !done.has(c.package));
  const awaiting = new Set(collecting.map((c) => c.package));
  const visit = ordered.filter((p) => (TO_VISIT.has(p.status) || awaiting.has(p.id)) && !done.has(p.id));
  // The server's stored ETA (road legs, progress, position; issue 31) is what the recipient's page
  // shows too: the phone shows it as long as it has nothing of this route the server has not seen.
  const stored = new Map((plan?.stops ?? []).flatMap((s) => (s.eta ? [[s.package, Date.parse(s.eta)] as const] : [])));
  for (const c of plan?.collections ?? []) if (c.eta) stored.set(-c.package, Date.parse(c.eta));
  const keys = [...visit.map((p) => p.id), ...collecting.map((c) => -c.package)];
  if (plan && !ordered.some((p) => done.has(p.id)) && keys.every((k) => stored.has(k)))
    return new Map(keys.map((k) => [k, stored.get(k) as number]));
  // A parcel still waiting at its pickup point (a collection not made) was never at its door: not a stop worked.
  const worked = ordered.filter((p) => !visit.includes(p) && p.status !== 'pickup_requested');
  const info = new Map((plan?.stops ?? []).map((s) => [s.package, s]));
  // Shift and windows are the depot's wall clock; a plan fetched before issue 31 has no zone: the phone's own.
  const zone = plan?.time_zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const startAt = Math.max(now, timeOnDay(route.date, plan?.shift_start ?? '08:00', zone));
  const lastWorked = [...worked].reverse().find(placed);
  const from: LatLng | null =
    here.latitude != null && here.longitude != null
      ? { latitude: here.latitude, longitude: here.longitude }
      : lastWorked
        ? { latitude: lastWorked.latitude as number, longitude: lastWorked.longitude as number }
        : (plan?.start ?? null);
  // The trip back to the depot for parcels that joined after the van left, while one still waits there (issue 32).
  const reload =
    plan?.reload && plan.start && visit.some((p) => p.status !== 'out_for_delivery' && !awaiting.has(p.id)) ? plan.reload : null;
  const deliveries = visit.map((p) => {
    const s = info.get(p.id);
    return {
      ...(reload && reload.before === p.id ? { via: { at: plan!.start!, serviceS: DEFAULT_RELOAD_S } } : {}),
      id: p.id,
      latitude: p.latitude,
      longitude: p.longitude,
      serviceS: s?.service_s ?? DEFAULT_SERVICE_S,
      window:
        s?.window_start && s.window_end
          ? ([timeOnDay(route.date, s.window_start, zone), timeOnDay(route.date, s.window_end, zone)] as const)
          : null,
    };
  });
  const etas = stopEtas({
    from,
    startAt,
    model: plan?.travel,
    stops: inRouteOrder(
      visit,
      deliveries,
      collecting.map((c) => ({
        id: -c.package,
        latitude: c.latitude,
        longitude: c.longitude,
        serviceS: info.get(c.package)?.service_s ?? DEFAULT_SERVICE_S,
        window: null,
        seq: c.sequence_no,
      })),
    ),
  });
  return new Map(etas.map((e) => [e.id, e.begin]));
}

/** A collection still to make on a route (its `pickup_stops` entry): where, and its place in the order. */
export interface Collection {
  package: number;
  sequence_no: number;
  latitude: number | null;
  longitude: number | null;
}

/**
 * The collections placed among the deliveries as the route lists them (client/driver/routeCache.ts
 * `stopRows`): each before the first delivery whose place in the order comes after its own.
 */
function inRouteOrder<S, C extends { seq: number }>(
  visit: readonly { sequence_no?: number | null }[],
  deliveries: readonly S[],
  collections: readonly C[],
): (S | Omit<C, 'seq'>)[] {
  if (!collections.length) return [...deliveries];
  const left = [...collections].sort((a, b) => a.seq - b.seq);
  const out: (S | Omit<C, 'seq'>)[] = [];
  const take = () => {
    const { seq: _seq, ...c } = left.shift() as C;
    out.push(c);
  };
  deliveries.forEach((d, i) => {
    const seq = visit[i]?.sequence_no;
    while (left.length && (seq == null || left[0]!.seq < seq)) take();
    out.push(d);
  });
  while (left.length) take();
  return out;
}
