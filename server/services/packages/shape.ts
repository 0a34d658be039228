import { asc, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orderNulls } from '../../db/engine/dialect';
import { pkg } from '../../db/schema/index';
import type { Package } from '../../../shared/schemas/package';
import { rawArray } from '../../http/rawJson';
import { packageJsonByIds } from './json';

export type PackageRow = typeof pkg.$inferSelect;

/**
 * Route order, the same on both engines and on the phone (client/sync/view.ts): by place on the
 * route, parcels with none (not sequenced yet) after those with one, then by id.
 */
export const routeOrder = (): SQL[] => [orderNulls(pkg.sequence_no, 'asc', 'last'), asc(pkg.id)];

/** The packages of `ids` as objects, in that order; ids with no package are skipped. */
export async function packagesByIds(db: Db, ids: readonly number[]): Promise<Package[]> {
  if (!ids.length) return [];
  return JSON.parse(rawArray(await packageJsonByIds(db, ids)).text) as Package[];
}
