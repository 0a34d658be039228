import { and, gt, inArray, isNull, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { PlanRequest } from '../../../shared/schemas/dispatch';
import type { Db } from '../../db/client';
import { deliveryRoute, pickupPoint, pkg } from '../../db/schema/index';
import type { PackageRow } from '../packages/shape';
import { LIVE_ROUTE } from '../routes/shape';
import type { PickupOrigin } from './planTypes';

/**
 * Pickups planned as pairs (issue 32, "pickup and delivery pairs"): a parcel waiting for collection
 * (`pickup_requested`) is one pair of the day's fleet problem, collected at its pickup point and
 * delivered to its recipient by the same van, pickup first. The parcel itself is the pair: no new
 * record stands for it until the plan is committed (a `route_pickup` row for the collection stop).
 */

/** The most pickups one plan takes (beside its deliveries). */
const PICKUPS_MAX = 2000;
const PAGE = 250;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Pickups a plan may pair: waiting for collection, due by the plan's date (as deliveries are, see
 * `dueBy`), in the plan's zones, on no live route. Read a page per turn of the event loop.
 */
export async function pickupPool(db: Db, req: PlanRequest, zones: number[] | null, due: SQL): Promise<PackageRow[]> {
  const live = db
    .select({ id: deliveryRoute.id })
    .from(deliveryRoute)
    .where(inArray(deliveryRoute.status, [...LIVE_ROUTE]));
  const where = and(
    isNull(pkg.deleted_at),
    inArray(pkg.status, ['pickup_requested']),
    or(isNull(pkg.route_id), notInArray(pkg.route_id, live)),
    zones == null ? undefined : zones.length ? inArray(pkg.zone_id, zones) : sql`1 = 0`,
    due,
  );
  const rows: PackageRow[] = [];
  for (let last = 0; rows.length < PICKUPS_MAX;) {
    const page = await db
      .select()
      .from(pkg)
      .where(and(where, gt(pkg.id, last)))
      .orderBy(pkg.id)
      .limit(Math.min(PAGE, PICKUPS_MAX - rows.length))
      .all();
    rows.push(...page);
    if (page.length < PAGE) break;
    last = page[page.length - 1].id;
    await nextTurn();
  }
  return rows;
}

/**
 * Where each pickup is collected: its pickup point, when the point is live and placed. A pickup from
 * the shipper's own address has no coordinates in this product (companies are not geocoded), so it
 * is left out of the plan with its reason rather than guessed.
 */
export async function pickupOrigins(db: Db, rows: PackageRow[]): Promise<Map<number, PickupOrigin>> {
  const ids = [...new Set(rows.map((r) => r.pickup_point_id).filter((v): v is number => v != null))];
  if (!ids.length) return new Map();
  const points = new Map(
    (
      await db
        .select()
        .from(pickupPoint)
        .where(and(inArray(pickupPoint.id, ids), isNull(pickupPoint.deleted_at)))
        .all()
    ).map((p) => [p.id, p]),
  );
  const out = new Map<number, PickupOrigin>();
  for (const r of rows) {
    const p = r.pickup_point_id != null ? points.get(r.pickup_point_id) : undefined;
    if (!p || p.latitude == null || p.longitude == null) continue;
    out.set(r.id, {
      point: p.id,
      latitude: p.latitude,
      longitude: p.longitude,
      address: [p.person_name, p.address, p.suburb].filter((x): x is string => !!x && x.trim() !== '').join(', '),
    });
  }
  return out;
}

/** Why a pickup cannot be paired, in the board's words; null when it can. */
export function unpairable(row: PackageRow, origin: PickupOrigin | undefined): string | null {
  if (!origin)
    return row.pickup_point_id == null
      ? 'Pickup from the shipper with no place to collect it: give it a pickup point'
      : 'Its pickup point has no coordinates: place the pickup point first';
  if (row.latitude == null || row.longitude == null) return 'Pickup whose recipient has no coordinates: resolve the address first';
  return null;
}
