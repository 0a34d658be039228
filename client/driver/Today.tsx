import { Fragment } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { RouteEtas } from '../../shared/schemas/dispatch';
import { useStore } from '../app/store';
import type { SessionInfo, ViewPackage } from '../sync/index';
import { StatusBadge } from '../ui/Badge';
import { Button } from '../ui/Button';
import { Loading } from '../ui/States';
import { countDay, isOpen, mustReturn, nextStop, toLoad } from './day';
import { usePackages, useOutbox } from './hooks';
import { addressOf } from './maps';
import {
  groupByRoute,
  localOrders,
  maxAttempts,
  routes,
  sequencePath,
  settleLocalOrders,
  stopRows,
  type PickupStop,
  type RouteGroup,
} from './routeCache';
import { BigLink } from './BigLink';
import { StopCard } from './StopCard';
import { clockOf, phoneEtas, routePlans } from './eta';
import { recentPlace } from './geo';
import { held } from './undo';

const loadReorder = () => import('./reorder');

/**
 * Stop rows drawn in the first frame: below the counts and the next stop a 390x844 phone shows two
 * (a tall one four); the rest follow one frame later, so a day of 150 stops opens as fast as a day
 * of 15 (each row costs its share of the start on a slow phone).
 */
const FIRST_FRAME_ROWS = 4;

function useAfterFirstFrame(): boolean {
  const [after, setAfter] = useState(false);
  // Effects run after the browser has painted.
  useEffect(() => setAfter(true), []);
  return after;
}

/**
 * Where the van collects a parcel it delivers later on this route (issue 32): the pickup screen scans
 * it there, with its arrival time as the deliveries have theirs; or the driver records that it could
 * not be collected (`dropped`: recorded on this phone, the office takes it off the route).
 */
function PickupRow({ p, n, stop, eta, dropped }: { p: ViewPackage; n: number; stop: PickupStop; eta?: string | null; dropped: boolean }) {
  const done = p.status !== 'pickup_requested' || dropped;
  return (
    <li class={done ? 'done' : ''}>
      <a href="#/driver/pickups" data-testid="stop-row" data-stop="pickup" data-hawb={p.hawb}>
        <span class="seq">{n}</span>
        <span class="body">
          <span class="line1">
            <span class="mono">{p.hawb}</span> <b>Pickup</b> <StatusBadge status={dropped ? 'Not collected' : p.status} />
            {eta && !done && (
              <b class="eta" data-testid="stop-eta">
                {' '}
                ~{eta}
              </b>
            )}
          </span>
          <span class="line2">Collect from {stop.address ?? 'the pickup point'}</span>
          {p.rejected && <span class="line2 bad">Refused: {p.rejected.message}</span>}
        </span>
      </a>
      {!done && (
        <a class="row-action" href={`#/driver/collect-fail/${p.id}`} data-testid="collect-fail-link">
          Could not collect
        </a>
      )}
    </li>
  );
}

function StopRow({
  p,
  n,
  max,
  heldIds,
  eta,
  paired,
}: {
  p: ViewPackage;
  n: number;
  max: number;
  heldIds: Set<number>;
  eta?: string | null;
  paired?: boolean;
}) {
  // A paired parcel still to collect is a delivery still to make (unless its collection failed: `paired` is false then).
  const done = (!isOpen(p) && !(paired && p.status === 'pickup_requested')) || heldIds.has(p.id);
  return (
    <li class={done ? 'done' : ''}>
      <a href={`#/driver/stop/${p.id}`} data-testid="stop-row" data-stop="delivery" data-hawb={p.hawb}>
        <span class="seq">{n}</span>
        <span class="body">
          <span class="line1">
            <span class="mono">{p.hawb}</span> <StatusBadge status={heldIds.has(p.id) ? 'saving' : p.status} />
            {eta && !done && (
              <b class="eta" data-testid="stop-eta">
                {' '}
                ~{eta}
              </b>
            )}
          </span>
          <span class="line2">
            {p.customer_name ?? '—'} · {addressOf(p) || 'no address'}
          </span>
          {mustReturn(p, max) && <span class="line2 bad">Back to depot</span>}
          {p.rejected && <span class="line2 bad">Refused: {p.rejected.message}</span>}
        </span>
      </a>
    </li>
  );
}

/**
 * The trip back to the depot a route still needs (issue 32): parcels that joined it after the van
 * left wait there until scanned on. Gone once none of the route's parcels is left to load.
 */
function pendingReload(group: RouteGroup, plan: RouteEtas | undefined, max: number): RouteEtas['reload'] {
  const r = plan?.reload;
  if (!r || !group.packages.some((p) => p.id === r.before && isOpen(p)) || !group.packages.some((p) => toLoad(p, max))) return null;
  return r;
}

function ReloadRow({ reload, zone }: { reload: NonNullable<RouteEtas['reload']>; zone?: string }) {
  const at = reload.eta ? clockOf(Date.parse(reload.eta), zone) : null;
  return (
    <li class="visit" data-testid="reload-row" data-parcels={reload.parcels}>
      <span class="body">
        <span class="line1">
          Back to the depot to load {reload.parcels} parcel{reload.parcels === 1 ? '' : 's'}
          {at && <b class="eta"> ~{at}</b>}
        </span>
      </span>
    </li>
  );
}

