import { stopEtas, timeOnDay, travelSeconds } from '../../../shared/routing/eta';
import { localClock } from '../../../shared/time/zone';
import type { AmendProposal, PlanRoute, PlanStop, Proposal } from '../../../shared/schemas/dispatch';

/** API paths of the dispatch board (test/browser/dispatch.test.ts checks them against /api/openapi.json). */
export const DISPATCH_PATHS = {
  plan: 'dispatch/plan/',
  planOne: (id: number) => `dispatch/plan/${id}/`,
  commit: (id: number) => `dispatch/plan/${id}/commit/`,
  shifts: 'driver-shift/',
  drivers: 'employee/driver-list/',
  warehouses: 'warehouse/',
  zones: 'zone/',
  dayEtas: 'dispatch/eta/',
  routeEta: (id: number) => `route/${id}/eta/`,
  amend: 'dispatch/amend/',
  amendCommit: 'dispatch/amend/commit/',
} as const;

/** What to send back to apply an amended day: only the routes that change, and those dropped. */
export function amendCommitBody(p: AmendProposal) {
  // A parcel collected on the way is named twice, collected first (the server reads the order so).
  const onRoad = p.routes.filter((r): r is typeof r & { route: number } => r.route != null);
  return {
    date: p.date,
    routes: onRoad
      .filter((r) => !r.dropped && (r.added.length || r.moved.length || r.removed.length))
      .map((r) => ({
        route: r.route,
        packages: r.stops.map((s) => s.package),
        ...(r.reload ? { reload_before: r.stops[r.reload.before]?.package } : {}),
      })),
    drop_routes: onRoad.filter((r) => r.dropped).map((r) => r.route),
    // Routes opened for drivers on shift with none yet (issue 32).
    open_routes: p.routes
      .filter((r) => r.opens && r.stops.length)
      .map((r) => ({ driver: r.driver, packages: r.stops.map((s) => s.package) })),
  };
}

/**
 * One colour per driver: hues far apart (and distinct for common colour blindness in the first
 * eight); the card, the line and the pins share it, and the card names the driver.
 */
export const ROUTE_COLOURS = [
  '#1f77b4',
  '#d95f02',
  '#1b9e77',
  '#7570b3',
  '#e7298a',
  '#66a61e',
  '#a6761d',
  '#e6ab02',
  '#17becf',
  '#8c564b',
  '#bcbd22',
  '#525252',
];
export const colourFor = (i: number) => ROUTE_COLOURS[i % ROUTE_COLOURS.length] as string;

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Loads, distance-free timing and ETAs of a route after an edit, with the same function the server and the phone use. */
export function retime(date: string, route: PlanRoute): PlanRoute {
  // A window is the parcel's depot's wall clock (issue 31), wherever the van comes from.
  const windows = (s: PlanStop): [number, number] | null =>
    s.window_start && s.window_end
      ? [timeOnDay(date, s.window_start, stopZone(s, route)), timeOnDay(date, s.window_end, stopZone(s, route))]
      : null;
  const startAt = Date.parse(route.depart);
  const etas = stopEtas({
    from: route.start,
    startAt,
    stops: route.stops.map((s) => ({
      id: s.package,
      latitude: s.latitude,
      longitude: s.longitude,
      serviceS: s.service_s,
      window: windows(s),
    })),
  });
  const last = etas.at(-1);
  // A paired parcel rides between its two stops: counted once, at its delivery (issue 32).
  const carried = route.stops.filter((s) => !s.pickup);
  // The drive back to the end depot counts (issue 32), timed as the server times it without a road matrix.
  const lastPlaced = [...route.stops].reverse().find((s) => s.latitude != null && s.longitude != null);
  const home =
    last && route.end && lastPlaced ? travelSeconds({ latitude: lastPlaced.latitude!, longitude: lastPlaced.longitude! }, route.end) : 0;
  const back = last ? last.depart + Math.round(home * 1000) : startAt;
  return {
    ...route,
    stops: route.stops.map((s, i) => ({ ...s, eta: new Date(etas[i]!.begin).toISOString(), late: etas[i]!.late })),
    load: {
      kg: round(carried.reduce((a, s) => a + s.kg, 0)),
      m3: round(carried.reduce((a, s) => a + s.m3, 0)),
      parcels: carried.length,
    },
    duration_s: Math.round((back - startAt) / 1000),
    back: new Date(back).toISOString(),
  };
}

/**
 * Moves a stop to another driver's route (before `before`, else at the end). A stop moved by hand
 * is locked to its new driver, so a re-plan keeps the dispatcher's decision. A paired pickup's two
 * stops (issue 32) move together, collection then delivery: one van carries it between them.
 */
