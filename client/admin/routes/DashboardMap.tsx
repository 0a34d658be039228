import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import type { z } from 'zod';
import type { MapAnswer } from '../../../shared/schemas/routes';
import { api } from '../../api/client';
import { StatusBadge, statusLabel } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { REFS } from '../resource/declarations';
import { useRefOptions } from '../resource/refOptions';
import { colourOf, DRIVER_COLOUR, initials, ROUTE_STATUS_LABELS } from './format';
import { MapView, type MapMarker } from './MapView';
import { ROUTE_PATHS } from './paths';
import './routes.css';
import { clock, day } from '../../ui/when';

type MapData = z.infer<typeof MapAnswer>;
type MapPackage = MapData['unassigned'][number];

const ago = (iso: string): string => {
  const min = Math.round((Date.now() - Date.parse(iso)) / 60_000);
  if (min < 1) return 'just now';
  if (min < 60) return `${min} min ago`;
  const h = Math.round(min / 60);
  return h < 48 ? `${h} h ago` : day(iso);
};

function parcelMarker(p: MapPackage, holder: string): MapMarker | null {
  if (p.latitude == null || p.longitude == null) return null;
  return {
    key: `p${p.id}`,
    lat: p.latitude,
    lng: p.longitude,
    color: colourOf(p.status),
    shape: 'dot',
    label: '',
    title: `${p.hawb} · ${statusLabel(p.status)}`,
    detail: [holder, p.customer_name, p.customer_address].filter(Boolean).join(' — '),
  };
}

const LIVE_REFRESH_MS = 15_000;

/** Where the drivers are and where their open parcels go, coloured by status; the same data as lists below. */
export default function DashboardMap() {
  const [data, setData] = useState<MapData | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [driver, setDriver] = useState('');
  const [at, setAt] = useState<Date | null>(null);
  const drivers = useRefOptions(REFS.driver);

  const load = useCallback(() => {
    setLoading(true);
    api.get<MapData>(ROUTE_PATHS.map, { driver: driver || undefined }).then(
      (d) => {
        setData(d);
        setError(null);
        setAt(new Date());
        setLoading(false);
      },
      (e: unknown) => {
        setError(e);
        setLoading(false);
      },
    );
  }, [driver]);
  useEffect(load, [load]);
  // A live map (issue 31): vans report about every 30 s, so it asks again every 15 s while it is shown.
  useEffect(() => {
    const id = setInterval(() => {
      if (document.visibilityState === 'visible') load();
    }, LIVE_REFRESH_MS);
    return () => clearInterval(id);
  }, [load]);

  const { markers, statuses } = useMemo(() => {
    const out: MapMarker[] = [];
    const seen = new Set<string>();
    for (const d of data?.drivers ?? []) {
      for (const p of d.packages) {
        const m = parcelMarker(p, d.driver.name);
        if (m) {
          out.push(m);
          seen.add(p.status);
        }
      }
    }
    for (const p of data?.unassigned ?? []) {
      const m = parcelMarker(p, 'No driver');
      if (m) {
        out.push(m);
        seen.add(p.status);
      }
    }
    // Drivers last, so they draw above the parcels.
    for (const d of data?.drivers ?? []) {
      if (!d.position) continue;
      out.push({
        key: `d${d.driver.id}`,
        lat: d.position.latitude,
        lng: d.position.longitude,
        label: initials(d.driver.name),
        color: DRIVER_COLOUR,
        shape: 'square',
        title: d.driver.name,
        detail: `Seen ${ago(d.position.occurred_at)}${d.route ? ` · ${d.route.name}` : ''}`,
      });
    }
    return { markers: out, statuses: [...seen].sort() };
  }, [data]);

  const located = data?.drivers.filter((d) => d.position).length ?? 0;
  return (
    <section aria-labelledby="map-title">
      <div class="page-head">
        <h1 id="map-title">Live map</h1>
        <span class="spacer" />
        <label class="row inline-select">
          Driver
          <select name="map-driver" class="input" value={driver} onChange={(e) => setDriver((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">All drivers</option>
            {drivers.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        {at && <span class="muted">Updated {clock(at)}</span>}
        <Button onClick={load} busy={loading && data != null}>
          Refresh
        </Button>
      </div>
      {error ? (
        <ErrorState error={error} onRetry={load} />
      ) : !data ? (
        <Loading />
      ) : (
        <div class="live-layout">
          <div class="live-map">
            <ul class="legend" aria-label="Legend">
              <li>
                <span class="map-pin square legend-pin" style={{ background: DRIVER_COLOUR }}>
                  AB
                </span>{' '}
                Driver (last position)
              </li>
              {statuses.map((s) => (
                <li key={s}>
                  <span class="map-pin dot legend-dot" style={{ background: colourOf(s) }} /> {statusLabel(s)}
                </li>
              ))}
            </ul>
            <MapView label="Drivers and parcels" markers={markers} height={500} />
          </div>
          <div class="live-list">
            <h2>
              Drivers{' '}
              <span class="muted small">
                ({located} of {data.drivers.length} reporting)
              </span>
            </h2>
            {data.drivers.length === 0 ? (
              <Empty title="No active drivers" />
            ) : (
              <ul class="driver-list" data-testid="driver-list">
                {data.drivers.map((d) => (
                  <li key={d.driver.id} data-testid="map-driver">
                    <div class="row">
                      <strong>{d.driver.name}</strong>
                      {d.route && (
                        <span class="muted">
                          {d.route.name} · {ROUTE_STATUS_LABELS[d.route.status]}
                        </span>
                      )}
                    </div>
                    <div class="muted small">
                      {d.position ? (
                        <>
                          At {d.position.latitude.toFixed(5)}, {d.position.longitude.toFixed(5)} · {ago(d.position.occurred_at)}
                        </>
                      ) : (
                        'No position reported'
                      )}
                    </div>
                    <div class="small">
                      {d.packages.length} open parcel(s){d.packages.length > 0 && ': '}
                      {summary(d.packages)}
                    </div>
                  </li>
                ))}
              </ul>
            )}
            <h2>
              Without a driver <span class="muted small">({data.unassigned.length})</span>
            </h2>
            {data.unassigned.length === 0 ? (
              <p class="muted">Every open parcel has a driver.</p>
            ) : (
              <ul class="parcel-list">
                {data.unassigned.slice(0, 50).map((p) => (
                  <li key={p.id}>
                    <a class="mono" href={`#/packages/${p.id}`}>
                      {p.hawb}
                    </a>{' '}
                    <StatusBadge status={p.status} /> <span class="muted small">{p.customer_address ?? ''}</span>
                  </li>
                ))}
                {data.unassigned.length > 50 && (
                  <li class="muted">
                    <a href="#/packages">…and {data.unassigned.length - 50} more in the package list</a>
                  </li>
                )}
              </ul>
            )}
          </div>
        </div>
      )}
    </section>
  );
}

function summary(packages: readonly MapPackage[]): string {
  const counts = new Map<string, number>();
  for (const p of packages) counts.set(p.status, (counts.get(p.status) ?? 0) + 1);
  return [...counts].map(([s, n]) => `${n} ${statusLabel(s).toLowerCase()}`).join(', ');
}
