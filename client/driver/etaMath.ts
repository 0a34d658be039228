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
  ordered: readonly { id: number; status: string; latitude: number | null; longitude: number | null }[],
  plan: RouteEtas | undefined,
  here: Partial<LatLng>,
  now: number,
  done: ReadonlySet<number> = new Set(),
): Map<number, number> {
  const visit = ordered.filter((p) => TO_VISIT.has(p.status) && !done.has(p.id));
  // The server's stored ETA (road legs, progress, position; issue 31) is what the recipient's page
  // shows too: the phone shows it as long as it has nothing of this route the server has not seen.
  const stored = new Map((plan?.stops ?? []).flatMap((s) => (s.eta ? [[s.package, Date.parse(s.eta)] as const] : [])));
  if (plan && !ordered.some((p) => done.has(p.id)) && visit.every((p) => stored.has(p.id)))
    return new Map(visit.map((p) => [p.id, stored.get(p.id) as number]));
  const worked = ordered.filter((p) => !visit.includes(p));
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
  const reload = plan?.reload && plan.start && visit.some((p) => p.status !== 'out_for_delivery') ? plan.reload : null;
  const etas = stopEtas({
    from,
    startAt,
    model: plan?.travel,
    stops: visit.map((p) => {
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
    }),
  });
  return new Map(etas.map((e) => [e.id, e.begin]));
}
