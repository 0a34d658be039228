import { useState } from 'preact/hooks';
import { PACKAGE_STATUSES, STATUS_LABELS } from '../../../shared/lifecycle';
import { api, errorMessage } from '../../api/client';
import { listQuery } from '../../api/paging';
import { PATHS } from '../../api/paths';
import { downloadFile } from '../../api/upload';
import { useList } from '../../api/useList';
import { can } from '../../app/access';
import { navigate } from '../../app/router';
import type { Session } from '../../app/session';
import { Button, LinkButton } from '../../ui/Button';
import { ColumnChooser, DataTable, Pager, useColumns } from '../../ui/DataTable';
import { ConfirmDialog } from '../../ui/Dialog';
import { SelectField } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { REFS } from '../resource/declarations';
import { useRefOptions } from '../resource/refOptions';
import { AssignDialog } from './AssignDialog';
import { LOCATION_COLUMN_KEY, PACKAGE_COLUMNS, type PackageRow } from './columns';
import { PrecisionBadge, usePrecisions } from './precision';
import { ActionDialog } from './actions/ActionDialog';
import { PackageForm } from './actions/PackageForm';
import { ACTIONS, type ActionKind } from './actions/rules';
import { bulkKinds } from './actions/bulk';
import { DriverManifest, PrintLabels } from './actions/PrintLabels';
import { NARROW, useMedia } from '../../ui/useMedia';
import { CARD_ORDERINGS, PackageCards } from './PackageCards';

const STATUS_OPTIONS = PACKAGE_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }));

/**
 * Packages: filters (status, company, zone, driver, search), columns, CSV export, assign/unassign many at once.
 * Under 700 px the table becomes a list of cards (PackageCards) with a "Sort by" choice instead of headers.
 */
