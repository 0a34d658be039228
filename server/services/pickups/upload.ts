import { and, eq, inArray } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { packageEvent, pkg } from '../../db/schema/index';
import type { SessionUser } from '../auth/session';
import type { Sheet } from '../packages/sheet';
import { importPackages, type UploadResult } from '../packages/upload';
import { usablePickupPoint } from './create';

export interface PickupUploadOptions {
  partial: boolean;
  defaultCompany?: number;
  pickupPoint?: number;
}

/**
 * Pickup parcels from a CSV/Excel sheet: the package importer validates and inserts the rows (one
 * parser for every upload), then, in the same transaction, the new rows start life as
 * `pickup_requested` instead of `created`, with their creation events saying so.
 */
export async function importPickups(deps: Deps, user: SessionUser, sheet: Sheet, opts: PickupUploadOptions): Promise<UploadResult> {
  const { db } = deps;
  const companyForPoint = user.role === 'company' ? user.companyId : (opts.defaultCompany ?? null);
  const point = opts.pickupPoint != null ? await usablePickupPoint(db, companyForPoint, opts.pickupPoint) : null;
  const result = await importPackages(deps, user, sheet, { partial: opts.partial, defaultCompany: opts.defaultCompany });
  const ids = result.report.filter((r) => r.status === 'created' && r.id != null).map((r) => r.id as number);
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    await db
      .update(pkg)
      .set({ status: 'pickup_requested', pickup_point_id: point?.id ?? null })
      .where(inArray(pkg.id, chunk))
      .run();
    await db
      .update(packageEvent)
      .set({ action: 'pickup_upload', from_status: 'pickup_requested', to_status: 'pickup_requested' })
      .where(and(inArray(packageEvent.package_id, chunk), eq(packageEvent.action, 'upload')))
      .run();
  }
  // importPackages already queued package.created for these rows.
  return result;
}
