import { formatAddress } from '../../../shared/address';
import type { Package } from '../../../shared/schemas/package';
import { StatusBadge } from '../../ui/Badge';
import { Empty } from '../../ui/States';
import type { StopEtaRecord } from '../../../shared/schemas/dispatch';
import { coordsOf } from './format';
import { localClock } from '../../../shared/time/zone';

/** `HH:MM` on the route's depot's wall clock (the browser's own until the zone is known). */
const clock = (iso: string, zone: string | undefined) =>
  zone ? localClock(Date.parse(iso), zone) : new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });

/** The route's parcels in sequence order: the same stops the map numbers, and the whole story without a map. */
export function StopList({
  packages,
  unplaced,
  etas,
  timeZone,
}: {
  packages: readonly Package[];
  unplaced: ReadonlySet<number>;
  etas?: ReadonlyMap<number, StopEtaRecord>;
  timeZone?: string;
}) {
  if (packages.length === 0)
    return (
      <div class="card">
        <Empty title="No parcels on this route" />
      </div>
    );
  return (
    <ol class="stops" aria-label="Stops in sequence" data-testid="stop-list">
      {packages.map((p, i) => {
        const at = coordsOf(p);
        const eta = etas?.get(p.id);
        return (
          <li key={p.id} class="stop" data-testid="stop">
            <span class="seq" aria-label={`Stop ${i + 1}`}>
              {i + 1}
            </span>
            <div class="what">
              <div class="row">
                <a class="mono" href={`#/packages/${p.id}`}>
                  {p.hawb}
                </a>
                <StatusBadge status={p.status} />
                {eta && (
                  <span
                    class={`badge ${eta.late ? 'bad' : eta.delay_min >= 15 ? 'warn' : 'info'}`}
                    data-testid="stop-eta"
                    title={`Planned ${clock(eta.planned, timeZone)}${eta.window_start ? `, window ${eta.window_start}–${eta.window_end}` : ''}`}
                  >
                    ETA {clock(eta.eta, timeZone)}
                    {eta.delay_min > 0 ? ` (+${eta.delay_min} min)` : ''}
                    {eta.late ? ' · misses window' : ''}
                  </span>
                )}
                {(unplaced.has(p.id) || !at) && (
                  <span class="badge warn" title="Without coordinates the optimiser keeps it after the placed stops">
                    No location
                  </span>
                )}
              </div>
              <div>{p.customer_name ?? <span class="muted">No name</span>}</div>
              <div class="muted small">{formatAddress(p) || 'No address'}</div>
            </div>
          </li>
        );
      })}
    </ol>
  );
}
