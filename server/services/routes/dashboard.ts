import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { deliveryAttempt, deliveryRecord, deliveryRoute, driverPosition, pkg, user } from '../../db/schema/index';
import { pageLinks } from '../../resources/list';
import { ROUTE_STATUSES, type RouteStatus } from '../../../shared/schemas/routes';
import type { Page } from '../../../shared/schemas/common';
import type { Package } from '../../../shared/schemas/package';
import { packagesByIds, routeOrder } from '../packages/shape';
import { coldDeliveryAttempt, coldDeliveryRecord, coldPkg, countHistory, sortKeys, unionOf } from '../history/read';
import { historyChangedBefore } from '../history/move';
import { historyDelivered, historyTally, routeTally } from '../history/lookups';
import { rawArray, rawObject, type RawJson } from '../../http/rawJson';
import { LIVE_ROUTE, openStatuses } from './shape';
import { shapePosition, latestPositions } from './positions';
import { localDayRange, startOfLocalDay } from '../../../shared/time/zone';

/** A driver whose phone reported within this window counts as "reporting" on the dashboard. */
export const REPORTING_WINDOW_MS = 15 * 60_000;

const OPEN_DELIVERY = openStatuses('delivery');
const live = () => and(isNull(pkg.deleted_at));
/** Not on a planned or running route (a parcel of a finished or cancelled route may be planned again). */
export const unrouted = () => sql`not exists (select 1 from ${deliveryRoute} where ${deliveryRoute.id} = ${pkg.route_id}
  and ${deliveryRoute.status} in ${[...LIVE_ROUTE]})`;

export interface PageOpts {
  page: number;
  page_size: number;
}

/** One page of parcels under `where` as Package answers, in `order`. */
export async function packagePage(
  db: Db,
  where: SQL | undefined,
  order: SQL[],
  q: PageOpts,
  url: string,
  join?: 'delivery',
): Promise<Page<Package>> {
  const base =
    join === 'delivery'
      ? db.select({ id: pkg.id }).from(pkg).innerJoin(deliveryRecord, eq(deliveryRecord.package_id, pkg.id))
      : db.select({ id: pkg.id }).from(pkg);
  const counted =
    join === 'delivery'
      ? db
          .select({ n: sql<number>`count(*)` })
          .from(pkg)
          .innerJoin(deliveryRecord, eq(deliveryRecord.package_id, pkg.id))
      : db.select({ n: sql<number>`count(*)` }).from(pkg);
  const count = (await counted.where(where).get())?.n ?? 0;
  const ids = (
    await base
      .where(where)
      .orderBy(...order)
      .limit(q.page_size)
      .offset((q.page - 1) * q.page_size)
      .all()
  ).map((r) => r.id);
  return { count, ...pageLinks(url, q.page, q.page_size, count), results: await packagesByIds(db, ids) };
}

export const bySequence = () => routeOrder();

export interface ListFilter {
  driver?: number;
  route?: number;
  zone?: number;
}
const filters = (f: ListFilter) => [
  f.driver != null ? eq(pkg.assigned_to_id, f.driver) : undefined,
  f.route != null ? eq(pkg.route_id, f.route) : undefined,
  f.zone != null ? eq(pkg.zone_id, f.zone) : undefined,
];

/** Parcels still to be delivered. */
export const pendingWhere = (f: ListFilter) => and(live(), inArray(pkg.status, [...OPEN_DELIVERY]), ...filters(f));
/** Parcels with a driver, not yet attempted. */
export const assignedWhere = (f: ListFilter) =>
  and(live(), isNotNull(pkg.assigned_to_id), inArray(pkg.status, ['assigned', 'out_for_delivery']), ...filters(f));
/** Parcels a planner can still put on a route: waiting at the depot or with a driver, on no live route. */
export const routableWhere = (f: ListFilter) =>
  and(live(), inArray(pkg.status, ['created', 'received', 'assigned']), unrouted(), ...filters(f));

/** Delivered parcels (of one driver) within the local days `from`..`to` of `zone`. */
export function completedWhere(zone: string, driver: number | undefined, from?: string, to?: string): SQL | undefined {
  return and(
    live(),
    eq(pkg.status, 'delivered'),
    driver != null ? eq(deliveryRecord.driver_id, driver) : undefined,
    from ? gte(pkg.delivered_at, startOfLocalDay(from, zone)) : undefined,
    to ? lt(pkg.delivered_at, localDayRange(to, zone).end) : undefined,
  );
}

