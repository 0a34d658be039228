import { eq, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { isStaff } from '../../../shared/roles';
import type { DriverRateCreate } from '../../../shared/schemas/money';
import { user } from '../../db/schema/index';
import { badRequest } from '../../errors';
import type { ResourceContext, Row } from '../../resources/crud';
import type { SessionUser } from '../auth/session';
import { businessZone } from '../time/zones';
import { startOfLocalDay } from '../../../shared/time/zone';

/** What drivers are paid is the courier's business, not its customers'. */
export function driverRateScope(u: SessionUser): SQL | undefined {
  return isStaff(u.role) ? undefined : sql`0 = 1`;
}

/** `2026-02-01` is that day's start in the business's zone (issue 31: a driver's day is Sydney's); a datetime is taken as given. */
const toMs = (v: string | null | undefined, zone: string) => (v == null ? v : v.length === 10 ? startOfLocalDay(v, zone) : Date.parse(v));

/** API input -> columns; a new rate without a start applies from now. */
export async function driverRateRow(input: Partial<z.output<typeof DriverRateCreate>>, { deps, existing }: ResourceContext): Promise<Row> {
  const local = await businessZone(deps);
  const { driver, zone, package_type, effective_from, effective_to, ...rest } = input;
  const row: Row = { ...rest };
  if (driver !== undefined) row.driver_id = driver;
  if (zone !== undefined) row.zone_id = zone;
  if (package_type !== undefined) row.package_type_id = package_type;
  if (effective_from !== undefined) row.effective_from = toMs(effective_from, local);
  else if (!existing) row.effective_from = deps.clock.now();
  if (effective_to !== undefined) row.effective_to = toMs(effective_to, local);
  return row;
}

/** A rate's period is not empty and it pays a driver. */
export async function validateDriverRate(values: Row, { deps }: ResourceContext): Promise<void> {
  if (values.effective_to != null && Number(values.effective_to) <= Number(values.effective_from)) {
    throw badRequest('effective_to must be after effective_from', [{ path: 'effective_to', message: 'must be after effective_from' }]);
  }
  if (values.driver_id != null) {
    const d = await deps.db
      .select({ role: user.role })
      .from(user)
      .where(eq(user.id, Number(values.driver_id)))
      .get();
    if (d?.role !== 'driver')
      throw badRequest(`User ${String(values.driver_id)} is not a driver`, [{ path: 'driver', message: 'not a driver' }]);
  }
}
