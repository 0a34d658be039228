import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { company, user } from '../../db/schema/index';
import { iso } from '../../clock';
import { localDay, type ReportFilter } from './period';
import { attemptPage, deliveryPage, firstAttemptIds, keyset, onTime } from './rows';

export type KpiBy = 'driver' | 'company';

interface Cell {
  date: string | null;
  key: number | null;
  delivered: number;
  failed: number;
  firstAttempts: number;
  firstSuccess: number;
  onTimeEligible: number;
  onTime: number;
  firstAt: number | null;
  lastAt: number | null;
}

export interface KpiRow {
  date: string | null;
  driver?: number | null;
  driver_name?: string | null;
  company?: number | null;
  company_name?: string | null;
  delivered: number;
  failed: number;
  first_attempts: number;
  first_attempt_success_rate: number | null;
  on_time_eligible: number;
  on_time_rate: number | null;
  parcels_per_hour: number | null;
  first_delivery_at: string | null;
  last_delivery_at: string | null;
}

const ratio = (n: number, d: number) => (d > 0 ? Math.round((n / d) * 10_000) / 10_000 : null);

/** Below this span a rate extrapolates a burst (two scans seconds apart would read as thousands an hour). */
const MIN_RATE_SPAN_MS = 15 * 60_000;

/**
 * Parcels per hour: deliveries over the hours between the first and the last delivery. A span
 * shorter than a quarter of an hour gives no rate.
 */
function perHour(c: Cell): number | null {
  if (c.firstAt == null || c.lastAt == null || c.lastAt - c.firstAt < MIN_RATE_SPAN_MS) return null;
  return Math.round((c.delivered / ((c.lastAt - c.firstAt) / 3_600_000)) * 100) / 100;
}

/**
 * Delivery KPIs by day (or over the whole period) and by driver or company, read page by page
 * (keyset) so memory holds one page and one counter per day and key:
 * - delivered / failed: deliveries and failed attempts made in the period;
 * - first-attempt success rate: of the parcels' first attempts made then (a delivery with no earlier
 *   failure, or a parcel's earliest failed attempt), the share that were deliveries;
 * - on-time rate: of deliveries of parcels with a delivery_date, the share on or before that day;
 * - parcels per hour: deliveries / hours between the first and last delivery (of the day when by day).
 */
export async function kpis(db: Db, f: ReportFilter, by: KpiBy, byDay: boolean): Promise<KpiRow[]> {
  const cells = new Map<string, Cell>();
  const cellOf = (at: number, key: number | null) => {
    const date = byDay ? localDay(at, f.zone) : null;
    const id = `${date}|${key}`;
    let c = cells.get(id);
    if (!c) {
      c = {
        date,
        key,
        delivered: 0,
        failed: 0,
        firstAttempts: 0,
        firstSuccess: 0,
        onTimeEligible: 0,
        onTime: 0,
        firstAt: null,
        lastAt: null,
      };
      cells.set(id, c);
    }
    return c;
  };

  const deliveries = keyset((after) => deliveryPage(db, f, after));
  for (let page = await deliveries(); page.length; page = await deliveries()) {
    for (const d of page) {
      const c = cellOf(d.occurred_at, by === 'driver' ? d.driver : d.company);
      c.delivered += 1;
      c.firstAt = c.firstAt == null ? d.occurred_at : Math.min(c.firstAt, d.occurred_at);
      c.lastAt = c.lastAt == null ? d.occurred_at : Math.max(c.lastAt, d.occurred_at);
      if (d.failed_attempts === 0) {
        c.firstAttempts += 1;
        c.firstSuccess += 1;
      }
      const ok = onTime(d.occurred_at, d.delivery_date, f.zone);
      if (ok !== null) {
        c.onTimeEligible += 1;
        if (ok) c.onTime += 1;
      }
    }
  }
  const attempts = keyset((after) => attemptPage(db, f, after));
  for (let page = await attempts(); page.length; page = await attempts()) {
    const firsts = await firstAttemptIds(
      db,
      page.map((a) => a.package),
    );
    for (const a of page) {
      const c = cellOf(a.occurred_at, by === 'driver' ? a.driver : a.company);
      c.failed += 1;
      if (firsts.has(a.id)) c.firstAttempts += 1;
    }
  }

  const keys = [...new Set([...cells.values()].map((c) => c.key).filter((k): k is number => k != null))];
  const names = await namesOf(db, by, keys);
  return [...cells.values()]
    .sort(
      (a, b) =>
        (a.date ?? '').localeCompare(b.date ?? '') ||
        (names.get(a.key ?? 0) ?? '').localeCompare(names.get(b.key ?? 0) ?? '') ||
        (a.key ?? 0) - (b.key ?? 0),
    )
    .map((c) => ({
      date: c.date,
      ...(by === 'driver'
        ? { driver: c.key, driver_name: c.key == null ? null : (names.get(c.key) ?? null) }
        : { company: c.key, company_name: c.key == null ? null : (names.get(c.key) ?? null) }),
      delivered: c.delivered,
      failed: c.failed,
      first_attempts: c.firstAttempts,
      first_attempt_success_rate: ratio(c.firstSuccess, c.firstAttempts),
      on_time_eligible: c.onTimeEligible,
      on_time_rate: ratio(c.onTime, c.onTimeEligible),
      parcels_per_hour: perHour(c),
      first_delivery_at: iso(c.firstAt),
      last_delivery_at: iso(c.lastAt),
    }));
}

async function namesOf(db: Db, by: KpiBy, ids: number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows =
      by === 'driver'
        ? await db.select({ id: user.id, name: user.name }).from(user).where(inArray(user.id, chunk)).all()
        : await db.select({ id: company.id, name: company.name }).from(company).where(inArray(company.id, chunk)).all();
    for (const r of rows) out.set(r.id, r.name);
  }
  return out;
}

export async function companyName(db: Db, id: number): Promise<string | null> {
  return (await db.select({ name: company.name }).from(company).where(eq(company.id, id)).get())?.name ?? null;
}
