import { useEffect, useRef, useState } from 'preact/hooks';
import type { PackageLocation } from '../../../shared/schemas/location';
import { api, errorMessage } from '../../api/client';
import { PATHS } from '../../api/paths';
import { createMap, loadLeaflet, pinIcon, type Leaflet, type LeafletApi, type MapHandle } from '../../ui/map';
import { toast } from '../../ui/toast';
import { PrecisionBadge, sourceText } from './precision';
import '../routes/routes.css';

const PIN_COLOR: Record<string, string> = { exact: '#137333', street: '#1a5fb4', suburb: '#b45309', postcode: '#b3261e', none: '#b3261e' };

/**
 * Where the parcel is, on a small map. The office drags the pin (or clicks the map when there is
 * none) to the door: the address book remembers it for every later parcel to this address.
 */
export function LocationCard({ id, version = 0, canPin, onMoved }: { id: number; version?: number; canPin: boolean; onMoved: () => void }) {
  const [loc, setLoc] = useState<PackageLocation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tilesFailed, setTilesFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const [tick, setTick] = useState(0);
  const el = useRef<HTMLDivElement>(null);
  const handle = useRef<{ L: LeafletApi; map: MapHandle; marker: Leaflet.Marker | null } | null>(null);

  useEffect(() => {
    let live = true;
    api.get<PackageLocation>(PATHS.packageLocation(id)).then(
      (l) => {
        if (live) {
          setLoc(l);
          setError(null);
        }
      },
      (err: unknown) => {
        if (live) setError(errorMessage(err));
      },
    );
    return () => {
      live = false;
    };
    // `version`: the page reloaded the parcel (its address corrected): where it is placed is read again too.
  }, [id, tick, version]);

  const save = async (lat: number, lng: number) => {
    setSaving(true);
    try {
      const r = await api.patch<{ message: string; location: PackageLocation }>(PATHS.packageLocation(id), {
        latitude: Number(lat.toFixed(6)),
        longitude: Number(lng.toFixed(6)),
      });
      setLoc(r.location);
      toast(`Pin saved for this address (${r.message})`, 'ok');
      onMoved();
    } catch (err) {
      toast(errorMessage(err), 'bad');
      setTick((n) => n + 1);
    } finally {
      setSaving(false);
    }
  };

  useEffect(() => {
    if (!loc || !el.current) return undefined;
    let cancelled = false;
    void loadLeaflet().then((L) => {
      if (cancelled || !el.current) return;
      if (!handle.current) {
        const map = createMap(L, el.current, () => setTilesFailed(true));
        handle.current = { L, map, marker: null };
        if (canPin)
          map.map.on('click', (e: Leaflet.LeafletMouseEvent) => {
            if (!handle.current?.marker) void save(e.latlng.lat, e.latlng.lng);
          });
      }
      const h = handle.current;
      h.map.layer.clearLayers();
      h.marker = null;
      if (loc.latitude != null && loc.longitude != null) {
        const marker = h.L.marker([loc.latitude, loc.longitude], {
          icon: pinIcon(h.L, { color: PIN_COLOR[loc.precision] ?? '#555', size: 30 }),
          draggable: canPin,
          keyboard: true,
          title: canPin ? 'Drag to the door' : loc.hawb,
        });
        if (canPin)
          marker.on('dragend', () => {
            const p = marker.getLatLng();
            void save(p.lat, p.lng);
          });
        marker.addTo(h.map.layer);
        h.marker = marker;
        h.map.map.setView([loc.latitude, loc.longitude], loc.precision === 'exact' ? 17 : loc.precision === 'street' ? 16 : 14, {
          animate: false,
        });
      }
    });
    return () => {
      cancelled = true;
    };
  }, [loc, canPin]);

  useEffect(
    () => () => {
      handle.current?.map.destroy();
      handle.current = null;
    },
    [],
  );

  if (error)
    return (
      <div class="card">
        <h2 style={{ marginTop: 0 }}>Location</h2>
        <p class="form-error" role="alert">
          {error}
        </p>
      </div>
    );
  return (
    <div class="card stack" data-testid="location-card">
      <div class="row" style={{ alignItems: 'center', gap: '0.5rem' }}>
        <h2 style={{ margin: 0 }}>Location</h2>
        {loc && <PrecisionBadge precision={loc.precision} pending={loc.pending} />}
      </div>
      {loc && (
        <p class="muted small" style={{ margin: 0 }}>
          {loc.latitude != null
            ? `${loc.latitude.toFixed(5)}, ${loc.longitude?.toFixed(5)} · from ${sourceText(loc.source)}`
            : 'No position yet: correct the address, or place the pin.'}
          {loc.address_book && loc.source !== 'office' && loc.address_book.source === 'office' ? ' · the office pinned this address' : ''}
        </p>
      )}
      {loc?.review && (
        <p class="form-error" role="status" data-testid="location-review" style={{ margin: 0 }}>
          {loc.review.message}
        </p>
      )}
      <div ref={el} class="map-frame" style={{ height: '260px' }} role="application" aria-label="Map of the delivery address" />
      {tilesFailed && <div class="map-note warn">Map tiles cannot be loaded; the pin still works.</div>}
      {canPin && (
        <p class="muted small" style={{ margin: 0 }} role="status">
          {saving
            ? 'Saving the pin…'
            : loc?.latitude != null
              ? 'Drag the pin to the door: every later parcel to this address goes there.'
              : 'Click the map where the door is.'}
        </p>
      )}
    </div>
  );
}
