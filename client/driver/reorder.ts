import { haversineMatrix, optimizeRoute, type LatLng } from '../../shared/routing/index';
import type { ViewPackage } from '../sync/index';
import { isOpen } from './day';
import { engine } from './engine';
import { position } from './geo';
import { saveLocalOrder, sequencePath, type RouteRecord } from './routeCache';
import { held } from './undo';

const pointOf = (p: ViewPackage): LatLng | null => {
  const lat = p.latitude ?? p.coordinates?.latitude;
  const lng = p.longitude ?? p.coordinates?.longitude;
  return lat != null && lng != null ? { latitude: lat, longitude: lng } : null;
};

/**
 * Orders the route's remaining stops on the phone (same optimiser as the server, great-circle
 * distances) from where the driver is, or the route's start, or the current first stop. The order
 * is kept on the phone at once and sent as an ordinary queued action (POST route/{id}/sequence/).
 */
export async function reoptimiseRoute(route: RouteRecord, packages: ViewPackage[]): Promise<string> {
  const heldIds = new Set(held.get().map((h) => h.packageId));
  if (heldIds.size) throw new Error('Wait until the last delivery is saved (or undone), then re-optimise.');
  const known = new Map(packages.map((p) => [p.id, p]));
  // The server wants every open parcel of the route exactly once, in the state it will have when this replays.
  const openIds = route.packages.filter((id) => {
    const p = known.get(id);
    return !p || isOpen(p);
  });
  const located = openIds.map((id) => known.get(id)).filter((p): p is ViewPackage => !!p && pointOf(p) !== null);
  const unplaced = openIds.filter((id) => !located.some((p) => p.id === id));
  if (located.length < 2) throw new Error('Fewer than two remaining stops have a position: nothing to re-order.');

  const here = await position(4000);
  const start: LatLng | null =
    here.latitude != null && here.longitude != null
      ? { latitude: here.latitude, longitude: here.longitude }
      : route.start_latitude != null && route.start_longitude != null
        ? { latitude: route.start_latitude, longitude: route.start_longitude }
        : null;
  const points = [...(start ? [start] : []), ...located.map((p) => pointOf(p) as LatLng)];
  const { order } = optimizeRoute({ matrix: haversineMatrix(points), start: 0, end: null, timeLimitMs: 300 });
  const stops = (start ? order.filter((i) => i !== 0).map((i) => i - 1) : order).map((i) => located[i]!.id);
  const full = [...stops, ...unplaced];

  await engine().enqueue({
    path: sequencePath(route.id),
    body: { packages: full, occurred_at: new Date().toISOString(), ...here },
    effect: null,
    label: `New stop order for ${route.name}`,
  });
  saveLocalOrder(route.id, full);
  const from = start ? (here.latitude != null ? 'from where you are' : 'from the route start') : 'from the first stop';
  return `Stops re-ordered ${from}: ${full.length} remaining.`;
}
