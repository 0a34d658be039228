import { and, desc, eq, gte, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import type { Deps } from '../../deps';
import { deliveryAttempt, deliveryAttemptHistory, pkg } from '../../db/schema/index';
import { rawArray, rawObject, type RawJson } from '../../http/rawJson';
import { pageLinks } from '../../resources/list';
import { CANCELLABLE_STATUSES, FINAL_STATUSES, type PackageStatus } from '../../../shared/lifecycle';
import type { Page } from '../../../shared/schemas/common';
import type { ReturnListQuery } from '../../../shared/schemas/delivery';
import type { Package } from '../../../shared/schemas/package';
import { countHistory, unionPage } from '../history/read';
import { localDayRange, startOfLocalDay } from '../../../shared/time/zone';
import { isStaff } from '../../../shared/roles';
import type { SessionUser } from '../auth/session';
import { activeDriver } from './assign';
import { refuseIfFinal } from './deliver';
import { refusal, recordEvent, transition, type Actor } from './lifecycle';
import { notYoursNow, parcelByCode, recordedRefusal, recordedTransition, type ScanContext } from './scan';
import { latestChangedIds } from './changedPage';
import { packagesByIds, type PackageRow } from './shape';
import { answersFor, packagesFor } from '../geo/senderView';

const actorOf = (ctx: ScanContext): Actor => ({ userId: ctx.actor.id, deviceId: ctx.deviceId });

/**
 * A failed parcel is handed in at the depot: failed -> returned. It leaves the driver's device
 * (no longer assigned) and counts as landed. A repeat scan is harmless.
 */
export async function returnScan(deps: Deps, ctx: ScanContext, barcode: string): Promise<{ row: PackageRow; already: boolean }> {
  const row = await parcelByCode(deps, barcode, 'return', ctx);
  const now = deps.clock.now();
  if (ctx.actor.role === 'driver' && row.assigned_to_id !== ctx.actor.id) {
    if (row.status === 'returned') return { row, already: true };
    throw await notYoursNow(deps, row, 'return', ctx, 'returned');
  }
  if (row.status === 'returned') {
    await recordEvent(deps.db, now, row, 'scan_repeat', actorOf(ctx), ctx.meta);
    return { row, already: true };
  }
  refuseIfFinal(deps, row, 'returned', 'return', ctx);
  const updated = await recordedTransition(
    deps,
    ctx,
    async () =>
      await transition(
        deps.db,
        now,
        row,
        'returned',
        'return_scan',
        actorOf(ctx),
        { ...ctx.meta, data: { driver: row.assigned_to_id } },
        { assigned_to_id: null, is_scanned: false, landed: true },
      ),
    row,
    'return',
  );
  return { row: updated, already: false };
}

export type DepotOutcome = 'returned' | 'returned_to_sender' | 'redeliver';

/**
 * The depot manager settles a parcel that came back: keep it on the shelf, send it back to the
 * shipper (final), or give it to a driver again, which starts a fresh count of attempts.
 */
export async function depotReturn(
  deps: Deps,
  ctx: ScanContext,
  barcode: string,
  outcome: DepotOutcome,
  driverId?: number,
): Promise<PackageRow> {
  let row = await parcelByCode(deps, barcode, 'return', ctx);
  // Issue 36: a failed parcel sent back to the sender is one step, not a depot receipt that did not
  // happen followed by the return: it leaves its driver, whose name the event keeps (they bring it in).
  if (row.status === 'failed' && outcome === 'returned_to_sender') {
    refuseIfFinal(deps, row, 'returned_to_sender', 'return', ctx);
    return transition(
      deps.db,
      deps.clock.now(),
      row,
      'returned_to_sender',
      'return_to_sender',
      actorOf(ctx),
      { ...ctx.meta, data: { driver: row.assigned_to_id, from: 'failed' } },
      { assigned_to_id: null, is_scanned: false },
    );
  }
  if (row.status === 'failed') row = (await returnScan(deps, ctx, barcode)).row;
  if (outcome === 'returned') {
    if (row.status !== 'returned') throw recordedRefusal(deps, refusal(row, 'returned', 'not_allowed'), row, 'return_rejected', ctx);
    return row;
  }
  refuseIfFinal(deps, row, outcome === 'redeliver' ? 'assigned' : 'returned_to_sender', 'return', ctx);
  if (row.status !== 'returned') {
    throw recordedRefusal(
      deps,
      refusal(row, outcome === 'redeliver' ? 'assigned' : 'returned_to_sender', 'not_allowed'),
      row,
      'return_rejected',
      ctx,
    );
  }
  const now = deps.clock.now();
  if (outcome === 'returned_to_sender') {
    return transition(deps.db, now, row, 'returned_to_sender', 'return_to_sender', actorOf(ctx), ctx.meta);
  }
  const driver = await activeDriver(deps, driverId ?? 0);
  return transition(
    deps.db,
    now,
    row,
    'assigned',
    'redeliver',
    actorOf(ctx),
    { ...ctx.meta, data: { driver: driver.id, previous_attempts: row.attempts } },
    { assigned_to_id: driver.id, is_scanned: false, attempts: 0 },
  );
}

/** Staff or the owning company call a parcel off before it leaves on a van. */
export async function cancelPackage(deps: Deps, ctx: ScanContext, row: PackageRow): Promise<PackageRow> {
  refuseIfFinal(deps, row, 'cancelled', 'cancel', ctx);
  if (!CANCELLABLE_STATUSES.includes(row.status as PackageStatus)) {
    throw recordedRefusal(deps, refusal(row, 'cancelled', 'not_allowed'), row, 'cancel_rejected', ctx);
  }
  return await transition(
    deps.db,
    deps.clock.now(),
    row,
    'cancelled',
    'cancel',
    actorOf(ctx),
    { ...ctx.meta, data: { driver: row.assigned_to_id } },
    { assigned_to_id: null, is_scanned: false },
  );
}

/** Scope of the return screens: staff see all, a company its own, a driver what they brought back. */
export function returnScope(user: SessionUser): SQL | undefined {
  if (isStaff(user.role)) return undefined;
  if (user.role === 'company') return eq(pkg.company_id, user.companyId ?? -1);
  return sql`exists (select 1 from package_event e where e.package_id = ${pkg.id} and e.actor_id = ${user.id} and e.action in ('return_scan', 'fail', 'force_fail'))`;
}

export async function returnCounts(deps: Deps, user: SessionUser) {
  const count = async (...where: (SQL | undefined)[]) =>
    (
      await deps.db
        .select({ n: sql<number>`count(*)` })
        .from(pkg)
        .where(and(isNull(pkg.deleted_at), returnScope(user), ...where))
        .get()
    )?.n ?? 0;
  const max = deps.config.maxAttempts;
  return {
    returned: await count(eq(pkg.status, 'returned')),
    returned_to_sender: await count(eq(pkg.status, 'returned_to_sender')),
    failed_must_return: await count(eq(pkg.status, 'failed'), gte(pkg.attempts, max)),
    failed_awaiting_reattempt: await count(eq(pkg.status, 'failed'), lt(pkg.attempts, max)),
    max_attempts: max,
  };
}

/**
 * Returned parcels (both returned states unless `status` names one, or failed), latest change first,
 * in the caller's return scope. `driver` (staff): parcels that driver failed; the dates bound the
 * last change. Parcels returned to their sender and moved to history since are listed as before; a
 * driver's scope there is the parcels they failed (their return scans are kept only as JSON).
 */
/** `zone`: the business's; `date_from`/`date_to` are its local days. */
export async function returnsPage(
  db: Db,
  zone: string,
  user: SessionUser,
  q: z.output<typeof ReturnListQuery>,
  url: string,
): Promise<Page<Package> | RawJson> {
  const statuses = q.status ? [q.status] : ['returned', 'returned_to_sender'];
  const attemptBy = (attempts: typeof deliveryAttempt | typeof deliveryAttemptHistory, driverId: number) =>
    sql`exists (select 1 from ${attempts} a where a.package_id = ${pkg.id} and a.driver_id = ${driverId})`;
  const common = [
    q.date_from ? gte(pkg.updated_at, startOfLocalDay(q.date_from, zone)) : undefined,
    q.date_to ? lt(pkg.updated_at, localDayRange(q.date_to, zone).end) : undefined,
  ];
  const where = and(
    isNull(pkg.deleted_at),
    inArray(pkg.status, statuses),
    returnScope(user),
    q.driver != null && user.role !== 'driver' ? attemptBy(deliveryAttempt, q.driver) : undefined,
    ...common,
  );
  const order = [desc(pkg.updated_at), desc(pkg.id)];
  const page = { limit: q.page_size, offset: (q.page - 1) * q.page_size };
  const coldStatuses = statuses.filter((s) => (FINAL_STATUSES as readonly string[]).includes(s));
  const coldDriver = user.role === 'driver' ? user.id : q.driver;
  const coldWhere = coldStatuses.length
    ? and(
        inArray(pkg.status, coldStatuses),
        user.role === 'company' ? eq(pkg.company_id, user.companyId ?? -1) : undefined,
        coldDriver != null ? attemptBy(deliveryAttemptHistory, coldDriver) : undefined,
        ...common,
      )
    : undefined;
  const cold = coldWhere ? await countHistory(db, coldWhere) : 0;
  if (!cold) {
    const { ids, ...hotPage } = await latestChangedIds(db, where, q, url);
    return { ...hotPage, results: await packagesFor(db, user, await packagesByIds(db, ids)) };
  }
  const count =
    ((
      await db
        .select({ n: sql<number>`count(*)` })
        .from(pkg)
        .where(where)
        .get()
    )?.n ?? 0) + cold;
  return rawObject({
    count,
    ...pageLinks(url, q.page, q.page_size, count),
    results: rawArray(await answersFor(db, user, await unionPage(db, where, coldWhere, order, page.limit, page.offset))),
  });
}
