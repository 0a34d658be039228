import { and, asc, count, desc, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import type { Deps } from '../../deps';
import { deliveryAttempt, packageEvent, packageHistoryActor, pkg, user } from '../../db/schema/index';
import { iso } from '../../clock';
import { badRequest, forbidden, notFound } from '../../errors';
import { containsText, pageLinks } from '../../resources/list';
import { isPackageStatus } from '../../../shared/lifecycle';
import { isStaff } from '../../../shared/roles';
import type { DayQuery, HistoryQuery, PackageEvent } from '../../../shared/schemas/delivery';
import type { Page } from '../../../shared/schemas/common';
import type { Package } from '../../../shared/schemas/package';
import type { SessionUser } from '../auth/session';
import { coldPkg, frozenAnswer, historyAnswers, historyRow } from '../history/read';
import { isCold, keptAttemptRows, keptEvents } from '../history/kept';
import { attemptsWhere, shapeAttempts } from './fail';
import { proofOf } from './proof';
import { canSeePackage } from './scope';
import { packagesByIds, routeOrder, type PackageRow } from './shape';
import { businessZone } from '../time/zones';
import { localDay, localDayRange, startOfLocalDay } from '../../../shared/time/zone';

type EventRow = typeof packageEvent.$inferSelect;

/** Events as answered, with who did them. */
export async function shapeEvents(db: Db, rows: EventRow[]): Promise<z.infer<typeof PackageEvent>[]> {
  const ids = [...new Set(rows.map((r) => r.actor_id).filter((id): id is number => id != null))];
  const names = new Map(
    ids.length
      ? (await db.select({ id: user.id, name: user.name }).from(user).where(inArray(user.id, ids)).all()).map((u) => [u.id, u.name])
      : [],
  );
  return rows.map((e) => ({
    id: e.id,
    action: e.action,
    from_status: e.from_status,
    to_status: e.to_status,
    actor: e.actor_id != null ? { id: e.actor_id, name: names.get(e.actor_id) ?? '' } : null,
    occurred_at: iso(e.occurred_at) ?? '',
    received_at: iso(e.received_at) ?? '',
    latitude: e.latitude,
    longitude: e.longitude,
    note: e.note,
  }));
}

/** Drivers see their own history; staff anyone's (`?driver=`); companies have none. */
export function historyDriver(user: SessionUser, requested?: number): number {
  if (user.role === 'driver') {
    if (requested != null && requested !== user.id) throw forbidden('You may only see your own history');
    return user.id;
  }
  if (!isStaff(user.role)) throw forbidden('History is kept for drivers and staff');
  if (requested == null) throw badRequest('Say whose history: ?driver=<employee id>', [{ path: 'driver', message: 'required for staff' }]);
  return requested;
}

/**
 * The parcels a driver moved along (each with its latest action by that driver), newest first,
 * filtered by status, day range and search. Parcels in history come from `package_history_actor`
 * (the mover kept each actor's last event per parcel, indexed by actor): each side answers its first
 * offset + limit in event order, and the page is cut from their union, so history is read by index only.
 */
export async function driverHistory(
  deps: Deps,
  driverId: number,
  q: z.output<typeof HistoryQuery>,
  url: string,
): Promise<Page<{ package: Package; last_action: string; last_at: string }>> {
  const { db } = deps;
  const last = db
    .select({ package_id: packageEvent.package_id, last_id: sql<number>`max(${packageEvent.id})`.as('last_id') })
    .from(packageEvent)
    .where(eq(packageEvent.actor_id, driverId))
    .groupBy(packageEvent.package_id)
    .as('last');
  const statuses =
    q.status
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean) ?? [];
  const unknown = statuses.filter((s) => !isPackageStatus(s));
  if (unknown.length) throw badRequest(`Unknown status: ${unknown.join(', ')}`, [{ path: 'status', message: 'unknown status' }]);
  const term = q.search?.trim();
  // Written over `pkg`: the same SQL filters the cold side read through `coldPkg`.
  const parcelWhere = and(
    isNull(pkg.deleted_at),
    statuses.length ? inArray(pkg.status, statuses) : undefined,
    term ? or(containsText(pkg.hawb, term), containsText(pkg.customer_name, term)) : undefined,
  );
  // Local days of the business's zone (issue 31).
  const zone = await businessZone(deps);
  const days = (at: SQLiteColumn) =>
    and(
      q.date_from ? gte(at, startOfLocalDay(q.date_from, zone)) : undefined,
      q.date_to ? lt(at, localDayRange(q.date_to, zone).end) : undefined,
    );
  const hotWhere = and(parcelWhere, days(packageEvent.received_at));
  const coldWhere = and(eq(packageHistoryActor.actor_id, driverId), parcelWhere, days(packageHistoryActor.received_at));
  const hotCount =
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(last)
        .innerJoin(pkg, eq(pkg.id, last.package_id))
        .innerJoin(packageEvent, eq(packageEvent.id, last.last_id))
        .where(hotWhere)
        .get()
    )?.n ?? 0;
  const coldCount =
    (
      await db
        .select({ n: count() })
        .from(packageHistoryActor)
        .innerJoin(coldPkg, eq(coldPkg.id, packageHistoryActor.package_id))
        .where(coldWhere)
        .get()
    )?.n ?? 0;
  const top = q.page * q.page_size;
  const hot = () =>
    db
      .select({
        id: sql<number>`${pkg.id}`.as('pid'),
        ev: sql<number>`${packageEvent.id}`.as('ev'),
        action: sql<string>`${packageEvent.action}`.as('act'),
        at: sql<number>`${packageEvent.received_at}`.as('at'),
        cold: sql<number>`0`.as('cold'),
      })
      .from(last)
      .innerJoin(pkg, eq(pkg.id, last.package_id))
      .innerJoin(packageEvent, eq(packageEvent.id, last.last_id))
      .where(hotWhere)
      .orderBy(desc(packageEvent.id));
  const cold = db
    .select({
      id: sql<number>`${coldPkg.id}`.as('pid'),
      ev: sql<number>`${packageHistoryActor.event_id}`.as('ev'),
      action: sql<string>`${packageHistoryActor.action}`.as('act'),
      at: sql<number>`${packageHistoryActor.received_at}`.as('at'),
      cold: sql<number>`1`.as('cold'),
    })
    .from(packageHistoryActor)
    .innerJoin(coldPkg, eq(coldPkg.id, packageHistoryActor.package_id))
    .where(coldWhere)
    .orderBy(desc(packageHistoryActor.event_id))
    .limit(top);
  const rows = coldCount
    ? (
        await db.all<[number, number, string, number, number]>(sql`select "u"."pid", "u"."ev", "u"."act", "u"."at", "u"."cold"
        from (select * from (${hot().limit(top)}) as hot union all select * from (${cold}) as cold) as "u"
        order by "u"."ev" desc limit ${q.page_size} offset ${(q.page - 1) * q.page_size}`)
      ).map((r) => ({ id: Number(r[0]), action: String(r[2]), at: Number(r[3]), cold: Number(r[4]) === 1 }))
    : (
        await hot()
          .limit(q.page_size)
          .offset((q.page - 1) * q.page_size)
          .all()
      ).map((r) => ({ id: Number(r.id), action: r.action, at: Number(r.at), cold: false }));
  const byId = new Map(
    (
      await packagesByIds(
        db,
        rows.filter((r) => !r.cold).map((r) => r.id),
      )
    ).map((p) => [p.id, p]),
  );
  const frozen = await historyAnswers(
    db,
    rows.filter((r) => r.cold).map((r) => r.id),
  );
  const total = hotCount + coldCount;
  return {
    count: total,
    ...pageLinks(url, q.page, q.page_size, total),
    results: rows.flatMap((r) => {
      const text = r.cold ? frozen.get(r.id) : undefined;
      const p = r.cold ? (text !== undefined ? (JSON.parse(text) as Package) : undefined) : byId.get(r.id);
      return p ? [{ package: p, last_action: r.action, last_at: iso(r.at) ?? '' }] : [];
    }),
  };
}

