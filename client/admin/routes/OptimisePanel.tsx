import { useState } from 'preact/hooks';
import { OptimizeBody, type RouteRecord } from '../../../shared/schemas/routes';
import { api, errorMessage } from '../../api/client';
import { zodErrors } from '../../app/zodErrors';
import { Button } from '../../ui/Button';
import { CheckField, TextField } from '../../ui/Field';
import { toast } from '../../ui/toast';
import { distance } from './format';
import { ROUTE_PATHS } from './paths';

export interface OptimiseResult {
  total_distance_m: number;
  unplaced: number[];
  message: string;
}

export interface Start {
  lat: string;
  lng: string;
}

/**
 * Orders the route from a start point: typed, or clicked on the map (the screen passes the click in
 * through `start`). Without a start the server picks the best first stop.
 */
export function OptimisePanel({
  route,
  start,
  onStart,
  onDone,
  disabled,
}: {
  route: RouteRecord;
  start: Start;
  onStart: (s: Start) => void;
  onDone: (r: OptimiseResult) => void;
  disabled?: boolean;
}) {
  const [back, setBack] = useState(false);
  const [keep, setKeep] = useState(true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const run = async () => {
    const lat = start.lat.trim();
    const lng = start.lng.trim();
    if ((lat === '') !== (lng === '')) {
      setErrors(
        lat === '' ? { start_latitude: 'Give both coordinates or neither' } : { start_longitude: 'Give both coordinates or neither' },
      );
      return;
    }
    const parsed = OptimizeBody.safeParse({
      ...(lat !== '' ? { start_latitude: Number(lat), start_longitude: Number(lng) } : {}),
      return_to_start: back,
    });
    if (!parsed.success) {
      setErrors(zodErrors(parsed.error));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const latN = lat === '' ? null : Number(lat);
      const lngN = lng === '' ? null : Number(lng);
      // Saved on the route, the start is what the next optimisation and the driver's phone (re-ordering offline) begin from.
      if (keep && (latN !== route.start_latitude || lngN !== route.start_longitude)) {
        await api.patch(ROUTE_PATHS.route(route.id), { start_latitude: latN, start_longitude: lngN });
      }
      const res = await api.post<OptimiseResult>(ROUTE_PATHS.optimize(route.id), parsed.data);
      toast(`${res.message} · ${distance(res.total_distance_m)}`, 'ok');
      onDone(res);
    } catch (err) {
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="panel" aria-labelledby="optimise-title">
      <h2 id="optimise-title">Optimise</h2>
      <div class="row start-fields">
        <TextField
          label="Start latitude"
          name="start_latitude"
          value={start.lat}
          onValue={(v) => onStart({ ...start, lat: v })}
          inputMode="decimal"
          error={errors.start_latitude}
          placeholder="e.g. -33.8688"
        />
        <TextField
          label="Start longitude"
          name="start_longitude"
          value={start.lng}
          onValue={(v) => onStart({ ...start, lng: v })}
          inputMode="decimal"
          error={errors.start_longitude}
          placeholder="e.g. 151.2093"
        />
      </div>
      <p class="hint muted">Click the map to set the start. Empty: the route begins at the best stop.</p>
      <div class="row">
        <CheckField name="keep_start" label="Save as the route's start" checked={keep} onValue={setKeep} />
        <CheckField name="return_to_start" label="Return to start" checked={back} onValue={setBack} />
      </div>
      <div class="row end">
        {(start.lat || start.lng) && (
          <Button variant="ghost" size="small" onClick={() => onStart({ lat: '', lng: '' })}>
            Clear start
          </Button>
        )}
        <Button variant="primary" busy={busy} disabled={disabled} onClick={() => void run()}>
          Optimise route
        </Button>
      </div>
    </div>
  );
}
