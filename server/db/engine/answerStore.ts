import { createHash } from 'node:crypto';
import type { EngineKind } from './types';
import { isDistinctFrom } from './dialect';

/**
 * The stored Package answers (`package_answer`), kept by triggers on either engine
 * (sqliteAnswers.ts, postgresAnswers.ts): a live parcel's answer JSON is read ready-made instead of
 * built from ~67 members on every list. What the triggers are made from comes from the package
 * service (server/services/packages/json.ts `answerSource`), which owns the answer's shape.
 */
export interface AnswerSource {
  /** `select "package"."id", <answer json as text> as "json" from "package"` with no WHERE. */
  select: string;
  /** SQL list of the statuses that end a parcel, e.g. `'delivered', 'cancelled'`. */
  finalStatuses: string;
  /** Lookup tables whose `name` the answer shows, with the package column that points at them. */
  lookups: readonly { table: string; column: string }[];
  /** Tables whose rows are part of the answer (a parcel's failed attempts) and their parcel column. */
  children: readonly { table: string; column: string }[];
}

export const ANSWER_PREFIX = 'package_answer_';

/** "Still in play" over the answer select's `package` row. */
export const liveWhere = (src: AnswerSource): string => `"package"."status" not in (${src.finalStatuses})`;

/** Names the triggers (and functions) made from `src`: another expression, another tag. */
export function answerTag(src: AnswerSource): string {
  return createHash('sha256').update(JSON.stringify(src)).digest('hex').slice(0, 12);
}

/**
 * How many parcels' stored answers differ from the ones built now, are missing, or should not be
 * there (an ended or deleted parcel): always 0 unless a trigger misses a case. Tests run it after each test.
 */
export function answerDriftQuery(kind: EngineKind, src: AnswerSource): string {
  const differs = isDistinctFrom(kind);
  const live = liveWhere(src);
  return `select
      (select count(*) from (${src.select} where ${live}) b left join package_answer a on a.package_id = b.id where a.json ${differs} b.json)
    + (select count(*) from package_answer a where not exists (select 1 from package p where p.id = a.package_id and p.status not in (${src.finalStatuses})))`;
}
