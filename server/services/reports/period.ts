import { badRequest } from '../../errors';
import { DEFAULT_REPORT_DAYS, MAX_REPORT_DAYS, type ReportQuery } from '../../../shared/schemas/reports';
import type { SessionUser } from '../auth/session';
import { companyFilter } from '../webhooks/owner';

const DAY = 86_400_000;

/** A report's filters resolved: a half-open window of epoch ms and who is in scope. */
export interface ReportFilter {
  fromMs: number;
  toMs: number;
  /** Minutes east of UTC that days are counted in. */
  offsetMin: number;
  from: string;
  to: string;
  companyId?: number;
  driverId?: number;
  zoneId?: number;
}

const dayOf = (ms: number, offsetMin: number) => new Date(ms + offsetMin * 60_000).toISOString().slice(0, 10);
export const localDay = dayOf;
const startOf = (day: string, offsetMin: number) => Date.parse(`${day}T00:00:00Z`) - offsetMin * 60_000;

/**
 * From/to are local days, both included (default: the last 30 days to today). A company login is
 * held to its own company; naming another is a 404 like any record outside its scope.
 */
export function reportFilter(user: SessionUser, q: ReportQuery, now: number): ReportFilter {
  const offset = q.utc_offset;
  const to = q.to ?? (q.from ? dayOf(Math.min(startOf(q.from, offset) + (DEFAULT_REPORT_DAYS - 1) * DAY, now), offset) : dayOf(now, offset));
  const from = q.from ?? dayOf(startOf(to, offset) - (DEFAULT_REPORT_DAYS - 1) * DAY, offset);
  const fromMs = startOf(from, offset);
  const toMs = startOf(to, offset) + DAY;
  if (toMs <= fromMs) throw badRequest('`from` must not be after `to`', [{ path: 'from', message: 'after to' }]);
  if ((toMs - fromMs) / DAY > MAX_REPORT_DAYS) {
    throw badRequest(`A report covers at most ${MAX_REPORT_DAYS} days`, [{ path: 'to', message: `more than ${MAX_REPORT_DAYS} days after from` }]);
  }
  return { fromMs, toMs, offsetMin: offset, from, to, companyId: companyFilter(user, q.company), driverId: q.driver, zoneId: q.zone };
}

export const periodOf = (f: ReportFilter) => ({ from: f.from, to: f.to, utc_offset: f.offsetMin });
