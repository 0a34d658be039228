import { and, eq, inArray } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { deliveryRating, deliveryRecord, messageOutbox, packageRecipient } from '../../db/schema/index';
import { badRequest, conflict } from '../../errors';
import { recordEvent, updatePackage } from '../packages/lifecycle';
import { recordOptOut } from '../messages/outbox';
import { logPackageChange } from '../sync/changes';
import { isCold } from '../history/kept';
import { inHistory } from '../history/live';
import { ratingOf, rescheduleWindow, type Tracked } from './view';

const RECIPIENT = { userId: null } as const;

/**
 * Delivery instructions or a safe place ("behind the side gate"). They reach the driver's phone
 * through the change feed (the parcel's feed row), so the driver sees them offline too.
 */
export async function leaveInstructions(deps: Deps, t: Tracked, instructions: string): Promise<void> {
  const { parcel } = t;
  if (['delivered', 'returned', 'returned_to_sender', 'cancelled'].includes(parcel.status)) {
    throw conflict('This parcel is no longer on its way; instructions can no longer reach the driver', { status: parcel.status });
  }
  const now = deps.clock.now();
  await deps.db
    .update(packageRecipient)
    .set({ instructions: instructions || null, instructions_at: now, updated_at: now })
    .where(eq(packageRecipient.package_id, parcel.id))
    .run();
  await recordEvent(deps.db, now, parcel, 'recipient_instructions', RECIPIENT, { note: instructions || null });
  await logPackageChange(deps.db, parcel.id, { driverId: parcel.assigned_to_id, companyId: parcel.company_id }, now);
}

/**
 * After a failed attempt the recipient picks another day within the company's window: the parcel
 * leaves its route and goes back to the pool for that date (planning picks it up from there).
 */
export async function chooseAnotherDay(deps: Deps, t: Tracked, date: string): Promise<string> {
  const window = await rescheduleWindow(deps, t.parcel, t.settings);
  if (!window) throw conflict('Another day can be chosen only after a failed attempt, while attempts remain', { status: t.parcel.status });
  if (date < window.earliest || date > window.latest) {
    throw badRequest(`Choose a day from ${window.earliest} to ${window.latest}`, [{ path: 'date', message: 'outside the allowed days' }]);
  }
  const now = deps.clock.now();
  await updatePackage(
    deps.db,
    now,
    t.parcel,
    { delivery_date: date, route_id: null, sequence_no: null },
    'recipient_reschedule',
    RECIPIENT,
    { data: { date } },
  );
  return date;
}

/** One rating per delivered parcel, credited to the driver who delivered it. */
export async function rateDelivery(deps: Deps, t: Tracked, rating: number, comment: string | null): Promise<void> {
  if (t.parcel.status !== 'delivered') throw conflict('Only a delivered parcel can be rated', { status: t.parcel.status });
  if (await ratingOf(deps, t.parcel)) throw conflict('This delivery was already rated');
  // A parcel in history is read-only: its rating was the one change left (docs/decisions-data-layer.md, "Cold storage").
  if (isCold(t.parcel)) throw inHistory(t.parcel.id);
  const record = await deps.db
    .select({ driver: deliveryRecord.driver_id })
    .from(deliveryRecord)
    .where(eq(deliveryRecord.package_id, t.parcel.id))
    .get();
  await deps.db
    .insert(deliveryRating)
    .values({
      package_id: t.parcel.id,
      driver_id: record?.driver ?? t.parcel.assigned_to_id,
      company_id: t.parcel.company_id,
      rating,
      comment: comment || null,
      created_at: deps.clock.now(),
    })
    .run();
}

/**
 * Stops every message to this parcel's recipient at once: the parcel is marked, both addresses go
 * on the company's opt-out list (so the next parcel is silent too), and queued messages are dropped.
 */
export async function optOut(deps: Deps, t: Tracked): Promise<void> {
  const now = deps.clock.now();
  const { parcel, recipient } = t;
  if (parcel.company_id != null) {
    if (recipient.email) await recordOptOut(deps.db, now, parcel.company_id, 'email', recipient.email);
    if (parcel.customer_phone?.trim()) await recordOptOut(deps.db, now, parcel.company_id, 'sms', parcel.customer_phone);
  }
  // A parcel in history is never changed and nothing more is sent about it, but the company's list is
  // not the parcel's: a recipient stopping messages from an old link is heard for the next parcel.
  if (isCold(parcel)) return;
  await deps.db
    .update(packageRecipient)
    .set({ opted_out_at: now, updated_at: now })
    .where(eq(packageRecipient.package_id, parcel.id))
    .run();
  await deps.db
    .update(messageOutbox)
    .set({ status: 'skipped', last_error: 'recipient opted out', updated_at: now })
    .where(and(eq(messageOutbox.package_id, parcel.id), inArray(messageOutbox.status, ['pending'])))
    .run();
}
