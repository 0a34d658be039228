import type { RouteEtas, StopEtaRecord } from '../../../shared/schemas/dispatch';
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Package } from '../../../shared/schemas/package';
import type { RouteRecord } from '../../../shared/schemas/routes';
import { api } from '../../api/client';
import { can } from '../../app/access';
import type { Session } from '../../app/session';
import { Badge } from '../../ui/Badge';
import { Button, LinkButton } from '../../ui/Button';
import { ErrorState, Loading } from '../../ui/States';
import { colourOf, coordsOf, distance, LINE_COLOUR, ROUTE_STATUS_LABELS, ROUTE_STATUS_TONE, START_COLOUR } from './format';
import { MapView, type MapMarker } from './MapView';
import { OptimisePanel, type OptimiseResult, type Start } from './OptimisePanel';
import { ROUTE_PATHS } from './paths';
import { AssignPanel, StatusPanel } from './RouteActions';
import { StopList } from './StopList';
import './routes.css';

interface Data {
  route: RouteRecord;
  packages: Package[];
}

const num = (v: number | null) => (v == null ? '' : String(v));

/** One route: its stops as a numbered list and on the map, optimise from a start, driver, status, proof of delivery. */
export default function RouteDetail({ id, session }: { id: number; session: Session }) {
  const [data, setData] = useState<Data | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  const [start, setStart] = useState<Start>({ lat: '', lng: '' });
  const [result, setResult] = useState<OptimiseResult | null>(null);
  const [mapFailed, setMapFailed] = useState(false);
  const [etas, setEtas] = useState<Map<number, StopEtaRecord>>(new Map());
  // The route's depot's zone: arrival times read as its wall clock (issue 31).
  const [etaZone, setEtaZone] = useState<string | undefined>(undefined);
  const canManage = can(session.user.role, 'route.manage');
  const reload = () => setTick((n) => n + 1);

  useEffect(() => {
    let live = true;
    api.get<Data>(ROUTE_PATHS.routePackages(id)).then(
      (d) => {
        if (!live) return;
        setData(d);
        setError(null);
        // The saved start shows until the planner picks another one.
        setStart((s) => (s.lat || s.lng ? s : { lat: num(d.route.start_latitude), lng: num(d.route.start_longitude) }));
      },
      (err: unknown) => {
        if (live) setError(err);
      },
    );
    // Arrival times of the stops still to visit (issue 16); the list works without them.
    api.get<RouteEtas>(ROUTE_PATHS.eta(id)).then(
      (e) => {
        if (live) {
          setEtas(new Map(e.stops.map((s) => [s.package, s])));
          setEtaZone(e.time_zone);
        }
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [id, tick]);

  const unplaced = useMemo(() => new Set(result?.unplaced ?? []), [result]);
  const { markers, line } = useMemo(() => {
    const out: MapMarker[] = [];
    const pts: [number, number][] = [];
    const lat = Number(start.lat);
    const lng = Number(start.lng);
    if (start.lat.trim() && start.lng.trim() && Number.isFinite(lat) && Number.isFinite(lng)) {
      out.push({ key: 'start', lat, lng, label: 'S', color: START_COLOUR, shape: 'square', title: 'Start' });
      pts.push([lat, lng]);
    }
    data?.packages.forEach((p, i) => {
      const at = coordsOf(p);
      if (!at) return;
      out.push({
        key: `p${p.id}`,
        lat: at[0],
        lng: at[1],
        label: String(i + 1),
        color: colourOf(p.status),
        title: `${i + 1}. ${p.hawb}`,
        detail: [p.customer_name, p.customer_address].filter(Boolean).join(' — '),
      });
      pts.push(at);
    });
    return { markers: out, line: pts };
  }, [data, start]);

  if (error) return <ErrorState error={error} onRetry={reload} />;
  if (!data) return <Loading />;
  const { route, packages } = data;
  const live = route.status === 'planned' || route.status === 'in_progress';
  const noLocation = packages.filter((p) => !coordsOf(p)).length;
  const stops = (
    <>
      <div class="row list-head">
        <h2>Stops</h2>
        {noLocation > 0 && <span class="muted small">{noLocation} without location</span>}
        <span class="spacer" />
        <Button size="small" onClick={reload}>
          Refresh
        </Button>
      </div>
      <StopList packages={packages} unplaced={unplaced} etas={etas} timeZone={etaZone} />
    </>
  );

  return (
    <section aria-labelledby="route-title" class="route-screen">
      <div class="page-head">
        <h1 id="route-title">{route.name}</h1>
        <Badge tone={ROUTE_STATUS_TONE[route.status]}>{ROUTE_STATUS_LABELS[route.status]}</Badge>
        <span class="spacer" />
        {canManage && <StatusPanel route={route} onDone={reload} />}
        <LinkButton href={`#/routes/${route.id}/pod`}>Proof of delivery</LinkButton>
        <LinkButton href="#/routes">All routes</LinkButton>
      </div>
      <dl class="route-facts">
        <div>
          <dt>Date</dt>
          <dd>{route.date}</dd>
        </div>
        <div>
          <dt>Driver</dt>
          <dd>{route.driver_name ?? '—'}</dd>
        </div>
        <div>
          <dt>Parcels</dt>
          <dd>
            {route.package_count} ({route.done_count} done, {route.open_count} open)
          </dd>
        </div>
        <div>
          <dt>Distance</dt>
          <dd data-testid="route-distance">{route.optimized_at ? distance(route.total_distance_m) : 'Not optimised'}</dd>
        </div>
        {route.warehouse_name && (
          <div>
            <dt>Warehouse</dt>
            <dd>{route.warehouse_name}</dd>
          </div>
        )}
      </dl>
      <div class="route-layout">
        <div class="route-side">
          {result && (
            <div class="note optimise-result" role="status" data-testid="optimise-result">
              Optimised: <strong>{distance(result.total_distance_m)}</strong> in total.{' '}
              {result.unplaced.length > 0 ? (
                <>
                  {result.unplaced.length} parcel(s) have no coordinates and were kept at the end:{' '}
                  {packages
                    .filter((p) => unplaced.has(p.id))
                    .map((p) => p.hawb)
                    .join(', ')}
                  .
                </>
              ) : (
                'Every open parcel has a place in the order.'
              )}
            </div>
          )}
          {canManage && live && (
            <OptimisePanel
              route={route}
              start={start}
              onStart={setStart}
              disabled={route.open_count === 0}
              onDone={(r) => {
                setResult(r);
                reload();
              }}
            />
          )}
          {canManage && <AssignPanel route={route} onDone={reload} />}
          {!mapFailed && stops}
        </div>
        <div class={`route-map${mapFailed ? ' static' : ''}`}>
          <MapView
            label={`Map of route ${route.name}`}
            markers={markers}
            lines={[{ points: line, color: LINE_COLOUR }]}
            height={540}
            onPick={canManage && live ? (lat, lng) => setStart({ lat: lat.toFixed(6), lng: lng.toFixed(6) }) : undefined}
            pickHint="Click the map to set the start point."
            onFailed={setMapFailed}
          />
          {mapFailed && stops}
        </div>
      </div>
    </section>
  );
}
