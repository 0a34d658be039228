import { useState } from 'preact/hooks';
import { PACKAGE_STATUSES, STATUS_LABELS } from '../../../shared/lifecycle';
import { BarChart } from '../../ui/charts/BarChart';
import { HBarChart } from '../../ui/charts/HBarChart';
import { DataTable, Pager, type Column } from '../../ui/DataTable';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { day } from '../../ui/when';
import { perDay, pct, reportQuery, successByDriver, time, useAllKpis, useReport, type CompanyRow, type Kpi } from './data';
import { ExportButtons, type ExportTarget } from './ExportButton';
import type { PanelProps } from './data';

function kpiColumns(group: 'driver' | 'company', byDay: boolean): Column<Kpi>[] {
  return [
    ...(byDay ? [{ key: 'date', label: 'Day', render: (r: Kpi) => <span class="nowrap">{day(r.date)}</span> }] : []),
    group === 'driver'
      ? { key: 'driver_name', label: 'Driver', render: (r) => r.driver_name ?? (r.driver != null ? `#${r.driver}` : '—') }
      : { key: 'company_name', label: 'Company', render: (r) => r.company_name ?? (r.company != null ? `#${r.company}` : '—') },
    { key: 'delivered', label: 'Delivered', numeric: true },
    { key: 'failed', label: 'Failed', numeric: true },
    { key: 'first_attempt_success_rate', label: 'First-attempt success', numeric: true, render: (r) => pct(r.first_attempt_success_rate) },
    { key: 'on_time_rate', label: 'On time', numeric: true, render: (r) => pct(r.on_time_rate) },
    {
      key: 'parcels_per_hour',
      label: 'Parcels / hour',
      numeric: true,
      render: (r) => (r.parcels_per_hour == null ? '—' : r.parcels_per_hour.toFixed(1)),
    },
    ...(byDay
      ? [
          { key: 'first', label: 'First', render: (r: Kpi) => time(r.first_delivery_at) },
          { key: 'last', label: 'Last', render: (r: Kpi) => time(r.last_delivery_at) },
        ]
      : []),
  ];
}

function exportsOf(path: string, query: ReturnType<typeof reportQuery>, name: string, csvPath = path): ExportTarget[] {
  return [
    { label: 'Export Excel', path, query: { ...query, format: 'xlsx' }, fallbackName: `${name}.xlsx` },
    { label: 'Export CSV', path: csvPath, query: { ...query, format: 'csv' }, fallbackName: `${name}.csv` },
  ];
}

interface KpiPage {
  count: number;
  results: Kpi[];
}

/** A paged KPI table (by day), with the charts of the whole period above it. */
function PagedKpi({
  filters,
  path,
  exportPath,
  group,
  name,
}: PanelProps & { path: string; exportPath: string; group: 'driver' | 'company'; name: string }) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(50);
  const q = reportQuery(filters);
  const rows = useReport<KpiPage>(path, { ...q, page, page_size: pageSize });
  const all = useAllKpis(path, q);
  const data = rows.data;
  return (
    <>
      <div class="report-actions">
        <ExportButtons targets={exportsOf(exportPath, q, name)} />
      </div>
      {all.error ? (
        <ErrorState error={all.error} onRetry={all.reload} />
      ) : !all.data ? (
        <Loading label="Preparing charts…" />
      ) : (
        <div class={group === 'driver' ? 'chart-grid' : undefined}>
          <BarChart
            title="Deliveries per day"
            valueLabel="Deliveries"
            data={perDay(all.data, filters.from, filters.to)}
            description={`Parcels delivered each day from ${day(filters.from)} to ${day(filters.to)}.`}
          />
          {group === 'driver' && (
            <HBarChart
              title="Success rate by driver"
              valueLabel="Success rate"
              data={successByDriver(all.data)}
              description="Share of each driver's attempts in the period that ended delivered (delivered ÷ delivered + failed)."
            />
          )}
        </div>
      )}
      <h2>{group === 'driver' ? 'Drivers by day' : 'Companies by day'}</h2>
      {rows.error ? (
        <ErrorState error={rows.error} onRetry={rows.reload} />
      ) : !data ? (
        <Loading />
      ) : data.results.length === 0 ? (
        <div class="card">
          <Empty title="No deliveries or failures in this period" />
        </div>
      ) : (
        <div aria-busy={rows.loading ? 'true' : undefined}>
          <DataTable<Kpi>
            columns={kpiColumns(group, true)}
            rows={data.results}
            rowKey={(r) => `${r.date}-${r.driver ?? r.company ?? ''}`}
            caption={name}
          />
          <Pager
            page={page}
            pageSize={pageSize}
            count={data.count}
            onPage={setPage}
            onPageSize={(n) => {
              setPageSize(n);
              setPage(1);
            }}
          />
        </div>
      )}
    </>
  );
}

