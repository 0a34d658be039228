import { useState } from 'preact/hooks';
import { StatusBadge } from '../../ui/Badge';
import { BarChart } from '../../ui/charts/BarChart';
import { DataTable, Pager, type Column } from '../../ui/DataTable';
import { TextField } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { PACKAGE_COLUMNS, type PackageRow } from '../packages/columns';
import { dateTime, day } from '../../ui/when';
import { perDay, reportQuery, useAllKpis, useReport, type FailedRow } from './data';
import { ExportButtons } from './ExportButton';
import type { PanelProps } from './data';

/**
 * Deliveries: the server has no on-screen list of them (one row per delivery is a spreadsheet's
 * job), so this shows the daily counts as a chart and exports the rows.
 */
export function DeliveriesPanel({ filters }: PanelProps) {
  const q = reportQuery(filters);
  const all = useAllKpis('report/company-kpi/', q);
  const total = all.data?.reduce((n, r) => n + r.delivered, 0) ?? null;
  return (
    <>
      <div class="report-actions">
        <ExportButtons
          targets={[
            {
              label: 'Export Excel',
              path: 'report/delivery/excel-download/',
              query: { ...q, format: 'xlsx' },
              fallbackName: 'deliveries.xlsx',
            },
            {
              label: 'Export CSV',
              path: 'report/delivery/excel-download/',
              query: { ...q, format: 'csv' },
              fallbackName: 'deliveries.csv',
            },
          ]}
        />
        {total != null && (
          <p class="muted" style={{ margin: 0 }}>
            <strong>{total.toLocaleString()}</strong> deliveries in this period. The export has one row per delivery, with its failed
            attempts before it and whether it was on time.
          </p>
        )}
      </div>
      {all.error ? (
        <ErrorState error={all.error} onRetry={all.reload} />
      ) : !all.data ? (
        <Loading />
      ) : (
        <BarChart
          title="Deliveries per day"
          valueLabel="Deliveries"
          data={perDay(all.data, filters.from, filters.to)}
          description={`Parcels delivered each day from ${day(filters.from)} to ${day(filters.to)}.`}
        />
      )}
    </>
  );
}

function usePaged<T>(path: string, filters: PanelProps['filters']) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(50);
  const rep = useReport<{ count: number; results: T[] }>(path, reportQuery(filters, { page, page_size: pageSize }));
  const pager = rep.data ? (
    <Pager
      page={page}
      pageSize={pageSize}
      count={rep.data.count}
      onPage={setPage}
      onPageSize={(n) => {
        setPageSize(n);
        setPage(1);
      }}
    />
  ) : null;
  return { rep, pager };
}

const FAILED_COLUMNS: Column<FailedRow>[] = [
  { key: 'failed_at', label: 'When', render: (r) => <span class="nowrap">{dateTime(r.failed_at)}</span> },
  {
    key: 'hawb',
    label: 'Tracking no',
    render: (r) => (
      <a class="mono" href={`#/packages/${r.package}`}>
        {r.hawb}
      </a>
    ),
  },
  { key: 'company_name', label: 'Company', render: (r) => r.company_name ?? '—' },
  { key: 'driver_name', label: 'Driver', render: (r) => r.driver_name ?? '—' },
  { key: 'zone_name', label: 'Zone', render: (r) => r.zone_name ?? '—' },
  { key: 'attempt_no', label: 'Attempt', numeric: true },
  {
    key: 'reason',
    label: 'Reason',
    render: (r) => (
      <>
        {r.reason}
        {r.note && (
          <div class="muted" style={{ fontSize: '0.85rem' }}>
            {r.note}
          </div>
        )}
      </>
    ),
  },
  { key: 'status', label: 'Status now', render: (r) => <StatusBadge status={r.status} /> },
];

