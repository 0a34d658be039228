import { and, desc, eq, gte, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { isStaff } from '../../../shared/roles';
import type { ListQuery, Page } from '../../../shared/schemas/common';
import type { PackageListQuery, Proof } from '../../../shared/schemas/delivery';
import type { Db } from '../../db/client';
import { deliveryRecord, packagePhoto, pkg } from '../../db/schema/index';
import { pageLinks } from '../../resources/list';
import type { SessionUser } from '../auth/session';
import { dayStart } from './history';
import { proofsOf } from './proof';
import { packageScope } from './scope';

const hasProof = sql`exists (select 1 from ${packagePhoto} where ${packagePhoto.package_id} = ${pkg.id})`;

/** Parcels under `where` with their proof, newest delivery first. */
async function proofPage(db: Db, where: SQL | undefined, q: { page: number; page_size: number }, url: string): Promise<Page<Proof>> {
  const count = (await db.select({ n: sql<number>`count(*)` }).from(pkg).leftJoin(deliveryRecord, eq(deliveryRecord.package_id, pkg.id)).where(where).get())?.n ?? 0;
  const rows = await db.select({ p: pkg }).from(pkg).leftJoin(deliveryRecord, eq(deliveryRecord.package_id, pkg.id)).where(where)
    .orderBy(desc(pkg.delivered_at), desc(pkg.id)).limit(q.page_size).offset((q.page - 1) * q.page_size).all();
  return { count, ...pageLinks(url, q.page, q.page_size, count), results: await proofsOf(db, rows.map((r) => r.p)) };
}

/**
 * Delivered parcels with their proof: a driver the deliveries they made, a company its parcels,
 * staff all (`driver` narrows to one); `date_from`/`date_to` are UTC days of the delivery.
 */
export function deliveredPage(db: Db, user: SessionUser, q: z.output<typeof PackageListQuery>, url: string): Promise<Page<Proof>> {
  return proofPage(db, and(
    eq(pkg.status, 'delivered'), isNull(pkg.deleted_at),
    user.role === 'driver' ? eq(deliveryRecord.driver_id, user.id) : packageScope(user),
    q.driver != null && isStaff(user.role) ? eq(deliveryRecord.driver_id, q.driver) : undefined,
    q.date_from ? gte(pkg.delivered_at, dayStart(q.date_from)) : undefined,
    q.date_to ? lt(pkg.delivered_at, dayStart(q.date_to) + 86_400_000) : undefined,
  ), q, url);
}

/**
 * Parcels with any proof (photos, signature or a delivery record): a driver those they hold or
 * delivered, others as their package scope allows; `package` narrows to one.
 */
export function proofUploadPage(db: Db, user: SessionUser, q: z.output<typeof ListQuery> & { package?: number }, url: string): Promise<Page<Proof>> {
  return proofPage(db, and(isNull(pkg.deleted_at), or(hasProof, sql`${deliveryRecord.id} is not null`),
    user.role === 'driver' ? or(eq(pkg.assigned_to_id, user.id), eq(deliveryRecord.driver_id, user.id)) : packageScope(user),
    q.package != null ? eq(pkg.id, q.package) : undefined), q, url);
}
