import type { Db } from '../../db/client';
import type { pkg } from '../../db/schema/index';
import type { Package } from '../../../shared/schemas/package';
import { rawArray } from '../../http/rawJson';
import { packageJsonByIds } from './json';

export type PackageRow = typeof pkg.$inferSelect;

/** The packages of `ids` as objects, in that order; ids with no package are skipped. */
export async function packagesByIds(db: Db, ids: readonly number[]): Promise<Package[]> {
  if (!ids.length) return [];
  return JSON.parse(rawArray(await packageJsonByIds(db, ids)).text) as Package[];
}