export default function PackageList({ session, query }: { session: Session; query: URLSearchParams }) {
  const role = session.user.role;
  const isCompany = role === 'company';
  const canAssign = can(role, 'assign.manage');
  const bulk = bulkKinds(role);
  const canSelect = canAssign || bulk.length > 0 || can(role, 'package.view');
  const [acting, setActing] = useState<ActionKind | null>(null);
  // One parcel's action from its card (phones); the selection bar's actions use `acting`.
  const [cardAction, setCardAction] = useState<{ kind: ActionKind; pkg: PackageRow } | null>(null);
  const narrow = useMedia(NARROW);
  const [showFilters, setShowFilters] = useState(false);
  const [creating, setCreating] = useState(false);
  const initialFilters: Record<string, string> = {};
  for (const key of ['status', 'company', 'zone', 'driver']) {
    const v = query.get(key);
    if (v) initialFilters[key] = v;
  }
  const list = useList<PackageRow>(PATHS.packages, {
    ordering: '-created_at',
    pageSize: 50,
    filters: initialFilters,
    search: query.get('search') ?? undefined,
  });
  const [visible, toggle] = useColumns('packages', PACKAGE_COLUMNS);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [assigning, setAssigning] = useState(false);
  const [unassigning, setUnassigning] = useState(false);
  const [busy, setBusy] = useState(false);
  const companies = useRefOptions(isCompany ? undefined : REFS.company);
  const zones = useRefOptions(REFS.zone);
  const drivers = useRefOptions(REFS.driver);
  const { params, data } = list;
  const f = params.filters ?? {};
  const ids = [...selected];
  const precisions = usePrecisions(data?.results.map((p) => p.id) ?? []);
  const columns = PACKAGE_COLUMNS.map((c) =>
    c.key !== LOCATION_COLUMN_KEY
      ? c
      : {
          ...c,
          render: (p: PackageRow) => {
            const l = precisions.get(p.id);
            return l ? <PrecisionBadge precision={l.precision} pending={l.pending} /> : <span class="muted">…</span>;
          },
        },
  );

  const done = (message: string) => {
    toast(message, 'ok');
    setSelected(new Set());
    setAssigning(false);
    setUnassigning(false);
    setActing(null);
    setCardAction(null);
    list.reload();
  };

  const unassign = async () => {
    setBusy(true);
    try {
      const res = await api.post<{ message: string }>(PATHS.unassign, { packages: ids });
      done(res.message);
    } catch (err) {
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(false);
    }
  };

  const exportCsv = async () => {
    try {
      const { page: _p, page_size: _s, ...filters } = listQuery(params);
      await downloadFile(PATHS.packageCsvDownload, filters, 'packages.csv');
    } catch (err) {
      toast(errorMessage(err), 'bad');
    }
  };

  const filters = (
    <>
      <SelectField
        name="filter-status"
        label="Status"
        value={f.status ?? ''}
        onValue={(v) => list.setFilter('status', v)}
        options={STATUS_OPTIONS}
        placeholder="All"
      />
      {!isCompany && (
        <SelectField
          name="filter-company"
          label="Company"
          value={f.company ?? ''}
          onValue={(v) => list.setFilter('company', v)}
          options={companies.options}
          placeholder="All"
        />
      )}
      <SelectField
        name="filter-zone"
        label="Zone"
        value={f.zone ?? ''}
        onValue={(v) => list.setFilter('zone', v)}
        options={zones.options}
        placeholder="All"
      />
      {!isCompany && (
        <SelectField
          name="filter-driver"
          label="Driver"
          value={f.driver ?? ''}
          onValue={(v) => list.setFilter('driver', v)}
          options={drivers.options}
          placeholder="All"
        />
      )}
    </>
  );
  const activeFilters = ['status', 'company', 'zone', 'driver'].filter((k) => f[k]).length;

  return (
    <section aria-labelledby="packages-title" class={narrow ? 'packages-narrow' : undefined}>
      <div class="page-head">
        <h1 id="packages-title">Packages</h1>
        <span class="spacer" />
        <Button onClick={() => void exportCsv()}>Download CSV</Button>
        {can(role, 'package.manage') && <Button onClick={() => setCreating(true)}>New package</Button>}
        <LinkButton href="#/packages/review">Review locations</LinkButton>
        {can(role, 'package.manage') && (
          <LinkButton href="#/packages/upload" variant="primary">
            Upload packages
          </LinkButton>
        )}
      </div>
      <div class={`toolbar${narrow ? ' narrow' : ''}`}>
        <div class="field search">
          <label for="package-search">Search</label>
          <input
            id="package-search"
            class="input"
            type="search"
            placeholder="Tracking no, customer, phone, address"
            value={params.search ?? ''}
            onInput={(e) => list.setParams({ search: (e.currentTarget as HTMLInputElement).value })}
          />
        </div>
        {narrow ? (
          <>
            {/* On a phone four filters would fill the first screen: they fold behind one button that counts the active ones. */}
            <Button
              class="filters-toggle"
              aria-expanded={showFilters}
              aria-controls="package-filters"
              onClick={() => setShowFilters(!showFilters)}
            >
              {showFilters ? 'Hide filters' : 'Filters'}
              {activeFilters ? ` (${activeFilters})` : ''}
            </Button>
            <SelectField
              name="ordering"
              label="Sort by"
              value={params.ordering ?? '-created_at'}
              onValue={(v) => list.setParams({ ordering: v })}
              options={
                CARD_ORDERINGS.some((o) => o.value === params.ordering) || !params.ordering
                  ? CARD_ORDERINGS
                  : [...CARD_ORDERINGS, { value: params.ordering, label: params.ordering }]
              }
            />
            {showFilters && (
              <div id="package-filters" class="narrow-filters">
                {filters}
              </div>
            )}
          </>
        ) : (
          filters
        )}
        <span class="spacer" />
        {!isCompany && f.driver && <DriverManifest driver={Number(f.driver)} />}
        {!narrow && <ColumnChooser columns={PACKAGE_COLUMNS} visible={visible} onToggle={toggle} />}
      </div>
      {canSelect && ids.length > 0 && (
        <div class="selection-bar" role="status" data-testid="selection-bar">
          {ids.length} selected
          {canAssign && (
            <Button variant="primary" onClick={() => setAssigning(true)}>
              Assign to driver
            </Button>
          )}
          {canAssign && <Button onClick={() => setUnassigning(true)}>Unassign</Button>}
          {bulk.map((k) => (
            <Button key={k} onClick={() => setActing(k)}>
              {ACTIONS[k].label}
            </Button>
          ))}
          <PrintLabels ids={ids} />
          <Button variant="ghost" onClick={() => setSelected(new Set())}>
            Clear
          </Button>
        </div>
      )}
      {list.error ? (
        <ErrorState error={list.error} onRetry={list.reload} />
      ) : !data ? (
        <Loading />
      ) : data.results.length === 0 ? (
        <div class="card">
          <Empty title={params.search || Object.values(f).some(Boolean) ? 'No package matches these filters' : 'No packages yet'}>
            {can(role, 'package.manage') && (
              <p>
                <a href="#/packages/upload">Upload a CSV or Excel file</a> to add packages.
              </p>
            )}
          </Empty>
        </div>
      ) : (
        <div aria-busy={list.loading ? 'true' : undefined} style={{ opacity: list.loading ? 0.6 : 1 }}>
          {narrow ? (
            <PackageCards
              rows={data.results}
              role={role}
              isCompany={isCompany}
              precisions={precisions}
              selected={canSelect ? selected : undefined}
              onSelected={canSelect ? setSelected : undefined}
              onAction={(kind, pkg) => setCardAction({ kind, pkg })}
            />
          ) : (
            <DataTable<PackageRow>
              columns={columns}
              rows={data.results}
              rowKey={(p) => p.id}
              visible={visible}
              caption="Packages"
              ordering={params.ordering}
              onOrdering={(o) => list.setParams({ ordering: o })}
              selected={canSelect ? selected : undefined}
              onSelected={canSelect ? setSelected : undefined}
              onRowClick={(p) => navigate(`/packages/${p.id}`)}
            />
          )}
          <Pager
            page={params.page}
            pageSize={params.pageSize}
            count={data.count}
            onPage={(p) => list.setParams({ page: p })}
            onPageSize={(n) => list.setParams({ pageSize: n })}
          />
        </div>
      )}
      {acting && data && (
        <ActionDialog
          kind={acting}
          packages={data.results.filter((p) => selected.has(p.id))}
          onClose={() => setActing(null)}
          onDone={done}
        />
      )}
      {cardAction && <ActionDialog kind={cardAction.kind} packages={[cardAction.pkg]} onClose={() => setCardAction(null)} onDone={done} />}
      {creating && (
        <PackageForm
          pkg={null}
          isCompany={isCompany}
          onClose={() => setCreating(false)}
          onSaved={(p) => {
            toast(`Package ${p.hawb} created`, 'ok');
            setCreating(false);
            navigate(`/packages/${p.id}`);
          }}
        />
      )}
      {assigning && <AssignDialog ids={ids} onClose={() => setAssigning(false)} onDone={done} />}
      {unassigning && (
        <ConfirmDialog
          title={`Unassign ${ids.length} package(s)?`}
          message={<p>They go back to the depot's unassigned list; drivers' phones drop them at their next sync.</p>}
          confirmLabel="Unassign"
          busy={busy}
          onConfirm={() => void unassign()}
          onClose={() => setUnassigning(false)}
        />
      )}
    </section>
  );
}
