import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import { PACKAGE_STATUSES, STATUS_LABELS } from '../../shared/lifecycle';
import type { DashboardCountAnswer, Package } from '../../shared/schemas/package';
import { ApiError, api, errorMessage } from '../api/client';
import type { Page } from '../api/paging';
import { PATHS } from '../api/paths';
import { canUseDepot } from '../app/access';
import type { Session } from '../app/session';
import { STATUS_TONE, StatusBadge } from '../ui/Badge';
import { Button, LinkButton } from '../ui/Button';
import { toast } from '../ui/toast';
import { Counter } from '../ui/Counter';
import { ErrorState, Loading } from '../ui/States';
import { RoutesToday } from './dispatch/RoutesToday';
import { ArrivalAccuracy } from './reports/ArrivalAccuracy';
import { SetupChecklist } from './SetupChecklist';
import { isAdmin, isStaff } from '../../shared/roles';

/** Roles the flagged list answers (server: package-delivered/flagged/). */
const FLAG_READERS = new Set(['super_admin', 'admin', 'supervisor', 'depot_manager']);

type Counts = z.infer<typeof DashboardCountAnswer>;

/**
 * Counts by status from the dashboard endpoint; where the server does not have it yet, the same
 * numbers come from one `count` per status of the package list (page_size=1).
 */
async function loadCounts(): Promise<Counts> {
  try {
    return await api.get<Counts>(PATHS.dashboardCount);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
  }
  const pairs = await Promise.all(
    PACKAGE_STATUSES.map(async (s) => [s, (await api.get<Page<Package>>(PATHS.packages, { status: s, page_size: 1 })).count] as const),
  );
  const by_status = Object.fromEntries(pairs) as Counts['by_status'];
  const total = pairs.reduce((n, [, c]) => n + c, 0);
  return {
    success: true,
    total,
    by_status,
    unassigned: by_status.created + by_status.received,
    assigned_not_scanned: by_status.assigned,
    flagged: 0,
  };
}

/** The flagged list's rows carry why each was flagged. */
type FlaggedPackage = Package & { flag_reason: string | null };

