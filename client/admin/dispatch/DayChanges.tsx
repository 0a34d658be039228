import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { AmendProposal, RouteEtas } from '../../../shared/schemas/dispatch';
import { api, errorMessage } from '../../api/client';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/toast';
import { amendCommitBody, DISPATCH_PATHS, hhmm } from './board';

const STATE_LABEL = { next: 'next', kept: '', moved: 'moved', added: 'new' } as const;

/**
 * The day after the plan (issue 32): with routes committed and on the road, new parcels are
 * inserted into them, or the remainder is re-planned without routes that cannot run (a driver off
 * sick, a van broken down). The board first shows what would change against what each driver has
 * (stops added, moved, removed); nothing reaches the phones until "Commit changes".
 * `version` changes when the board commits a plan: the routes just created are on the road too.
 * `pickups`: the day's pickups still to collect join as pairs (collected, then delivered, by one van).
 */
export function DayChanges({ date, undated, pickups, version }: { date: string; undated: boolean; pickups?: boolean; version?: unknown }) {
  const [live, setLive] = useState<RouteEtas[]>([]);
  const [drop, setDrop] = useState<Set<number>>(new Set());
  const [proposal, setProposal] = useState<AmendProposal | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    let on = true;
    setProposal(null);
    api.get<{ results: RouteEtas[] }>(DISPATCH_PATHS.dayEtas, { date }).then(
      (r) => {
        if (on) setLive(r.results);
      },
      () => {
        if (on) setLive([]);
      },
    );
    return () => {
      on = false;
    };
  }, [date, tick, version]);

  const preview = async () => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      setProposal(
        await api.post<AmendProposal>(DISPATCH_PATHS.amend, {
          date,
          include_undated: undated,
          include_pickups: !!pickups,
          drop_routes: [...drop],
        }),
      );
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const commit = async () => {
    if (!proposal) return;
    setBusy(true);
    setError(null);
    try {
      const r = await api.post<{ message: string }>(DISPATCH_PATHS.amendCommit, amendCommitBody(proposal));
      setDone(`${r.message}: the drivers' phones have the new order.`);
      toast(r.message, 'ok');
      setProposal(null);
      setDrop(new Set());
      setTick(tick + 1);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const changes = proposal ? amendCommitBody(proposal) : null;
  const nothing = !!changes && changes.routes.length === 0 && changes.drop_routes.length === 0 && changes.open_routes.length === 0;
  return (
    <section class="card day-changes" aria-label="Routes on the road" data-testid="day-changes">
      <h2>Routes on the road ({live.length})</h2>
      {live.length === 0 ? (
        <p class="muted">No committed routes for this day yet.</p>
      ) : (
        <>
          <p class="muted small">
            New parcels due this day join these routes; stops done and each driver's next stop stay put. Mark a route that cannot run to
            share its stops out.
          </p>
          <fieldset class="chips">
            <legend>Cannot run</legend>
            {live.map((r) => (
              <label key={r.route} class={`chip${drop.has(r.route) ? ' on' : ''}`} data-testid="amend-drop">
                <input
                  type="checkbox"
                  checked={drop.has(r.route)}
                  onChange={(e) => {
                    const n = new Set(drop);
                    if ((e.currentTarget as HTMLInputElement).checked) n.add(r.route);
                    else n.delete(r.route);
                    setDrop(n);
                  }}
                />{' '}
                {r.driver_name ?? r.name}
              </label>
            ))}
          </fieldset>
          <div class="row plan-actions">
            <Button size="big" onClick={() => void preview()} busy={busy && !proposal} data-testid="amend-preview">
              {drop.size ? 'Re-plan the rest of the day' : 'Insert new parcels'}
            </Button>
            {proposal && (
              <Button variant="primary" size="big" onClick={() => void commit()} busy={busy} disabled={nothing} data-testid="amend-commit">
                Commit changes
              </Button>
            )}
          </div>
        </>
      )}
      {error && (
        <div class="form-error" role="alert" data-testid="amend-error">
          {error}
        </div>
      )}
      {done && (
        <div class="committed" role="status" data-testid="amend-done">
          {done}
        </div>
      )}
      {proposal && (
        <div class="amend-diff" data-testid="amend-diff">
          {nothing && (
            <p class="muted" data-testid="amend-nothing">
              Nothing to change: no new parcels due, nothing to move.
            </p>
          )}
          {proposal.routes.map((r) => (
            <article
              key={r.route ?? `new-${r.driver}`}
              class={`amend-route${r.dropped ? ' dropped' : ''}${r.opens ? ' opens' : ''}`}
              data-testid="amend-route"
              data-route={r.route ?? undefined}
              data-opens={r.opens ? 'true' : undefined}
              data-added={r.added.length}
              data-moved={r.moved.length}
              data-removed={r.removed.length}
            >
              <header>
                <strong>{r.driver_name}</strong>{' '}
                <span class="muted small">
                  {r.opens ? (
                    <span data-testid="amend-opens">new route from the depot · {r.name}</span>
                  ) : (
                    <>
                      {r.name} · {r.done} done
                    </>
                  )}
                </span>
                <span class="amend-counts small">
                  {r.dropped ? (
                    <span class="bad-text">
                      cannot run: {r.removed.length} stop{r.removed.length === 1 ? '' : 's'} to share out
                    </span>
                  ) : (
                    <>
                      <span data-testid="amend-added">+{r.added.length} added</span> ·{' '}
                      <span data-testid="amend-moved">{r.moved.length} moved</span> · <span>{r.removed.length} removed</span>
                      {r.back && <> · back {hhmm(r.back, r.time_zone)}</>}
                    </>
                  )}
                </span>
              </header>
              {!r.dropped && (r.added.length > 0 || r.moved.length > 0) && (
                <ol class="amend-stops small">
                  {r.stops.map((s, i) => (
                    <Fragment key={`${s.package}${s.collect ? '-collect' : ''}`}>
                      {r.reload?.before === i && (
                        <li class="visit" data-testid="amend-reload" data-parcels={r.reload.parcels}>
                          Back to the depot to load {r.reload.parcels} parcel{r.reload.parcels === 1 ? '' : 's'} ·{' '}
                          {hhmm(r.reload.eta, r.time_zone)}
                        </li>
                      )}
                      {r.break?.before === i && <BreakRow b={r.break} zone={r.time_zone} />}
                      <li data-testid="amend-stop" data-state={s.state} class={s.state}>
                        {s.collect && <span class="muted">Collect </span>}
                        <span class="mono">{s.hawb}</span> {hhmm(s.eta, r.time_zone)}
                        {STATE_LABEL[s.state] && <span class={`tag ${s.state}`}> {STATE_LABEL[s.state]}</span>}
                        {s.late && <span class="bad-text"> late</span>}
                      </li>
                    </Fragment>
                  ))}
                  {r.break?.before === r.stops.length && <BreakRow b={r.break} zone={r.time_zone} />}
                </ol>
              )}
            </article>
          ))}
          {proposal.unassigned.length > 0 && (
            <ul class="amend-left" data-testid="amend-unassigned">
              {proposal.unassigned.map((u) => (
                <li key={u.package}>
                  <span class="mono">{u.hawb}</span> <span class="muted">{u.message}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}

/** The driver's break where the proposed order puts it. */
function BreakRow({ b, zone }: { b: { start: string; end: string }; zone: string }) {
  return (
    <li class="visit" data-testid="amend-break">
      Break {hhmm(b.start, zone)}–{hhmm(b.end, zone)}
    </li>
  );
}
