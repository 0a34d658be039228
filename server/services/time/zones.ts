import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { DepotTimeZone } from '../../../shared/schemas/time';
import { DEFAULT_TIME_ZONE, isTimeZone, localDay } from '../../../shared/time/zone';
import type { Db } from '../../db/client';
import { businessProfile, depotTimeZone, warehouse } from '../../db/schema/index';
import { notFound } from '../../errors';

/**
 * Which zone a day, shift or message is local to (issue 31, docs/decisions-time.md): the depot's own
 * zone, else the business profile's, else the configured TIME_ZONE.
 */

export interface ZoneDeps {
  db: Db;
  config: { timeZone: string };
}

/** TIME_ZONE: unset = Australia/Sydney; an unknown name stops the server at start rather than counting days wrongly. */
export function parseTimeZone(value: string | undefined): string {
  if (value == null || value.trim() === '') return DEFAULT_TIME_ZONE;
  const name = value.trim();
  if (!isTimeZone(name)) throw new Error(`TIME_ZONE must be an IANA time zone name such as Australia/Sydney, not "${value}"`);
  return name;
}

/** The business's zone: its profile's, else the configured one. */
export async function businessZone({ db, config }: ZoneDeps): Promise<string> {
  const row = await db.select({ z: businessProfile.time_zone }).from(businessProfile).where(eq(businessProfile.id, 1)).get();
  return row?.z ?? config.timeZone;
}

/** The zone of each depot named (absent ids and null follow the business). */
export async function depotZones(
  deps: ZoneDeps,
  ids: readonly (number | null | undefined)[],
): Promise<{ of(id: number | null | undefined): string }> {
  const wanted = [...new Set(ids.filter((i): i is number => i != null))];
  const own = new Map(
    wanted.length
      ? (await deps.db.select().from(depotTimeZone).where(inArray(depotTimeZone.warehouse_id, wanted)).all()).map(
          (r) => [r.warehouse_id, r.time_zone] as const,
        )
      : [],
  );
  const fallback = await businessZone(deps);
  return { of: (id) => (id != null ? own.get(id) : undefined) ?? fallback };
}

/** The zone of one depot (null: the business's). */
export async function depotZone(deps: ZoneDeps, warehouseId: number | null | undefined): Promise<string> {
  return (await depotZones(deps, [warehouseId])).of(warehouseId);
}

/** Today's local day in the business's zone (or the depot's). */
export async function today(deps: ZoneDeps & { clock: { now(): number } }, warehouseId?: number | null): Promise<string> {
  return localDay(deps.clock.now(), await depotZone(deps, warehouseId));
}

/** The depot's own zone and the one in effect; 404 for a warehouse unknown or archived. */
export async function getDepotTimeZone(deps: ZoneDeps, warehouseId: number): Promise<z.infer<typeof DepotTimeZone>> {
  const w = await deps.db
    .select({ id: warehouse.id })
    .from(warehouse)
    .where(and(eq(warehouse.id, warehouseId), isNull(warehouse.deleted_at)))
    .get();
  if (!w) throw notFound(`Warehouse ${warehouseId} not found`);
  const own = await deps.db.select().from(depotTimeZone).where(eq(depotTimeZone.warehouse_id, warehouseId)).get();
  return { warehouse: warehouseId, time_zone: own?.time_zone ?? null, effective_time_zone: own?.time_zone ?? (await businessZone(deps)) };
}

/** Sets (or with null, clears) a depot's own zone. */
export async function setDepotTimeZone(
  deps: ZoneDeps,
  now: number,
  warehouseId: number,
  zone: string | null,
): Promise<z.infer<typeof DepotTimeZone>> {
  await getDepotTimeZone(deps, warehouseId);
  if (zone == null) await deps.db.delete(depotTimeZone).where(eq(depotTimeZone.warehouse_id, warehouseId)).run();
  else {
    await deps.db
      .insert(depotTimeZone)
      .values({ warehouse_id: warehouseId, time_zone: zone, updated_at: now })
      .onConflictDoUpdate({ target: depotTimeZone.warehouse_id, set: { time_zone: zone, updated_at: now } })
      .run();
  }
  return getDepotTimeZone(deps, warehouseId);
}
