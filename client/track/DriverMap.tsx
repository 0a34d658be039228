import { useEffect, useRef, useState } from 'preact/hooks';
import { createMap, loadLeaflet, pinIcon, type Leaflet } from '../ui/map';
import { clockIn } from './time';

/** The van's last position; the map library loads only when there is a position to show. */
export function DriverMap({ position, zone }: { position: { latitude: number; longitude: number; at: string }; zone: string }) {
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<{ map: Leaflet.Map; marker: Leaflet.Marker } | null>(null);
  const [noTiles, setNoTiles] = useState(false);
  useEffect(() => {
    let gone = false;
    void loadLeaflet()
      .then((L) => {
        if (gone || !box.current) return;
        const at: [number, number] = [position.latitude, position.longitude];
        if (!map.current) {
          const m = createMap(L, box.current, () => setNoTiles(true)).map.setView(at, 15);
          map.current = {
            map: m,
            marker: L.marker(at, { icon: pinIcon(L, { label: 'Van', color: '#0b3d91', size: 40 }), title: 'Your driver' }).addTo(m),
          };
        } else {
          map.current.marker.setLatLng(at);
          map.current.map.panTo(at);
        }
      })
      .catch(() => undefined);
    return () => {
      gone = true;
    };
  }, [position.latitude, position.longitude]);
  useEffect(
    () => () => {
      map.current?.map.remove();
      map.current = null;
    },
    [],
  );
  return (
    <section class="trk-card" aria-labelledby="trk-map">
      <h2 id="trk-map">Your driver is nearby</h2>
      <div
        ref={box}
        class="trk-map"
        data-testid="driver-map"
        role="img"
        aria-label={`Driver's position at ${clockIn(position.at, zone)}`}
      />
      {noTiles && <p class="trk-muted">The street map could not load; the pin still shows where your driver is.</p>}
      <p class="trk-muted">Updated {clockIn(position.at, zone)}</p>
    </section>
  );
}
