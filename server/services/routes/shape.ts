import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { deliveryRoute, packageHistory, pkg, user, warehouse } from '../../db/schema/index';
import { collectionStops } from './collections';
import { iso } from '../../clock';
import { notFound } from '../../errors';
import { isStaff } from '../../../shared/roles';
import type { PackageStatus } from '../../../shared/lifecycle';
import { OPEN_ROUTE_STATUSES } from '../../../shared/driverActions';
import type { Package } from '../../../shared/schemas/package';
import type { RouteKind, RouteRecord, RouteStatus } from '../../../shared/schemas/routes';
import type { SessionUser } from '../auth/session';
import { packagesByIds, type PackageRow } from '../packages/shape';
import { isCold } from '../history/kept';
import { coldPkg, historyAnswers } from '../history/read';

export type RouteRow = typeof deliveryRoute.$inferSelect;

/** Parcels still to be worked on a route: only these are ordered, moved to a driver or re-sequenced. */
const OPEN: Record<RouteKind, readonly PackageStatus[]> = {
  // The phone reads the same list (client/driver/day.ts isOpen).
  delivery: OPEN_ROUTE_STATUSES,
  pickup: ['pickup_requested'],
};
const DONE: Record<RouteKind, readonly PackageStatus[]> = {
  delivery: ['delivered'],
  pickup: ['picked_up', 'received', 'assigned', 'out_for_delivery', 'delivered', 'failed', 'returned', 'returned_to_sender'],
};
/** Routes that still hold their parcels: a parcel belongs to at most one of these. */
export const LIVE_ROUTE: readonly RouteStatus[] = ['planned', 'in_progress'];

export const kindOf = (row: RouteRow): RouteKind => (row.kind === 'pickup' ? 'pickup' : 'delivery');
export const openStatuses = (kind: RouteKind) => OPEN[kind];
export const isOpen = (kind: RouteKind, status: string) => (OPEN[kind] as readonly string[]).includes(status);

/** Staff see every route; a driver only the routes given to them. Companies have no route access at all. */
export function routeScope(me: SessionUser): SQL | undefined {
  if (isStaff(me.role)) return undefined;
  if (me.role === 'driver') return eq(deliveryRoute.driver_id, me.id);
  return sql`1 = 0`;
}

/** A route in the caller's scope, else 404 so route ids do not reveal other drivers' work. */
export async function findRoute(db: Db, me: SessionUser, id: number): Promise<RouteRow> {
  const row = await db
    .select()
    .from(deliveryRoute)
    .where(and(eq(deliveryRoute.id, id), routeScope(me)))
    .get();
  if (!row) throw notFound(`Route ${id} not found`);
  return row;
}

/** Every live parcel of a route, sequence order first, unsequenced last. */
export function routeParcels(db: Db, routeId: number) {
  return db
    .select()
    .from(pkg)
    .where(and(eq(pkg.route_id, routeId), isNull(pkg.deleted_at)))
    .orderBy(sql`${pkg.sequence_no} is null`, asc(pkg.sequence_no), asc(pkg.id))
    .all();
}

/** Sequence order: sequenced stops first by their number, then the rest, each by id (as `routeParcels` sorts in SQL). */
const bySequence = (a: { id: number; sequence_no: number | null }, b: { id: number; sequence_no: number | null }) =>
  Number(a.sequence_no == null) - Number(b.sequence_no == null) || (a.sequence_no ?? 0) - (b.sequence_no ?? 0) || a.id - b.id;

/**
 * Every parcel a route had, hot and moved to history (a route run months ago keeps its list), in
 * sequence order: for what a route shows, never for changing it (cold parcels are final). History
 * is read by its route index.
 */
export async function shownRouteParcels(db: Db, routeId: number): Promise<PackageRow[]> {
  const cold = await db
    .select()
    .from(packageHistory)
    .where(and(eq(packageHistory.route_id, routeId), isNull(packageHistory.deleted_at)))
    .all();
  const hot = await routeParcels(db, routeId);
  return cold.length ? [...hot, ...cold].sort(bySequence) : hot;
}

export async function openParcels(db: Db, route: RouteRow) {
  return (await routeParcels(db, route.id)).filter((p) => isOpen(kindOf(route), p.status));
}

