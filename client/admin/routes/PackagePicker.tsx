import { useState } from 'preact/hooks';
import { PACKAGE_STATUSES, STATUS_LABELS } from '../../../shared/lifecycle';
import { errorMessage } from '../../api/client';
import { fetchAll, listQuery } from '../../api/paging';
import { useList } from '../../api/useList';
import { Button } from '../../ui/Button';
import { DataTable, Pager, type Column } from '../../ui/DataTable';
import { CheckField, SelectField } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { toast } from '../../ui/toast';
import { PACKAGE_COLUMNS, type PackageRow } from '../packages/columns';
import { REFS } from '../resource/declarations';
import { useRefOptions } from '../resource/refOptions';
import { coordsOf } from './format';
import { ROUTE_PATHS } from './paths';

const SHOWN = ['hawb', 'customer_name', 'customer_address', 'postcode', 'zone_name', 'status', 'assigned_to'];
const COLUMNS: Column<PackageRow>[] = [
  ...SHOWN.map((k) => ({ ...PACKAGE_COLUMNS.find((c) => c.key === k)!, sort: undefined, optional: false })),
  { key: 'location', label: 'Location', render: (p) => (coordsOf(p) ? 'Yes' : <span class="warn-text">None</span>) },
];
const STATUS_OPTIONS = PACKAGE_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }));

/**
 * Chooses the parcels of a new route: by default those on no planned or running route (created,
 * received or assigned), or any parcel through the package list's filters (e.g. received parcels
 * of a zone). "Select all matching" takes every page of the current filters.
 */
export function PackagePicker({ selected, onSelected }: { selected: Set<number>; onSelected: (next: Set<number>) => void }) {
  const [free, setFree] = useState(true);
  return <PickerList key={String(free)} free={free} setFree={setFree} selected={selected} onSelected={onSelected} />;
}

function PickerList({
  free,
  setFree,
  selected,
  onSelected,
}: {
  free: boolean;
  setFree: (v: boolean) => void;
  selected: Set<number>;
  onSelected: (next: Set<number>) => void;
}) {
  const path = free ? ROUTE_PATHS.routable : ROUTE_PATHS.packages;
  const list = useList<PackageRow>(path, { pageSize: 50, filters: free ? {} : { status: 'received' } });
  const zones = useRefOptions(REFS.zone);
  const drivers = useRefOptions(REFS.driver);
  const companies = useRefOptions(free ? undefined : REFS.company);
  const [busy, setBusy] = useState(false);
  const { params, data } = list;
  const f = params.filters ?? {};

  const selectAll = async () => {
    setBusy(true);
    try {
      const { page: _p, page_size: _s, ...filters } = listQuery(params);
      const rows = await fetchAll<PackageRow>(path, filters);
      onSelected(new Set([...selected, ...rows.map((r) => r.id)]));
      toast(`${rows.length} parcel(s) added to the selection`, 'ok');
    } catch (err) {
      toast(errorMessage(err), 'bad');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="picker">
      <div class="toolbar">
        <CheckField name="free-only" label="Only parcels on no route" checked={free} onValue={setFree} />
        {!free && (
          <div class="field search">
            <label for="picker-search">Search</label>
            <input
              id="picker-search"
              class="input"
              type="search"
              placeholder="Tracking no, customer, address"
              value={params.search ?? ''}
              onInput={(e) => list.setParams({ search: (e.currentTarget as HTMLInputElement).value })}
            />
          </div>
        )}
        {!free && (
          <SelectField
            name="pick-status"
            label="Status"
            value={f.status ?? ''}
            onValue={(v) => list.setFilter('status', v)}
            options={STATUS_OPTIONS}
            placeholder="All"
          />
        )}
        {!free && (
          <SelectField
            name="pick-company"
            label="Company"
            value={f.company ?? ''}
            onValue={(v) => list.setFilter('company', v)}
            options={companies.options}
            placeholder="All"
          />
        )}
        <SelectField
          name="pick-zone"
          label="Zone"
          value={f.zone ?? ''}
          onValue={(v) => list.setFilter('zone', v)}
          options={zones.options}
          placeholder="All"
        />
        <SelectField
          name="pick-driver"
          label="Held by driver"
          value={f.driver ?? ''}
          onValue={(v) => list.setFilter('driver', v)}
          options={drivers.options}
          placeholder="Anyone"
        />
        <span class="spacer" />
        <Button busy={busy} disabled={!data || data.count === 0} onClick={() => void selectAll()}>
          Select all {data ? data.count : ''} matching
        </Button>
      </div>
      {list.error ? (
        <ErrorState error={list.error} onRetry={list.reload} />
      ) : !data ? (
        <Loading />
      ) : data.results.length === 0 ? (
        <div class="card">
          <Empty title="No parcel matches">Change the filters, or untick “Only parcels on no route”.</Empty>
        </div>
      ) : (
        <div aria-busy={list.loading ? 'true' : undefined} style={{ opacity: list.loading ? 0.6 : 1 }}>
          <DataTable<PackageRow>
            columns={COLUMNS}
            rows={data.results}
            rowKey={(p) => p.id}
            caption="Parcels to choose from"
            selected={selected}
            onSelected={onSelected}
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
    </div>
  );
}
