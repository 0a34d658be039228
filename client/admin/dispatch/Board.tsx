import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { PlanJob, Proposal, Shift } from '../../../shared/schemas/dispatch';
import type { RouteRecord } from '../../../shared/schemas/routes';
import { api, errorMessage } from '../../api/client';
import { fetchAll } from '../../api/paging';
import { Button } from '../../ui/Button';
import { Empty } from '../../ui/States';
import { toast } from '../../ui/toast';
import { distance, START_COLOUR, today } from '../routes/format';
import { MapView, type MapLine, type MapMarker } from '../routes/MapView';
import { colourFor, commitBody, DISPATCH_PATHS, hhmm, moveStop, planCost, replanBody, routeLine, stopZone, toggleLock } from './board';
import { RouteCard } from './RouteCard';
import { DayChanges } from './DayChanges';
import '../routes/routes.css';
import './dispatch.css';

interface Named {
  id: number;
  name: string;
}
interface Warehouse {
  id: number;
  name: string;
  street_address: string;
}
interface Zone {
  id: number;
  name: string;
  warehouse: number | null;
}

const POLL_MS = 400;
const REASON_LABEL: Record<string, string> = {
  no_coordinates: 'No coordinates',
  capacity: 'Too big or heavy',
  window: 'Window unreachable',
  shift: 'Outside every shift',
  fleet_full: 'Fleet full',
  skill: 'Skill missing',
};

function Toggle({ label, on, onChange, testid }: { label: string; on: boolean; onChange: (v: boolean) => void; testid?: string }) {
  return (
    <label class={`chip${on ? ' on' : ''}`} data-testid={testid}>
      <input type="checkbox" checked={on} onChange={(e) => onChange((e.currentTarget as HTMLInputElement).checked)} /> {label}
    </label>
  );
}

const flip = (set: Set<number>, id: number, on: boolean) => {
  const n = new Set(set);
  if (on) n.add(id);
  else n.delete(id);
  return n;
};

/**
 * The dispatch board: choose the day, depots or zones and the drivers on shift; "Plan" runs the
 * fleet optimiser on the server (a worker thread; progress shown) and proposes one coloured route
 * per driver; the dispatcher moves or locks stops, re-plans around them and commits.
 */
