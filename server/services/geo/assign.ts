import { inArray } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { suburb, zone } from '../../db/schema/index';
import { ApiError } from '../../errors';
import { requireParent, type Row } from './hierarchy';

/**
 * Puts many suburbs in one zone (or in none, with `zoneId` null) in one statement: either every id
 * is a live suburb and all move, or the call is refused naming the ids that are not.
 */
export async function assignSuburbsToZone(deps: Deps, zoneId: number | null, suburbIds: number[]): Promise<Row[]> {
  const { db } = deps;
  if (zoneId != null) await requireParent(db, zone, zoneId, 'zone', 'zone');
  const wanted = [...new Set(suburbIds)];
  const found = await db.select({ id: suburb.id, deleted_at: suburb.deleted_at }).from(suburb).where(inArray(suburb.id, wanted)).all();
  const known = new Map(found.map((s) => [s.id, s]));
  const missing = wanted.filter((id) => !known.has(id));
  const archived = wanted.filter((id) => known.get(id)?.deleted_at != null);
  if (missing.length || archived.length) {
    const errors = [
      ...missing.map((id) => ({ path: 'suburbs', message: `no suburb ${id}` })),
      ...archived.map((id) => ({ path: 'suburbs', message: `suburb ${id} is archived` })),
    ];
    const parts = [
      missing.length ? `unknown suburb ids: ${missing.join(', ')}` : '',
      archived.length ? `archived suburb ids: ${archived.join(', ')}` : '',
    ];
    throw new ApiError(400, 'validation_error', `Nothing assigned: ${parts.filter(Boolean).join('; ')}`, errors, { missing, archived });
  }
  await db.update(suburb).set({ zone_id: zoneId, updated_at: deps.clock.now() }).where(inArray(suburb.id, wanted)).run();
  return (await db.select().from(suburb).where(inArray(suburb.id, wanted)).orderBy(suburb.name, suburb.id).all()) as Row[];
}
