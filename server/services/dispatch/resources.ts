import { and, eq, isNull } from 'drizzle-orm';
import { iso } from '../../clock';
import type { Db } from '../../db/client';
import { driverShift, user, vehicle, warehouse } from '../../db/schema/index';
import { badRequest, conflict } from '../../errors';
import type { ResourceContext, Row } from '../../resources/crud';
import type { SessionUser } from '../auth/session';
import { skillsOf } from './skills';

/** A vehicle's skills are stored as JSON text. */
export const vehicleToRow = (input: Row): Row => (Array.isArray(input.skills) ? { ...input, skills: JSON.stringify(input.skills) } : input);

/** Vehicles and driver shifts (issue 16): shapes and the checks that need the database. */
export function toVehicle(r: Row) {
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    registration: r.registration,
    capacity_kg: r.capacity_kg ?? null,
    capacity_m3: r.capacity_m3 ?? null,
    capacity_parcels: r.capacity_parcels ?? null,
    skills: skillsOf(r.skills as string | null),
    cost_per_km: r.cost_per_km ?? null,
    cost_per_hour: r.cost_per_hour ?? null,
    cost_fixed: r.cost_fixed ?? null,
    is_active: r.is_active,
    created_at: iso(r.created_at as number),
    updated_at: iso(r.updated_at as number),
  };
}

export async function toShift(r: Row, db: Db) {
  const driver = await db
    .select({ name: user.name })
    .from(user)
    .where(eq(user.id, r.driver_id as number))
    .get();
  const van =
    r.vehicle_id != null
      ? await db
          .select({ name: vehicle.name })
          .from(vehicle)
          .where(eq(vehicle.id, r.vehicle_id as number))
          .get()
      : undefined;
  return {
    id: r.id,
    driver: r.driver_id,
    driver_name: driver?.name ?? '',
    date: r.date,
    start_time: r.start_time,
    end_time: r.end_time,
    start_warehouse: r.start_warehouse_id ?? null,
    end_warehouse: r.end_warehouse_id ?? null,
    vehicle: r.vehicle_id ?? null,
    vehicle_name: van?.name ?? null,
    break_minutes: r.break_minutes ?? null,
    break_after_min: r.break_after_min ?? null,
    break_after_max: r.break_after_max ?? null,
    created_at: iso(r.created_at as number),
    updated_at: iso(r.updated_at as number),
  };
}

export const shiftToRow = (input: Row): Row => {
  const map: Record<string, string> = {
    driver: 'driver_id',
    start_warehouse: 'start_warehouse_id',
    end_warehouse: 'end_warehouse_id',
    vehicle: 'vehicle_id',
  };
  return Object.fromEntries(Object.entries(input).map(([k, v]) => [map[k] ?? k, v]));
};

/** A shift belongs to an active driver, ends after it starts, names live depots and vehicle, and is the driver's only one that day. */
export async function shiftRule(v: Row, { deps: { db }, existing }: ResourceContext): Promise<void> {
  const driver = await db
    .select()
    .from(user)
    .where(and(eq(user.id, v.driver_id as number), isNull(user.deleted_at)))
    .get();
  if (!driver || driver.role !== 'driver')
    throw badRequest(`Employee ${String(v.driver_id)} is not a driver`, [{ path: 'driver', message: 'not a driver' }]);
  if ((v.end_time as string) <= (v.start_time as string))
    throw badRequest('A shift ends after it starts', [{ path: 'end_time', message: 'must be later than start_time' }]);
  breakRule(v);
  for (const [key, path] of [
    ['start_warehouse_id', 'start_warehouse'],
    ['end_warehouse_id', 'end_warehouse'],
  ] as const) {
    const id = v[key] as number | null | undefined;
    if (id == null) continue;
    const w = await db.select({ deleted: warehouse.deleted_at }).from(warehouse).where(eq(warehouse.id, id)).get();
    if (!w || w.deleted != null) throw badRequest(`Depot ${id} does not exist`, [{ path, message: 'unknown depot' }]);
  }
  if (v.vehicle_id != null) {
    const van = await db
      .select({ deleted: vehicle.deleted_at, active: vehicle.is_active })
      .from(vehicle)
      .where(eq(vehicle.id, v.vehicle_id as number))
      .get();
    if (!van || van.deleted != null)
      throw badRequest(`Vehicle ${String(v.vehicle_id)} does not exist`, [{ path: 'vehicle', message: 'unknown vehicle' }]);
    const twice = (
      await db
        .select({ id: driverShift.id })
        .from(driverShift)
        .where(and(eq(driverShift.vehicle_id, v.vehicle_id as number), eq(driverShift.date, v.date as string)))
        .all()
    ).filter((s) => s.id !== existing?.id);
    if (twice.length) throw conflict(`Vehicle ${String(v.vehicle_id)} is already on another shift that day`, { shift: twice[0].id });
  }
  const same = await db
    .select({ id: driverShift.id })
    .from(driverShift)
    .where(and(eq(driverShift.driver_id, v.driver_id as number), eq(driverShift.date, v.date as string)))
    .get();
  if (same && same.id !== existing?.id) throw conflict(`${driver.name} already has a shift on ${String(v.date)}`, { shift: same.id });
}

/** A driver sees only their own shifts; staff every driver's. */
export function shiftScope(me: SessionUser) {
  return me.role === 'driver' ? eq(driverShift.driver_id, me.id) : undefined;
}

/** A shift's own break names its length and both ends of its window, the earliest first; or none of them. */
function breakRule(v: Row): void {
  const parts = ['break_minutes', 'break_after_min', 'break_after_max'] as const;
  const given = parts.filter((k) => v[k] != null);
  if (given.length && given.length < parts.length) {
    const missing = parts.find((k) => v[k] == null) as string;
    throw badRequest('A break needs its length and the earliest and latest start', [
      { path: missing, message: 'required with the other break fields' },
    ]);
  }
  if (given.length && (v.break_after_min as number) > (v.break_after_max as number))
    throw badRequest('The break window ends before it starts', [
      { path: 'break_after_max', message: 'must not be less than break_after_min' },
    ]);
}
