import type { Db } from '../../db/client';
import { conflict } from '../../errors';
import type { SessionUser } from '../auth/session';
import { findPackage } from '../packages/lifecycle';
import type { PackageRow } from '../packages/shape';
import { visiblePackage } from '../packages/scope';
import { visibleInHistory } from './read';

/** A cold parcel is read-only: every change to it is refused with this (docs/decisions-data-layer.md, "Cold storage"). */
export const inHistory = (id: number | string) =>
  conflict(`Package ${id} was final long ago and moved to history: it can be read, searched and reported on, but no longer changed`, {
    reason: 'in_history',
    package: Number(id),
  });

/**
 * The hot parcel `id` as this caller may see it. A parcel the caller could see that has moved to
 * history answers 409 (details.reason `in_history`) (not 404: it exists); anything else unseen answers 404 as before.
 */
export async function livePackage(db: Db, user: SessionUser, id: number): Promise<PackageRow> {
  const row = await findPackage(db, id);
  if (!row && (await visibleInHistory(db, user, id))) throw inHistory(id);
  return visiblePackage(user, row, id);
}
