import type { Db } from '../../db/client';
import type { PackageStatus } from '../../../shared/lifecycle';
import type { RecipientEvent } from '../../../shared/schemas/recipients';
import { enqueueMessage } from '../messages/outbox';
import type { PackageRow } from '../packages/shape';
import { etaWindowFor } from './eta';
import { ensureRecipient, nextStops, recipientOf } from './recipient';
import { effectiveSettings } from './settings';
import { ensureCode } from '../door/code';

/** The status a parcel enters -> what its recipient hears. */
const EVENT_OF: Partial<Record<PackageStatus, RecipientEvent>> = {
  out_for_delivery: 'out_for_delivery',
  delivered: 'delivered',
  failed: 'failed',
  returned_to_sender: 'returned_to_sender',
};

/**
 * Queues the recipient's messages for one event of one parcel, per channel the company sends on and
 * the recipient can be reached by. Text is rendered when sent (render.ts): opting out in between
 * still stops it. `occurrence` keeps one message per event and attempt, however often it is queued.
 */
/** What a message says besides the parcel: given as a function when finding it costs a query, asked only when a message is queued. */
type MessageData = Record<string, unknown> | (() => Promise<Record<string, unknown>>);

export async function notifyRecipient(
  db: Db,
  now: number,
  row: Pick<PackageRow, 'id' | 'company_id' | 'customer_phone'>,
  event: RecipientEvent,
  occurrence: string,
  given: MessageData = {},
): Promise<number> {
  if (row.company_id == null) return 0;
  const settings = await effectiveSettings(db, row.company_id);
  if (!settings || !settings.events.includes(event)) return 0;
  const recipient = await recipientOf(db, row.id);
  if (recipient?.opted_out_at != null) return 0;
  const targets: { channel: 'email' | 'sms'; to: string }[] = [];
  if (settings.channels.includes('email') && recipient?.email) targets.push({ channel: 'email', to: recipient.email });
  if (settings.channels.includes('sms') && row.customer_phone?.trim()) targets.push({ channel: 'sms', to: row.customer_phone.trim() });
  if (!targets.length) return 0;
  await ensureRecipient(db, now, row.id, recipient);
  const data = typeof given === 'function' ? await given() : given;
  let queued = 0;
  for (const t of targets) {
    if (
      await enqueueMessage(db, now, {
        channel: t.channel,
        to: t.to,
        kind: event,
        data,
        companyId: row.company_id,
        packageId: row.id,
        dedupeKey: `${event}:${row.id}:${occurrence}:${t.channel}`,
      })
    )
      queued += 1;
  }
  return queued;
}

/**
 * The lifecycle's hook (lifecycle.ts `updatePackage`), in the transaction of the change: the
 * parcel's own event, and "arriving soon" for the driver's next parcels when a stop is done.
 */
export async function recipientHook(
  db: Db,
  now: number,
  before: PackageRow,
  after: PackageRow,
  to: PackageStatus | null,
  reason: string | null,
): Promise<void> {
  if (to == null) return;
  const event = EVENT_OF[to];
  if (event === 'out_for_delivery') {
    // A parcel that needs a one-time code gets it now, whether or not a message can carry it (the office can read it out).
    await ensureCode(db, now, after);
    await notifyRecipient(db, now, after, event, String(after.attempts), async () => {
      const eta = await etaWindowFor(db, after.id);
      return eta ? { eta_from: eta.from, eta_to: eta.to } : {};
    });
  } else if (event === 'failed') {
    await notifyRecipient(db, now, after, event, String(after.attempts), { reason });
  } else if (event) {
    await notifyRecipient(db, now, after, event, 'final');
  }
  if (before.status === 'out_for_delivery' && to !== 'out_for_delivery' && before.assigned_to_id != null)
    await arrivingSoon(db, now, before.assigned_to_id);
}

/** After a stop is done: each of the driver's parcels now within its company's N stops hears so, once per attempt. */
export async function arrivingSoon(db: Db, now: number, driverId: number): Promise<void> {
  for (const [index, s] of (await nextStops(db, driverId)).entries()) {
    if (s.company_id == null || index >= s.stopsAway) continue;
    // "2 stops away": one stop before this one, then this one.
    await notifyRecipient(db, now, s, 'arriving_soon', String(s.attempts), { stops_away: index + 1 });
  }
}
