import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import type { CompanyReportRow, FailedReportRow, KpiRow } from '../../../shared/schemas/reports';
import { api, type Query } from '../../api/client';
import { isoDay } from '../money/format';

export type Kpi = z.infer<typeof KpiRow>;
export type FailedRow = z.infer<typeof FailedReportRow>;
export type CompanyRow = z.infer<typeof CompanyReportRow>;

export interface ReportFilters {
  from: string;
  to: string;
  company: string;
  driver: string;
  zone: string;
}

/** What every report tab is given (Reports.tsx). */
export interface PanelProps {
  filters: ReportFilters;
  isCompany: boolean;
}

export const FILTER_KEYS = ['from', 'to', 'company', 'driver', 'zone'] as const;

/** The last 30 days including today, the server's own default, written out so the inputs show it. */
export function defaultFilters(): ReportFilters {
  const to = new Date();
  const from = new Date(to.getFullYear(), to.getMonth(), to.getDate() - 29);
  return { from: isoDay(from), to: isoDay(to), company: '', driver: '', zone: '' };
}

export function filtersFrom(query: URLSearchParams): ReportFilters {
  const d = defaultFilters();
  return {
    from: query.get('from') || d.from,
    to: query.get('to') || d.to,
    company: query.get('company') ?? '',
    driver: query.get('driver') ?? '',
    zone: query.get('zone') ?? '',
  };
}

/** Days are the business's local days (the server's default zone, daylight saving included; issue 31), wherever the browser is. */
export function reportQuery(f: ReportFilters, extra: Query = {}): Query {
  return { from: f.from, to: f.to, company: f.company, driver: f.driver, zone: f.zone, ...extra };
}

export interface Loaded<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** One GET whose answer follows its query; the newest request wins when filters change quickly. */
export function useReport<T>(path: string | null, query: Query): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const key = JSON.stringify(query);
  useEffect(() => {
    if (!path) return;
    const ctrl = new AbortController();
    setLoading(true);
    api.get<T>(path, query, ctrl.signal).then(
      (d) => {
        setData(d);
        setError(null);
        setLoading(false);
      },
      (err: unknown) => {
        if (!(err instanceof DOMException && err.name === 'AbortError')) {
          setError(err);
          setLoading(false);
        }
      },
    );
    return () => ctrl.abort();
  }, [path, key, tick]);
  return { data, error, loading, reload: () => setTick((n) => n + 1) };
}

interface KpiPage {
  count: number;
  next: string | null;
  results: Kpi[];
}

/** Every KPI row of the period (for charts), a page of 500 at a time, bounded at 20 pages. */
export function useAllKpis(path: string, query: Query): Loaded<Kpi[]> {
  const [data, setData] = useState<Kpi[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const key = JSON.stringify(query);
  useEffect(() => {
    const ctrl = new AbortController();
    setLoading(true);
    void (async () => {
      try {
        const rows: Kpi[] = [];
        for (let page = 1; page <= 20; page++) {
          const p = await api.get<KpiPage>(path, { ...query, page, page_size: 500 }, ctrl.signal);
          rows.push(...p.results);
          if (!p.next) break;
        }
        setData(rows);
        setError(null);
      } catch (err) {
        if (err instanceof DOMException && err.name === 'AbortError') return;
        setError(err);
      }
      setLoading(false);
    })();
    return () => ctrl.abort();
  }, [path, key, tick]);
  return { data, error, loading, reload: () => setTick((n) => n + 1) };
}

/** Deliveries per day over the whole period, zero days included so gaps show as gaps. */
export function perDay(rows: readonly Kpi[], from: string, to: string): { label: string; value: number }[] {
  const sums = new Map<string, number>();
  for (const r of rows) if (r.date) sums.set(r.date, (sums.get(r.date) ?? 0) + r.delivered);
  const out: { label: string; value: number }[] = [];
  const start = new Date(`${from}T00:00:00`);
  const end = new Date(`${to}T00:00:00`);
  for (let d = start, n = 0; d <= end && n < 400; d = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1), n++) {
    const k = isoDay(d);
    out.push({ label: d.toLocaleDateString(undefined, { day: 'numeric', month: 'short' }), value: sums.get(k) ?? 0 });
  }
  return out;
}

/** Delivered share of attempts (delivered + failed) per driver, best first; drivers with no attempt are left out. */
export function successByDriver(rows: readonly Kpi[]): { label: string; value: number }[] {
  const by = new Map<string, { d: number; f: number }>();
  for (const r of rows) {
    const name = r.driver_name ?? (r.driver != null ? `Driver #${r.driver}` : 'No driver');
    const s = by.get(name) ?? { d: 0, f: 0 };
    s.d += r.delivered;
    s.f += r.failed;
    by.set(name, s);
  }
  return [...by.entries()]
    .filter(([, s]) => s.d + s.f > 0)
    .map(([label, s]) => ({ label, value: s.d / (s.d + s.f) }))
    .sort((a, b) => b.value - a.value || a.label.localeCompare(b.label));
}

export const pct = (v: number | null | undefined) => (v == null ? '—' : `${Math.round(v * 1000) / 10}%`);
export const time = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }) : '—';
