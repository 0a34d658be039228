import { useEffect, useState } from 'preact/hooks';
import type { RouteEtas } from '../../../shared/schemas/dispatch';
import { api } from '../../api/client';
import { Badge } from '../../ui/Badge';
import { localClock } from '../../../shared/time/zone';

/** The route's depot's wall clock (issue 31). */
const clock = (iso: string | null | undefined, zone: string) => (iso ? localClock(Date.parse(iso), zone) : '—');

/**
 * Today's planned and running routes with their arrival times, late-running ones first and
 * highlighted (the next stop 15+ minutes behind its planned time, or a stop missing its window).
 * Staff only: for anyone else the server answers 403 and the card stays hidden.
 */
export function RoutesToday({ tick }: { tick: number }) {
  const [rows, setRows] = useState<RouteEtas[] | null>(null);
  useEffect(() => {
    let live = true;
    api
      .get<{ results: RouteEtas[] }>('dispatch/eta/') /* the server's today: the business's local day */
      .then(
        (r) => {
          if (live) setRows(r.results);
        },
        () => {
          if (live) setRows(null);
        },
      );
    return () => {
      live = false;
    };
  }, [tick]);
  if (!rows || rows.length === 0) return null;
  const late = rows.filter((r) => r.running_late).length;
  return (
    <div class="card" data-testid="routes-today">
      <div class="row">
        <h2 style={{ margin: 0 }}>Routes today</h2>
        {late > 0 && <Badge tone="bad">{late} running late</Badge>}
        <span class="spacer" />
        <a href="#/dispatch">Dispatch board</a>
      </div>
      <div class="table-wrap" style={{ marginTop: '0.75rem' }}>
        <table class="data">
          <thead>
            <tr>
              <th>Route</th>
              <th>Driver</th>
              <th>Stops left</th>
              <th>Next stop</th>
              <th>Finish</th>
              <th>Behind plan</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={r.route}
                class={r.running_late ? 'late-row' : ''}
                data-testid="route-eta-row"
                data-late={r.running_late ? 'true' : 'false'}
              >
                <td>
                  <a href={`#/routes/${r.route}`}>{r.name}</a>
                </td>
                <td>{r.driver_name ?? '—'}</td>
                <td>{r.open}</td>
                <td>{clock(r.stops[0]?.eta, r.time_zone)}</td>
                <td>{clock(r.finish, r.time_zone)}</td>
                <td>
                  {r.running_late ? (
                    <Badge tone="bad">
                      {r.delay_min > 0 ? `${r.delay_min} min late` : 'Late'}
                      {r.late_stops ? ` · ${r.late_stops} window${r.late_stops === 1 ? '' : 's'} missed` : ''}
                    </Badge>
                  ) : (
                    <Badge tone="ok">On time</Badge>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