/**
 * Drivers may open the story of parcels they hold or once moved; others as their scope allows.
 * A parcel moved to history (`row` not found hot) tells its story as before, to the same people.
 */
export async function historyVisible(db: Db, me: SessionUser, row: PackageRow | undefined, id: number): Promise<PackageRow> {
  row ??= await historyRow(db, id);
  if (!row || row.deleted_at != null) throw notFound(`Package ${id} not found`);
  if (canSeePackage(me, row)) return row;
  if (me.role === 'driver') {
    const acted = isCold(row)
      ? (await keptEvents(db, row.id)).some((e) => e.actor_id === me.id)
      : await db
          .select({ id: packageEvent.id })
          .from(packageEvent)
          .where(and(eq(packageEvent.package_id, row.id), eq(packageEvent.actor_id, me.id)))
          .limit(1)
          .get();
    if (acted) return row;
  }
  throw notFound(`Package ${id} not found`);
}

/** Every event, attempt and the proof of a parcel; a cold one from its kept rows, with the answer it had when it moved. */
export async function packageStory(db: Db, row: PackageRow) {
  const cold = isCold(row);
  const events = cold
    ? await keptEvents(db, row.id)
    : await db.select().from(packageEvent).where(eq(packageEvent.package_id, row.id)).orderBy(asc(packageEvent.id)).all();
  return {
    package: cold ? (JSON.parse((await frozenAnswer(db, row)).text) as Package) : ((await packagesByIds(db, [row.id]))[0] as Package),
    events: await shapeEvents(db, events),
    attempts: (cold
      ? await shapeAttempts(db, await keptAttemptRows(db, row.id))
      : await attemptsWhere(db, eq(deliveryAttempt.package_id, row.id))
    ).reverse(),
    proof: row.status === 'delivered' || row.delivered_at != null ? await proofOf(db, row) : null,
  };
}

