import { useEffect, useState } from 'preact/hooks';
import { useStore } from '../app/store';
import type { ViewPackage } from '../sync/index';
import { Button } from '../ui/Button';
import { usePackages } from './hooks';
import { LOCAL_KEYS } from './localKeys';
import { locationRefused, setOnDuty } from './positions';
import { routes, type RouteRecord } from './routeCache';

/** The phone's own date, as the route list names days. */
function phoneDay(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * On duty: a parcel is on the van (loaded, a queued load counted in), or one of today's routes is
 * running. Before the first load and after the last stop the phone does not say where it is.
 */
export function onDuty(packages: ViewPackage[], list: RouteRecord[], today = phoneDay()): boolean {
  return packages.some((p) => p.status === 'out_for_delivery') || list.some((r) => r.status === 'in_progress' && r.date === today);
}

function dismissed(): boolean {
  try { return localStorage.getItem(LOCAL_KEYS.locationNote) === 'dismissed'; } catch { return false; }
}

/** Starts and stops the position watch with the duty, and explains a refused permission once. */
export function PositionReports() {
  const { packages, loaded } = usePackages();
  const cached = useStore(routes);
  const refused = useStore(locationRefused);
  const [hidden, setHidden] = useState(dismissed);
  const duty = loaded && onDuty(packages, cached.routes);
  useEffect(() => { void setOnDuty(duty); }, [duty]);
  // Leaving the day's screens (logout) ends the watch.
  useEffect(() => () => { void setOnDuty(false); }, []);
  if (!refused || hidden) return null;
  const close = () => {
    try { localStorage.setItem(LOCAL_KEYS.locationNote, 'dismissed'); } catch { /* shown again next time: harmless */ }
    setHidden(true);
  };
  return (
    <div class="pending-note row between" role="note" data-testid="location-note">
      <span>Location is off for this app, so the office's map and your customers' arrival times cannot follow the van. Your deliveries work as usual.</span>
      <Button size="small" onClick={close} data-testid="location-note-ok">OK</Button>
    </div>
  );
}
