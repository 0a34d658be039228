import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { failedDeliveryStatus } from '../../db/schema/index';
import { logSharedChange } from '../sync/changes';

/**
 * The reasons a driver picks from when a delivery fails, as a new courier starts with them (issue 36:
 * none were seeded, so the first failed delivery could not be recorded). The office edits the list
 * under Settings; these are only where it starts.
 */
export const DEFAULT_FAILURE_REASONS = [
  'Nobody home',
  'Address not found',
  'Refused by the recipient',
  'Business closed',
  'No safe place to leave it',
  'Access denied (gate, building or security)',
  'Damaged in transit',
] as const;

/**
 * Seeds the default reasons into a courier that has none (archived ones count). Called only when the
 * first admin is created, so a list the office later empties on purpose stays empty. Answers how many
 * were added. Phones learn them through the shared change feed like any reason the office adds, so it
 * runs in a unit of work.
 */
export async function seedFailureReasons(db: Db, now: number): Promise<number> {
  const had =
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(failedDeliveryStatus)
        .get()
    )?.n ?? 0;
  if (Number(had) > 0) return 0;
  const rows = await db
    .insert(failedDeliveryStatus)
    .values(DEFAULT_FAILURE_REASONS.map((name) => ({ name, created_at: now, updated_at: now })))
    .returning({ id: failedDeliveryStatus.id })
    .all();
  await logSharedChange(
    db,
    'failed_delivery_status',
    rows.map((r) => r.id),
    'upsert',
    now,
  );
  return rows.length;
}
