import { and, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { pkg } from '../../db/schema/index';
import { rawArray, rawObject, type RawJson } from '../../http/rawJson';
import { listConditions, orderBy, pageLinks, type ListSpec } from '../../resources/list';
import { FINAL_STATUSES } from '../../../shared/lifecycle';
import type { PackageListQuery } from '../../../shared/schemas/package';
import type { SessionUser } from '../auth/session';
import { countHistory, newestInHistory, unionPage } from '../history/read';
import { packageJsonWhere } from './json';
import { answersFor } from '../geo/senderView';
import { packageScope } from './scope';
import { addDays, startOfLocalDay } from '../../../shared/time/zone';
import { businessZone } from '../time/zones';

export const PACKAGE_LIST: ListSpec = {
  search: ['hawb', 'customer_name', 'customer_phone', 'customer_address', 'customer_code'],
  ordering: ['created_at', 'hawb', 'status', 'sequence_no', 'customer_name', 'updated_at', 'delivery_date'],
  filters: {
    status: 'status',
    company: 'company_id',
    zone: 'zone_id',
    driver: 'assigned_to_id',
    route: 'route_id',
    is_scanned: 'is_scanned',
  },
};

/**
 * A list query with the zone its days are local to (issue 31): `created_from`/`created_to` are the
 * business's local days, a day across a daylight-saving change 23 or 25 hours long. Resolved by the
 * route (`withZone`), so these filters stay plain and synchronous.
 */
export type ZonedListQuery = PackageListQuery & { localZone: string };
export async function withZone<Q extends PackageListQuery>(
  deps: Parameters<typeof businessZone>[0],
  q: Q,
): Promise<Q & { localZone: string }> {
  return { ...q, localZone: await businessZone(deps) };
}
const dayStart = (d: string, zone: string) => startOfLocalDay(d, zone);

/** The list filters within what the caller may see, on columns hot and cold parcels share. */
function listFilter(user: SessionUser, q: ZonedListQuery, more: (SQL | undefined)[]): SQL | undefined {
  return and(
    packageScope(user),
    ...listConditions(pkg, PACKAGE_LIST, {
      search: q.search,
      status: q.status,
      company: q.company,
      zone: q.zone,
      driver: q.driver,
      route: q.route,
      is_scanned: q.is_scanned,
    }),
    q.created_from ? sql`${pkg.created_at} >= ${dayStart(q.created_from, q.localZone)}` : undefined,
    q.created_to ? sql`${pkg.created_at} < ${dayStart(addDays(q.created_to, 1), q.localZone)}` : undefined,
    ...more,
  );
}

/** The list filters of DESIGN.md section 3 within what the caller may see; shared by the list, archive list, CSV and driver views. */
export function packageListWhere(user: SessionUser, q: ZonedListQuery, archived = false, ...more: (SQL | undefined)[]): SQL | undefined {
  return and(archived ? isNotNull(pkg.deleted_at) : isNull(pkg.deleted_at), listFilter(user, q, more));
}

/** The cold side of a list: its filter, or null when no parcel in history can match it. */
export type HistorySide = { where: SQL | undefined } | null;

/**
 * Whether parcels in history can match the list's query. Only final parcels move, so a status
 * filter naming none of them cannot; and none created after the newest cold parcel can (read
 * from its index, only when the query has a start date: HISTORY_AFTER_DAYS may have been
 * shorter when older parcels moved, so the setting alone is no safe bound).
 */
export async function historyCanMatch(db: Db, q: ZonedListQuery): Promise<boolean> {
  const statuses =
    q.status
      ?.split(',')
      .slice(0, 100)
      .map((s) => s.trim()) ?? [];
  if (statuses.some(Boolean) && !statuses.some((s) => (FINAL_STATUSES as readonly string[]).includes(s))) return false;
  if (q.created_from) {
    const newest = await newestInHistory(db);
    if (newest == null || newest < dayStart(q.created_from, q.localZone)) return false;
  }
  return true;
}

/**
 * The live list (not archived) over hot parcels and, when the query can reach them, those in
 * history. Cold parcels are never archived (archived ones never move), so their side leaves the
 * archive flag out: that lets the count use a narrow index instead of reading every cold row.
 */
export async function packageList(
  db: Db,
  user: SessionUser,
  q: ZonedListQuery,
  url: string,
  ...more: (SQL | undefined)[]
): Promise<RawJson> {
  const history = (await historyCanMatch(db, q)) ? { where: listFilter(user, q, more) } : null;
  return packagePage(db, user, packageListWhere(user, q, false, ...more), q, url, history);
}

/** The parcels assigned to one driver: a driver's own list. */
export const assignedTo = (driverId: number): SQL => eq(pkg.assigned_to_id, driverId);

/** A PackageListAnswer whose results the database serialised (packages/json.ts); hot parcels only unless `history` is given. */
export async function packagePage(
  db: Db,
  viewer: Pick<SessionUser, 'role'>,
  where: SQL | undefined,
  q: PackageListQuery,
  url: string,
  history: HistorySide = null,
): Promise<RawJson> {
  const hot =
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(pkg)
        .where(where)
        .get()
    )?.n ?? 0;
  const cold = history ? await countHistory(db, history.where) : 0;
  const order = orderBy(pkg, PACKAGE_LIST, q.ordering);
  const page = { limit: q.page_size, offset: (q.page - 1) * q.page_size };
  // Only when some cold parcel matches is the union read.
  const results = await answersFor(
    db,
    viewer,
    history && cold
      ? await unionPage(db, where, history.where, order, page.limit, page.offset)
      : await packageJsonWhere(db, where, { orderBy: order, ...page }),
  );
  const count = hot + cold;
  return rawObject({ count, ...pageLinks(url, q.page, q.page_size, count), results: rawArray(results) });
}
