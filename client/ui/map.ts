/**
 * Leaflet, loaded on first use only: the library and its CSS are fetched when a screen shows a map,
 * never with the start-up bundle. Markers are `L.divIcon`s (no image assets to host), and the tile
 * server is a setting, so a courier can point the maps at its own tiles.
 */
import type * as Leaflet from 'leaflet';

export type LeafletApi = typeof Leaflet;
export type { Leaflet };

export const TILE_URL_KEY = 'courier.tileUrl';
export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const DEFAULT_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

export function getTileUrl(): string {
  try {
    const saved = localStorage.getItem(TILE_URL_KEY)?.trim();
    if (saved && isTileUrl(saved)) return saved;
  } catch {
    /* storage blocked: the default still works */
  }
  return DEFAULT_TILE_URL;
}

/** An empty value goes back to the default. */
export function setTileUrl(url: string): void {
  const v = url.trim();
  if (!v || v === DEFAULT_TILE_URL) localStorage.removeItem(TILE_URL_KEY);
  else if (isTileUrl(v)) localStorage.setItem(TILE_URL_KEY, v);
  else throw new Error('A tile URL is an http(s) address with {z}, {x} and {y}');
}

export function isTileUrl(url: string): boolean {
  return /^https?:\/\//.test(url) && url.includes('{z}') && url.includes('{x}') && url.includes('{y}');
}

let loading: Promise<LeafletApi> | null = null;

/** Leaflet and its stylesheet; a failed load (offline before the chunk was cached) is tried again next time. */
export function loadLeaflet(): Promise<LeafletApi> {
  if (!loading) {
    loading = Promise.all([import('leaflet'), import('leaflet/dist/leaflet.css')]).then(([mod]) => {
      // The UMD build arrives as a default export under Vite, the ESM one as a namespace.
      const m = mod as LeafletApi & { default?: LeafletApi };
      return m.default ?? m;
    });
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

export interface PinOptions {
  /** Short text inside the pin: a sequence number, "S" for a start, initials for a driver. */
  label?: string;
  color: string;
  shape?: 'pin' | 'dot' | 'square';
  size?: number;
}

/** A marker icon built from plain DOM (text set with textContent, so names never become markup). */
export function pinIcon(
  L: LeafletApi,
  { label = '', color, shape = 'pin', size = shape === 'dot' ? 16 : 28 }: PinOptions,
): Leaflet.DivIcon {
  const el = document.createElement('span');
  el.className = `map-pin ${shape}`;
  el.style.background = color;
  el.style.width = `${size}px`;
  el.style.height = `${size}px`;
  el.textContent = label;
  return L.divIcon({
    html: el,
    className: 'map-divicon',
    iconSize: [size, size],
    iconAnchor: [size / 2, size / 2],
    popupAnchor: [0, -size / 2],
  });
}

export interface MapHandle {
  map: Leaflet.Map;
  /** Layers the screen redraws on every data change. */
  layer: Leaflet.LayerGroup;
  destroy(): void;
}

/**
 * A map in `el` with the configured tiles. `onTilesFailed` fires once when tiles cannot be fetched
 * (offline, no internet, a wrong URL): the markers and lines still draw on the blank background.
 */
export function createMap(L: LeafletApi, el: HTMLElement, onTilesFailed: () => void): MapHandle {
  const map = L.map(el, { center: [-33.87, 151.21], zoom: 11, zoomControl: true, attributionControl: true });
  const url = getTileUrl();
  const tiles = L.tileLayer(url, { maxZoom: 19, attribution: url === DEFAULT_TILE_URL ? DEFAULT_ATTRIBUTION : '' });
  let failed = false;
  tiles.on('tileerror', () => {
    if (failed) return;
    failed = true;
    onTilesFailed();
  });
  tiles.addTo(map);
  const layer = L.layerGroup().addTo(map);
  return { map, layer, destroy: () => map.remove() };
}

/** Fits the view to the points (one point: a street-level zoom around it). */
export function fitTo(L: LeafletApi, map: Leaflet.Map, points: readonly [number, number][]): void {
  if (points.length === 0) return;
  // Without animation: a redraw during a zoom animation would scale the new lines with the old view.
  if (points.length === 1) map.setView(points[0]!, 15, { animate: false });
  else map.fitBounds(L.latLngBounds(points.map((p) => L.latLng(p[0], p[1]))), { padding: [30, 30], maxZoom: 16, animate: false });
}
