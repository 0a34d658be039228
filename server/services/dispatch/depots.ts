import { and, asc, eq, isNull } from 'drizzle-orm';
import type { DepotPosition } from '../../../shared/schemas/dispatch';
import type { Db } from '../../db/client';
import { depotPosition, warehouse } from '../../db/schema/index';
import { notFound } from '../../errors';

export async function depotPositions(db: Db): Promise<DepotPosition[]> {
  return (
    await db
      .select({
        id: warehouse.id,
        name: warehouse.name,
        street: warehouse.street_address,
        lat: depotPosition.latitude,
        lng: depotPosition.longitude,
      })
      .from(warehouse)
      .leftJoin(depotPosition, eq(depotPosition.warehouse_id, warehouse.id))
      .where(isNull(warehouse.deleted_at))
      .orderBy(asc(warehouse.name))
      .all()
  ).map((r) => ({ warehouse: r.id, name: r.name || r.street, latitude: r.lat ?? null, longitude: r.lng ?? null }));
}

/** Sets where a depot is (vans leave from and return to it); 404 for a warehouse unknown or archived. */
export async function setDepotPosition(
  db: Db,
  now: number,
  warehouseId: number,
  p: { latitude: number; longitude: number },
): Promise<DepotPosition> {
  const w = await db
    .select({ id: warehouse.id })
    .from(warehouse)
    .where(and(eq(warehouse.id, warehouseId), isNull(warehouse.deleted_at)))
    .get();
  if (!w) throw notFound(`Warehouse ${warehouseId} not found`);
  await db
    .insert(depotPosition)
    .values({ warehouse_id: warehouseId, ...p, updated_at: now })
    .onConflictDoUpdate({ target: depotPosition.warehouse_id, set: { ...p, updated_at: now } })
    .run();
  return (await depotPositions(db)).find((d) => d.warehouse === warehouseId) as DepotPosition;
}
