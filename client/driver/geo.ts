import type { Place } from '../sync/actions';

let last: { place: Place; at: number } | null = null;
const FRESH_MS = 2 * 60_000;

/**
 * Where the phone is, if it will say within `waitMs`: position is optional evidence, never a reason
 * to make a driver wait at a door or to refuse an action (permission refused, indoors, no GPS).
 */
export function position(waitMs = 3000): Promise<Place> {
  const geo = typeof navigator !== 'undefined' ? navigator.geolocation : undefined;
  if (!geo) return Promise.resolve(last?.place ?? {});
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(recentPlace()), waitMs);
    geo.getCurrentPosition(
      (p) => {
        last = { place: { latitude: p.coords.latitude, longitude: p.coords.longitude }, at: Date.now() };
        clearTimeout(timer);
        resolve(last.place);
      },
      () => {
        clearTimeout(timer);
        resolve(recentPlace());
      },
      { enableHighAccuracy: true, maximumAge: 60_000, timeout: waitMs },
    );
  });
}

/** A fix the on-duty position watch got (client/driver/positions.ts): actions use it without asking the GPS again. */
export function notePlace(place: Place): void {
  last = { place, at: Date.now() };
}

/** The last fix if it is recent; scans use this so a burst of scans never waits for GPS. */
export function recentPlace(): Place {
  if (!last || Date.now() - last.at > FRESH_MS) return {};
  return last.place;
}

/** Refreshes the cached fix in the background. */
export function warmPosition(): void {
  void position(10_000);
}
