import type { RouteEtas } from '../../shared/schemas/dispatch';
import { localClock } from '../../shared/time/zone';
import { createStore } from '../app/store';
import { LOCAL_KEYS } from './engine';
import { online } from './online';

export { phoneEtas } from './etaMath';

function read(): Record<string, RouteEtas> {
  try {
    const raw = localStorage.getItem(LOCAL_KEYS.etas);
    return raw ? (JSON.parse(raw) as Record<string, RouteEtas>) : {};
  } catch {
    return {};
  }
}

/** Each route's windows, times at the door and shift start, as last fetched: enough to time the day offline. */
export const routePlans = createStore<Record<string, RouteEtas>>(read());

/** Fetches the plans of the driver's routes when there is signal; keeps the old copy otherwise. */
export async function refreshPlans(routeIds: number[]): Promise<void> {
  const next: Record<string, RouteEtas> = {};
  for (const id of routeIds) {
    try {
      next[id] = await online<RouteEtas>('GET', `route/${id}/eta/`);
    } catch {
      const old = routePlans.get()[id];
      if (old) next[id] = old;
    }
  }
  localStorage.setItem(LOCAL_KEYS.etas, JSON.stringify(next));
  routePlans.set(next);
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * An arrival time as the depot's wall clock (`zone`, from the route's plan; issue 31); without a plan
 * yet, the phone's own clock, which is the depot's for a driver at work.
 */
export function clockOf(ms: number | undefined, zone: string | undefined): string | null {
  if (ms == null) return null;
  if (zone) return localClock(ms, zone);
  const d = new Date(ms);
  return `${two(d.getHours())}:${two(d.getMinutes())}`;
}
