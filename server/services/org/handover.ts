import { and, eq, inArray, isNull, notInArray } from 'drizzle-orm';
import { z } from 'zod';
import { FINAL_STATUSES, mustReturn } from '../../../shared/lifecycle';
import type { Deps } from '../../deps';
import type { Db } from '../../db/client';
import { deliveryRoute, pkg, user } from '../../db/schema/index';
import { badRequest, conflict } from '../../errors';
import type { SessionUser } from '../auth/session';
import { audit } from '../audit/record';
import { activeDriver, assignDriver, unassignPackages } from '../packages/assign';
import { transition, updatePackage } from '../packages/lifecycle';
import { employeeScope } from './employees';
import { reassignRoute } from '../routes/assign';
import { LIVE_ROUTE } from '../routes/shape';

/** What the office chose for a deactivated driver's open work (issue 18 item 6). */
export const HandoverChoice = z.union([
  z.object({ to_driver: z.number().int().positive() }).strict(),
  z.object({ return_to_depot: z.literal(true) }).strict(),
]);
export type HandoverChoice = z.output<typeof HandoverChoice>;

export interface OpenWork {
  /** `must_return`: failed and out of attempts, so it can only go back to the depot, never to another driver. */
  parcels: { id: number; hawb: string; status: string; route: number | null; must_return: boolean }[];
  routes: { id: number; name: string; status: string }[];
}

/** Parcels still with the driver (not final, not archived) and routes still planned or running. */
export async function openWork(db: Db, driverId: number, maxAttempts?: number): Promise<OpenWork> {
  const parcels = (
    await db
      .select({ id: pkg.id, hawb: pkg.hawb, status: pkg.status, route: pkg.route_id, attempts: pkg.attempts })
      .from(pkg)
      .where(and(eq(pkg.assigned_to_id, driverId), isNull(pkg.deleted_at), notInArray(pkg.status, [...FINAL_STATUSES])))
      .orderBy(pkg.id)
      .all()
  ).map(({ attempts, ...p }) => ({ ...p, must_return: p.status === 'failed' && mustReturn(attempts, maxAttempts) }));
  const routes = await db
    .select({ id: deliveryRoute.id, name: deliveryRoute.name, status: deliveryRoute.status })
    .from(deliveryRoute)
    .where(and(eq(deliveryRoute.driver_id, driverId), inArray(deliveryRoute.status, [...LIVE_ROUTE])))
    .orderBy(deliveryRoute.id)
    .all();
  return { parcels, routes };
}

const hasWork = (w: OpenWork) => w.parcels.length > 0 || w.routes.length > 0;

/**
 * Runs before an employee is deactivated, in the same transaction. A driver with open work cannot
 * simply be switched off: their parcels would stay with an account that can no longer log in, so
 * without a choice the request answers 409 with the list the web shows in its confirmation.
 */
export async function handOverOnDeactivate(
  deps: Deps,
  me: SessionUser,
  row: { id: number; role: string; is_active: boolean },
  choice: HandoverChoice | undefined,
): Promise<OpenWork | null> {
  if (row.role !== 'driver' || !row.is_active) return null;
  const work = await openWork(deps.db, row.id, deps.config.maxAttempts);
  if (!hasWork(work)) return null;
  if (!choice) {
    throw conflict(
      `The driver still has ${work.parcels.length} open parcel(s) and ${work.routes.length} open route(s); choose a driver to hand them to or return them to the depot`,
      {
        open_parcels: work.parcels.length,
        open_routes: work.routes.length,
        parcels: work.parcels.map((p) => p.hawb),
        routes: work.routes.map((r) => r.name),
      },
    );
  }
  const remaining = 'to_driver' in choice ? await reassignAll(deps, me, row.id, choice.to_driver) : await returnAll(deps, me, row.id);
  await audit(deps.db, deps.clock.now(), me.id, 'user.handover', `user:${row.id}`, {
    choice: 'to_driver' in choice ? { to_driver: choice.to_driver } : { return_to_depot: true },
    parcels: work.parcels.length,
    routes: work.routes.length,
    remaining: remaining.parcels.map((p) => p.hawb),
  });
  return remaining;
}

/**
 * Archiving hides an account from every list and choice, so a driver who still holds work (say,
 * one deactivated before handovers were asked for) is refused until it is handed over.
 */
