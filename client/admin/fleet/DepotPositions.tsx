import { useEffect, useState } from 'preact/hooks';
import type { DepotPosition } from '../../../shared/schemas/dispatch';
import { api, errorMessage, fieldErrors } from '../../api/client';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { MapView, type MapMarker } from '../routes/MapView';

/**
 * Where each depot is: vans leave from it and come back to it. A click on the map (the same map the
 * routes use) puts the chosen depot's pin there; the two number fields take it from the keyboard, or
 * from coordinates copied out of any map. Without a position the planner starts vans at the centroid
 * of the day's parcels (issue 36).
 */
export default function DepotPositions() {
  const [depots, setDepots] = useState<DepotPosition[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [chosen, setChosen] = useState('');
  const [lat, setLat] = useState('');
  const [lng, setLng] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    let live = true;
    api.get<{ results: DepotPosition[] }>('dispatch/depot/').then(
      (r) => {
        if (!live) return;
        setDepots(r.results);
        setChosen((c) => c || (r.results[0] ? String(r.results[0].warehouse) : ''));
      },
      (err: unknown) => {
        if (live) setError(err);
      },
    );
    return () => {
      live = false;
    };
  }, [tick]);

  const current = depots?.find((d) => String(d.warehouse) === chosen);
  useEffect(() => {
    setLat(current?.latitude != null ? String(current.latitude) : '');
    setLng(current?.longitude != null ? String(current.longitude) : '');
    setErrors({});
  }, [chosen, depots]);

  if (error) return <ErrorState error={error} onRetry={() => setTick((n) => n + 1)} />;
  if (!depots) return <Loading />;

  const save = async () => {
    setBusy(true);
    setErrors({});
    try {
      await api.put(`warehouse/${chosen}/position/`, { latitude: Number(lat.replace(',', '.')), longitude: Number(lng.replace(',', '.')) });
      toast(`${current?.name ?? 'Depot'} is on the map`, 'ok');
      setTick((n) => n + 1);
    } catch (err) {
      setErrors(fieldErrors(err));
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(false);
    }
  };

  const markers: MapMarker[] = depots.flatMap((d) => {
    const mine = String(d.warehouse) === chosen;
    const la = mine && lat !== '' ? Number(lat) : d.latitude;
    const ln = mine && lng !== '' ? Number(lng) : d.longitude;
    return la != null && ln != null && Number.isFinite(la) && Number.isFinite(ln)
      ? [
          {
            key: `d${d.warehouse}`,
            lat: la,
            lng: ln,
            label: 'D',
            color: mine ? '#b91c1c' : '#1d4ed8',
            shape: 'square' as const,
            title: d.name || `Depot #${d.warehouse}`,
          },
        ]
      : [];
  });

  return (
    <section class="stack" aria-labelledby="depots-title">
      <div class="page-head">
        <h1 id="depots-title">Depot positions</h1>
      </div>
      {depots.length === 0 ? (
        <div class="card">
          <Empty title="No depots yet">
            Create a warehouse first: <a href="#/r/warehouse">Warehouses</a>.
          </Empty>
        </div>
      ) : (
        <>
          <div class="card stack">
            <SelectField
              name="depot"
              label="Depot"
              value={chosen}
              onValue={setChosen}
              options={depots.map((d) => ({
                value: String(d.warehouse),
                label: `${d.name || `Depot #${d.warehouse}`}${d.latitude == null ? ' (not placed)' : ''}`,
              }))}
            />
            <div class="form-grid">
              <TextField
                name="latitude"
                label="Latitude"
                value={lat}
                onValue={setLat}
                inputMode="decimal"
                error={errors.latitude}
                hint="e.g. -33.8688"
              />
              <TextField
                name="longitude"
                label="Longitude"
                value={lng}
                onValue={setLng}
                inputMode="decimal"
                error={errors.longitude}
                hint="e.g. 151.2093"
              />
            </div>
            <div>
              <Button variant="primary" busy={busy} disabled={!chosen || lat === '' || lng === ''} onClick={() => void save()}>
                Save position
              </Button>
            </div>
          </div>
          <MapView
            label="Depots on the map"
            markers={markers}
            height={360}
            pickHint="Click the map to put the chosen depot's pin there, then save."
            onPick={(la, ln) => {
              setLat(la.toFixed(6));
              setLng(ln.toFixed(6));
            }}
          />
        </>
      )}
    </section>
  );
}
