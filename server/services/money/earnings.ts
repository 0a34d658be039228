import { and, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { driverRateFor, type DriverRateLine } from '../../../shared/money';
import { isStaff } from '../../../shared/roles';
import type { Db } from '../../db/client';
import { company, deliveryRoute, driverRate, packageType, pkg, user } from '../../db/schema/index';
import { badRequest, notFound } from '../../errors';
import type { SessionUser } from '../auth/session';
import type { Deps } from '../../deps';
import { businessZone } from '../time/zones';
import { daysBetween, localDay, localDaysRange, monthOf } from '../../../shared/time/zone';
import type { Ledger } from './wallets';
import { coldPkg } from '../history/read';

const MAX_DAYS = 366;

export interface EarningPeriod {
  driver: number;
  from: string;
  to: string;
  start: number;
  end: number;
  zone: string;
}

/** Which driver and days an earnings question is about: a driver only ever gets their own. */
export async function earningPeriod(
  deps: Ledger & Pick<Deps, 'config'>,
  me: SessionUser,
  q: { from?: string; to?: string; driver?: number },
): Promise<EarningPeriod> {
  let driverId = me.id;
  if (isStaff(me.role) && q.driver != null) {
    const d = await deps.db.select({ id: user.id, role: user.role }).from(user).where(eq(user.id, q.driver)).get();
    if (!d || d.role !== 'driver') throw notFound(`Driver ${q.driver} not found`);
    driverId = d.id;
  } else if (q.driver != null && q.driver !== me.id) {
    throw notFound(`Driver ${q.driver} not found`);
  }
  // This month and the days asked for are the business's local days (issue 31).
  const zone = await businessZone(deps);
  const month = monthOf(localDay(deps.clock.now(), zone));
  const from = q.from ?? (q.to ? q.to : month.first);
  const to = q.to ?? (q.from ? q.from : month.last);
  if (from > to) throw badRequest('`to` must not be before `from`', [{ path: 'to', message: 'before from' }]);
  const { start, end } = localDaysRange(from, to, zone);
  if (daysBetween(from, to) + 1 > MAX_DAYS)
    throw badRequest(`Ask for at most ${MAX_DAYS} days at a time`, [{ path: 'to', message: 'period too long' }]);
  return { driver: driverId, from, to, start, end, zone };
}

export interface EarnedParcel {
  id: number;
  delivered_at: number;
  route_id: number | null;
  route_name: string | null;
  company_id: number | null;
  company_name: string | null;
  rate: DriverRateLine | null;
}

/** The driver's delivered parcels in the period, each with the driver rate in force when delivered. */
export async function earnedParcels(db: Db, p: EarningPeriod): Promise<EarnedParcel[]> {
  // Parcels moved to history earned what they earned: both sides, in delivery order.
  const rows = (
    await Promise.all(
      [pkg, coldPkg].map((side) =>
        db
          .select({
            id: pkg.id,
            delivered_at: pkg.delivered_at,
            route_id: pkg.route_id,
            route_name: deliveryRoute.name,
            company_id: pkg.company_id,
            company_name: company.name,
            zone_id: pkg.zone_id,
            pkg_type: pkg.pkg_type,
          })
          .from(side)
          .leftJoin(company, eq(company.id, pkg.company_id))
          .leftJoin(deliveryRoute, eq(deliveryRoute.id, pkg.route_id))
          .where(
            and(
              eq(pkg.assigned_to_id, p.driver),
              eq(pkg.status, 'delivered'),
              isNull(pkg.deleted_at),
              gte(pkg.delivered_at, p.start),
              lt(pkg.delivered_at, p.end),
            ),
          )
          .orderBy(pkg.delivered_at, pkg.id)
          .all(),
      ),
    )
  )
    .flat()
    .sort((a, b) => (a.delivered_at ?? 0) - (b.delivered_at ?? 0) || a.id - b.id);
  const rates: DriverRateLine[] = await db
    .select()
    .from(driverRate)
    .where(
      and(
        or(isNull(driverRate.driver_id), eq(driverRate.driver_id, p.driver)),
        eq(driverRate.is_active, true),
        isNull(driverRate.deleted_at),
      ),
    )
    .all();
  const names = [...new Set(rows.map((r) => r.pkg_type?.trim().toLowerCase()).filter((n): n is string => !!n))];
  const typeIds = new Map<string, number>();
  if (names.length) {
    const types = await db
      .select({ id: packageType.id, name: sql<string>`lower(${packageType.package_type})` })
      .from(packageType)
      .where(and(inArray(sql`lower(${packageType.package_type})`, names), isNull(packageType.deleted_at)))
      .orderBy(packageType.id)
      .all();
    for (const t of types) if (!typeIds.has(t.name)) typeIds.set(t.name, t.id);
  }
  return rows.map((r) => {
    const deliveredAt = r.delivered_at ?? 0;
    const rate = driverRateFor(rates, {
      driver_id: p.driver,
      zone_id: r.zone_id,
      delivered_at: deliveredAt,
      package_type_id: r.pkg_type ? (typeIds.get(r.pkg_type.trim().toLowerCase()) ?? null) : null,
    });
    return {
      id: r.id,
      delivered_at: deliveredAt,
      route_id: r.route_id,
      route_name: r.route_name,
      company_id: r.company_id,
      company_name: r.company_name,
      rate,
    };
  });
}

export interface EarningRow {
  currency: string | null;
  delivered_count: number;
  unrated_count: number;
  amount_cents: number;
}

/**
 * Sums parcels into rows by a key and currency: amounts in different currencies are never added.
 * Unrated parcels (no rate in force) sit in the row of their key with currency null.
 */
export function groupEarnings<K extends string | number | null>(
  parcels: EarnedParcel[],
  keyOf: (p: EarnedParcel) => K,
): { key: K; row: EarningRow }[] {
  const groups = new Map<string, { key: K; row: EarningRow }>();
  for (const p of parcels) {
    const key = keyOf(p);
    const currency = p.rate?.currency ?? null;
    const id = JSON.stringify([key, currency]);
    let g = groups.get(id);
    if (!g) {
      g = { key, row: { currency, delivered_count: 0, unrated_count: 0, amount_cents: 0 } };
      groups.set(id, g);
    }
    g.row.delivered_count += 1;
    if (p.rate) g.row.amount_cents += p.rate.amount_cents;
    else g.row.unrated_count += 1;
  }
  return [...groups.values()];
}

/** The local day of a delivery in the period's zone. */
export const dayOf = (ms: number, zone: string) => localDay(ms, zone);
