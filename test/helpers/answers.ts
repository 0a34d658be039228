import { sql } from 'drizzle-orm';
import type { Db } from '../../server/db/client';
import { answerDriftQuery } from '../../server/db/engine/answerStore';
import { answerSource } from '../../server/db/engine/packageAnswer';

/** Parcels whose stored answer is stale, missing or left over (server/db/engine/answerStore.ts): 0 when the triggers hold. */
export async function answerDrift(db: Db): Promise<number> {
  const kind = db.$engine.kind;
  const rows = (await db.all(sql.raw(answerDriftQuery(kind, answerSource(kind))))) as unknown[][];
  return Number(rows[0]?.[0]);
}

/** A parcel's stored answer, parsed; undefined when it has none (ended parcels). */
export async function storedAnswer(db: Db, id: number): Promise<Record<string, unknown> | undefined> {
  const rows = (await db.all(sql`select json from package_answer where package_id = ${id}`)) as unknown[][];
  return rows[0] ? (JSON.parse(rows[0][0] as string) as Record<string, unknown>) : undefined;
}
