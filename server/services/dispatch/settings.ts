import { eq } from 'drizzle-orm';
import { PlanSettings, type PlanRequest, type PlanRules } from '../../../shared/schemas/dispatch';
import type { Db } from '../../db/client';
import { dispatchSetting } from '../../db/schema/index';
import { audit } from '../audit/record';

const ROW = 1;

/** The office's plan settings (issue 32); none saved = distance only, no limits, as before. */
export async function planSettings(db: Db): Promise<PlanSettings> {
  const row = await db.select().from(dispatchSetting).where(eq(dispatchSetting.id, ROW)).get();
  // Stored JSON passed the same schema when it was written; a parse failure here means a hand edit.
  return PlanSettings.parse(row ? JSON.parse(row.rules) : {});
}

/** Replaces the plan settings, with an audit line of what changed. */
export async function setPlanSettings(db: Db, now: number, actor: number, body: PlanSettings): Promise<PlanSettings> {
  const before = await planSettings(db);
  const rules = JSON.stringify(body);
  await db
    .insert(dispatchSetting)
    .values({ id: ROW, rules, updated_at: now, updated_by: actor })
    .onConflictDoUpdate({ target: dispatchSetting.id, set: { rules, updated_at: now, updated_by: actor } })
    .run();
  await audit(db, now, actor, 'update', 'dispatch_setting:1', { before, after: body });
  return planSettings(db);
}

const RULE_KEYS = ['costs', 'break', 'max_route_minutes', 'max_stops', 'balance'] as const;

/** What a plan obeys: the stored settings, each part replaced by the request's own where it gives one. */
export function effectiveRules(settings: PlanSettings, req: Partial<PlanRequest>): Partial<PlanRules> {
  const out: Partial<PlanRules> = { ...settings, driver_skills: req.driver_skills ?? [], parcel_skills: req.parcel_skills ?? [] };
  for (const k of RULE_KEYS) if (req[k] !== undefined) Object.assign(out, { [k]: req[k] });
  return out;
}
