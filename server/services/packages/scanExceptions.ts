import { and, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { isStaff } from '../../../shared/roles';
import type { Page } from '../../../shared/schemas/common';
import type { ResolveBody, ScanException, ScanExceptionQuery } from '../../../shared/schemas/delivery';
import { iso } from '../../clock';
import type { Deps } from '../../deps';
import { pkg, scanException, user as userTable } from '../../db/schema/index';
import { notFound } from '../../errors';
import { pageLinks } from '../../resources/list';
import type { SessionUser } from '../auth/session';
import { recordScanException, type ScanContext } from './scan';
import type { PackageRow } from './shape';

type ExceptionRow = typeof scanException.$inferSelect;
type ScanExceptionJson = z.infer<typeof ScanException>;

export function shapeException(e: ExceptionRow, actorName: string | null): ScanExceptionJson {
  return {
    id: e.id,
    code: e.code,
    action: e.action,
    actor: e.actor_id != null ? { id: e.actor_id, name: actorName ?? '' } : null,
    device_id: e.device_id,
    occurred_at: iso(e.occurred_at) ?? '',
    received_at: iso(e.received_at) ?? '',
    latitude: e.latitude,
    longitude: e.longitude,
    note: e.note,
    resolved: e.resolved,
    resolved_at: iso(e.resolved_at),
    resolution_note: e.resolution_note,
  };
}

/**
 * A code scanned with no parcel in hand: the report is kept either way. When the code does name a
 * parcel, `visible` says whether the reporter may see it (staff any, a driver only their own).
 */
export async function reportNoParcel(
  deps: Deps,
  ctx: ScanContext,
  code: string,
): Promise<{ row: PackageRow | undefined; visible: boolean; exception: ScanExceptionJson }> {
  const me = ctx.actor;
  const row = await deps.db
    .select()
    .from(pkg)
    .where(and(eq(pkg.hawb, code), isNull(pkg.deleted_at)))
    .get();
  const ex = await recordScanException(deps.db, deps.clock.now(), code, 'no_parcel', ctx);
  return { row, visible: row != null && (isStaff(me.role) || row.assigned_to_id === me.id), exception: shapeException(ex, me.name) };
}

/** Scan exceptions for staff, newest first; `resolved` narrows to open or sorted-out ones. */
export async function scanExceptionPage(deps: Deps, q: z.output<typeof ScanExceptionQuery>, url: string): Promise<Page<ScanExceptionJson>> {
  const where = q.resolved ? eq(scanException.resolved, q.resolved === 'true') : undefined;
  const count =
    (
      await deps.db
        .select({ n: sql<number>`count(*)` })
        .from(scanException)
        .where(where)
        .get()
    )?.n ?? 0;
  const rows = await deps.db
    .select({ e: scanException, name: userTable.name })
    .from(scanException)
    .leftJoin(userTable, eq(userTable.id, scanException.actor_id))
    .where(where)
    .orderBy(sql`${scanException.id} desc`)
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size)
    .all();
  return { count, ...pageLinks(url, q.page, q.page_size, count), results: rows.map((r) => shapeException(r.e, r.name)) };
}

/** Staff mark an exception sorted out, with a note naming what they found (a parcel id, if any). */
export async function resolveScanException(
  deps: Deps,
  me: SessionUser,
  id: number,
  body: z.output<typeof ResolveBody>,
): Promise<ScanExceptionJson> {
  const ex = await deps.db.select().from(scanException).where(eq(scanException.id, id)).get();
  if (!ex) throw notFound(`Scan exception ${id} not found`);
  const note = [body.note, body.package != null ? `parcel ${body.package}` : undefined].filter(Boolean).join('; ') || null;
  const updated = await deps.db
    .update(scanException)
    .set({ resolved: true, resolved_by: me.id, resolved_at: deps.clock.now(), resolution_note: note })
    .where(eq(scanException.id, ex.id))
    .returning()
    .get();
  const actor =
    ex.actor_id != null
      ? (await deps.db.select({ name: userTable.name }).from(userTable).where(eq(userTable.id, ex.actor_id)).get())?.name
      : null;
  return shapeException(updated ?? ex, actor ?? null);
}