type ListQuery = PageOpts & ListFilter;

/** Parcels still to be delivered, in route sequence. */
export const pendingDeliveries = (db: Db, q: ListQuery, url: string) => packagePage(db, pendingWhere(q), bySequence(), q, url);
/** Parcels with a driver and not yet attempted, by driver then sequence. */
export const assignedDeliveries = (db: Db, q: ListQuery, url: string) =>
  packagePage(db, assignedWhere(q), [asc(pkg.assigned_to_id), ...bySequence()], q, url);
/** Parcels a planner can put on a route, by zone and postcode. */
export const routableParcels = (db: Db, q: ListQuery, url: string) =>
  packagePage(db, routableWhere(q), [asc(pkg.zone_id), asc(pkg.postcode), asc(pkg.id)], q, url);
/**
 * Parcels delivered (by one driver, or anyone) within local days of `zone`, newest first. Those moved to history
 * since are still listed on the day they were delivered (asked only when the days reach back far enough).
 */
export async function completedDeliveries(
  db: Db,
  now: number,
  zone: string,
  driver: number | undefined,
  q: PageOpts & { date_from?: string; date_to?: string },
  url: string,
): Promise<Page<Package> | RawJson> {
  const where = completedWhere(zone, driver, q.date_from, q.date_to);
  const order = [desc(pkg.delivered_at), desc(pkg.id)];
  const reachesHistory = !q.date_from || startOfLocalDay(q.date_from, zone) < historyChangedBefore(now);
  // Everyone's, all days: the mover's tally, not a count of every delivered parcel in history on each
  // request. Narrowed, the filter counts.
  const everything = driver == null && !q.date_from && !q.date_to;
  const coldCount = !reachesHistory ? 0 : everything ? await historyDelivered(db) : await countColdDelivered(db, where);
  if (!coldCount) return packagePage(db, where, order, q, url, 'delivery');
  const hotCount =
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(pkg)
        .innerJoin(deliveryRecord, eq(deliveryRecord.package_id, pkg.id))
        .where(where)
        .get()
    )?.n ?? 0;
  const top = q.page * q.page_size;
  const hot = db
    .select(sortKeys(pkg, 0))
    .from(pkg)
    .innerJoin(deliveryRecord, eq(deliveryRecord.package_id, pkg.id))
    .where(where)
    .orderBy(...order)
    .limit(top);
  const cold = db
    .select(sortKeys(coldPkg, 1))
    .from(coldPkg)
    .innerJoin(coldDeliveryRecord, eq(coldDeliveryRecord.package_id, coldPkg.id))
    .where(where)
    .orderBy(...order)
    .limit(top);
  const results = await unionOf(db, hot, cold, order, q.page_size, (q.page - 1) * q.page_size);
  const count = hotCount + coldCount;
  return rawObject({ count, ...pageLinks(url, q.page, q.page_size, count), results: rawArray(results) });
}

/** Delivered parcels in history under a filter written over `pkg` and `deliveryRecord`. */
async function countColdDelivered(db: Db, where: SQL | undefined): Promise<number> {
  return (
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(coldPkg)
        .innerJoin(coldDeliveryRecord, eq(coldDeliveryRecord.package_id, coldPkg.id))
        .where(where)
        .get()
    )?.n ?? 0
  );
}

const zeroStatuses = () => Object.fromEntries(ROUTE_STATUSES.map((s) => [s, 0])) as Record<RouteStatus, number>;

