import { useEffect, useState } from 'preact/hooks';
import { useStore } from '../app/store';
import { Button } from '../ui/Button';
import { usePackages } from './hooks';
import { LOCAL_KEYS } from './localKeys';
import { locationRefused, onDuty, setOnDuty } from './positions';
import { routes } from './routeCache';

function dismissed(): boolean {
  try {
    return localStorage.getItem(LOCAL_KEYS.locationNote) === 'dismissed';
  } catch {
    return false;
  }
}

/** Starts and stops the position watch with the duty, and explains a refused permission once. */
export function PositionReports() {
  const { packages, loaded } = usePackages();
  const cached = useStore(routes);
  const refused = useStore(locationRefused);
  const [hidden, setHidden] = useState(dismissed);
  const duty = loaded && onDuty(packages, cached.routes);
  useEffect(() => {
    void setOnDuty(duty);
  }, [duty]);
  // Leaving the day's screens (logout) ends the watch.
  useEffect(
    () => () => {
      void setOnDuty(false);
    },
    [],
  );
  if (!refused || hidden) return null;
  const close = () => {
    try {
      localStorage.setItem(LOCAL_KEYS.locationNote, 'dismissed');
    } catch {
      /* shown again next time: harmless */
    }
    setHidden(true);
  };
  return (
    <div class="pending-note row between" role="note" data-testid="location-note">
      <span>
        Location is off for this app, so the office's map and your customers' arrival times cannot follow the van. Your deliveries work as
        usual.
      </span>
      <Button size="small" onClick={close} data-testid="location-note-ok">
        Got it
      </Button>
    </div>
  );
}
