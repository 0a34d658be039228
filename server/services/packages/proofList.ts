import { and, desc, eq, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { isStaff } from '../../../shared/roles';
import type { ListQuery, Page } from '../../../shared/schemas/common';
import type { PackageListQuery, Proof } from '../../../shared/schemas/delivery';
import type { Db } from '../../db/client';
import { deliveryRecord, deliveryRecordHistory, packageHistory, packageHistoryRow, packagePhoto, pkg } from '../../db/schema/index';
import { pageLinks } from '../../resources/list';
import type { SessionUser } from '../auth/session';
import { historyChangedBefore } from '../history/move';
import { historyDelivered, historyListTally, tallyScope, WITH_PROOF } from '../history/lookups';
import { coldDeliveryRecord, coldPkg, sortKeys, unionKeys } from '../history/read';
import { localDayRange, startOfLocalDay } from '../../../shared/time/zone';
import { proofsOf } from './proof';
import { packageScope } from './scope';
import type { PackageRow } from './shape';

/** Photos or a signature: hot ones in their table, a cold parcel's kept as JSON rows (read by their parcel index). */
const hasProof = (cold: boolean) =>
  cold
    ? sql`exists (select 1 from ${packageHistoryRow} where ${packageHistoryRow.package_id} = ${pkg.id} and ${packageHistoryRow.source} = 'package_photo')`
    : sql`exists (select 1 from ${packagePhoto} where ${packagePhoto.package_id} = ${pkg.id})`;

/**
 * Parcels under `whereOf(cold)` with their proof, newest delivery first, hot and moved to history
 * alike. The filter is written over `pkg` and `deliveryRecord`, so it reads the cold tables under the
 * same names; history is left unread when `reachesHistory` is false. Each side answers its first
 * offset + limit in order and the page is cut from their union (`unionKeys`), in the engine's own order.
 */
async function proofPage(
  db: Db,
  whereOf: (cold: boolean) => SQL | undefined,
  q: { page: number; page_size: number },
  url: string,
  reachesHistory = true,
  /** How many cold parcels match, when something cheaper than counting them knows. */
  coldTally?: () => Promise<number>,
): Promise<Page<Proof>> {
  const order = [desc(pkg.delivered_at), desc(pkg.id)];
  const hotWhere = whereOf(false);
  const coldWhere = whereOf(true);
  const offset = (q.page - 1) * q.page_size;
  const hotCount =
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(pkg)
        .leftJoin(deliveryRecord, eq(deliveryRecord.package_id, pkg.id))
        .where(hotWhere)
        .get()
    )?.n ?? 0;
  const coldCount = !reachesHistory
    ? 0
    : coldTally
      ? await coldTally()
      : ((
          await db
            .select({ n: sql<number>`count(*)` })
            .from(coldPkg)
            .leftJoin(coldDeliveryRecord, eq(coldDeliveryRecord.package_id, coldPkg.id))
            .where(coldWhere)
            .get()
        )?.n ?? 0);
  let rows: PackageRow[];
  if (!coldCount) {
    rows = (
      await db
        .select({ p: pkg })
        .from(pkg)
        .leftJoin(deliveryRecord, eq(deliveryRecord.package_id, pkg.id))
        .where(hotWhere)
        .orderBy(...order)
        .limit(q.page_size)
        .offset(offset)
        .all()
    ).map((r) => r.p);
  } else {
    const top = offset + q.page_size;
    const hot = db
      .select(sortKeys(pkg, 0))
      .from(pkg)
      .leftJoin(deliveryRecord, eq(deliveryRecord.package_id, pkg.id))
      .where(hotWhere)
      .orderBy(...order)
      .limit(top);
    const cold = db
      .select(sortKeys(coldPkg, 1))
      .from(coldPkg)
      .leftJoin(coldDeliveryRecord, eq(coldDeliveryRecord.package_id, coldPkg.id))
      .where(coldWhere)
      .orderBy(...order)
      .limit(top);
    const page = await unionKeys(db, hot, cold, order, q.page_size, offset);
    const ids = (side: boolean) => page.filter((p) => p.cold === side).map((p) => p.id);
    const found = new Map<string, PackageRow>();
    if (ids(false).length)
      for (const r of await db
        .select()
        .from(pkg)
        .where(inArray(pkg.id, ids(false)))
        .all())
        found.set(`0:${r.id}`, r);
    if (ids(true).length)
      for (const r of await db
        .select()
        .from(packageHistory)
        .where(inArray(packageHistory.id, ids(true)))
        .all())
        found.set(`1:${r.id}`, r);
    rows = page.flatMap((p) => {
      const r = found.get(`${p.cold ? 1 : 0}:${p.id}`);
      return r ? [r] : [];
    });
  }
  const count = hotCount + coldCount;
  return { count, ...pageLinks(url, q.page, q.page_size, count), results: await proofsOf(db, rows) };
}

