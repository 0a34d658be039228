import { badRequest } from '../../errors';
import { DEFAULT_REPORT_DAYS, MAX_REPORT_DAYS, type ReportQuery } from '../../../shared/schemas/reports';
import { addDays, daysBetween, fixedOffsetZone, localDay as dayIn, localDaysRange, offsetAt } from '../../../shared/time/zone';
import type { Deps } from '../../deps';
import type { SessionUser } from '../auth/session';
import { businessZone } from '../time/zones';
import { companyFilter } from '../webhooks/owner';

/** A report's filters resolved: a half-open window of epoch ms and who is in scope. */
export interface ReportFilter {
  fromMs: number;
  toMs: number;
  /** The zone days are counted in: `time_zone` asked for, else the business's (issue 31); a fixed offset when an older client sent `utc_offset`. */
  zone: string;
  from: string;
  to: string;
  companyId?: number;
  driverId?: number;
  zoneId?: number;
}

/** The local day of an instant in the report's zone (grouping by day is done here, so both engines agree). */
export const localDay = (ms: number, zone: string) => dayIn(ms, zone);

/**
 * From/to are local days, both included (default: the last 30 days to today); their boundaries are
 * the zone's local midnights, so a day across a daylight-saving change is 23 or 25 hours. A company
 * login is held to its own company; naming another is a 404 like any record outside its scope.
 */
export async function reportFilter(deps: Pick<Deps, 'db' | 'config' | 'clock'>, user: SessionUser, q: ReportQuery): Promise<ReportFilter> {
  const zone = q.time_zone ?? (q.utc_offset != null ? fixedOffsetZone(q.utc_offset) : await businessZone(deps));
  const today = dayIn(deps.clock.now(), zone);
  const to = q.to ?? (q.from ? minDay(addDays(q.from, DEFAULT_REPORT_DAYS - 1), today) : today);
  const from = q.from ?? addDays(to, -(DEFAULT_REPORT_DAYS - 1));
  if (daysBetween(from, to) < 0) throw badRequest('`from` must not be after `to`', [{ path: 'from', message: 'after to' }]);
  if (daysBetween(from, to) + 1 > MAX_REPORT_DAYS) {
    throw badRequest(`A report covers at most ${MAX_REPORT_DAYS} days`, [
      { path: 'to', message: `more than ${MAX_REPORT_DAYS} days after from` },
    ]);
  }
  const { start, end } = localDaysRange(from, to, zone);
  return { fromMs: start, toMs: end, zone, from, to, companyId: companyFilter(user, q.company), driverId: q.driver, zoneId: q.zone };
}

const minDay = (a: string, b: string) => (a < b ? a : b);

/** `utc_offset` stays for older clients: the zone's offset at the period's start. */
export const periodOf = (f: ReportFilter) => ({ from: f.from, to: f.to, time_zone: f.zone, utc_offset: offsetAt(f.fromMs, f.zone) });
