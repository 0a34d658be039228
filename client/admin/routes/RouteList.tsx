import { ROUTE_STATUSES, type RouteRecord } from '../../../shared/schemas/routes';
import { errorMessage } from '../../api/client';
import { listQuery } from '../../api/paging';
import { downloadFile } from '../../api/upload';
import { useList } from '../../api/useList';
import { can } from '../../app/access';
import { navigate } from '../../app/router';
import type { Session } from '../../app/session';
import { Badge } from '../../ui/Badge';
import { Button, LinkButton } from '../../ui/Button';
import { DataTable, Pager, type Column } from '../../ui/DataTable';
import { SelectField, TextField } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { REFS } from '../resource/declarations';
import { useRefOptions } from '../resource/refOptions';
import { distance, ROUTE_STATUS_LABELS, ROUTE_STATUS_TONE } from './format';
import { ROUTE_PATHS } from './paths';
import './routes.css';

const COLUMNS: Column<RouteRecord>[] = [
  { key: 'name', label: 'Route', sort: 'name', render: (r) => <a href={`#/routes/${r.id}`}>{r.name}</a> },
  { key: 'date', label: 'Date', sort: 'date' },
  {
    key: 'status',
    label: 'Status',
    sort: 'status',
    render: (r) => <Badge tone={ROUTE_STATUS_TONE[r.status]}>{ROUTE_STATUS_LABELS[r.status]}</Badge>,
  },
  { key: 'kind', label: 'Kind', optional: true },
  { key: 'driver_name', label: 'Driver', render: (r) => r.driver_name ?? <span class="muted">No driver</span> },
  { key: 'done_count', label: 'Done / parcels', numeric: true, render: (r) => `${r.done_count} / ${r.package_count}` },
  {
    key: 'total_distance_m',
    label: 'Distance',
    numeric: true,
    render: (r) => (r.optimized_at ? distance(r.total_distance_m) : <span class="muted">Not optimised</span>),
  },
];

const STATUS_OPTIONS = ROUTE_STATUSES.map((s) => ({ value: s, label: ROUTE_STATUS_LABELS[s] }));

/** Routes with date, status and driver filters; CSV of the filtered routes, one line per parcel. */
export default function RouteList({ session, query }: { session: Session; query: URLSearchParams }) {
  const initial: Record<string, string> = {};
  for (const key of ['date', 'status', 'driver']) {
    const v = query.get(key);
    if (v) initial[key] = v;
  }
  const list = useList<RouteRecord>(ROUTE_PATHS.routes, { ordering: '-date', pageSize: 25, filters: initial });
  const drivers = useRefOptions(REFS.driver);
  const canManage = can(session.user.role, 'route.manage');
  const { params, data } = list;
  const f = params.filters ?? {};

  const exportCsv = async () => {
    try {
      const { page: _p, page_size: _s, ...filters } = listQuery(params);
      await downloadFile(ROUTE_PATHS.csv, filters, 'routes.csv');
    } catch (err) {
      toast(errorMessage(err), 'bad');
    }
  };

  return (
    <section aria-labelledby="routes-title">
      <div class="page-head">
        <h1 id="routes-title">Routes</h1>
        <span class="spacer" />
        <LinkButton href="#/map">Live map</LinkButton>
        {canManage && <Button onClick={() => void exportCsv()}>Download CSV</Button>}
        {canManage && (
          <LinkButton href="#/routes/new" variant="primary">
            New route
          </LinkButton>
        )}
      </div>
      <div class="toolbar">
        <div class="field search">
          <label for="route-search">Search</label>
          <input
            id="route-search"
            class="input"
            type="search"
            placeholder="Route name"
            value={params.search ?? ''}
            onInput={(e) => list.setParams({ search: (e.currentTarget as HTMLInputElement).value })}
          />
        </div>
        <TextField label="Date" type="date" name="filter-date" value={f.date ?? ''} onValue={(v) => list.setFilter('date', v)} />
        <SelectField
          name="filter-status"
          label="Status"
          value={f.status ?? ''}
          onValue={(v) => list.setFilter('status', v)}
          options={STATUS_OPTIONS}
          placeholder="All"
        />
        <SelectField
          name="filter-driver"
          label="Driver"
          value={f.driver ?? ''}
          onValue={(v) => list.setFilter('driver', v)}
          options={drivers.options}
          placeholder="All"
        />
      </div>
      {list.error ? (
        <ErrorState error={list.error} onRetry={list.reload} />
      ) : !data ? (
        <Loading />
      ) : data.results.length === 0 ? (
        <div class="card">
          <Empty title={params.search || Object.values(f).some(Boolean) ? 'No route matches these filters' : 'No routes yet'}>
            {canManage && (
              <p>
                <a href="#/routes/new">Build a route</a> from the parcels waiting at the depot.
              </p>
            )}
          </Empty>
        </div>
      ) : (
        <div aria-busy={list.loading ? 'true' : undefined} style={{ opacity: list.loading ? 0.6 : 1 }}>
          <DataTable<RouteRecord>
            columns={COLUMNS}
            rows={data.results}
            rowKey={(r) => r.id}
            caption="Routes"
            ordering={params.ordering}
            onOrdering={(o) => list.setParams({ ordering: o })}
            onRowClick={(r) => navigate(`/routes/${r.id}`)}
          />
          <Pager
            page={params.page}
            pageSize={params.pageSize}
            count={data.count}
            onPage={(p) => list.setParams({ page: p })}
            onPageSize={(n) => list.setParams({ pageSize: n })}
          />
        </div>
      )}
    </section>
  );
}