export function DriverKpiPanel(props: PanelProps) {
  return <PagedKpi {...props} path="report/driver-kpi/" exportPath="report/driver-kpi/csv/" group="driver" name="Driver KPI" />;
}

export function CompanyKpiPanel(props: PanelProps) {
  return (
    <PagedKpi {...props} path="report/company-kpi/" exportPath="report/company-kpi/excel-download/" group="company" name="Company KPI" />
  );
}

/** Per driver over the whole period, and who delivers what share of their attempts. */
export function DriversPanel({ filters }: PanelProps) {
  const q = reportQuery(filters);
  const rep = useReport<{ results: Kpi[] }>('report/driver/delivery-report/', q);
  return (
    <>
      <div class="report-actions">
        <ExportButtons targets={exportsOf('report/driver/excel-download/', q, 'drivers')} />
      </div>
      {rep.error ? (
        <ErrorState error={rep.error} onRetry={rep.reload} />
      ) : !rep.data ? (
        <Loading />
      ) : rep.data.results.length === 0 ? (
        <div class="card">
          <Empty title="No driver delivered or failed a parcel in this period" />
        </div>
      ) : (
        <>
          <HBarChart
            title="Success rate by driver"
            valueLabel="Success rate"
            data={successByDriver(rep.data.results)}
            description="Share of each driver's attempts in the period that ended delivered (delivered ÷ delivered + failed)."
          />
          <DataTable<Kpi>
            columns={kpiColumns('driver', false)}
            rows={rep.data.results}
            rowKey={(r) => String(r.driver ?? 'none')}
            caption="Drivers"
          />
        </>
      )}
    </>
  );
}

/** "3 delivered · 1 failed": the non-zero statuses of the parcels created in the period, in lifecycle order. */
function byStatus(r: CompanyRow): string {
  const parts = PACKAGE_STATUSES.filter((s) => (r.by_status[s] ?? 0) > 0).map((s) => `${r.by_status[s]} ${STATUS_LABELS[s].toLowerCase()}`);
  return parts.length ? parts.join(' · ') : '—';
}

/** Per company: parcels created in the period by their status now, deliveries and rates. */
export function CompaniesPanel({ filters }: PanelProps) {
  const q = reportQuery(filters);
  const rep = useReport<{ results: CompanyRow[] }>('report/company/', q);
  const columns: Column<CompanyRow>[] = [
    { key: 'company_name', label: 'Company', render: (r) => r.company_name ?? `#${r.company}` },
    { key: 'created', label: 'Created', numeric: true },
    { key: 'by_status', label: 'Their status now', render: (r) => byStatus(r) },
    { key: 'delivered', label: 'Delivered', numeric: true },
    { key: 'failed', label: 'Failed', numeric: true },
    { key: 'first_attempt_success_rate', label: 'First-attempt success', numeric: true, render: (r) => pct(r.first_attempt_success_rate) },
    { key: 'on_time_rate', label: 'On time', numeric: true, render: (r) => pct(r.on_time_rate) },
  ];
  return (
    <>
      <div class="report-actions">
        <ExportButtons targets={exportsOf('report/company/excel-download/', q, 'companies')} />
      </div>
      {rep.error ? (
        <ErrorState error={rep.error} onRetry={rep.reload} />
      ) : !rep.data ? (
        <Loading />
      ) : rep.data.results.length === 0 ? (
        <div class="card">
          <Empty title="No parcels in this period" />
        </div>
      ) : (
        <DataTable<CompanyRow> columns={columns} rows={rep.data.results} rowKey={(r) => r.company} caption="Companies" />
      )}
    </>
  );
}
