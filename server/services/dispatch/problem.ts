import { and, eq, gt, inArray, isNotNull, isNull, lte, min, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { LatLng } from '../../../shared/routing/haversine';
import { DEFAULT_TRAVEL, timeOnDay, type TravelModel } from '../../../shared/routing/eta';
import type { PlanRequest, UnassignedReason } from '../../../shared/schemas/dispatch';
import type { Deps } from '../../deps';
import type { Db } from '../../db/client';
import { deliveryRoute, depotPosition, driverShift, pkg, vehicle, zone } from '../../db/schema/index';
import { ApiError, badRequest } from '../../errors';
import { activeDriver } from '../packages/assign';
import type { PackageRow } from '../packages/shape';
import { LIVE_ROUTE } from '../routes/shape';
import type { DayProblem } from './solveDay';
import { startOfLocalDay } from '../../../shared/time/zone';
import { windowsOf, type WindowInfo } from './windows';
import { depotZones } from '../time/zones';
import { applyPlanRules } from './rules';
import { effectiveRules, planSettings } from './settings';
import { driverSkillsOf, skillsOf } from './skills';
import type { PlanDriver, PlanParcel } from './planTypes';
import { pickupOrigins, pickupPool, unpairable } from './pickupPairs';

/** Parcels a plan may take: not yet out, on no planned or running route (as `optimize-route-packages`). */
const PLANNABLE = ['created', 'received', 'assigned'] as const;
export const DEFAULT_SHIFT = { start: '08:00', end: '17:00' } as const;
/** Stands for "no limit" on a capacity dimension. */
const UNLIMITED = 1e12;

export interface PlanContext {
  date: string;
  /** The optimiser's time origin: the earliest local midnight of the plan's day among the zones involved. */
  dayStart: number;
  drivers: PlanDriver[];
  /** Jobs of the fleet problem, by job id (= index in this list); a paired pickup is two jobs, its pickup then its delivery. */
  parcels: PlanParcel[];
  /** Pickup-and-delivery pairs among the jobs (issue 32), by job id. */
  pairs: { pickup: number; delivery: number }[];
  /** Locations: vehicles' starts and ends first, then one per job. */
  points: LatLng[];
  jobLocation: number[];
  locks: Map<number, number>;
  fixed: { driver: PlanDriver; parcels: PlanParcel[] }[];
  preUnassigned: { parcel: PlanParcel; reason: UnassignedReason; message: string }[];
  model: TravelModel;
}

export const volumeOf = (p: PackageRow) =>
  p.length != null && p.width != null && p.height != null ? (p.length * p.width * p.height) / 1e6 : 0;
const located = (p: PackageRow) => p.latitude != null && p.longitude != null;

async function depots(db: Db, ids: number[]): Promise<Map<number, LatLng>> {
  if (!ids.length) return new Map();
  return new Map(
    (await db.select().from(depotPosition).where(inArray(depotPosition.warehouse_id, ids)).all()).map((r) => [
      r.warehouse_id,
      { latitude: r.latitude, longitude: r.longitude },
    ]),
  );
}

/** The drivers of a day as a plan sees them (shift, depot, van, skills, rates, break); also the insertion's idle drivers (idleDrivers.ts). */
export async function planDrivers(deps: Deps, date: string, ids: number[], fallback: LatLng | null): Promise<PlanDriver[]> {
  const now = deps.clock.now();
  const unique = [...new Set(ids)];
  if (unique.length !== ids.length) throw badRequest('A driver is named twice', [{ path: 'drivers', message: 'duplicate ids' }]);
  const drivers: Awaited<ReturnType<typeof activeDriver>>[] = [];
  for (const id of unique) drivers.push(await activeDriver(deps, id));
  const shifts = new Map(
    (
      await deps.db
        .select()
        .from(driverShift)
        .where(and(eq(driverShift.date, date), inArray(driverShift.driver_id, unique)))
        .all()
    ).map((s) => [s.driver_id, s]),
  );
  const vehicleIds = [...shifts.values()].map((s) => s.vehicle_id).filter((v): v is number => v != null);
  const vans = new Map(
    vehicleIds.length ? (await deps.db.select().from(vehicle).where(inArray(vehicle.id, vehicleIds)).all()).map((v) => [v.id, v]) : [],
  );
  const houses = await depots(
    deps.db,
    [...shifts.values()].flatMap((s) => [s.start_warehouse_id, s.end_warehouse_id]).filter((v): v is number => v != null),
  );
  const zones = await depotZones(
    deps,
    [...shifts.values()].map((s) => s.start_warehouse_id),
  );
  const skillsOfDriver = await driverSkillsOf(deps.db, unique);
  const startedAt = await departures(deps.db, date, unique);
  return drivers.map((d) => {
    const s = shifts.get(d.id);
    const van = s?.vehicle_id != null ? vans.get(s.vehicle_id) : undefined;
    const start = (s?.start_warehouse_id != null ? houses.get(s.start_warehouse_id) : undefined) ?? fallback;
    const end =
      (s?.end_warehouse_id != null ? houses.get(s.end_warehouse_id) : undefined) ??
      (s?.end_warehouse_id == null && s?.start_warehouse_id != null ? start : null);
    const shiftStart = s?.start_time ?? DEFAULT_SHIFT.start;
    const shiftEnd = s?.end_time ?? DEFAULT_SHIFT.end;
    const zone = zones.of(s?.start_warehouse_id);
    return {
      id: d.id,
      name: d.name,
      vehicleId: van?.id ?? null,
      vehicleName: van?.name ?? null,
      shiftStart,
      shiftEnd,
      departAt: Math.min(Math.max(timeOnDay(date, shiftStart, zone), now), timeOnDay(date, shiftEnd, zone)),
      start,
      end,
      startWarehouse: s?.start_warehouse_id ?? null,
      zone,
      capacity: { kg: van?.capacity_kg ?? null, m3: van?.capacity_m3 ?? null, parcels: van?.capacity_parcels ?? null },
      skills: [...new Set([...(skillsOfDriver.get(d.id) ?? []), ...skillsOf(van?.skills)])],
      rates: { per_km: van?.cost_per_km ?? null, per_hour: van?.cost_per_hour ?? null, fixed: van?.cost_fixed ?? null },
      break:
        s?.break_minutes != null && s.break_after_min != null && s.break_after_max != null
          ? { minutes: s.break_minutes, after_min: s.break_after_min, after_max: s.break_after_max }
          : null,
      startedAt: startedAt.get(d.id) ?? null,
    };
  });
}

/** When each driver's first route of the day really left (its `started_at`): their break counts from it (rules.ts). */
async function departures(db: Db, date: string, drivers: number[]): Promise<Map<number, number>> {
  if (!drivers.length) return new Map();
  const rows = await db
    .select({ driver: deliveryRoute.driver_id, at: min(deliveryRoute.started_at) })
    .from(deliveryRoute)
    .where(and(eq(deliveryRoute.date, date), inArray(deliveryRoute.driver_id, drivers), isNotNull(deliveryRoute.started_at)))
    .groupBy(deliveryRoute.driver_id)
    .all();
  return new Map(rows.filter((r) => r.driver != null && r.at != null).map((r) => [r.driver as number, Number(r.at)]));
}

/** Zones to plan: those named plus those of the depots named; none named = every zone. */
export async function zonesOf(db: Db, req: PlanRequest): Promise<number[] | null> {
  if (!req.zones.length && !req.warehouses.length) return null;
  const fromDepots = req.warehouses.length
    ? (await db.select({ id: zone.id }).from(zone).where(inArray(zone.warehouse_id, req.warehouses)).all()).map((z) => z.id)
    : [];
  return [...new Set([...req.zones, ...fromDepots])];
}

/**
 * The parcels due on `date` (issue 32): `delivery_date` is a calendar day on the wall clock of the
 * parcel's depot (docs/decisions-time.md), as the plan's date is, so the two compare as text.
 * Overdue ones (an earlier day, still not out) are due too; undated ones only when asked for.
 * A parcel the dispatcher locked is planned whatever its date.
 */
export function dueBy(date: string, includeUndated: boolean, locked: number[] = []): SQL {
  const due = includeUndated ? or(isNull(pkg.delivery_date), lte(pkg.delivery_date, date)) : lte(pkg.delivery_date, date);
  return (locked.length ? or(due, inArray(pkg.id, locked)) : due) as SQL;
}

/** The most parcels one plan takes. */
const POOL_MAX = 5000;
/** Rows read per turn of the event loop: a page costs a few milliseconds, the whole pool tens. */
const POOL_PAGE = 250;

/** Lets the event loop serve others between two pieces of a plan's reading (security issue 30). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function pool(db: Db, req: PlanRequest, excluded: number[]): Promise<PackageRow[]> {
  const zones = await zonesOf(db, req);
  const locked = req.locks.map((l) => l.package);
  const live = db
    .select({ id: deliveryRoute.id })
    .from(deliveryRoute)
    .where(inArray(deliveryRoute.status, [...LIVE_ROUTE]));
  const inZones = zones == null ? undefined : zones.length ? inArray(pkg.zone_id, zones) : sql`1 = 0`;
  const where = and(
    isNull(pkg.deleted_at),
    inArray(pkg.status, [...PLANNABLE]),
    or(isNull(pkg.route_id), notInArray(pkg.route_id, live)),
    locked.length && inZones ? or(inZones, inArray(pkg.id, locked)) : inZones,
    excluded.length ? notInArray(pkg.id, excluded) : undefined,
    dueBy(req.date, req.include_undated, locked),
  );
  // In id order a page at a time, each after the one before in a turn of its own: the same rows as
  // one read of the first POOL_MAX, without holding the event loop for all of them.
  const rows: PackageRow[] = [];
  for (let last = 0; rows.length < POOL_MAX;) {
    const page = await db
      .select()
      .from(pkg)
      .where(and(where, gt(pkg.id, last)))
      .orderBy(pkg.id)
      .limit(Math.min(POOL_PAGE, POOL_MAX - rows.length))
      .all();
    rows.push(...page);
    if (page.length < POOL_PAGE) break;
    last = page[page.length - 1].id;
    await nextTurn();
  }
  return rows;
}

const secondsFrom = (dayStart: number, at: number): number => Math.round((at - dayStart) / 1000);

/**
 * Reads everything a plan needs and shapes the fleet problem: one vehicle per driver (its shift,
 * depot and van's capacities), one job per parcel with coordinates (weight, volume, one parcel;
 * window; time at the door). The travel matrix is not built here: the worker builds it from the
 * points (server/services/dispatch/solveDay.ts), so nothing n x n runs on this thread. A stop locked to a driver gets one unit of an extra dimension that
 * only that driver's vehicle has room for, so the optimiser cannot move it elsewhere. The road
 * engine's matrix, when there is one, is added by `preparePlan` (plans.ts). The parcels are read a
 * page per turn of the event loop, with a turn between the other reads and steps (security issue 30).
 */
export async function buildPlan(
  deps: Deps,
  req: PlanRequest,
  model: TravelModel = DEFAULT_TRAVEL,
): Promise<{ ctx: PlanContext; problem: DayProblem }> {
  const date = req.date;
  // A fixed route may name a paired pickup twice, its collection then its delivery (issue 32).
  const fixedIds = req.fixed_routes.flatMap((f) => [...new Set(f.packages)]);
  if (new Set(fixedIds).size !== fixedIds.length)
    throw badRequest('A parcel is on two fixed routes', [{ path: 'fixed_routes', message: 'duplicate parcel' }]);
  const fixedRows = fixedIds.length
    ? await deps.db
        .select()
        .from(pkg)
        .where(and(inArray(pkg.id, fixedIds), isNull(pkg.deleted_at)))
        .all()
    : [];
  if (fixedRows.length !== new Set(fixedIds).size)
    throw badRequest('A fixed route names an unknown parcel', [{ path: 'fixed_routes', message: 'unknown parcel' }]);
  const rows = await pool(deps.db, req, fixedIds);
  await nextTurn();
  // Pickups due that day, paired with their deliveries (issue 32), only when the office asks.
  const pickupRows = req.include_pickups
    ? await pickupPool(
        deps.db,
        req,
        await zonesOf(deps.db, req),
        dueBy(
          req.date,
          req.include_undated,
          req.locks.map((l) => l.package),
        ),
      )
    : [];
  const origins = await pickupOrigins(deps.db, pickupRows);
  const lockedWanted = new Set(req.locks.map((l) => l.package));
  // A paired pickup may be locked too (both its stops go to that driver).
  const pooled = new Set([...rows, ...pickupRows].map((r) => r.id));
  const missingLocks = [...lockedWanted].filter((id) => !pooled.has(id));
  if (missingLocks.length) {
    throw new ApiError(
      400,
      'validation_error',
      `Locked parcels that cannot be planned: ${missingLocks.join(', ')}`,
      missingLocks.map((id) => ({ path: 'locks', message: `package ${id} is not open or already on a route` })),
    );
  }
  const placedRows = rows.filter(located);
  const centroid = placedRows.length
    ? {
        latitude: placedRows.reduce((s, r) => s + (r.latitude as number), 0) / placedRows.length,
        longitude: placedRows.reduce((s, r) => s + (r.longitude as number), 0) / placedRows.length,
      }
    : null;
  const drivers = await planDrivers(deps, date, req.drivers, centroid);
  await nextTurn();
  const byDriver = new Map(drivers.map((d) => [d.id, d]));
  for (const f of req.fixed_routes)
    if (!byDriver.has(f.driver))
      throw badRequest(`Fixed route of driver ${f.driver}, who is not in this plan`, [
        { path: 'fixed_routes', message: 'driver not planned' },
      ]);
  for (const l of req.locks) {
    if (!byDriver.has(l.driver))
      throw badRequest(`Parcel ${l.package} is locked to driver ${l.driver}, who is not in this plan`, [
        { path: 'locks', message: 'driver not planned' },
      ]);
    if (req.fixed_routes.some((f) => f.driver === l.driver))
      throw badRequest(`Driver ${l.driver} has a fixed route; lock the parcel into it instead`, [
        { path: 'locks', message: 'driver is fixed' },
      ]);
  }
  const windows = await windowsOf(
    deps.db,
    [...rows, ...fixedRows, ...pickupRows].map((r) => r.id),
  );
  await nextTurn();
  // A window is the recipient's wall clock: the zone of the parcel's depot (issue 31).
  const parcelZones = await depotZones(
    deps,
    [...rows, ...fixedRows, ...pickupRows].map((r) => r.warehouse_id),
  );
  const parcelOf = (row: PackageRow): PlanParcel => {
    const window = windows.get(row.id) as WindowInfo;
    const zone = parcelZones.of(row.warehouse_id);
    const windowAt: PlanParcel['windowAt'] =
      window.window_start && window.window_end
        ? [timeOnDay(date, window.window_start, zone), timeOnDay(date, window.window_end, zone)]
        : null;
    return { row, window, kg: row.weight ?? 0, m3: volumeOf(row), windowAt, zone };
  };
  await nextTurn();
  const fixedById = new Map(fixedRows.map((r) => [r.id, r]));
  const fixedOrigins = await pickupOrigins(
    deps.db,
    fixedRows.filter((r) => r.status === 'pickup_requested'),
  );
  const fixed = req.fixed_routes.map((f) => ({
    driver: byDriver.get(f.driver) as PlanDriver,
    parcels: f.packages.map((id) => {
      const p = parcelOf(fixedById.get(id) as PackageRow);
      const from = fixedOrigins.get(id);
      return from && f.packages.indexOf(id) !== f.packages.lastIndexOf(id) ? { ...p, pickup: from } : p;
    }),
  }));
  const active = drivers.filter((d) => !req.fixed_routes.some((f) => f.driver === d.id));

  const preUnassigned: PlanContext['preUnassigned'] = rows
    .filter((r) => !located(r))
    .map((r) => ({ parcel: parcelOf(r), reason: 'no_coordinates' as const, message: 'No coordinates: resolve the address first' }));
  const parcels = placedRows.map(parcelOf);
  // Each pickup that can be paired is two jobs, its collection then its delivery, on one van.
  const pairs: PlanContext['pairs'] = [];
  for (const r of pickupRows) {
    const why = unpairable(r, origins.get(r.id));
    if (why) {
      preUnassigned.push({ parcel: parcelOf(r), reason: 'no_coordinates', message: why });
      continue;
    }
    const paired: PlanParcel = { ...parcelOf(r), pickup: origins.get(r.id) };
    pairs.push({ pickup: parcels.length, delivery: parcels.length + 1 });
    parcels.push(paired, paired);
  }
  const pickupJob = new Set(pairs.map((p) => p.pickup));
  // Seconds are counted from the earliest local midnight among the zones involved, so none is negative.
  const zonesUsed = new Set([
    ...drivers.map((d) => d.zone),
    ...[...rows, ...fixedRows, ...pickupRows].map((r) => parcelZones.of(r.warehouse_id)),
  ]);
  const dayStart = Math.min(...[...zonesUsed].map((z) => startOfLocalDay(date, z)), startOfLocalDay(date, parcelZones.of(null)));

  // Locations: each active vehicle's start and end, then the jobs.
  const points: LatLng[] = [];
  const vehicleAt = active.map((d) => {
    const s = d.start ?? centroid ?? { latitude: 0, longitude: 0 };
    points.push(s);
    const start = points.length - 1;
    let end: number | undefined;
    if (d.end) {
      points.push(d.end);
      end = points.length - 1;
    }
    return { start, end };
  });
  const jobLocation = parcels.map((p, j) => {
    points.push(
      pickupJob.has(j) && p.pickup
        ? { latitude: p.pickup.latitude, longitude: p.pickup.longitude }
        : { latitude: p.row.latitude as number, longitude: p.row.longitude as number },
    );
    return points.length - 1;
  });

  await nextTurn();
  const lockDrivers = [...new Set(req.locks.map((l) => l.driver))];
  const locks = new Map(req.locks.map((l) => [l.package, l.driver]));
  const problem: DayProblem = {
    points,
    travel: model,
    road: null,
    vehicles: active.map((d, v) => ({
      id: v,
      start: vehicleAt[v].start,
      ...(vehicleAt[v].end != null ? { end: vehicleAt[v].end } : {}),
      capacity: [
        d.capacity.kg ?? UNLIMITED,
        d.capacity.m3 ?? UNLIMITED,
        d.capacity.parcels ?? UNLIMITED,
        ...lockDrivers.map((ld) => (ld === d.id ? UNLIMITED : 0)),
      ],
      shift: [secondsFrom(dayStart, d.departAt), secondsFrom(dayStart, timeOnDay(date, d.shiftEnd, d.zone))],
    })),
    jobs: parcels.map((p, j) => ({
      id: j,
      location: jobLocation[j],
      demand: [p.kg, p.m3, 1, ...lockDrivers.map((ld) => (locks.get(p.row.id) === ld ? 1 : 0))],
      service: p.window.service_s,
      // The recipient's window binds the delivery, not the collection.
      ...(p.windowAt && !pickupJob.has(j)
        ? { windows: [[secondsFrom(dayStart, p.windowAt[0]), secondsFrom(dayStart, p.windowAt[1])] as [number, number]] }
        : {}),
    })),
    ...(pairs.length ? { pairs } : {}),
    timeLimitMs: req.time_limit_ms,
    seed: 1,
  };
  await nextTurn();
  applyPlanRules(problem, effectiveRules(await planSettings(deps.db), req), { date, dayStart, drivers: active, parcels });
  // A pair left out costs one parcel's penalty, not two: its delivery's.
  for (const j of pickupJob) if (problem.jobs[j].penalty !== undefined) problem.jobs[j] = { ...problem.jobs[j], penalty: 0 };
  return { ctx: { date, dayStart, drivers: active, parcels, pairs, points, jobLocation, locks, fixed, preUnassigned, model }, problem };
}