export default function Dashboard({ session }: { session: Session }) {
  const [counts, setCounts] = useState<Counts | null>(null);
  const [failed, setFailed] = useState<Package[] | null>(null);
  const [flagged, setFlagged] = useState<FlaggedPackage[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    let live = true;
    setError(null);
    loadCounts().then(
      (c) => {
        if (live) setCounts(c);
      },
      (err: unknown) => {
        if (live) setError(err);
      },
    );
    api.get<Page<Package>>(PATHS.packages, { status: 'failed', page_size: 8, ordering: '-updated_at' }).then(
      (p) => {
        if (live) setFailed(p.results);
      },
      () => {
        if (live) setFailed([]);
      },
    );
    // Only supervisors and admins may list flags: nobody else asks (a company's dashboard answered 403 on every load).
    if (FLAG_READERS.has(session.user.role))
      api.get<Page<FlaggedPackage>>(PATHS.flagged, { page_size: 8 }).then(
        (p) => {
          if (live) setFlagged(p.results);
        },
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [tick]);

  const resolve = async (p: Package) => {
    try {
      await api.post(PATHS.resolveFlag(p.id), { note: 'Checked on the dashboard' });
      toast(`Flag on ${p.hawb} resolved`, 'ok');
      setTick((n) => n + 1);
    } catch (err) {
      toast(errorMessage(err), 'bad');
    }
  };

  if (error) return <ErrorState error={error} onRetry={() => setTick((n) => n + 1)} />;
  if (!counts) return <Loading label="Loading the dashboard…" />;
  const shown = PACKAGE_STATUSES.filter(
    (s) => counts.by_status[s] > 0 || ['created', 'received', 'assigned', 'out_for_delivery', 'delivered', 'failed'].includes(s),
  );
  return (
    <section aria-labelledby="dash-title" class="stack">
      <div class="page-head">
        <h1 id="dash-title">Dashboard</h1>
        <span class="muted">Hello {session.user.name}</span>
        <span class="spacer" />
        {canUseDepot(session.user.role) && (
          <LinkButton href="#/depot" variant="primary">
            Open depot scanning
          </LinkButton>
        )}
      </div>
      {isAdmin(session.user.role) && <SetupChecklist parcels={counts.total} />}
      <h2>To act on</h2>
      <div class="counters">
        <Counter label="Total packages" value={counts.total} href="#/packages" />
        <Counter
          label="Unassigned"
          value={counts.unassigned}
          tone={counts.unassigned ? 'warn' : undefined}
          href="#/packages?status=received"
        />
        <Counter label="Assigned, not on a van" value={counts.assigned_not_scanned} tone="info" href="#/packages?status=assigned" />
        <Counter
          label="Failed deliveries"
          value={counts.by_status.failed}
          tone={counts.by_status.failed ? 'bad' : undefined}
          href="#/packages?status=failed"
        />
        <Counter label="Flagged conflicts" value={counts.flagged} tone={counts.flagged ? 'bad' : undefined} />
      </div>
      <h2>By status</h2>
      <div class="counters">
        {shown.map((s) => (
          <Counter key={s} label={STATUS_LABELS[s]} value={counts.by_status[s]} tone={STATUS_TONE[s]} href={`#/packages?status=${s}`} />
        ))}
      </div>
      {isStaff(session.user.role) && <RoutesToday tick={tick} />}
      {isStaff(session.user.role) && <ArrivalAccuracy tick={tick} />}
      {flagged.length > 0 && (
        <div class="card" data-testid="flagged">
          <h2 style={{ marginTop: 0 }}>Flagged for a supervisor</h2>
          <div class="table-wrap">
            <table class="data">
              <thead>
                <tr>
                  <th>Tracking no</th>
                  <th>Customer</th>
                  <th>Driver</th>
                  <th>Status</th>
                  <th>Why flagged</th>
                  <th>
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {flagged.map((p) => (
                  <tr key={p.id}>
                    <td>
                      <a class="mono" href={`#/packages/${p.id}`}>
                        {p.hawb}
                      </a>
                    </td>
                    <td>{p.customer_name ?? '—'}</td>
                    <td>{p.assigned_to?.name ?? '—'}</td>
                    <td>
                      <StatusBadge status={p.status} />
                    </td>
                    <td data-testid="flag-reason">{p.flag_reason ?? '—'}</td>
                    <td class="actions">
                      <Button size="small" onClick={() => void resolve(p)}>
                        Mark resolved
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
      <div class="card">
        <div class="row">
          <h2 style={{ margin: 0 }}>Latest failed deliveries</h2>
          <span class="spacer" />
          <LinkButton href="#/packages?status=failed" size="small">
            All failed
          </LinkButton>
        </div>
        {failed === null ? (
          <Loading />
        ) : failed.length === 0 ? (
          <p class="muted">No failed deliveries. </p>
        ) : (
          <div class="table-wrap" style={{ marginTop: '0.75rem' }}>
            <table class="data">
              <thead>
                <tr>
                  <th>Tracking no</th>
                  <th>Customer</th>
                  <th>Reason</th>
                  <th>Driver</th>
                  <th>Status</th>
                </tr>
              </thead>
              <tbody>
                {failed.map((p) => (
                  <tr key={p.id}>
                    <td>
                      <a class="mono" href={`#/packages/${p.id}`}>
                        {p.hawb}
                      </a>
                    </td>
                    <td>{p.customer_name ?? '—'}</td>
                    <td>{p.package_failed_delivery_status.at(-1)?.name ?? '—'}</td>
                    <td>{p.assigned_to?.name ?? '—'}</td>
                    <td>
                      <StatusBadge status={p.status} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
}