function RouteBlock({
  group,
  max,
  heldIds,
  localOrder,
  etaText,
  rows,
  reload,
  zone,
  dropped,
}: {
  group: RouteGroup;
  max: number;
  heldIds: Set<number>;
  localOrder: boolean;
  etaText: (id: number) => string | null;
  rows: number;
  reload: RouteEtas['reload'];
  zone?: string;
  /** Parcels whose collection failed on this phone (issue 32): off the route once the office has it. */
  dropped: ReadonlySet<number>;
}) {
  const [busy, setBusy] = useState(false);
  // The result is said here, beside the list it changed: a toast would cover the stops.
  const [said, setSaid] = useState<{ text: string; ok: boolean } | null>(null);
  const { route, packages } = group;
  const open = packages.filter((p) => isOpen(p) && !heldIds.has(p.id));
  const paired = new Set((route?.pickup_stops ?? []).map((s) => s.package).filter((id) => !dropped.has(id)));
  const reoptimise = async () => {
    if (!route) return;
    setBusy(true);
    try {
      const { reoptimiseRoute } = await loadReorder();
      setSaid({ text: await reoptimiseRoute(route, packages), ok: true });
    } catch (err) {
      setSaid({ text: err instanceof Error ? err.message : String(err), ok: false });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="route-block" data-testid="route-block" data-route={route?.id ?? 'none'}>
      <div class="row between">
        <h2>{route ? route.name : 'Parcels not on a route'}</h2>
        <span class="muted">
          {open.length} open of {packages.length}
        </span>
      </div>
      {localOrder && (
        <div class="pending-note" data-testid="local-order">
          Order changed on this phone; it goes to the office with your other actions.
        </div>
      )}
      {route && open.length > 1 && (
        <Button class="xl" busy={busy} onClick={() => void reoptimise()} data-testid="reoptimise">
          Re-optimise remaining stops
        </Button>
      )}
      {said && (
        <div class={`reorder-note${said.ok ? '' : ' bad'}`} role="status" data-testid="reorder-result">
          {said.text}
        </div>
      )}
      <ol class="stops">
        {stopRows(group)
          .slice(0, rows)
          .map((row, i) =>
            row.pickup ? (
              <PickupRow
                key={`${row.p.id}:pickup`}
                p={row.p}
                n={i + 1}
                stop={row.pickup}
                eta={etaText(-row.p.id)}
                dropped={dropped.has(row.p.id)}
              />
            ) : (
              <Fragment key={row.p.id}>
                {reload?.before === row.p.id && <ReloadRow reload={reload} zone={zone} />}
                <StopRow p={row.p} n={i + 1} max={max} heldIds={heldIds} eta={etaText(row.p.id)} paired={paired.has(row.p.id)} />
              </Fragment>
            ),
          )}
      </ol>
    </section>
  );
}

/** The day at a glance: counts, the next stop with one big action, then every route in order. */
export function Today({ me }: { me: SessionInfo }) {
  const { packages, loaded } = usePackages();
  const cache = useStore(routes);
  const orders = useStore(localOrders);
  const max = useStore(maxAttempts);
  const heldList = useStore(held);
  const [outbox] = useOutbox();
  const heldIds = useMemo(() => new Set(heldList.map((h) => h.packageId).filter((x): x is number => x != null)), [heldList]);
  const mine = packages.filter((p) => p.assigned_to_id === me.id || p.pending != null);
  const groups = groupByRoute(mine, cache.routes, orders);
  const counts = countDay(
    mine.filter((p) => !heldIds.has(p.id)),
    max,
  );
  const pickups = mine.filter((p) => p.status === 'pickup_requested' && p.assigned_to_id === me.id).length;
  const ordered = groups.flatMap((g) => g.packages);
  const next = nextStop(ordered, heldIds, max);
  const plans = useStore(routePlans);
  // The depot comes first when the next stop's route goes back there before it (or the stop waits there).
  const nextGroup = next ? groups.find((g) => g.packages.includes(next)) : undefined;
  const nextReload = nextGroup?.route ? pendingReload(nextGroup, plans[nextGroup.route.id], max) : null;
  const openInGroup = nextGroup ? nextGroup.packages.filter((p) => isOpen(p) && !heldIds.has(p.id)) : [];
  const depotFirst =
    nextReload && openInGroup.findIndex((p) => p.id === nextReload.before) <= openInGroup.findIndex((p) => p.id === next?.id)
      ? nextReload
      : null;
  const pendingRoutes = useMemo(
    () => new Set(cache.routes.filter((r) => outbox.some((o) => o.path === sequencePath(r.id))).map((r) => r.id)),
    [outbox, cache],
  );
  useEffect(() => {
    settleLocalOrders(pendingRoutes);
  }, [pendingRoutes, cache.fetchedAt]);
  // Arrival times computed here, offline, with the function the server uses (issue 16).
  const allRows = useAfterFirstFrame();
  // A collection the driver recorded as not made (issue 32): queued, the parcel is nobody's on this phone.
  const dropped = useMemo(
    () => new Set(mine.filter((p) => p.status === 'pickup_requested' && p.assigned_to_id !== me.id).map((p) => p.id)),
    [mine.map((p) => `${p.id}:${p.status}:${p.assigned_to_id}`).join()],
  );
  const etas = useMemo(
    () =>
      new Map(
        groups.flatMap((g) => {
          if (!g.route) return [];
          // Collections still to make are stops on the way (issue 32): a dropped one and its delivery are not.
          const waiting = new Set(g.packages.filter((p) => p.status === 'pickup_requested' && !dropped.has(p.id)).map((p) => p.id));
          const collections = (g.route.pickup_stops ?? []).filter((s) => waiting.has(s.package));
          const done = dropped.size ? new Set([...heldIds, ...dropped]) : heldIds;
          return [...phoneEtas(g.route, g.packages, plans[g.route.id], recentPlace(), Date.now(), done, collections)];
        }),
      ),
    [groups.map((g) => g.packages.map((p) => `${p.id}:${p.status}`).join()).join('|'), plans, heldIds, dropped],
  );
  // Shown as the depot's wall clock: each parcel's route's zone (a collection's under its parcel's id negated).
  const zoneOf = useMemo(
    () =>
      new Map(
        groups.flatMap((g) =>
          g.route
            ? g.packages.flatMap((p) => [[p.id, plans[g.route!.id]?.time_zone] as const, [-p.id, plans[g.route!.id]?.time_zone] as const])
            : [],
        ),
      ),
    [groups, plans],
  );
  const etaText = (id: number) => clockOf(etas.get(id), zoneOf.get(id));

  if (!loaded) return <Loading label="Reading your parcels…" />;
  return (
    <div class="drv-screen" data-testid="today">
      <h1 class="sr-only">Today</h1>
      <div class="counts" role="group" aria-label="Today's counts">
        <a class="count" href="#/driver/scan">
          <b data-testid="count-to-load">{counts.toLoad}</b>
          <span>To load</span>
        </a>
        <div class="count">
          <b data-testid="count-to-deliver">{counts.toDeliver}</b>
          <span>To deliver</span>
        </div>
        <div class="count ok">
          <b data-testid="count-delivered">{counts.delivered}</b>
          <span>Delivered</span>
        </div>
        <div class="count bad">
          <b data-testid="count-failed">{counts.failed}</b>
          <span>Failed</span>
        </div>
      </div>
      {pickups > 0 && (
        <BigLink href="#/driver/pickups" testId="pickups-link">
          Collect {pickups} pickup{pickups === 1 ? '' : 's'}
        </BigLink>
      )}
      {counts.back > 0 && (
        <div class="must-return">
          {counts.back} parcel{counts.back === 1 ? '' : 's'} must go back to the depot.
        </div>
      )}
      {depotFirst ? (
        <>
          <div class="depot-first" data-testid="next-depot">
            <h2>Next: back to the depot</h2>
            <p>
              Load {depotFirst.parcels} new parcel{depotFirst.parcels === 1 ? '' : 's'}
              {depotFirst.eta && (
                <> · ~{clockOf(Date.parse(depotFirst.eta), nextGroup?.route ? plans[nextGroup.route.id]?.time_zone : undefined)}</>
              )}
            </p>
          </div>
          <BigLink href="#/driver/scan" primary>
            Scan parcels onto the van
          </BigLink>
        </>
      ) : next ? (
        <>
          <StopCard p={next} max={max} title="Next stop" eta={etaText(next.id)} />
          {toLoad(next, max) ? (
            <BigLink href="#/driver/scan" primary>
              Scan parcels onto the van
            </BigLink>
          ) : (
            <div class="actions-2">
              <BigLink href={`#/driver/deliver/${next.id}`} primary>
                Deliver
              </BigLink>
              <BigLink href={`#/driver/fail/${next.id}`}>Could not deliver</BigLink>
            </div>
          )}
        </>
      ) : (
        <div class="empty-day">
          {mine.length ? 'All stops done. Well driven!' : 'No parcels assigned to you yet. Open Sync to check again.'}
        </div>
      )}
      {groups.map((g, i) => {
        const before = groups.slice(0, i).reduce((n, x) => n + x.packages.length, 0);
        const rows = allRows ? g.packages.length + (g.route?.pickup_stops?.length ?? 0) : Math.max(0, FIRST_FRAME_ROWS - before);
        return (
          <RouteBlock
            key={g.route?.id ?? 'none'}
            group={g}
            max={max}
            heldIds={heldIds}
            localOrder={g.route ? orders[g.route.id] !== undefined : false}
            etaText={etaText}
            rows={rows}
            reload={g.route ? pendingReload(g, plans[g.route.id], max) : null}
            zone={g.route ? plans[g.route.id]?.time_zone : undefined}
            dropped={dropped}
          />
        );
      })}
    </div>
  );
}