/** Routes of a day (or all days) for one driver (or all), by status, with their parcels counted. */
export async function routeCounts(db: Db, opts: { driver?: number; date?: string }) {
  const where = and(
    opts.driver != null ? eq(deliveryRoute.driver_id, opts.driver) : undefined,
    opts.date ? eq(deliveryRoute.date, opts.date) : undefined,
  );
  const by_status = zeroStatuses();
  let total = 0;
  for (const r of await db
    .select({ status: deliveryRoute.status, n: sql<number>`count(*)` })
    .from(deliveryRoute)
    .where(where)
    .groupBy(deliveryRoute.status)
    .all()) {
    if ((ROUTE_STATUSES as readonly string[]).includes(r.status)) by_status[r.status as RouteStatus] = r.n;
    total += r.n;
  }
  const parcels = await db
    .select({
      total: sql<number>`count(*)`,
      open: sql<number>`coalesce(sum(case when ${pkg.status} in ${[...OPEN_DELIVERY, 'pickup_requested']} then 1 else 0 end), 0)`,
      delivered: sql<number>`coalesce(sum(case when ${pkg.status} = 'delivered' then 1 else 0 end), 0)`,
      failed: sql<number>`coalesce(sum(case when ${pkg.status} = 'failed' then 1 else 0 end), 0)`,
    })
    .from(pkg)
    .innerJoin(deliveryRoute, eq(deliveryRoute.id, pkg.route_id))
    .where(and(live(), where))
    .get();
  // Parcels of these routes moved to history (final: never open nor failed) from the mover's per-route tally.
  const cold = await routeTally(db, where);
  const coldTotal = [...cold.values()].reduce((a, b) => a + b, 0);
  return {
    total,
    by_status,
    packages: {
      total: (parcels?.total ?? 0) + coldTotal,
      open: parcels?.open ?? 0,
      delivered: (parcels?.delivered ?? 0) + (cold.get('delivered') ?? 0),
      failed: parcels?.failed ?? 0,
    },
  };
}

/** Counts of the local `date` in `zone` (the business's): its deliveries and failures are those between its local midnights. */
export async function dashboardCount(db: Db, now: number, date: string, zone: string) {
  const { start, end } = localDayRange(date, zone);
  // A day's deliveries and failures stay counted after their parcels move to history (only a day
  // old enough can have any there).
  const inHistory = start < historyChangedBefore(now);
  const deliveredOn = and(live(), eq(pkg.status, 'delivered'), gte(pkg.delivered_at, start), lt(pkg.delivered_at, end));
  const failedOn = and(gte(deliveryAttempt.received_at, start), lt(deliveryAttempt.received_at, end));
  const count = async (where: SQL | undefined) =>
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(pkg)
        .where(where)
        .get()
    )?.n ?? 0;
  const routes = await routeCounts(db, { date });
  const drivers =
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(user)
        .where(and(eq(user.role, 'driver'), eq(user.is_active, true), isNull(user.deleted_at)))
        .get()
    )?.n ?? 0;
  const onRoute =
    (
      await db
        .select({ n: sql<number>`count(distinct ${deliveryRoute.driver_id})` })
        .from(deliveryRoute)
        .where(and(eq(deliveryRoute.status, 'in_progress'), isNotNull(deliveryRoute.driver_id)))
        .get()
    )?.n ?? 0;
  const reporting =
    (
      await db
        .select({ n: sql<number>`count(distinct ${driverPosition.driver_id})` })
        .from(driverPosition)
        .where(gte(driverPosition.received_at, now - REPORTING_WINDOW_MS))
        .get()
    )?.n ?? 0;
  return {
    success: true,
    date,
    time_zone: zone,
    packages: {
      // Parcels in history from the mover's tally: all-time, without reading history.
      total: (await count(live())) + [...(await historyTally(db)).values()].reduce((a, b) => a + b, 0),
      pending: await count(pendingWhere({})),
      assigned: await count(and(live(), eq(pkg.status, 'assigned'))),
      out_for_delivery: await count(and(live(), eq(pkg.status, 'out_for_delivery'))),
      delivered_today: (await count(deliveredOn)) + (inHistory ? await countHistory(db, deliveredOn) : 0),
      failed_today:
        ((
          await db
            .select({ n: sql<number>`count(*)` })
            .from(deliveryAttempt)
            .where(failedOn)
            .get()
        )?.n ?? 0) +
        (inHistory
          ? ((
              await db
                .select({ n: sql<number>`count(*)` })
                .from(coldDeliveryAttempt)
                .where(failedOn)
                .get()
            )?.n ?? 0)
          : 0),
      unrouted_open: await count(and(pendingWhere({}), unrouted())),
    },
    routes: { date, total: routes.total, by_status: routes.by_status },
    drivers: { active: drivers, on_route: onRoute, reporting },
  };
}

type MapParcel = {
  id: number;
  hawb: string;
  status: string;
  sequence_no: number | null;
  route: number | null;
  latitude: number | null;
  longitude: number | null;
  customer_name: string | null;
  customer_address: string | null;
};
const MAP_LIMIT = 2000;

