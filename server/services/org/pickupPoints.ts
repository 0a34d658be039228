import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { pickupPoint } from '../../db/schema/index';
import { notFound } from '../../errors';
import type { SessionUser } from '../auth/session';

/** A company manages its own pickup points; staff manage all. */
export function pickupPointScope(user: SessionUser): SQL | undefined {
  return user.role === 'company' ? eq(pickupPoint.company_id, user.companyId ?? -1) : undefined;
}

/** A live pickup point the caller may see; archived or outside scope is 404. */
export async function findPickupPoint(db: Db, user: SessionUser, id: number): Promise<{ id: number }> {
  const point = await db.select({ id: pickupPoint.id }).from(pickupPoint)
    .where(and(eq(pickupPoint.id, id), isNull(pickupPoint.deleted_at), pickupPointScope(user))).get();
  if (!point) throw notFound(`Pickup point ${id} not found`);
  return point;
}
