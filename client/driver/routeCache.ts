import { createStore } from '../app/store';
import type { RouteRecord } from '../../shared/schemas/routes';
import type { ViewPackage } from '../sync/index';
import { LOCAL_KEYS } from './engine';
import { refreshPlans } from './eta';
import { online } from './online';

export type { RouteRecord };

interface Cached {
  fetchedAt: number;
  routes: RouteRecord[];
}
/** An order the driver chose on the phone, shown until the server's copy has caught up with it. */
export interface LocalOrder {
  order: number[];
  at: number;
}

function read<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : fallback;
  } catch {
    return fallback;
  }
}

// The sync engine keeps parcels but not routes; the few route records of a day fit in localStorage.
export const routes = createStore<Cached>(read<Cached>(LOCAL_KEYS.routes, { fetchedAt: 0, routes: [] }));
export const localOrders = createStore<Record<string, LocalOrder>>(read(LOCAL_KEYS.order, {}));
export const maxAttempts = createStore<number>(read(LOCAL_KEYS.maxAttempts, 3));

/**
 * Refreshes the route list and the attempt limit when there is signal; silently keeps the old copy
 * otherwise. The two questions go together: on a weak signal each round trip is half a second.
 */
export async function refreshRoutes(): Promise<void> {
  await Promise.all([
    (async () => {
      try {
        const page = await online<{ results: RouteRecord[] }>('GET', 'route/driver-routes/');
        const next = { fetchedAt: Date.now(), routes: page.results };
        localStorage.setItem(LOCAL_KEYS.routes, JSON.stringify(next));
        routes.set(next);
        await refreshPlans(page.results.map((r) => r.id));
      } catch {
        /* offline or not yet deployed: the cached routes stand */
      }
    })(),
    (async () => {
      try {
        const s = await online<{ max_attempts: number }>('GET', 'delivery-status/');
        localStorage.setItem(LOCAL_KEYS.maxAttempts, JSON.stringify(s.max_attempts));
        maxAttempts.set(s.max_attempts);
      } catch {
        /* keep the last known limit */
      }
    })(),
  ]);
}

export function saveLocalOrder(routeId: number, order: number[]): void {
  const next = { ...localOrders.get(), [routeId]: { order, at: Date.now() } };
  localStorage.setItem(LOCAL_KEYS.order, JSON.stringify(next));
  localOrders.set(next);
}

/**
 * Drops phone-made orders the server has taken in: nothing about them is waiting in the outbox and
 * the route list was fetched after they were made. Rejected ones stay until discarded.
 */
export function settleLocalOrders(pendingRoutes: Set<number>): void {
  const cur = localOrders.get();
  const fetchedAt = routes.get().fetchedAt;
  const keep = Object.fromEntries(Object.entries(cur).filter(([id, o]) => pendingRoutes.has(Number(id)) || fetchedAt <= o.at));
  if (Object.keys(keep).length === Object.keys(cur).length) return;
  localStorage.setItem(LOCAL_KEYS.order, JSON.stringify(keep));
  localOrders.set(keep);
}

export const sequencePath = (routeId: number) => `route/${routeId}/sequence/`;

export interface RouteGroup {
  route: RouteRecord | null;
  packages: ViewPackage[];
}

/** The driver's parcels grouped by route, each in the order to drive it (phone's order first, then the server's). */
export function groupByRoute(packages: ViewPackage[], list: RouteRecord[], orders: Record<string, LocalOrder>): RouteGroup[] {
  const byId = new Map(packages.map((p) => [p.id, p]));
  const placed = new Set<number>();
  const groups: RouteGroup[] = [];
  for (const route of list) {
    const local = orders[route.id]?.order ?? [];
    const ids = [...local, ...route.packages.filter((id) => !local.includes(id))];
    const pkgs = ids.map((id) => byId.get(id)).filter((p): p is ViewPackage => p !== undefined && !placed.has(p.id));
    pkgs.forEach((p) => placed.add(p.id));
    groups.push({ route, packages: pkgs });
  }
  const rest = packages.filter((p) => !placed.has(p.id));
  if (rest.length) groups.push({ route: null, packages: rest });
  return groups;
}

export type PickupStop = NonNullable<RouteRecord['pickup_stops']>[number];
/** A row of a route on the phone: a parcel's delivery, or (`pickup`) where it is collected first. */
export interface StopRow {
  p: ViewPackage;
  pickup?: PickupStop;
}

/**
 * A route's rows in the order to drive them: each parcel at its delivery, and each parcel the route
 * collects before delivering it (issue 32) also at its collection, placed by its `sequence_no`
 * among the deliveries'.
 */
export function stopRows(group: RouteGroup): StopRow[] {
  const stops = [...(group.route?.pickup_stops ?? [])].sort((a, b) => a.sequence_no - b.sequence_no);
  if (!stops.length) return group.packages.map((p) => ({ p }));
  const byId = new Map(group.packages.map((p) => [p.id, p]));
  const out: StopRow[] = [];
  const collect = (s: PickupStop) => {
    const p = byId.get(s.package);
    if (p) out.push({ p, pickup: s });
  };
  for (const p of group.packages) {
    while (stops.length && (p.sequence_no == null || stops[0]!.sequence_no < p.sequence_no)) collect(stops.shift()!);
    out.push({ p });
  }
  stops.forEach(collect);
  return out;
}
