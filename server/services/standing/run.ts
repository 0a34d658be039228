import { and, eq, isNull } from 'drizzle-orm';
import { localDay, localTimeToInstant } from '../../../shared/time/zone';
import { atomically } from '../../db/atomically';
import { publicHoliday, standingDelivery, standingRun } from '../../db/schema/index';
import type { Deps } from '../../deps';
import { ApiError } from '../../errors';
import { backgroundLoop, type BackgroundLoop } from '../background/loop';
import { checkCompanyActive, insertNewPackage } from '../packages/create';
import { businessZone } from '../time/zones';

/**
 * Standing deliveries (issue 34, docs/decisions-cod.md): each pass creates today's parcel of every
 * active rule that runs today in the business's local time (its weekday, inside its dates, not a
 * listed public holiday). The run row (unique per rule and day) is the claim: inserted in the same
 * unit as the parcel, so two runners, or two passes, create one parcel per rule per day.
 */

export type StandingRule = typeof standingDelivery.$inferSelect;

/** ISO weekday (1 = Monday .. 7 = Sunday) of a calendar day. */
export function isoWeekday(day: string): number {
  const d = new Date(`${day}T00:00:00Z`).getUTCDay();
  return d === 0 ? 7 : d;
}

/** Whether a rule makes a parcel on a local day (pure: the job and its tests share it). */
export function runsOn(
  rule: Pick<StandingRule, 'weekdays' | 'starts_on' | 'ends_on' | 'is_active' | 'deleted_at'>,
  day: string,
  holidays: ReadonlySet<string>,
): boolean {
  if (!rule.is_active || rule.deleted_at != null) return false;
  if (rule.starts_on && day < rule.starts_on) return false;
  if (rule.ends_on && day > rule.ends_on) return false;
  if (holidays.has(day)) return false;
  return rule.weekdays.includes(String(isoWeekday(day)));
}

export const standingHawb = (ruleId: number, day: string) => `SD${ruleId}-${day.replace(/-/g, '')}`;

type RunDeps = Deps;

/** One rule's parcel for a day, created once; answers whether this call created it. */
async function runRule(deps: RunDeps, rule: StandingRule, day: string, zone: string): Promise<boolean> {
  return await atomically(deps, async () => {
    const now = deps.clock.now();
    const claim = await deps.db
      .insert(standingRun)
      .values({ rule_id: rule.id, day, due_at: localTimeToInstant(day, rule.at_time, zone), created_at: now })
      .onConflictDoNothing()
      .returning()
      .get();
    if (!claim) return false;
    await checkCompanyActive(deps.db, rule.company_id);
    const row = await insertNewPackage(
      deps,
      {
        company_id: rule.company_id,
        shipper_name: rule.shipper_name,
        shipper_address: rule.shipper_address,
        customer_name: rule.customer_name,
        customer_address: rule.customer_address,
        customer_phone: rule.customer_phone,
        postcode: rule.postcode,
        suburb_id: rule.suburb_id,
        description_of_goods: rule.description_of_goods || rule.name,
        weight: rule.weight,
        delivery_date: day,
      },
      standingHawb(rule.id, day),
      'created',
      {},
      { userId: rule.created_by },
      'standing_create',
    );
    await deps.db.update(standingRun).set({ package_id: row.id }).where(eq(standingRun.id, claim.id)).run();
    return true;
  });
}

/**
 * Today's parcels of every rule (today in the business's zone at `deps.clock`). A rule that cannot run
 * (its company suspended, a prepaid wallet short) leaves no claim and is tried again next pass; the
 * others go on. Answers how many parcels were created.
 */
export async function runStandingDeliveries(deps: RunDeps, log?: (line: string) => void): Promise<number> {
  const zone = await businessZone(deps);
  const day = localDay(deps.clock.now(), zone);
  const holiday = await deps.db
    .select({ id: publicHoliday.id })
    .from(publicHoliday)
    .where(and(eq(publicHoliday.day, day), eq(publicHoliday.is_active, true), isNull(publicHoliday.deleted_at)))
    .get();
  const holidays = new Set(holiday ? [day] : []);
  const rules = await deps.db
    .select()
    .from(standingDelivery)
    .where(and(eq(standingDelivery.is_active, true), isNull(standingDelivery.deleted_at)))
    .all();
  let created = 0;
  for (const rule of rules) {
    if (!runsOn(rule, day, holidays)) continue;
    try {
      if (await runRule(deps, rule, day, zone)) created += 1;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      log?.(`[standing] rule ${rule.id} on ${day}: ${err.message}`);
    }
  }
  return created;
}

/** The job as the server runs it: every five minutes in the background worker. */
export function standingDeliveryJob(deps: RunDeps, log?: (line: string) => void): BackgroundLoop {
  return backgroundLoop(() => runStandingDeliveries(deps, log), { name: 'standing', intervalMs: 5 * 60_000, log });
}
