import { and, eq, inArray, isNotNull, isNull, notInArray } from 'drizzle-orm';
import { timeOnDay } from '../../../shared/routing/eta';
import type { Deps } from '../../deps';
import { deliveryRoute, driverShift, user } from '../../db/schema/index';
import { LIVE_ROUTE } from '../routes/shape';
import type { PlanDriver } from './planTypes';
import { planDrivers } from './problem';

/**
 * Drivers on shift on `date` with nothing to drive (issue 32, "the day after the plan"): an active
 * driver whose shift names a van and a placed depot, with no live delivery route that day, and whose
 * shift has not ended. An insertion may open a route for them (amend.ts), from their depot at
 * max(shift start, now), priced at their van's rates; the commit creates it as a plan's commit does
 * (openRoute.ts). Read as the plan reads its drivers (problem.ts `planDrivers`).
 */
export async function idleDrivers(deps: Deps, date: string, only?: number[]): Promise<PlanDriver[]> {
  const busy = deps.db
    .select({ id: deliveryRoute.driver_id })
    .from(deliveryRoute)
    .where(
      and(
        eq(deliveryRoute.date, date),
        eq(deliveryRoute.kind, 'delivery'),
        inArray(deliveryRoute.status, [...LIVE_ROUTE]),
        isNotNull(deliveryRoute.driver_id),
      ),
    );
  const rows = await deps.db
    .select({ driver: driverShift.driver_id })
    .from(driverShift)
    .innerJoin(user, eq(user.id, driverShift.driver_id))
    .where(
      and(
        eq(driverShift.date, date),
        isNotNull(driverShift.vehicle_id),
        isNotNull(driverShift.start_warehouse_id),
        eq(user.role, 'driver'),
        eq(user.is_active, true),
        isNull(user.deleted_at),
        notInArray(driverShift.driver_id, busy),
        only ? inArray(driverShift.driver_id, only.length ? only : [-1]) : undefined,
      ),
    )
    .orderBy(driverShift.driver_id)
    .all();
  if (!rows.length) return [];
  const drivers = await planDrivers(
    deps,
    date,
    rows.map((r) => r.driver),
    null,
  );
  // A depot without a position gives no place to start from; a shift already over has no time left.
  return drivers.filter((d) => d.start != null && d.departAt < timeOnDay(date, d.shiftEnd, d.zone));
}
