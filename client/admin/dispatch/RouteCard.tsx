import type { PlanRoute } from '../../../shared/schemas/dispatch';
import { distance } from '../routes/format';
import { backAt, duration, hhmm, loadShare, planCost, routeZone, stopZone } from './board';

const DRAG_TYPE = 'text/plain';

/** What a stop's drag carries: the parcel id. */
export const dragStart = (pkg: number) => (e: DragEvent) => {
  e.dataTransfer?.setData(DRAG_TYPE, String(pkg));
  if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move';
};
const dropped = (e: DragEvent): number | null => {
  const v = Number(e.dataTransfer?.getData(DRAG_TYPE));
  return Number.isInteger(v) && v > 0 ? v : null;
};

/**
 * One driver's proposed route: colour, load against the van's tightest capacity, distance and
 * finish, then the stops with their ETAs. Stops drag between cards (or move with the select, for
 * keyboards); a stop can be locked to this driver, or the whole route kept as it is.
 */
export function RouteCard({
  route,
  colour,
  drivers,
  fixed,
  onMove,
  onLock,
  onFix,
}: {
  route: PlanRoute;
  colour: string;
  drivers: { id: number; name: string }[];
  fixed: boolean;
  onMove: (pkg: number, toDriver: number, before: number | null) => void;
  onLock: (pkg: number) => void;
  onFix: (on: boolean) => void;
}) {
  const load = loadShare(route);
  const over = load.share > 1;
  const last = route.stops.at(-1);
  const late = route.stops.filter((s) => s.late).length;
  // Waiting for windows and breaks, as the optimiser planned them (issue 32).
  // Parcels this route collects and then delivers (issue 32): both their stops say which they are.
  const paired = new Set(route.stops.filter((s) => s.pickup).map((s) => s.package));
  const waitMin = Math.round(route.stops.reduce((a, s) => a + (s.wait_s ?? 0), 0) / 60);
  const allow = (e: DragEvent) => {
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'move';
  };
  return (
    <section
      class={`plan-card${fixed ? ' fixed' : ''}`}
      style={{ borderLeftColor: colour }}
      data-testid="plan-route"
      data-driver={route.driver}
      aria-label={`Route of ${route.driver_name}`}
      onDragOver={allow}
      onDrop={(e) => {
        e.preventDefault();
        const p = dropped(e);
        if (p != null) onMove(p, route.driver, null);
      }}
    >
      <header class="plan-card-head">
        <span class="swatch" style={{ background: colour }} aria-hidden="true" />
        <div class="who">
          <strong>{route.driver_name}</strong>
          <span class="muted small">
            {route.vehicle_name ?? 'No vehicle'} · {route.shift_start}–{route.shift_end}
          </span>
        </div>
        <span class="count" data-testid="plan-stop-count">
          {route.stops.length}
        </span>
      </header>
      <div
        class={`load-bar${over ? ' over' : ''}`}
        role="meter"
        aria-label={`Load of ${route.driver_name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(load.share * 100)}
        aria-valuetext={load.label}
        data-testid="load-bar"
      >
        <div style={{ width: `${Math.min(100, Math.round(load.share * 100))}%`, background: over ? undefined : colour }} />
      </div>
      <div class="plan-facts small">
        <span>{load.label}</span>
        <span>{distance(route.distance_m)}</span>
        {last && (
          <span data-testid="plan-duration" title="From leaving the depot to back at the end depot, the drive back included">
            {duration(route.duration_s)}
          </span>
        )}
        <span data-testid="plan-back">back {last ? hhmm(backAt(route), routeZone(route)) : '—'}</span>
        {route.cost !== undefined && last && (
          <span
            data-testid="plan-cost"
            title="At the rates it was planned with: per km, per hour (waits and the drive back included), per van"
          >
            {planCost(route.cost)}
          </span>
        )}
        {late > 0 && <span class="bad-text">{late} late</span>}
      </div>
      {(waitMin > 0 || (route.breaks?.length ?? 0) > 0) && (
        <div class="plan-facts small" data-testid="plan-waits">
          {waitMin > 0 && <span>waits {waitMin} min</span>}
          {route.breaks?.map((b) => (
            <span key={b.start}>
              break {hhmm(b.start, routeZone(route))}–{hhmm(b.end, routeZone(route))}
            </span>
          ))}
        </div>
      )}
      <label class="check small">
        <input type="checkbox" checked={fixed} onChange={(e) => onFix((e.currentTarget as HTMLInputElement).checked)} /> Keep this route as
        it is on re-plan
      </label>
      {route.stops.length === 0 ? (
        <p class="muted small drop-hint">No stops. Drag stops here.</p>
      ) : (
        <ol class="plan-stops">
          {route.stops.map((s, i) => (
            <li
              key={`${s.package}${s.pickup ? ':pickup' : ''}`}
              draggable
              data-testid="plan-stop"
              data-package={s.package}
              data-hawb={s.hawb}
              data-stop={s.pickup ? 'pickup' : 'delivery'}
              class={s.late ? 'late' : ''}
              onDragStart={dragStart(s.package)}
              onDragOver={allow}
              onDrop={(e) => {
                e.preventDefault();
                e.stopPropagation();
                const p = dropped(e);
                if (p != null && p !== s.package) onMove(p, route.driver, s.package);
              }}
            >
              <span class="seq" style={{ background: colour }}>
                {i + 1}
              </span>
              <span class="what">
                <span class="mono">{s.hawb}</span>{' '}
                {s.pickup ? (
                  <span class="pair-tag" data-testid="pair-tag">
                    Pickup
                  </span>
                ) : (
                  paired.has(s.package) && (
                    <span class="pair-tag" data-testid="pair-tag">
                      Delivery
                    </span>
                  )
                )}{' '}
                <span class="eta" data-testid="plan-eta">
                  {hhmm(s.eta, stopZone(s, route))}
                </span>
                {s.window_start && (
                  <span class={`win${s.late ? ' bad-text' : ''}`}>
                    {' '}
                    · window {s.window_start}–{s.window_end}
                  </span>
                )}
                {(s.wait_s ?? 0) >= 60 && <span class="muted small"> · there {Math.round((s.wait_s ?? 0) / 60)} min early</span>}
                <span class="muted small addr">
                  {s.customer_name ?? ''}
                  {s.address ? ` · ${s.address}` : ''}
                </span>
              </span>
              <button
                class={`lock${s.locked ? ' on' : ''}`}
                aria-pressed={s.locked}
                title={s.locked ? 'Locked to this driver' : 'Lock to this driver'}
                aria-label={`${s.locked ? 'Unlock' : 'Lock'} ${s.hawb}`}
                onClick={() => onLock(s.package)}
                data-testid="lock"
              >
                {s.locked ? 'Locked' : 'Lock'}
              </button>
              <select
                class="move"
                aria-label={`Move ${s.hawb} to`}
                value=""
                data-testid="move"
                onChange={(e) => {
                  const v = Number((e.currentTarget as HTMLSelectElement).value);
                  if (v) onMove(s.package, v, null);
                }}
              >
                <option value="">Move…</option>
                {drivers
                  .filter((d) => d.id !== route.driver)
                  .map((d) => (
                    <option key={d.id} value={d.id}>
                      {d.name}
                    </option>
                  ))}
              </select>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
