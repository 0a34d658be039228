import { and, asc, count, eq, gt, gte, inArray, lt, min, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { company, deliveryAttempt, deliveryRecord, pkg, suburb, user, zone } from '../../db/schema/index';
import { iso } from '../../clock';
import type { Package } from '../../../shared/schemas/package';
import { packageJsonSelect, parsePackages } from '../packages/json';
import type { PageSource } from './export';
import { localDay, type ReportFilter } from './period';
import { coldDeliveryAttempt, coldDeliveryRecord, coldPkg, historyJsonAfter } from '../history/read';

export const PAGE = 1000;
const driver = alias(user, 'report_driver');

/**
 * Where a report reads: the hot tables, or their cold copies (parcels moved to history) under the
 * same names, so every filter below reads either. Each report reads both: a period's figures do
 * not change when its parcels move.
 */
interface Side {
  pkg: typeof pkg | typeof coldPkg;
  record: typeof deliveryRecord | typeof coldDeliveryRecord;
  attempt: typeof deliveryAttempt | typeof coldDeliveryAttempt;
}
const SIDES: readonly Side[] = [
  { pkg, record: deliveryRecord, attempt: deliveryAttempt },
  { pkg: coldPkg, record: coldDeliveryRecord, attempt: coldDeliveryAttempt },
];

const sum = async (count: (side: Side) => Promise<number>) => (await Promise.all(SIDES.map(count))).reduce((a, b) => a + b, 0);

/**
 * Rows of both sides in id order (ids are never shared between sides): `limit` rows after skipping
 * `offset`. Each side is asked for its first offset + limit, which holds every row of the page.
 */
async function bothSides<R extends { id: number }>(
  read: (side: Side, limit: number) => Promise<R[]>,
  limit: number,
  offset = 0,
): Promise<R[]> {
  const rows: R[] = [];
  for (const side of SIDES) rows.push(...(await read(side, offset + limit)));
  return rows.sort((a, b) => a.id - b.id).slice(offset, offset + limit);
}

/** Deliveries (proof records) in the period, oldest record first. */
function deliveryWhere(f: ReportFilter): SQL | undefined {
  return and(
    gte(deliveryRecord.occurred_at, f.fromMs),
    lt(deliveryRecord.occurred_at, f.toMs),
    f.companyId != null ? eq(pkg.company_id, f.companyId) : undefined,
    f.driverId != null ? eq(deliveryRecord.driver_id, f.driverId) : undefined,
    f.zoneId != null ? eq(pkg.zone_id, f.zoneId) : undefined,
  );
}

function attemptWhere(f: ReportFilter): SQL | undefined {
  return and(
    gte(deliveryAttempt.occurred_at, f.fromMs),
    lt(deliveryAttempt.occurred_at, f.toMs),
    f.companyId != null ? eq(pkg.company_id, f.companyId) : undefined,
    f.driverId != null ? eq(deliveryAttempt.driver_id, f.driverId) : undefined,
    f.zoneId != null ? eq(pkg.zone_id, f.zoneId) : undefined,
  );
}

/** Packages created in the period (a company's package list and export). */
export function packageWhere(f: ReportFilter): SQL | undefined {
  return and(
    gte(pkg.created_at, f.fromMs),
    lt(pkg.created_at, f.toMs),
    f.companyId != null ? eq(pkg.company_id, f.companyId) : undefined,
    f.driverId != null ? eq(pkg.assigned_to_id, f.driverId) : undefined,
    f.zoneId != null ? eq(pkg.zone_id, f.zoneId) : undefined,
  );
}

export async function countDeliveries(db: Db, f: ReportFilter): Promise<number> {
  return sum(
    async (s) =>
      (await db.select({ n: count() }).from(s.record).innerJoin(s.pkg, eq(pkg.id, deliveryRecord.package_id)).where(deliveryWhere(f)).get())
        ?.n ?? 0,
  );
}
export async function countAttempts(db: Db, f: ReportFilter): Promise<number> {
  return sum(
    async (s) =>
      (
        await db
          .select({ n: count() })
          .from(s.attempt)
          .innerJoin(s.pkg, eq(pkg.id, deliveryAttempt.package_id))
          .where(attemptWhere(f))
          .get()
      )?.n ?? 0,
  );
}
export async function countPackages(db: Db, f: ReportFilter): Promise<number> {
  return sum(async (s) => (await db.select({ n: count() }).from(s.pkg).where(packageWhere(f)).get())?.n ?? 0);
}

/** How many failed attempts each parcel had: a delivery with none was a first-attempt success. */
export async function failuresOf(db: Db, packageIds: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const ids = [...new Set(packageIds)];
  // A parcel's attempts are all on its side: hot, or moved with it.
  for (const side of SIDES) {
    for (let i = 0; i < ids.length; i += 500) {
      for (const r of await db
        .select({ id: deliveryAttempt.package_id, n: count() })
        .from(side.attempt)
        .where(inArray(deliveryAttempt.package_id, ids.slice(i, i + 500)))
        .groupBy(deliveryAttempt.package_id)
        .all())
        out.set(r.id, r.n);
    }
  }
  return out;
}

export type DeliveryRow = Awaited<ReturnType<typeof deliveryPageRaw>>[number] & { failed_attempts: number };

function deliveryPageRaw(db: Db, f: ReportFilter, after: number, limit: number, side: Side = SIDES[0]!) {
  return db
    .select({
      id: deliveryRecord.id,
      package: pkg.id,
      hawb: pkg.hawb,
      company: pkg.company_id,
      company_name: company.name,
      customer_name: pkg.customer_name,
      customer_address: pkg.customer_address,
      suburb_name: suburb.name,
      zone: pkg.zone_id,
      zone_name: zone.name,
      driver: deliveryRecord.driver_id,
      driver_name: driver.name,
      occurred_at: deliveryRecord.occurred_at,
      delivery_date: pkg.delivery_date,
      recipient_name: deliveryRecord.recipient_name,
      note: deliveryRecord.note,
      forced: deliveryRecord.forced,
    })
    .from(side.record)
    .innerJoin(side.pkg, eq(pkg.id, deliveryRecord.package_id))
    .leftJoin(company, eq(company.id, pkg.company_id))
    .leftJoin(suburb, eq(suburb.id, pkg.suburb_id))
    .leftJoin(zone, eq(zone.id, pkg.zone_id))
    .leftJoin(driver, eq(driver.id, deliveryRecord.driver_id))
    .where(and(deliveryWhere(f), gt(deliveryRecord.id, after)))
    .orderBy(asc(deliveryRecord.id))
    .limit(limit)
    .all();
}

/** One page of deliveries after record id `after` (keyset), or at an offset for the JSON list. */
export async function deliveryPage(db: Db, f: ReportFilter, after: number, limit = PAGE, offset = 0): Promise<DeliveryRow[]> {
  const rows = await bothSides((side, n) => deliveryPageRaw(db, f, after, n, side), limit, offset);
  const failures = await failuresOf(
    db,
    rows.map((r) => r.package),
  );
  return rows.map((r) => ({ ...r, failed_attempts: failures.get(r.package) ?? 0 }));
}

/** On time = delivered on or before the promised day, counted in the report's days; unknown without a promised day. */
export function onTime(occurredAt: number, deliveryDate: string | null, zone: string): boolean | null {
  return deliveryDate == null ? null : localDay(occurredAt, zone) <= deliveryDate;
}

export function attemptPage(db: Db, f: ReportFilter, after: number, limit = PAGE, offset = 0) {
  return bothSides((side, n) => attemptPageOf(db, f, after, n, side), limit, offset);
}

function attemptPageOf(db: Db, f: ReportFilter, after: number, limit: number, side: Side) {
  return db
    .select({
      id: deliveryAttempt.id,
      package: pkg.id,
      hawb: pkg.hawb,
      company: pkg.company_id,
      company_name: company.name,
      customer_name: pkg.customer_name,
      zone: pkg.zone_id,
      zone_name: zone.name,
      driver: deliveryAttempt.driver_id,
      driver_name: driver.name,
      attempt_no: deliveryAttempt.attempt_no,
      reason: deliveryAttempt.reason,
      note: deliveryAttempt.note,
      occurred_at: deliveryAttempt.occurred_at,
      status: pkg.status,
      forced: deliveryAttempt.forced,
    })
    .from(side.attempt)
    .innerJoin(side.pkg, eq(pkg.id, deliveryAttempt.package_id))
    .leftJoin(company, eq(company.id, pkg.company_id))
    .leftJoin(zone, eq(zone.id, pkg.zone_id))
    .leftJoin(driver, eq(driver.id, deliveryAttempt.driver_id))
    .where(and(attemptWhere(f), gt(deliveryAttempt.id, after)))
    .orderBy(asc(deliveryAttempt.id))
    .limit(limit)
    .all();
}
export type AttemptRow = Awaited<ReturnType<typeof attemptPageOf>>[number];

export const shapeAttempt = (r: AttemptRow) => ({
  id: r.id,
  package: r.package,
  hawb: r.hawb,
  company: r.company,
  company_name: r.company_name,
  customer_name: r.customer_name,
  zone: r.zone,
  zone_name: r.zone_name,
  driver: r.driver,
  driver_name: r.driver_name,
  attempt_no: r.attempt_no,
  reason: r.reason,
  note: r.note,
  failed_at: iso(r.occurred_at) ?? '',
  status: r.status,
  forced: r.forced,
});

/** The earliest failed attempt id of each parcel: that attempt, not a later one, was the parcel's first. */
export async function firstAttemptIds(db: Db, packageIds: number[]): Promise<Set<number>> {
  const out = new Set<number>();
  const ids = [...new Set(packageIds)];
  for (const side of SIDES) {
    for (let i = 0; i < ids.length; i += 500) {
      for (const r of await db
        .select({ first: min(deliveryAttempt.id) })
        .from(side.attempt)
        .where(inArray(deliveryAttempt.package_id, ids.slice(i, i + 500)))
        .groupBy(deliveryAttempt.package_id)
        .all()) {
        if (r.first != null) out.add(r.first);
      }
    }
  }
  return out;
}

/** Keyset page sources: each call reads the next page after the last id it returned. */
export function keyset<R extends { id: number }>(read: (after: number) => Promise<R[]>): PageSource<R> {
  let last = 0;
  return async () => {
    const rows = await read(last);
    if (rows.length) last = rows[rows.length - 1].id;
    return rows;
  };
}

/** Packages created in the period as Package JSON, by id: hot ones built now, cold ones as they moved. */
function packageJsonSide(db: Db, f: ReportFilter, after: number, limit: number, side: Side) {
  if (side.pkg === pkg)
    return packageJsonSelect(db)
      .where(and(packageWhere(f), gt(pkg.id, after)))
      .orderBy(asc(pkg.id))
      .limit(limit)
      .all();
  return historyJsonAfter(db, packageWhere(f), after, limit);
}

/** Packages created in the period, shaped as spec 2.1, a page at a time by id. */
export function packagePages(db: Db, f: ReportFilter): PageSource<Package> {
  let last = 0;
  return async () => {
    const rows = await bothSides((side, n) => packageJsonSide(db, f, last, n, side), PAGE);
    if (rows.length) last = rows[rows.length - 1].id;
    return parsePackages(rows);
  };
}

export async function packageListPage(db: Db, f: ReportFilter, page: number, pageSize: number): Promise<Package[]> {
  return parsePackages(await bothSides((side, n) => packageJsonSide(db, f, 0, n, side), pageSize, (page - 1) * pageSize));
}

/** Packages created in the period by company and current status, both sides added up. */
export async function packagesByCompanyStatus(db: Db, f: ReportFilter): Promise<{ company: number | null; status: string; n: number }[]> {
  const out = new Map<string, { company: number | null; status: string; n: number }>();
  for (const side of SIDES) {
    for (const g of await db
      .select({ company: pkg.company_id, status: pkg.status, n: count() })
      .from(side.pkg)
      .where(packageWhere(f))
      .groupBy(pkg.company_id, pkg.status)
      .all()) {
      const key = `${g.company}|${g.status}`;
      const had = out.get(key);
      if (had) had.n += g.n;
      else out.set(key, { ...g });
    }
  }
  return [...out.values()];
}
