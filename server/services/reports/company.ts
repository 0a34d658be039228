import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { company } from '../../db/schema/index';
import { kpis } from './kpi';
import type { ReportFilter } from './period';
import { packagesByCompanyStatus } from './rows';

export interface CompanyReportRow {
  company: number;
  company_name: string | null;
  created: number;
  by_status: Record<string, number>;
  delivered: number;
  failed: number;
  first_attempt_success_rate: number | null;
  on_time_rate: number | null;
}

/**
 * One row per company: parcels created in the period by their current status, and deliveries and
 * failed attempts made in the period (whenever those parcels were created).
 */
export async function companyReport(db: Db, f: ReportFilter): Promise<CompanyReportRow[]> {
  const rows = new Map<number, CompanyReportRow>();
  const rowOf = (id: number) => {
    let r = rows.get(id);
    if (!r) {
      r = {
        company: id,
        company_name: null,
        created: 0,
        by_status: {},
        delivered: 0,
        failed: 0,
        first_attempt_success_rate: null,
        on_time_rate: null,
      };
      rows.set(id, r);
    }
    return r;
  };
  for (const g of await packagesByCompanyStatus(db, f)) {
    if (g.company == null) continue;
    const r = rowOf(g.company);
    r.created += g.n;
    r.by_status[g.status] = g.n;
  }
  for (const k of await kpis(db, f, 'company', false)) {
    if (k.company == null) continue;
    const r = rowOf(k.company);
    r.delivered = k.delivered;
    r.failed = k.failed;
    r.first_attempt_success_rate = k.first_attempt_success_rate;
    r.on_time_rate = k.on_time_rate;
  }
  const ids = [...rows.keys()];
  for (let i = 0; i < ids.length; i += 500) {
    for (const c of await db
      .select({ id: company.id, name: company.name })
      .from(company)
      .where(inArray(company.id, ids.slice(i, i + 500)))
      .all()) {
      const r = rows.get(c.id);
      if (r) r.company_name = c.name;
    }
  }
  return [...rows.values()].sort((a, b) => (a.company_name ?? '').localeCompare(b.company_name ?? '') || a.company - b.company);
}
