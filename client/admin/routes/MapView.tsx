import { useEffect, useRef, useState } from 'preact/hooks';
import { createMap, fitTo, loadLeaflet, pinIcon, type LeafletApi, type MapHandle } from '../../ui/map';
import { TileSettings } from './TileSettings';
import './routes.css';

export interface MapMarker {
  key: string;
  lat: number;
  lng: number;
  label?: string;
  color: string;
  shape?: 'pin' | 'dot' | 'square';
  /** Tooltip and popup text. */
  title: string;
  detail?: string;
}

export interface MapLine {
  points: [number, number][];
  color: string;
  dashed?: boolean;
}

type State = 'loading' | 'ready' | 'failed';

function popup(m: MapMarker): HTMLElement {
  const el = document.createElement('div');
  const strong = document.createElement('strong');
  strong.textContent = m.title;
  el.append(strong);
  if (m.detail) {
    const p = document.createElement('div');
    p.textContent = m.detail;
    el.append(p);
  }
  return el;
}

/**
 * A Leaflet map of markers and lines, loaded lazily. Without Leaflet (offline before the chunk was
 * cached) it says so and the screen's list carries the data; without tiles it draws on a blank
 * background. `onPick` turns clicks into coordinates (choosing a route's start).
 */
export function MapView({
  markers,
  lines = [],
  onPick,
  pickHint,
  label,
  height = 440,
  onFailed,
}: {
  markers: readonly MapMarker[];
  lines?: readonly MapLine[];
  onPick?: (lat: number, lng: number) => void;
  pickHint?: string;
  label: string;
  height?: number;
  /** Tells the screen when Leaflet could not load, so it can give the list the map's room. */
  onFailed?: (failed: boolean) => void;
}) {
  const el = useRef<HTMLDivElement>(null);
  const handle = useRef<{ L: LeafletApi; h: MapHandle } | null>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  const [state, setState] = useState<State>('loading');
  const [tilesFailed, setTilesFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [settings, setSettings] = useState(false);
  useEffect(() => {
    onFailed?.(state === 'failed');
  }, [state]);

  useEffect(() => {
    let live = true;
    setState('loading');
    loadLeaflet().then(
      (L) => {
        if (!live || !el.current) return;
        const h = createMap(L, el.current, () => setTilesFailed(true));
        h.map.on('click', (e: { latlng: { lat: number; lng: number } }) => pick.current?.(e.latlng.lat, e.latlng.lng));
        handle.current = { L, h };
        setState('ready');
      },
      () => {
        if (live) setState('failed');
      },
    );
    return () => {
      live = false;
      handle.current?.h.destroy();
      handle.current = null;
    };
  }, [attempt]);

  const signature = JSON.stringify([markers.map((m) => [m.key, m.lat, m.lng, m.label, m.color]), lines.map((l) => l.points)]);
  useEffect(() => {
    const cur = handle.current;
    if (state !== 'ready' || !cur) return;
    const { L, h } = cur;
    h.layer.clearLayers();
    for (const line of lines) {
      if (line.points.length > 1)
        L.polyline(line.points, { color: line.color, weight: 4, opacity: 0.85, dashArray: line.dashed ? '6 8' : undefined }).addTo(h.layer);
    }
    for (const m of markers) {
      L.marker([m.lat, m.lng], { icon: pinIcon(L, { label: m.label, color: m.color, shape: m.shape }), title: m.title, keyboard: true })
        .bindPopup(popup(m))
        .addTo(h.layer);
    }
    fitTo(L, h.map, [...markers.map((m): [number, number] => [m.lat, m.lng]), ...lines.flatMap((l) => l.points)]);
  }, [state, signature]);

  return (
    <div class="map-box">
      <div
        ref={el}
        class={`map-frame${onPick ? ' picking' : ''}`}
        style={{ height: `${height}px` }}
        role="region"
        aria-label={label}
        data-testid="map"
        data-state={state}
        hidden={state === 'failed'}
      />
      {state === 'loading' && (
        <div class="map-note" role="status">
          Loading the map…
        </div>
      )}
      {state === 'failed' && (
        <div class="map-note warn" role="status">
          The map could not be loaded; the list shows the same stops.{' '}
          <button class="linkish" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </div>
      )}
      {state === 'ready' && (
        <div class="map-foot">
          {tilesFailed ? (
            <span class="warn-text">No map tiles (offline?): markers on a blank background.</span>
          ) : onPick && pickHint ? (
            <span>{pickHint}</span>
          ) : (
            <span />
          )}
          <button class="linkish" onClick={() => setSettings(true)}>
            Map tiles…
          </button>
        </div>
      )}
      {settings && (
        <TileSettings
          onClose={() => setSettings(false)}
          onSaved={() => {
            setSettings(false);
            setTilesFailed(false);
            setAttempt((n) => n + 1);
          }}
        />
      )}
    </div>
  );
}
