import { and, asc, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { changedRows, type Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import type { Deps } from '../../deps';
import { driverPosition, user } from '../../db/schema/index';
import { iso } from '../../clock';
import { badRequest } from '../../errors';
import type { PositionBatchBody } from '../../../shared/schemas/routes';

export type PositionRow = typeof driverPosition.$inferSelect;
/** A trail answer holds at most this many points (a phone reporting every 10 s for ~28 hours). */
export const TRAIL_LIMIT = 10_000;
const MAX_TRAIL_SPAN_MS = 31 * 86_400_000;
/** A phone clock ahead of the server cannot place readings in the future. */
const CLOCK_SKEW_MS = 5 * 60_000;

export const shapePosition = (p: PositionRow) => ({
  latitude: p.latitude,
  longitude: p.longitude,
  accuracy: p.accuracy,
  occurred_at: iso(p.occurred_at) ?? '',
  received_at: iso(p.received_at) ?? '',
});

// Every phone reports its position every few seconds: built once per database.
const positionInsert = (db: Db) =>
  db
    .insert(driverPosition)
    .values({
      driver_id: sql.placeholder('driver_id'),
      latitude: sql.placeholder('latitude'),
      longitude: sql.placeholder('longitude'),
      accuracy: sql.placeholder('accuracy'),
      occurred_at: sql.placeholder('occurred_at'),
      received_at: sql.placeholder('received_at'),
      device_id: sql.placeholder('device_id'),
    })
    .onConflictDoNothing()
    .prepare();
const newestOfDriver = (db: Db) =>
  db
    .select()
    .from(driverPosition)
    .where(eq(driverPosition.driver_id, sql.placeholder('driver')))
    .orderBy(desc(driverPosition.occurred_at))
    .limit(1)
    .prepare();

/** Stores a batch; a reading already stored (same driver and device instant) is counted, not repeated. */
export async function recordPositions(deps: Deps, driverId: number, body: z.output<typeof PositionBatchBody>, deviceId: string | null) {
  const now = deps.clock.now();
  const rows = body.positions.map((p) => ({
    driver_id: driverId,
    latitude: p.latitude,
    longitude: p.longitude,
    accuracy: p.accuracy ?? null,
    occurred_at: Math.min(Date.parse(p.occurred_at), now + CLOCK_SKEW_MS),
    received_at: now,
    device_id: deviceId,
  }));
  const insert = prepared(deps.db, 'positions.insert', positionInsert);
  let stored = 0;
  for (const row of rows) stored += changedRows(await insert.run(row));
  return { stored, duplicates: rows.length - stored };
}

/** Each driver's newest reading (by device time). */
export function latestPositions(db: Db, driverIds?: number[]) {
  const newest = db
    .select({ driver_id: driverPosition.driver_id, at: sql<number>`max(${driverPosition.occurred_at})`.as('at') })
    .from(driverPosition)
    .where(driverIds ? inArray(driverPosition.driver_id, driverIds) : undefined)
    .groupBy(driverPosition.driver_id)
    .as('newest');
  return db
    .select({ p: driverPosition, name: user.name })
    .from(driverPosition)
    .innerJoin(newest, and(eq(newest.driver_id, driverPosition.driver_id), eq(newest.at, driverPosition.occurred_at)))
    .innerJoin(user, eq(user.id, driverPosition.driver_id))
    .orderBy(asc(user.name), asc(driverPosition.driver_id))
    .all();
}

/** A driver's readings in [from, to], oldest first; default the last 24 hours. */
export async function trail(db: Db, driverId: number, now: number, fromIso?: string, toIso?: string) {
  const to = toIso ? Date.parse(toIso) : now;
  const from = fromIso ? Date.parse(fromIso) : to - 86_400_000;
  if (from > to) throw badRequest('"from" is after "to"', [{ path: 'from', message: 'after to' }]);
  if (to - from > MAX_TRAIL_SPAN_MS)
    throw badRequest('Ask for at most 31 days at a time', [{ path: 'from', message: 'period longer than 31 days' }]);
  const rows = await db
    .select()
    .from(driverPosition)
    .where(and(eq(driverPosition.driver_id, driverId), gte(driverPosition.occurred_at, from), lte(driverPosition.occurred_at, to)))
    .orderBy(asc(driverPosition.occurred_at))
    .limit(TRAIL_LIMIT + 1)
    .all();
  return { from, to, truncated: rows.length > TRAIL_LIMIT, rows: rows.slice(0, TRAIL_LIMIT) };
}

export async function lastPositionOf(db: Db, driverId: number): Promise<PositionRow | undefined> {
  return await prepared(db, 'positions.newestOfDriver', newestOfDriver).get({ driver: driverId });
}