/**
 * Delivered parcels with their proof: a driver the deliveries they made, a company its parcels,
 * staff all (`driver` narrows to one); `date_from`/`date_to` are local days of `zone` (the business's) of the delivery. History
 * is asked only when the days reach back far enough to hold any of it.
 */
export function deliveredPage(
  db: Db,
  now: number,
  zone: string,
  user: SessionUser,
  q: z.output<typeof PackageListQuery>,
  url: string,
): Promise<Page<Proof>> {
  const where = and(
    eq(pkg.status, 'delivered'),
    isNull(pkg.deleted_at),
    user.role === 'driver' ? eq(deliveryRecord.driver_id, user.id) : packageScope(user),
    q.driver != null && isStaff(user.role) ? eq(deliveryRecord.driver_id, q.driver) : undefined,
    q.date_from ? gte(pkg.delivered_at, startOfLocalDay(q.date_from, zone)) : undefined,
    q.date_to ? lt(pkg.delivered_at, localDayRange(q.date_to, zone).end) : undefined,
  );
  // Unfiltered, staff's and a company's cold deliveries are the mover's tally (cold parcels are never archived).
  const tallied = user.role !== 'driver' && !q.date_from && !q.date_to && (q.driver == null || !isStaff(user.role));
  const coldTally = () => historyDelivered(db, tallyScope(user));
  return proofPage(
    db,
    () => where,
    q,
    url,
    !q.date_from || startOfLocalDay(q.date_from, zone) < historyChangedBefore(now),
    tallied ? coldTally : undefined,
  );
}

/**
 * Cold parcels a driver held or delivered, by the two driver indexes: the OR across the parcel and
 * its delivery record would read every cold parcel; this reads only the driver's.
 */
const coldOfDriver = (
  driverId: number,
) => sql`${pkg.id} in (select ${packageHistory.id} from ${packageHistory} where ${packageHistory.assigned_to_id} = ${driverId}
  union select ${deliveryRecordHistory.package_id} from ${deliveryRecordHistory} where ${deliveryRecordHistory.driver_id} = ${driverId})`;

/**
 * Parcels with any proof (photos, signature or a delivery record): a driver those they hold or
 * delivered, others as their package scope allows; `package` narrows to one.
 */
export function proofUploadPage(
  db: Db,
  user: SessionUser,
  q: z.output<typeof ListQuery> & { package?: number },
  url: string,
): Promise<Page<Proof>> {
  // Unfiltered, staff's and a company's cold parcels with proof are the mover's tally.
  const coldTally = user.role !== 'driver' && q.package == null ? () => historyListTally(db, WITH_PROOF, user) : undefined;
  return proofPage(
    db,
    (cold) =>
      and(
        isNull(pkg.deleted_at),
        or(hasProof(cold), sql`${deliveryRecord.id} is not null`),
        user.role === 'driver'
          ? cold
            ? coldOfDriver(user.id)
            : or(eq(pkg.assigned_to_id, user.id), eq(deliveryRecord.driver_id, user.id))
          : packageScope(user),
        q.package != null ? eq(pkg.id, q.package) : undefined,
      ),
    q,
    url,
    true,
    coldTally,
  );
}