export async function routeRecords(db: Db, rows: RouteRow[]): Promise<RouteRecord[]> {
  if (!rows.length) return [];
  const names = new Map<number, string>();
  const people = [...new Set(rows.map((r) => r.driver_id).filter((v): v is number => v != null))];
  if (people.length)
    for (const u of await db.select({ id: user.id, name: user.name }).from(user).where(inArray(user.id, people)).all())
      names.set(u.id, u.name);
  const houses = new Map<number, string>();
  const whIds = [...new Set(rows.map((r) => r.warehouse_id).filter((v): v is number => v != null))];
  if (whIds.length) {
    for (const w of await db
      .select({ id: warehouse.id, name: warehouse.name, street: warehouse.street_address })
      .from(warehouse)
      .where(inArray(warehouse.id, whIds))
      .all()) {
      houses.set(w.id, w.name || w.street);
    }
  }
  const routeIds = rows.map((r) => r.id);
  const parcels = await db
    .select({ id: pkg.id, route: pkg.route_id, status: pkg.status, sequence_no: pkg.sequence_no })
    .from(pkg)
    .where(and(inArray(pkg.route_id, routeIds), isNull(pkg.deleted_at)))
    .orderBy(sql`${pkg.sequence_no} is null`, asc(pkg.sequence_no), asc(pkg.id))
    .all();
  // Parcels of these routes moved to history still count on them (their route index finds them).
  const cold = await db
    .select({ id: coldPkg.id, route: coldPkg.route_id, status: coldPkg.status, sequence_no: coldPkg.sequence_no })
    .from(coldPkg)
    .where(and(inArray(coldPkg.route_id, routeIds), isNull(coldPkg.deleted_at)))
    .all();
  if (cold.length) {
    parcels.push(...cold);
    parcels.sort(bySequence);
  }
  const byRoute = new Map<number, { id: number; status: string }[]>();
  for (const p of parcels) if (p.route != null) byRoute.set(p.route, [...(byRoute.get(p.route) ?? []), p]);
  // Collections of parcels a route picks up and then delivers (issue 32), while the parcel is still on it.
  const pickups = new Map<number, NonNullable<RouteRecord['pickup_stops']>>();
  for (const c of await collectionStops(db, routeIds)) {
    const address = [c.name, c.street, c.suburb].filter((x): x is string => !!x && x.trim() !== '').join(', ');
    pickups.set(c.route, [
      ...(pickups.get(c.route) ?? []),
      { package: c.package, sequence_no: c.sequence_no, address: address || null, latitude: c.latitude, longitude: c.longitude },
    ]);
  }
  return rows.map((r) => {
    const kind = kindOf(r);
    const list = byRoute.get(r.id) ?? [];
    return {
      id: r.id,
      name: r.name,
      date: r.date,
      kind,
      status: r.status as RouteStatus,
      driver: r.driver_id,
      driver_name: r.driver_id != null ? (names.get(r.driver_id) ?? null) : null,
      warehouse: r.warehouse_id,
      warehouse_name: r.warehouse_id != null ? (houses.get(r.warehouse_id) ?? null) : null,
      start_latitude: r.start_latitude,
      start_longitude: r.start_longitude,
      total_distance_m: r.total_distance_m == null ? null : Math.round(r.total_distance_m),
      optimized_at: iso(r.optimized_at),
      started_at: iso(r.started_at),
      completed_at: iso(r.completed_at),
      package_count: list.length,
      open_count: list.filter((p) => isOpen(kind, p.status)).length,
      done_count: list.filter((p) => (DONE[kind] as readonly string[]).includes(p.status)).length,
      packages: list.map((p) => p.id),
      ...(pickups.has(r.id) ? { pickup_stops: pickups.get(r.id) } : {}),
      created_at: iso(r.created_at) ?? '',
      updated_at: iso(r.updated_at) ?? '',
    };
  });
}

export const routeRecord = async (db: Db, row: RouteRow): Promise<RouteRecord> => (await routeRecords(db, [row]))[0] as RouteRecord;

/**
 * A driver sees a parcel's details only while it is theirs (as everywhere else): on a route handed
 * over mid-run, the stops the first driver already delivered stay out of the new driver's list.
 */
const seenBy = (me: SessionUser | undefined) => (p: Package) => me?.role !== 'driver' || p.assigned_to_id === me.id;

/** The route's parcels as full Package answers (spec 2.1), in sequence order; those moved to history as they were frozen. */
export async function routePackages(db: Db, routeId: number, me?: SessionUser): Promise<Package[]> {
  return (await routeAnswers(db, await shownRouteParcels(db, routeId))).filter(seenBy(me));
}

/** Package answers of parcels hot or cold, in the order given. */
async function routeAnswers(db: Db, rows: PackageRow[]): Promise<Package[]> {
  const hot = new Map(
    (
      await packagesByIds(
        db,
        rows.filter((r) => !isCold(r)).map((r) => r.id),
      )
    ).map((p) => [p.id, p]),
  );
  const cold = await historyAnswers(
    db,
    rows.filter(isCold).map((r) => r.id),
  );
  return rows.flatMap((r) => {
    const text = isCold(r) ? cold.get(r.id) : undefined;
    const p = text !== undefined ? (JSON.parse(text) as Package) : hot.get(r.id);
    return p ? [p] : [];
  });
}

/** Routes with their parcels in sequence, for the driver and dashboard views. */
export async function routesWithPackages(
  db: Db,
  rows: RouteRow[],
  me?: SessionUser,
): Promise<{ route: RouteRecord; packages: Package[] }[]> {
  const records = await routeRecords(db, rows);
  const all = new Map(
    (
      await packagesByIds(
        db,
        records.flatMap((r) => r.packages),
      )
    )
      .filter(seenBy(me))
      .map((p) => [p.id, p]),
  );
  const moved = records.flatMap((r) => r.packages).filter((id) => !all.has(id));
  if (moved.length)
    for (const [id, text] of await historyAnswers(db, moved)) {
      const p = JSON.parse(text) as Package;
      if (seenBy(me)(p)) all.set(id, p);
    }
  return records.map((route) => ({
    route,
    packages: route.packages.map((id) => all.get(id)).filter((p): p is Package => p !== undefined),
  }));
}

/** The driver a route view is about: a driver is always themself; staff name one. */
export async function driverRef(db: Db, id: number): Promise<{ id: number; name: string }> {
  const row = await db.select({ id: user.id, name: user.name, role: user.role }).from(user).where(eq(user.id, id)).get();
  if (!row || row.role !== 'driver') throw notFound(`Driver ${id} not found`);
  return { id: row.id, name: row.name };
}