/**
 * A driver's packages for one of their days: due that day, or given to them that day; `day` holds the
 * day's first instant and the next day's (local midnights: 23 to 25 hours apart).
 */
export async function packagesForDay(db: Db, driverId: number, date: string, day: { start: number; end: number }): Promise<Package[]> {
  const assignedThatDay = sql`exists (select 1 from package_event e where e.package_id = ${pkg.id} and e.to_status = 'assigned'
    and e.received_at >= ${day.start} and e.received_at < ${day.end})`;
  const rows = await db
    .select({ id: pkg.id })
    .from(pkg)
    .where(and(eq(pkg.assigned_to_id, driverId), isNull(pkg.deleted_at), or(eq(pkg.delivery_date, date), assignedThatDay)))
    .orderBy(...routeOrder())
    .limit(5000)
    .all();
  return packagesByIds(
    db,
    rows.map((r) => r.id),
  );
}

/** Pickups waiting for (or collected by) the driver. */
export async function pickupPackages(db: Db, driverId: number): Promise<Package[]> {
  const rows = await db
    .select({ id: pkg.id })
    .from(pkg)
    .where(and(eq(pkg.assigned_to_id, driverId), isNull(pkg.deleted_at), inArray(pkg.status, ['pickup_requested', 'picked_up'])))
    .orderBy(...routeOrder())
    .limit(5000)
    .all();
  return packagesByIds(
    db,
    rows.map((r) => r.id),
  );
}

/** Supervisor checks of a day (default today; local days of the business's zone), newest first; `supervisor` narrows to one. */
export async function checkScans(deps: Deps, q: z.output<typeof DayQuery>, url: string) {
  const { db } = deps;
  const { page, page_size: pageSize } = q;
  const zone = await businessZone(deps);
  const { start, end } = localDayRange(q.date ?? localDay(deps.clock.now(), zone), zone);
  const cond = and(
    eq(packageEvent.action, 'supervisor_check'),
    gte(packageEvent.received_at, start),
    lt(packageEvent.received_at, end),
    q.supervisor != null ? eq(packageEvent.actor_id, q.supervisor) : undefined,
  );
  const count =
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(packageEvent)
        .where(cond)
        .get()
    )?.n ?? 0;
  const events = await db
    .select()
    .from(packageEvent)
    .where(cond)
    .orderBy(desc(packageEvent.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .all();
  const pkgs = new Map((await packagesByIds(db, [...new Set(events.map((e) => e.package_id))])).map((p) => [p.id, p]));
  const shaped = await shapeEvents(db, events);
  return {
    count,
    ...pageLinks(url, page, pageSize, count),
    results: events.flatMap((e, i) => {
      const p = pkgs.get(e.package_id);
      const ev = shaped[i];
      return p && ev ? [{ event: ev, package: p }] : [];
    }),
  };
}