export default function DispatchBoard() {
  const [date, setDate] = useState(today());
  const [warehouses, setWarehouses] = useState<Warehouse[]>([]);
  const [zones, setZones] = useState<Zone[]>([]);
  const [drivers, setDrivers] = useState<Named[]>([]);
  const [shifts, setShifts] = useState<Shift[] | null>(null);
  const [pickedDepots, setPickedDepots] = useState<Set<number>>(new Set());
  const [pickedZones, setPickedZones] = useState<Set<number>>(new Set());
  const [pickedDrivers, setPickedDrivers] = useState<Set<number>>(new Set());
  const [undated, setUndated] = useState(false);
  const [pickups, setPickups] = useState(false);
  const [job, setJob] = useState<PlanJob | null>(null);
  const [proposal, setProposal] = useState<Proposal | null>(null);
  const [fixed, setFixed] = useState<Set<number>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [committing, setCommitting] = useState(false);
  const [committed, setCommitted] = useState<RouteRecord[] | null>(null);
  const poll = useRef<number | null>(null);

  useEffect(() => {
    void Promise.all([
      fetchAll<Warehouse>(DISPATCH_PATHS.warehouses),
      fetchAll<Zone>(DISPATCH_PATHS.zones),
      fetchAll<Named>(DISPATCH_PATHS.drivers),
    ]).then(
      ([w, z, d]) => {
        setWarehouses(w);
        setZones(z);
        setDrivers(d);
      },
      (e: unknown) => setError(errorMessage(e)),
    );
    return () => {
      if (poll.current) clearTimeout(poll.current);
    };
  }, []);
  useEffect(() => {
    setShifts(null);
    fetchAll<Shift>(DISPATCH_PATHS.shifts, { date }).then(
      (s) => {
        const sorted = [...s].sort((a, b) => a.start_time.localeCompare(b.start_time) || a.driver_name.localeCompare(b.driver_name));
        setShifts(sorted);
        setPickedDrivers(new Set(sorted.map((x) => x.driver)));
      },
      (e: unknown) => setError(errorMessage(e)),
    );
  }, [date]);

  const planning = job?.status === 'running' || job?.status === 'queued';
  const onShift = new Set((shifts ?? []).map((s) => s.driver));
  const others = drivers.filter((d) => !onShift.has(d.id));

  const watch = (id: number) => {
    const tick = async () => {
      try {
        const j = await api.get<PlanJob>(DISPATCH_PATHS.planOne(id));
        setJob(j);
        if (j.status === 'done' && j.proposal) {
          setProposal(j.proposal);
          setFixed(new Set([...fixed].filter((d) => j.proposal!.routes.some((r) => r.driver === d && r.fixed))));
          return;
        }
        if (j.status === 'failed') {
          setError(j.message ?? 'Planning failed');
          return;
        }
        poll.current = window.setTimeout(() => void tick(), POLL_MS);
      } catch (e) {
        setError(errorMessage(e));
      }
    };
    void tick();
  };

  const plan = async (keep: boolean) => {
    setError(null);
    setCommitted(null);
    const extra = keep && proposal ? replanBody(proposal, fixed) : { locks: [], fixed_routes: [] };
    try {
      const j = await api.post<PlanJob>(DISPATCH_PATHS.plan, {
        date,
        warehouses: [...pickedDepots],
        zones: [...pickedZones],
        drivers: [...pickedDrivers],
        include_undated: undated,
        include_pickups: pickups,
        ...extra,
      });
      setJob(j);
      watch(j.id);
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  const commit = async () => {
    if (!proposal || !job) return;
    setCommitting(true);
    setError(null);
    try {
      const r = await api.post<{ routes: RouteRecord[]; message: string }>(DISPATCH_PATHS.commit(job.id), commitBody(proposal));
      setCommitted(r.routes);
      toast(r.message, 'ok');
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setCommitting(false);
    }
  };

  const colours = useMemo(
    () => new Map((proposal?.routes ?? []).map((r, i) => [r.driver, colourFor(i)])),
    [proposal?.routes.map((r) => r.driver).join()],
  );
  const { markers, lines } = useMemo(() => {
    const m: MapMarker[] = [];
    const l: MapLine[] = [];
    for (const r of proposal?.routes ?? []) {
      const colour = colours.get(r.driver) ?? '#333';
      // Depot, stops and the drive back (issue 32).
      const pts = routeLine(r);
      r.stops.forEach((s, i) => {
        if (s.latitude == null || s.longitude == null) return;
        // Dots, not numbered pins: a day of 300 stops would bury the map; the popup and the card number them.
        m.push({
          key: `s${s.package}${s.pickup ? 'p' : ''}`,
          lat: s.latitude,
          lng: s.longitude,
          color: colour,
          shape: 'dot',
          title: `${r.driver_name} · stop ${i + 1} · ${s.pickup ? 'pickup of ' : ''}${s.hawb}`,
          detail: `ETA ${hhmm(s.eta, stopZone(s, r))}${s.window_start ? ` (window ${s.window_start}–${s.window_end})` : ''}`,
        });
      });
      if (r.start)
        m.push({
          key: `d${r.driver}`,
          lat: r.start.latitude,
          lng: r.start.longitude,
          label: 'S',
          color: START_COLOUR,
          shape: 'square',
          title: `Depot of ${r.driver_name}`,
        });
      l.push({ points: pts, color: colour });
    }
    for (const u of proposal?.unassigned ?? []) {
      if (u.latitude != null && u.longitude != null)
        m.push({
          key: `u${u.package}`,
          lat: u.latitude,
          lng: u.longitude,
          color: '#b3261e',
          shape: 'dot',
          title: `Unassigned ${u.hawb}`,
          detail: u.message,
        });
    }
    return { markers: m, lines: l };
  }, [proposal, colours]);

  const planned = proposal?.routes.filter((r) => r.stops.length > 0).length ?? 0;
  return (
    <div class="dispatch" data-testid="dispatch-board">
      <div class="page-head">
        <h1>Dispatch board</h1>
      </div>
      <section class="card plan-form" aria-label="What to plan">
        <div class="row wrap">
          <label class="field">
            <span class="label">Day</span>
            <input
              type="date"
              value={date}
              onChange={(e) => {
                setDate((e.currentTarget as HTMLInputElement).value);
                setProposal(null);
                setJob(null);
              }}
              data-testid="plan-date"
            />
          </label>
          <fieldset class="chips">
            <legend>Depots</legend>
            {warehouses.length === 0 ? (
              <span class="muted small">No depots</span>
            ) : (
              warehouses.map((w) => (
                <Toggle
                  key={w.id}
                  label={w.name || w.street_address}
                  on={pickedDepots.has(w.id)}
                  onChange={(on) => setPickedDepots(flip(pickedDepots, w.id, on))}
                />
              ))
            )}
          </fieldset>
          <fieldset class="chips">
            <legend>Parcels</legend>
            <Toggle label="Also parcels with no delivery date" on={undated} onChange={setUndated} testid="include-undated" />
            <Toggle label="Also pickups: collect and deliver them" on={pickups} onChange={setPickups} testid="include-pickups" />
          </fieldset>
          <fieldset class="chips">
            <legend>Zones {pickedDepots.size + pickedZones.size === 0 && <span class="muted small">(none chosen: all)</span>}</legend>
            {zones.map((z) => (
              <Toggle key={z.id} label={z.name} on={pickedZones.has(z.id)} onChange={(on) => setPickedZones(flip(pickedZones, z.id, on))} />
            ))}
          </fieldset>
        </div>
        <fieldset class="chips drivers">
          <legend>Drivers on shift {shifts && <span class="muted small">({shifts.length} with a shift this day)</span>}</legend>
          {shifts == null ? (
            <span class="muted small">Loading shifts…</span>
          ) : (
            shifts.map((s) => (
              <Toggle
                key={s.id}
                testid="driver-chip"
                label={`${s.driver_name} ${s.start_time}–${s.end_time}${s.vehicle_name ? ` · ${s.vehicle_name}` : ''}`}
                on={pickedDrivers.has(s.driver)}
                onChange={(on) => setPickedDrivers(flip(pickedDrivers, s.driver, on))}
              />
            ))
          )}
          {others.length > 0 && (
            <details class="others">
              <summary>Other drivers (default shift 08:00–17:00, no van)</summary>
              {others.map((d) => (
                <Toggle
                  key={d.id}
                  label={d.name}
                  on={pickedDrivers.has(d.id)}
                  onChange={(on) => setPickedDrivers(flip(pickedDrivers, d.id, on))}
                />
              ))}
            </details>
          )}
        </fieldset>
        <div class="row plan-actions">
          <Button
            variant="primary"
            size="big"
            onClick={() => void plan(false)}
            busy={planning}
            disabled={!pickedDrivers.size}
            data-testid="plan"
          >
            Plan
          </Button>
          {proposal && !committed && (
            <Button size="big" onClick={() => void plan(true)} busy={planning} data-testid="replan">
              Re-plan around locks
            </Button>
          )}
          {proposal && !committed && (
            <Button
              variant="primary"
              size="big"
              onClick={() => void commit()}
              busy={committing}
              disabled={planning || planned === 0}
              data-testid="commit"
            >
              Commit {planned} route{planned === 1 ? '' : 's'}
            </Button>
          )}
          {!pickedDrivers.size && <span class="muted">Choose at least one driver.</span>}
        </div>
        {planning && (
          <div class="plan-progress" role="status" aria-live="polite" data-testid="plan-progress">
            <div
              class="progress"
              role="progressbar"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round((job?.progress ?? 0) * 100)}
            >
              <div style={{ width: `${Math.round((job?.progress ?? 0) * 100)}%` }} />
            </div>
            <span>
              Planning {pickedDrivers.size} driver{pickedDrivers.size === 1 ? '' : 's'}… {Math.round((job?.progress ?? 0) * 100)}%
            </span>
          </div>
        )}
        {error && (
          <div class="form-error" role="alert" data-testid="plan-error">
            {error}
          </div>
        )}
        {committed && (
          <div class="committed" role="status" data-testid="committed">
            {committed.length} route{committed.length === 1 ? '' : 's'} created and sent to the drivers' phones:{' '}
            {committed.map((r, i) => (
              <span key={r.id}>
                {i ? ', ' : ''}
                <a href={`#/routes/${r.id}`}>{r.name}</a>
              </span>
            ))}
          </div>
        )}
      </section>

      <DayChanges date={date} undated={undated} pickups={pickups} version={committed} />

      {!proposal ? (
        !planning && (
          <div class="card">
            <Empty title="No plan yet">Choose the day, the depots or zones and the drivers, then press Plan.</Empty>
          </div>
        )
      ) : (
        <>
          <div class="plan-summary" data-testid="plan-summary">
            <strong>{proposal.routes.reduce((s, r) => s + r.stops.filter((x) => !x.pickup).length, 0)}</strong> of {proposal.parcels}{' '}
            parcels on <strong>{planned}</strong> routes · {distance(proposal.distance_m)}
            {proposal.cost !== undefined && (
              <>
                {' '}
                · <span data-testid="plan-total-cost">{planCost(proposal.cost)}</span> at your rates
              </>
            )}{' '}
            · solved in {(proposal.solve_ms / 1000).toFixed(1)} s
            {proposal.unassigned.length > 0 && (
              <>
                {' '}
                · <span class="bad-text">{proposal.unassigned.length} unassigned</span>
              </>
            )}
          </div>
          <div class="plan-layout">
            <div class="plan-map">
              <MapView markers={markers} lines={lines} label="Proposed routes" height={620} />
            </div>
            <div class="plan-cards" data-testid="plan-cards">
              {proposal.routes.map((r) => (
                <RouteCard
                  key={r.driver}
                  route={r}
                  colour={colours.get(r.driver) ?? '#333'}
                  fixed={fixed.has(r.driver)}
                  drivers={proposal.routes.map((x) => ({ id: x.driver, name: x.driver_name }))}
                  onMove={(p, to, before) => setProposal(moveStop(proposal, p, to, before))}
                  onLock={(p) => setProposal(toggleLock(proposal, p))}
                  onFix={(on) => setFixed(flip(fixed, r.driver, on))}
                />
              ))}
            </div>
          </div>
          <section class="card unassigned" aria-label="Unassigned parcels" data-testid="unassigned">
            <h2>Unassigned parcels ({proposal.unassigned.length})</h2>
            {proposal.unassigned.length === 0 ? (
              <p class="muted">Every parcel has a driver.</p>
            ) : (
              <ul>
                {proposal.unassigned.map((u) => (
                  <li key={u.package} data-testid="unassigned-row" data-reason={u.reason}>
                    <span class="mono">{u.hawb}</span> <span class="reason">{REASON_LABEL[u.reason] ?? u.reason}</span>{' '}
                    <span class="muted">{u.message}</span>
                    {u.address && <span class="muted small"> · {u.address}</span>}
                  </li>
                ))}
              </ul>
            )}
          </section>
          {committed == null && <p class="muted small">Moving a stop locks it to its new driver.</p>}
        </>
      )}
    </div>
  );
}