export function FailedPanel({ filters }: PanelProps) {
  const { rep, pager } = usePaged<FailedRow>('report/delivery/failed-report/', filters);
  const q = reportQuery(filters);
  return (
    <>
      <div class="report-actions">
        <ExportButtons
          targets={[
            {
              label: 'Export Excel',
              path: 'report/delivery/failed-report/excel-download/',
              query: { ...q, format: 'xlsx' },
              fallbackName: 'failed.xlsx',
            },
            {
              label: 'Export CSV',
              path: 'report/delivery/failed-report/excel-download/',
              query: { ...q, format: 'csv' },
              fallbackName: 'failed.csv',
            },
          ]}
        />
      </div>
      {rep.error ? (
        <ErrorState error={rep.error} onRetry={rep.reload} />
      ) : !rep.data ? (
        <Loading />
      ) : rep.data.results.length === 0 ? (
        <div class="card">
          <Empty title="No failed attempts in this period" />
        </div>
      ) : (
        <>
          <DataTable<FailedRow> columns={FAILED_COLUMNS} rows={rep.data.results} rowKey={(r) => r.id} caption="Failed attempts" />
          {pager}
        </>
      )}
    </>
  );
}

const PKG_KEYS = ['hawb', 'customer_name', 'suburb_name', 'zone_name', 'status', 'company_name', 'price', 'created_at'];
const PKG_COLUMNS = PKG_KEYS.map((k) => PACKAGE_COLUMNS.find((c) => c.key === k))
  .filter((c): c is Column<PackageRow> => !!c)
  .map((c) => ({ ...c, optional: false, sort: undefined }));

export function PackagesPanel({ filters, isCompany }: PanelProps) {
  const { rep, pager } = usePaged<PackageRow>('report/company/package-list/', filters);
  const q = reportQuery(filters);
  const cols = isCompany ? PKG_COLUMNS.filter((c) => c.key !== 'company_name') : PKG_COLUMNS;
  return (
    <>
      <div class="report-actions">
        <ExportButtons
          targets={[
            {
              label: 'Export Excel',
              path: 'report/company/package-excel-download/',
              query: { ...q, format: 'xlsx' },
              fallbackName: 'packages.xlsx',
            },
            {
              label: 'Export CSV',
              path: 'report/company/package-excel-download/',
              query: { ...q, format: 'csv' },
              fallbackName: 'packages.csv',
            },
          ]}
        />
      </div>
      {rep.error ? (
        <ErrorState error={rep.error} onRetry={rep.reload} />
      ) : !rep.data ? (
        <Loading />
      ) : rep.data.results.length === 0 ? (
        <div class="card">
          <Empty title="No parcels created in this period" />
        </div>
      ) : (
        <>
          <DataTable<PackageRow> columns={cols} rows={rep.data.results} rowKey={(r) => r.id} caption="Packages created in the period" />
          {pager}
        </>
      )}
    </>
  );
}

/** Proof of delivery as PDF files of N deliveries each, so a busy month is several files, not one huge one. */
export function PodPanel({ filters }: PanelProps) {
  const [pageSize, setPageSize] = useState('300');
  const [file, setFile] = useState('1');
  const size = Math.min(1000, Math.max(1, Number(pageSize) || 300));
  const page = Math.max(1, Number(file) || 1);
  const q = reportQuery(filters, { page, page_size: size });
  return (
    <div class="card stack">
      <p style={{ margin: 0 }}>
        One block per delivery of the period, oldest first, with its details and thumbnails of the photos and signature.
      </p>
      <div class="filters-bar">
        <TextField label="Deliveries per file" type="number" min="1" max="1000" value={pageSize} onValue={setPageSize} />
        <TextField label="File number" type="number" min="1" value={file} onValue={setFile} hint="File 2 holds the next deliveries" />
      </div>
      <ExportButtons
        targets={[{ label: 'Download POD PDF', path: 'report/company/pod-report/', query: q, fallbackName: `pod-${page}.pdf` }]}
      />
    </div>
  );
}
