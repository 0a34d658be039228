import { and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import type { Deps } from '../../deps';
import { deliveryAttempt, failedDeliveryStatus, packageFailure, pkg, storedFile, user } from '../../db/schema/index';
import { iso } from '../../clock';
import { badRequest, notFound } from '../../errors';
import { mustReturn } from '../../../shared/lifecycle';
import { driverOutcome } from '../../../shared/driverActions';
import { isStaff } from '../../../shared/roles';
import type { Page } from '../../../shared/schemas/common';
import type { Attempt, AttemptQuery, FileRef } from '../../../shared/schemas/delivery';
import { pageLinks } from '../../resources/list';
import type { SessionUser } from '../auth/session';
import { audit } from '../audit/record';
import { transition } from './lifecycle';
import { actionParcel, refuseIfFinal } from './deliver';
import { fileInfo, resolveFiles } from './proof';
import { driverRefusal, parcelState, recordedTransition, wasTheirs, type ScanContext } from './scan';
import { packageScope } from './scope';
import { countKeptAttempts, keptAttemptRowsWhere } from '../history/kept';
import { ATTEMPTS, historyListTally } from '../history/lookups';
import type { PackageRow } from './shape';

export interface FailInput {
  failed_delivery_status?: number;
  note?: string;
  photo?: FileRef;
}
export interface FailResult {
  row: PackageRow;
  mustReturn: boolean;
  maxAttempts: number;
}

async function reasonOf(db: Db, id: number): Promise<{ id: number; name: string }> {
  const r = await db
    .select()
    .from(failedDeliveryStatus)
    .where(and(eq(failedDeliveryStatus.id, id), isNull(failedDeliveryStatus.deleted_at)))
    .get();
  if (!r) throw badRequest(`Failed-delivery status ${id} does not exist`, [{ path: 'failed_delivery_status', message: 'unknown status' }]);
  return { id: r.id, name: r.name };
}

/**
 * A failed attempt at the door: out_for_delivery -> failed, one more attempt counted. The answer
 * says when the parcel has used its attempts and must go back to the depot. Staff may record an
 * attempt a driver reported by phone; an admin may force one from any open state.
 */
export async function failDelivery(
  deps: Deps,
  ctx: ScanContext,
  row: PackageRow,
  input: FailInput,
  opts: { force?: boolean; action?: string } = {},
): Promise<FailResult> {
  const { db } = deps;
  const action = opts.action ?? 'fail';
  const me = ctx.actor;
  // The shared rules decide for a driver (shared/driverActions.ts), as the phone predicted: a failure
  // reported by a driver who lost the parcel is refused (reassigned: the new driver may still deliver
  // it; final: cancelled or delivered meanwhile; never theirs: not found).
  // Whose parcel and final states are answered before an unknown reason (400), the state after it.
  const out =
    me.role === 'driver' && !opts.force
      ? driverOutcome('fail', parcelState(row), {
          driverId: me.id,
          maxAttempts: deps.config.maxAttempts,
          wasDrivers: await wasTheirs(deps, row, me),
        })
      : null;
  if (out && !out.ok && (out.reason === 'not_found' || out.reason === 'not_yours' || out.reason === 'reassigned' || out.reason === 'final'))
    throw driverRefusal(deps, row, out, action, ctx);
  refuseIfFinal(deps, row, 'failed', action, ctx);
  const reason = input.failed_delivery_status != null ? await reasonOf(db, input.failed_delivery_status) : null;
  if (!reason && !opts.force) throw badRequest('Say why the delivery failed', [{ path: 'failed_delivery_status', message: 'required' }]);
  if (out && !out.ok) throw driverRefusal(deps, row, out, action, ctx);
  const photo = input.photo !== undefined ? (await resolveFiles(db, me, [input.photo]))[0] : undefined;

  const now = deps.clock.now();
  const maxAttempts = deps.config.maxAttempts;
  // Staff and forced failures follow the same rule as a driver's: one more attempt, off the van.
  const next = out?.ok ? out.next : { attempts: row.attempts + 1, is_scanned: false };
  const attempts = next.attempts;
  const updated = await recordedTransition(
    deps,
    ctx,
    async () =>
      await transition(
        db,
        now,
        row,
        'failed',
        action,
        { userId: me.id, deviceId: ctx.deviceId },
        { ...ctx.meta, data: { attempt: attempts, reason: reason?.name ?? null } },
        { attempts, is_scanned: next.is_scanned },
        { maxAttempts, force: opts.force },
      ),
    row,
    action,
  );
  const reasonText = reason?.name ?? 'Forced failure';
  await db
    .insert(deliveryAttempt)
    .values({
      package_id: row.id,
      attempt_no: attempts,
      driver_id: row.assigned_to_id,
      recorded_by: me.id,
      failed_status_id: reason?.id ?? null,
      reason: reasonText,
      note: input.note ?? null,
      photo_file_id: photo?.id ?? null,
      occurred_at: ctx.meta.occurredAt ?? now,
      received_at: now,
      latitude: ctx.meta.latitude ?? null,
      longitude: ctx.meta.longitude ?? null,
      forced: opts.force ?? false,
    })
    .run();
  if (reason)
    await db
      .insert(packageFailure)
      .values({ package_id: row.id, status_id: reason.id, name: reason.name, note: input.note ?? null, created_at: now })
      .run();
  return { row: updated, mustReturn: mustReturn(attempts, maxAttempts), maxAttempts };
}

/** Admin forced failure from any open state: counts as an attempt, recorded as forced and in the audit log. */
export async function forceFail(deps: Deps, ctx: ScanContext, row: PackageRow, input: FailInput): Promise<FailResult> {
  const r = await failDelivery(deps, ctx, row, input, { force: true, action: 'force_fail' });
  await audit(deps.db, deps.clock.now(), ctx.actor.id, 'package.force_fail', `package:${r.row.id}`, {
    hawb: r.row.hawb,
    note: input.note,
    reason: input.failed_delivery_status,
    before: { status: row.status },
    after: { status: r.row.status },
  });
  return r;
}

/** The parcel a failure photo is for: a driver's only while it is theirs (a reassigned parcel is no longer). */
export async function failurePhotoParcel(db: Db, me: SessionUser, id: number): Promise<PackageRow> {
  const row = await actionParcel(db, me, id);
  if (me.role === 'driver' && row.assigned_to_id !== me.id) throw notFound(`Package ${id} not found`);
  return row;
}

/**
 * A failure photo uploaded after the failure was reported: it joins the parcel's latest attempt
 * when that attempt has none yet.
 */
export async function attachFailurePhoto(deps: Deps, actor: SessionUser, row: PackageRow, fileId: number): Promise<number | null> {
  const latest = await deps.db
    .select()
    .from(deliveryAttempt)
    .where(eq(deliveryAttempt.package_id, row.id))
    .orderBy(desc(deliveryAttempt.attempt_no))
    .limit(1)
    .get();
  if (!latest || latest.photo_file_id != null || row.status !== 'failed') return null;
  if (!isStaff(actor.role) && latest.driver_id !== actor.id && latest.recorded_by !== actor.id) return null;
  await deps.db.update(deliveryAttempt).set({ photo_file_id: fileId }).where(eq(deliveryAttempt.id, latest.id)).run();
  return latest.attempt_no;
}

/** Attempts as answered: with the driver's name, the photo and both times. */
export async function attemptsWhere(db: Db, where: SQL | undefined, limit = 500, offset = 0): Promise<Attempt[]> {
  const rows = await db
    .select({ a: deliveryAttempt, hawb: pkg.hawb, driver_name: user.name })
    .from(deliveryAttempt)
    .innerJoin(pkg, eq(pkg.id, deliveryAttempt.package_id))
    .leftJoin(user, eq(user.id, deliveryAttempt.driver_id))
    .where(where)
    .orderBy(desc(deliveryAttempt.id))
    .limit(limit)
    .offset(offset)
    .all();
  return shapeAttempts(db, rows);
}

/** Attempt answers from attempt rows with their parcel's hawb and driver's name (hot or cold rows alike). */
export async function shapeAttempts(
  db: Db,
  rows: { a: typeof deliveryAttempt.$inferSelect; hawb: string; driver_name: string | null }[],
): Promise<Attempt[]> {
  const photoIds = rows.map((r) => r.a.photo_file_id).filter((id): id is number => id != null);
  const photos = new Map(
    photoIds.length
      ? (await db.select().from(storedFile).where(inArray(storedFile.id, photoIds)).all()).map((f) => [f.id, fileInfo(f)])
      : [],
  );
  return rows.map(({ a, hawb, driver_name }) => ({
    id: a.id,
    package: a.package_id,
    hawb,
    attempt_no: a.attempt_no,
    driver: a.driver_id != null ? { id: a.driver_id, name: driver_name ?? '' } : null,
    failed_delivery_status: a.failed_status_id,
    reason: a.reason,
    note: a.note,
    photo: a.photo_file_id != null ? (photos.get(a.photo_file_id) ?? null) : null,
    occurred_at: iso(a.occurred_at) ?? '',
    received_at: iso(a.received_at) ?? '',
    latitude: a.latitude,
    longitude: a.longitude,
    forced: a.forced,
  }));
}

/** Failed attempts a caller may see, newest first: a driver their own, others as their package scope allows. */
export async function attemptPage(db: Db, me: SessionUser, q: z.output<typeof AttemptQuery>, url: string): Promise<Page<Attempt>> {
  const where = and(
    me.role === 'driver' ? eq(deliveryAttempt.driver_id, me.id) : packageScope(me),
    q.package != null ? eq(deliveryAttempt.package_id, q.package) : undefined,
    q.driver != null ? eq(deliveryAttempt.driver_id, q.driver) : undefined,
  );
  const hotCount =
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(deliveryAttempt)
        .innerJoin(pkg, eq(pkg.id, deliveryAttempt.package_id))
        .where(where)
        .get()
    )?.n ?? 0;
  // Attempts of parcels moved to history: the same filter reads their own table (ids are never reused, so id order merges them).
  // Unfiltered, staff's and a company's cold attempts are the mover's tally; otherwise counted by the filter's index.
  const tallied = me.role !== 'driver' && q.package == null && q.driver == null;
  const coldCount = tallied ? await historyListTally(db, ATTEMPTS, me) : await countKeptAttempts(db, where);
  const count = hotCount + coldCount;
  const offset = (q.page - 1) * q.page_size;
  const results = coldCount
    ? [
        ...(await attemptsWhere(db, where, offset + q.page_size)),
        ...(await shapeAttempts(db, await keptAttemptRowsWhere(db, where, offset + q.page_size))),
      ]
        .sort((a, b) => b.id - a.id)
        .slice(offset, offset + q.page_size)
    : await attemptsWhere(db, where, q.page_size, offset);
  return { count, ...pageLinks(url, q.page, q.page_size, count), results };
}
