import { and, eq, isNull, notInArray } from 'drizzle-orm';
import { FINAL_STATUSES } from '../../../shared/lifecycle';
import type { Package } from '../../../shared/schemas/package';
import type { Db } from '../../db/client';
import { deliveryRoute, pkg, user } from '../../db/schema/index';
import { notFound } from '../../errors';
import type { SessionUser } from '../auth/session';
import { findPackage } from '../packages/lifecycle';
import { visiblePackage } from '../packages/scope';
import { packagesByIds, routeOrder } from '../packages/shape';

/** Parcels to label, in the order asked; any id outside the caller's scope answers 404 (as for one parcel). */
export async function parcelsToLabel(db: Db, caller: SessionUser, ids: readonly number[]): Promise<Package[]> {
  for (const id of ids) visiblePackage(caller, await findPackage(db, id), id);
  const byId = new Map((await packagesByIds(db, ids)).map((p) => [p.id, p]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id) as Package] : []));
}

/** A driver's open parcels, or a route's parcels, in delivery order, with the title of the manifest. */
export async function manifestParcels(
  db: Db,
  q: { driver?: number; route?: number },
): Promise<{ title: string; driver: string | null; date: string | null; parcels: Package[] }> {
  if (q.route != null) {
    const r = await db.select().from(deliveryRoute).where(eq(deliveryRoute.id, q.route)).get();
    if (!r) throw notFound(`Route ${q.route} not found`);
    const driver =
      r.driver_id != null ? ((await db.select({ name: user.name }).from(user).where(eq(user.id, r.driver_id)).get())?.name ?? null) : null;
    const ids = (
      await db
        .select({ id: pkg.id })
        .from(pkg)
        .where(and(eq(pkg.route_id, r.id), isNull(pkg.deleted_at)))
        .orderBy(...routeOrder())
        .all()
    ).map((x) => x.id);
    return { title: `Route manifest: ${r.name}`, driver, date: r.date, parcels: await orderOf(db, ids) };
  }
  const d = await db
    .select()
    .from(user)
    .where(and(eq(user.id, q.driver ?? 0), eq(user.role, 'driver')))
    .get();
  if (!d) throw notFound(`Driver ${q.driver} not found`);
  const ids = (
    await db
      .select({ id: pkg.id })
      .from(pkg)
      .where(and(eq(pkg.assigned_to_id, d.id), isNull(pkg.deleted_at), notInArray(pkg.status, [...FINAL_STATUSES])))
      .orderBy(...routeOrder())
      .all()
  ).map((x) => x.id);
  return { title: `Driver manifest: ${d.name}`, driver: d.name, date: null, parcels: await orderOf(db, ids) };
}

async function orderOf(db: Db, ids: number[]): Promise<Package[]> {
  const byId = new Map((await packagesByIds(db, ids)).map((p) => [p.id, p]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id) as Package] : []));
}
