import { and, eq, gte, inArray, lte, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { ROUTE_KINDS, ROUTE_STATUSES, type RouteListQuery } from '../../../shared/schemas/routes';
import type { Db } from '../../db/client';
import { deliveryRoute } from '../../db/schema/index';
import { badRequest } from '../../errors';
import { containsText, listPage, orderBy } from '../../resources/list';
import type { SessionUser } from '../auth/session';
import { routeRecords, routeScope, type RouteRow } from './shape';

type RouteFilter = z.output<typeof RouteListQuery>;
/** A CSV download stops here: one request must not render an unbounded file. */
const CSV_MAX_ROUTES = 2000;
const ORDERING = { ordering: ['date', 'name', 'status', 'created_at', 'updated_at'], defaultOrdering: '-date' };

function oneOf<T extends string>(raw: string | undefined, allowed: readonly T[], path: string): T[] {
  if (!raw) return [];
  const values = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = values.filter((v) => !(allowed as readonly string[]).includes(v));
  if (bad.length)
    throw badRequest(`Unknown ${path}: ${bad.join(', ')}; allowed: ${allowed.join(', ')}`, [{ path, message: `unknown ${path}` }]);
  return values as T[];
}

/** The route list's conditions, shared by the list and the CSV download. */
function routeWhere(me: SessionUser, q: RouteFilter): SQL | undefined {
  const statuses = oneOf(q.status, ROUTE_STATUSES, 'status');
  const kinds = oneOf(q.kind, ROUTE_KINDS, 'kind');
  const term = q.search?.trim();
  return and(
    routeScope(me),
    statuses.length ? inArray(deliveryRoute.status, statuses) : undefined,
    kinds.length ? inArray(deliveryRoute.kind, kinds) : undefined,
    q.driver != null ? eq(deliveryRoute.driver_id, q.driver) : undefined,
    q.date ? eq(deliveryRoute.date, q.date) : undefined,
    q.date_from ? gte(deliveryRoute.date, q.date_from) : undefined,
    q.date_to ? lte(deliveryRoute.date, q.date_to) : undefined,
    term ? containsText(deliveryRoute.name, term) : undefined,
  );
}

/** One page of the routes the caller may see (a driver: their own), newest day first by default. */
export function routePage(db: Db, me: SessionUser, q: RouteFilter, url: string) {
  return listPage(db, deliveryRoute, routeWhere(me, q), orderBy(deliveryRoute, ORDERING, q.ordering), q, url, (rows) =>
    routeRecords(db, rows),
  );
}

/** The routes a CSV download holds: the list's filters and order, at most CSV_MAX_ROUTES. */
export async function routesForCsv(db: Db, me: SessionUser, q: RouteFilter): Promise<RouteRow[]> {
  return await db
    .select()
    .from(deliveryRoute)
    .where(routeWhere(me, q))
    .orderBy(...orderBy(deliveryRoute, ORDERING, q.ordering))
    .limit(CSV_MAX_ROUTES)
    .all();
}
