import { and, inArray } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { pkg } from '../../db/schema/index';
import { ApiError, conflict } from '../../errors';
import type { SessionUser } from '../auth/session';
import { updatePackage } from './lifecycle';
import { packageScope } from './scope';

/** A parcel in a driver's hands stays visible until it is delivered, returned or unassigned. */
const WITH_DRIVER = ['assigned', 'out_for_delivery', 'failed'];

/**
 * Archives or restores parcels the caller may see, all or nothing; unknown ids (or another
 * company's) are a 400 naming them. Answers the ids this call changed: already archived (or
 * already active) ones are left alone.
 */
export async function setPackagesArchived(deps: Deps, user: SessionUser, ids: number[], archive: boolean): Promise<number[]> {
  const { db } = deps;
  const wanted = [...new Set(ids)];
  const found = await db
    .select()
    .from(pkg)
    .where(and(inArray(pkg.id, wanted), packageScope(user)))
    .all();
  const known = new Set(found.map((r) => r.id));
  const missing = wanted.filter((id) => !known.has(id));
  if (missing.length) {
    throw new ApiError(
      400,
      'validation_error',
      `Unknown package ids: ${missing.join(', ')}`,
      missing.map((id) => ({ path: 'deleted', message: `no package ${id}` })),
    );
  }
  const target = found.filter((r) => (archive ? r.deleted_at == null : r.deleted_at != null));
  if (archive) {
    const busy = target.filter((r) => WITH_DRIVER.includes(r.status));
    if (busy.length) {
      throw conflict(`Package(s) ${busy.map((r) => r.hawb).join(', ')} are with a driver; unassign or finish them first`, {
        packages: busy.map((r) => ({ id: r.id, hawb: r.hawb, status: r.status })),
      });
    }
  }
  const now = deps.clock.now();
  for (const row of target) {
    await updatePackage(db, now, row, { deleted_at: archive ? now : null }, archive ? 'archive' : 'restore', { userId: user.id });
  }
  return target.map((r) => r.id);
}
