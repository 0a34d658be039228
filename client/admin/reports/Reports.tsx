import type { ComponentType } from 'preact';
import { navigate } from '../../app/router';
import type { Session } from '../../app/session';
import { SelectField, TextField } from '../../ui/Field';
import { useRefData } from '../money/refs';
import { filtersFrom, FILTER_KEYS, type PanelProps, type ReportFilters } from './data';
import { CompaniesPanel, CompanyKpiPanel, DriverKpiPanel, DriversPanel } from './KpiPanels';
import { DeliveriesPanel, FailedPanel, PackagesPanel, PodPanel } from './ListPanels';
import './reports.css';

interface Tab {
  id: string;
  label: string;
  staffOnly?: boolean;
  Panel: ComponentType<PanelProps>;
}

const TABS: readonly Tab[] = [
  { id: 'deliveries', label: 'Deliveries', Panel: DeliveriesPanel },
  { id: 'failed', label: 'Failed', Panel: FailedPanel },
  { id: 'drivers', label: 'Drivers', staffOnly: true, Panel: DriversPanel },
  { id: 'driver-kpi', label: 'Driver KPI', staffOnly: true, Panel: DriverKpiPanel },
  { id: 'companies', label: 'Companies', Panel: CompaniesPanel },
  { id: 'company-kpi', label: 'Company KPI', Panel: CompanyKpiPanel },
  { id: 'packages', label: 'Packages', Panel: PackagesPanel },
  { id: 'pod', label: 'POD (PDF)', Panel: PodPanel },
];

/**
 * The reports: one filter bar (period, company, driver, zone) kept in the URL so a report can be
 * bookmarked or shared, and a tab per report. A company login sees its own figures only (the server
 * scopes them) and no per-driver reports.
 */
export default function Reports({ session, query, tab }: { session: Session; query: URLSearchParams; tab: string }) {
  const isCompany = session.user.role === 'company';
  const tabs = TABS.filter((t) => !(isCompany && t.staffOnly));
  const current = tabs.find((t) => t.id === tab) ?? tabs[0]!;
  const filters = filtersFrom(query);
  const companies = useRefData('company', !isCompany);
  const drivers = useRefData('driver', !isCompany);
  const zones = useRefData('zone');
  const qs = query.toString();

  const setFilter = (k: keyof ReportFilters, v: string) => {
    const next: Record<string, string> = {};
    for (const key of FILTER_KEYS) next[key] = filters[key];
    next[k] = v;
    navigate(`/reports/${current.id}`, next, true);
  };

  return (
    <section aria-labelledby="reports-title">
      <div class="page-head">
        <h1 id="reports-title">Reports</h1>
      </div>
      <div class="tabs" role="tablist" aria-label="Reports">
        {tabs.map((t) => (
          <a key={t.id} role="tab" href={`#/reports/${t.id}${qs ? `?${qs}` : ''}`} aria-selected={t.id === current.id ? 'true' : 'false'}>
            {t.label}
          </a>
        ))}
      </div>
      <form class="filters-bar report-filters" aria-label="Report filters" onSubmit={(e) => e.preventDefault()}>
        <TextField label="From" type="date" value={filters.from} max={filters.to} onValue={(v) => v && setFilter('from', v)} />
        <TextField label="To" type="date" value={filters.to} min={filters.from} onValue={(v) => v && setFilter('to', v)} />
        {!isCompany && (
          <SelectField
            label="Company"
            name="report-company"
            value={filters.company}
            onValue={(v) => setFilter('company', v)}
            options={companies.options}
            placeholder="All companies"
          />
        )}
        {!isCompany && (
          <SelectField
            label="Driver"
            name="report-driver"
            value={filters.driver}
            onValue={(v) => setFilter('driver', v)}
            options={drivers.options}
            placeholder="All drivers"
          />
        )}
        <SelectField
          label="Zone"
          name="report-zone"
          value={filters.zone}
          onValue={(v) => setFilter('zone', v)}
          options={zones.options}
          placeholder="All zones"
        />
      </form>
      <div role="tabpanel" aria-label={current.label}>
        <current.Panel key={current.id} filters={filters} isCompany={isCompany} />
      </div>
    </section>
  );
}
