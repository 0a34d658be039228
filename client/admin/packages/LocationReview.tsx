import type { PackageLocation } from '../../../shared/schemas/location';
import { PATHS } from '../../api/paths';
import { useList } from '../../api/useList';
import { navigate } from '../../app/router';
import { LinkButton } from '../../ui/Button';
import { DataTable, Pager, type Column } from '../../ui/DataTable';
import { SelectField } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { PrecisionBadge, sourceText } from './precision';

const LEVELS = [
  { value: 'suburb', label: 'Suburb or worse' },
  { value: 'postcode', label: 'Postcode or worse' },
  { value: 'none', label: 'Not located' },
  { value: 'street', label: 'Street or worse' },
];

const GEOCODE_NOTE: Record<string, string> = {
  not_found: 'geocoder found nothing',
  failed: 'geocoder failed',
  timeout: 'geocoder timed out',
  rate_limited: 'geocoder busy, will retry',
};

const COLUMNS: Column<PackageLocation>[] = [
  {
    key: 'hawb',
    label: 'Tracking no',
    render: (r) => (
      <a class="mono" href={`#/packages/${r.package}`}>
        {r.hawb}
      </a>
    ),
  },
  { key: 'precision', label: 'Located to', render: (r) => <PrecisionBadge precision={r.precision} pending={r.pending} /> },
  // Why a placed parcel is here anyway (a PO box, a place its postcode does not cover): said, not coded.
  {
    key: 'review',
    label: 'Check',
    render: (r) => (r.review ? <span data-testid="review-reason">{r.review.message}</span> : <span class="muted">its place</span>),
  },
  { key: 'customer_address', label: 'Address', render: (r) => r.customer_address ?? <span class="muted">no address</span> },
  {
    key: 'place',
    label: 'Postcode / place',
    render: (r) => [r.postcode, r.postcode_name].filter((v) => v != null && v !== '').join(' ') || '—',
  },
  { key: 'suburb_name', label: 'Suburb', render: (r) => r.suburb_name ?? '—' },
  { key: 'zone_name', label: 'Zone', render: (r) => r.zone_name ?? <span class="muted">no zone</span> },
  {
    key: 'source',
    label: 'From',
    render: (r) => (
      <span class="muted">
        {sourceText(r.source)}
        {r.geocode_status ? ` · ${GEOCODE_NOTE[r.geocode_status] ?? r.geocode_status}` : ''}
      </span>
    ),
  },
];

/** Open parcels the system could place only roughly: the office opens each, corrects the address or drags its pin. */
export default function LocationReview({ query }: { query: URLSearchParams }) {
  const list = useList<PackageLocation>(PATHS.locationReview, { pageSize: 50, filters: { precision: query.get('precision') ?? 'suburb' } });
  const { params, data } = list;
  return (
    <section aria-labelledby="review-title" class="stack">
      <div class="page-head">
        <h1 id="review-title">Locations to review</h1>
        <span class="spacer" />
        <LinkButton href="#/packages">Back to packages</LinkButton>
      </div>
      <p class="muted" style={{ margin: 0 }}>
        Parcels not yet delivered that are placed only at their suburb, postcode or nowhere, and any whose address needs a look (a PO box, a
        place its postcode does not cover). Open one to correct its address or drag its pin; a pin you place is remembered for every later
        parcel to the same address.
      </p>
      <div class="toolbar">
        <SelectField
          name="filter-precision"
          label="Show"
          value={params.filters?.precision ?? 'suburb'}
          onValue={(v) => list.setFilter('precision', v || 'suburb')}
          options={LEVELS}
        />
        {data && (
          <span class="muted" role="status">
            {data.count} parcel(s)
          </span>
        )}
      </div>
      {list.error ? (
        <ErrorState error={list.error} onRetry={list.reload} />
      ) : !data ? (
        <Loading />
      ) : data.results.length === 0 ? (
        <div class="card">
          <Empty title="Every open parcel is placed precisely">Nothing to review at this level.</Empty>
        </div>
      ) : (
        <div aria-busy={list.loading ? 'true' : undefined}>
          <DataTable<PackageLocation>
            columns={COLUMNS}
            rows={data.results}
            rowKey={(r) => r.package}
            caption="Parcels to review"
            onRowClick={(r) => navigate(`/packages/${r.package}`)}
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