export async function refuseArchiveWithOpenWork(db: Db, row: { id: number; role: string }): Promise<void> {
  if (row.role !== 'driver') return;
  const work = await openWork(db, row.id);
  if (!hasWork(work)) return;
  throw conflict(
    `Driver ${row.id} still has ${work.parcels.length} open parcel(s) and ${work.routes.length} open route(s); deactivate with a handover first`,
    {
      open_parcels: work.parcels.length,
      open_routes: work.routes.length,
      parcels: work.parcels.map((p) => p.hawb),
      routes: work.routes.map((r) => r.name),
    },
  );
}

/** Routes move through the route service, then any parcel off a route through the assign service. */
async function reassignAll(deps: Deps, me: SessionUser, fromId: number, toId: number): Promise<OpenWork> {
  if (toId === fromId) throw badRequest('Hand the work to another driver', [{ path: 'handover.to_driver', message: 'same driver' }]);
  // Only a driver the caller may see (a company login: its own people), and an active, live one.
  if (
    !(await deps.db
      .select({ id: user.id })
      .from(user)
      .where(and(employeeScope(me), eq(user.id, toId)))
      .get())
  ) {
    throw badRequest(`Employee ${toId} is not a driver`, [{ path: 'handover.to_driver', message: 'not a driver' }]);
  }
  await activeDriver(deps, toId);
  const meta = { data: { from_driver: fromId, handover: true } };
  for (const r of (await openWork(deps.db, fromId)).routes) {
    const route = await deps.db.select().from(deliveryRoute).where(eq(deliveryRoute.id, r.id)).get();
    if (route) await reassignRoute(deps, me, route, toId);
  }
  const now = deps.clock.now();
  const left = await deps.db
    .select()
    .from(pkg)
    .where(and(eq(pkg.assigned_to_id, fromId), isNull(pkg.deleted_at), notInArray(pkg.status, [...FINAL_STATUSES])))
    .all();
  const delivery: number[] = [];
  for (const p of left) {
    // A pickup is not in the delivery lifecycle yet: only the collector changes (as route handover does).
    if (p.status === 'pickup_requested' || p.status === 'picked_up')
      await updatePackage(deps.db, now, p, { assigned_to_id: toId }, 'assign_pickup', { userId: me.id }, meta);
    // A parcel that used its attempts may only go back to the depot (shared/lifecycle.ts), so it does, as with
    // "return to the depot": left with an account that can no longer log in, nobody would see it again.
    else if (p.status === 'failed' && mustReturn(p.attempts, deps.config.maxAttempts)) {
      await transition(deps.db, now, p, 'returned', 'handover_return', { userId: me.id }, meta, {
        assigned_to_id: null,
        is_scanned: false,
      });
    } else delivery.push(p.id);
  }
  if (delivery.length) await assignDriver(deps, me, toId, delivery, meta);
  return openWork(deps.db, fromId);
}

/** Everything back to the depot pool: routes lose their driver, parcels lose theirs through the lifecycle. */
async function returnAll(deps: Deps, me: SessionUser, fromId: number): Promise<OpenWork> {
  const now = deps.clock.now();
  const meta = { data: { driver: fromId, handover: 'return_to_depot' } };
  await deps.db
    .update(deliveryRoute)
    .set({ driver_id: null, updated_at: now })
    .where(and(eq(deliveryRoute.driver_id, fromId), inArray(deliveryRoute.status, [...LIVE_ROUTE])))
    .run();
  const rows = await deps.db
    .select()
    .from(pkg)
    .where(and(eq(pkg.assigned_to_id, fromId), isNull(pkg.deleted_at), notInArray(pkg.status, [...FINAL_STATUSES])))
    .all();
  const toUnassign: number[] = [];
  for (let p of rows) {
    if (p.status === 'out_for_delivery') {
      // Off the van first (the same step as a driver's reset scan), then off the driver.
      p = await transition(deps.db, now, p, 'assigned', 'handover_unload', { userId: me.id }, meta);
    }
    if (p.status === 'assigned') toUnassign.push(p.id);
    else if (p.status === 'failed')
      await transition(deps.db, now, p, 'returned', 'handover_return', { userId: me.id }, meta, {
        assigned_to_id: null,
        is_scanned: false,
      });
    else await updatePackage(deps.db, now, p, { assigned_to_id: null }, 'handover_unassign', { userId: me.id }, meta);
  }
  if (toUnassign.length) await unassignPackages(deps, me, toUnassign, meta);
  return openWork(deps.db, fromId);
}