async function mapParcels(db: Db, where: SQL | undefined): Promise<(MapParcel & { driver: number | null })[]> {
  return await db
    .select({
      id: pkg.id,
      hawb: pkg.hawb,
      status: pkg.status,
      sequence_no: pkg.sequence_no,
      route: pkg.route_id,
      latitude: pkg.latitude,
      longitude: pkg.longitude,
      customer_name: pkg.customer_name,
      customer_address: pkg.customer_address,
      driver: pkg.assigned_to_id,
    })
    .from(pkg)
    .where(where)
    .orderBy(...bySequence())
    .limit(MAP_LIMIT)
    .all();
}

/**
 * What the dashboard map draws: each active driver's last position, current route and open
 * parcels (with status), and open parcels nobody holds yet. The same data is a list offline.
 */
export async function dashboardMap(db: Db, driverFilter?: number) {
  const drivers = await db
    .select({ id: user.id, name: user.name })
    .from(user)
    .where(
      and(
        eq(user.role, 'driver'),
        eq(user.is_active, true),
        isNull(user.deleted_at),
        driverFilter != null ? eq(user.id, driverFilter) : undefined,
      ),
    )
    .orderBy(asc(user.name), asc(user.id))
    .all();
  const ids = drivers.map((d) => d.id);
  const positions = new Map(ids.length ? (await latestPositions(db, ids)).map((r) => [r.p.driver_id, shapePosition(r.p)]) : []);
  const routes = ids.length
    ? await db
        .select()
        .from(deliveryRoute)
        .where(and(inArray(deliveryRoute.driver_id, ids), inArray(deliveryRoute.status, [...LIVE_ROUTE])))
        .orderBy(desc(sql`${deliveryRoute.status} = 'in_progress'`), desc(deliveryRoute.date), desc(deliveryRoute.id))
        .all()
    : [];
  const current = new Map<number, (typeof routes)[number]>();
  for (const r of routes) if (r.driver_id != null && !current.has(r.driver_id)) current.set(r.driver_id, r);
  const held = ids.length
    ? await mapParcels(db, and(live(), inArray(pkg.assigned_to_id, ids), inArray(pkg.status, [...OPEN_DELIVERY, 'pickup_requested'])))
    : [];
  const unassigned =
    driverFilter != null
      ? []
      : await mapParcels(
          db,
          and(
            live(),
            isNull(pkg.assigned_to_id),
            inArray(pkg.status, ['created', 'received']),
            or(isNotNull(pkg.latitude), isNotNull(pkg.route_id)),
          ),
        );
  const strip = ({ driver: _driver, ...p }: MapParcel & { driver: number | null }): MapParcel => p;
  return {
    success: true,
    drivers: drivers.map((d) => {
      const route = current.get(d.id);
      return {
        driver: d,
        position: positions.get(d.id) ?? null,
        route: route ? { id: route.id, name: route.name, status: route.status as RouteStatus } : null,
        packages: held.filter((p) => p.driver === d.id).map(strip),
      };
    }),
    unassigned: unassigned.map(strip),
  };
}

/** The routes of a day (planned, running or done), by driver (unassigned last), for the sequence-wise view. */
export async function routesOfDay(db: Db, date: string, q: { driver?: number; kind?: string }) {
  return await db
    .select()
    .from(deliveryRoute)
    .where(
      and(
        eq(deliveryRoute.date, date),
        q.driver != null ? eq(deliveryRoute.driver_id, q.driver) : undefined,
        q.kind ? eq(deliveryRoute.kind, q.kind) : undefined,
        inArray(deliveryRoute.status, ['planned', 'in_progress', 'completed']),
      ),
    )
    .orderBy(sql`${deliveryRoute.driver_id} is null`, asc(deliveryRoute.driver_id), asc(deliveryRoute.id))
    .limit(200)
    .all();
}

/** Pickups a driver holds that no live route carries yet, oldest first. */
export async function pickupsWaiting(db: Db, driverId: number): Promise<number[]> {
  return (
    await db
      .select({ id: pkg.id })
      .from(pkg)
      .where(and(eq(pkg.assigned_to_id, driverId), eq(pkg.status, 'pickup_requested'), isNull(pkg.deleted_at), unrouted()))
      .orderBy(asc(pkg.id))
      .limit(2000)
      .all()
  ).map((r) => r.id);
}