export function moveStop(p: Proposal, pkg: number, toDriver: number, before: number | null = null): Proposal {
  const from = p.routes.find((r) => r.stops.some((s) => s.package === pkg));
  if (!from) return p;
  const moving = from.stops.filter((s) => s.package === pkg).map((s) => ({ ...s, locked: true }));
  const routes = p.routes.map((r) => {
    let stops = r.stops.filter((s) => s.package !== pkg);
    if (r.driver === toDriver) {
      const at = before != null ? stops.findIndex((s) => s.package === before) : -1;
      stops = at >= 0 ? [...stops.slice(0, at), ...moving, ...stops.slice(at)] : [...stops, ...moving];
    }
    return stops === r.stops ? r : retime(p.date, { ...r, stops });
  });
  return { ...p, routes };
}

export function toggleLock(p: Proposal, pkg: number): Proposal {
  return {
    ...p,
    routes: p.routes.map((r) => ({ ...r, stops: r.stops.map((s) => (s.package === pkg ? { ...s, locked: !s.locked } : s)) })),
  };
}

/** What a re-plan keeps: locked stops stay with their driver, fixed routes stay as they are. */
export function replanBody(p: Proposal, fixed: ReadonlySet<number>) {
  return {
    locks: p.routes
      .filter((r) => !fixed.has(r.driver))
      .flatMap((r) => r.stops.filter((s) => s.locked).map((s) => ({ package: s.package, driver: r.driver }))),
    fixed_routes: p.routes.filter((r) => fixed.has(r.driver)).map((r) => ({ driver: r.driver, packages: r.stops.map((s) => s.package) })),
  };
}

/** A parcel named twice on a route is a pair: collected at its first stop, delivered at its second (issue 32). */
export const commitBody = (p: Proposal) => ({
  routes: p.routes.filter((r) => r.stops.length > 0).map((r) => ({ driver: r.driver, packages: r.stops.map((s) => s.package) })),
});

/** Zones of a plan's shift and stops; a proposal stored before issue 31 has none: the browser's own. */
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
export const routeZone = (r: PlanRoute): string => r.time_zone ?? browserZone();
export const stopZone = (s: PlanStop, r: PlanRoute): string => s.time_zone ?? routeZone(r);

/** An ISO instant as `HH:MM` on the wall clock of `zone` (the route's depot's). */
export function hhmm(iso: string, zone: string): string {
  return iso ? localClock(Date.parse(iso), zone) : '—';
}

/** A route's length as a dispatcher reads it: `7 h 05`. */
/** A plan's cost at the office's rates, whole dollars ("$741"): the rates themselves are set in dollars (Plan settings). */
export const planCost = (amount: number): string => `$${Math.round(amount).toLocaleString()}`;

export function duration(seconds: number): string {
  const total = Math.round(seconds / 60);
  return `${Math.floor(total / 60)} h ${String(total % 60).padStart(2, '0')}`;
}

/** When the van is back at its depot: the proposal's own, else (a plan stored before issue 32) the last stop's departure. */
export function backAt(r: PlanRoute): string {
  if (r.back) return r.back;
  const last = r.stops.at(-1);
  return last ? new Date(Date.parse(last.eta) + last.service_s * 1000).toISOString() : '';
}

/** The line drawn for a route: depot, stops, and back to the end depot. */
export function routeLine(r: PlanRoute): [number, number][] {
  const pts: [number, number][] = r.start ? [[r.start.latitude, r.start.longitude]] : [];
  for (const s of r.stops) if (s.latitude != null && s.longitude != null) pts.push([s.latitude, s.longitude]);
  if (r.end && r.stops.length) pts.push([r.end.latitude, r.end.longitude]);
  return pts;
}

/** Share of the tightest capacity a route uses (0..1+), and which one it is. */
export function loadShare(r: PlanRoute): { share: number; label: string } {
  const parts: { share: number; label: string }[] = [];
  if (r.capacity.parcels)
    parts.push({ share: r.load.parcels / r.capacity.parcels, label: `${r.load.parcels} / ${r.capacity.parcels} parcels` });
  if (r.capacity.kg) parts.push({ share: r.load.kg / r.capacity.kg, label: `${Math.round(r.load.kg)} / ${r.capacity.kg} kg` });
  if (r.capacity.m3) parts.push({ share: r.load.m3 / r.capacity.m3, label: `${r.load.m3.toFixed(2)} / ${r.capacity.m3} m³` });
  if (!parts.length) return { share: 0, label: `${r.load.parcels} parcels, no limit` };
  return parts.reduce((a, b) => (b.share > a.share ? b : a));
}
