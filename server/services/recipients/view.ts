import { doorRow, parcelRequirements } from '../door/rules';
import { choiceOf } from '../door/choice';
import type { DoorChecked } from '../../../shared/door';
import { and, asc, desc, eq, isNotNull } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { deliveryAttempt, deliveryRating, deliveryRecord, packageEvent, packagePhoto, storedFile, suburb } from '../../db/schema/index';
import { PROOF_KINDS, type FileKind } from '../files/store';
import { iso } from '../../clock';
import { notFound } from '../../errors';
import { isPackageStatus, mustReturn, STATUS_LABELS, type PackageStatus } from '../../../shared/lifecycle';
import { PHOTO_SLOTS, type ProofSlot } from '../../../shared/schemas/delivery';
import type { RecipientView } from '../../../shared/schemas/recipients';
import { findPackage } from '../packages/lifecycle';
import { isCold, keptDeliveryRecord, keptEvents, keptPhotos, keptRating, keptRecipientByToken } from '../history/kept';
import type { PackageRow } from '../packages/shape';
import { lastPositionOf } from '../routes/positions';
import { etaWindowFor } from './eta';
import { recipientByToken, stopsBefore, type RecipientRow } from './recipient';
import { nextStepText } from './render';
import { depotZone } from '../time/zones';
import { addDays, localDay } from '../../../shared/time/zone';
import { isOptedOut, type Channel } from '../messages/outbox';
import { effectiveSettings, type EffectiveSettings } from './settings';

/** Public calls per address and minute (page loads, polls, actions together). */
export const RECIPIENT_LIMIT = 60;
export const RECIPIENT_WINDOW_MS = 60_000;
/** A position older than this says nothing about where the van is now. */
export const POSITION_MAX_AGE_MS = 15 * 60_000;
/**
 * The van is shown only within this many stops of the parcel, whatever the company's `stops_away`
 * (which may reach 20 for its "arriving soon" messages): a company holding its own links must not
 * follow its driver for much of the day.
 */
export const POSITION_STOPS_MAX = 3;
/** The position is snapped to a grid of this many degrees (about 220 m north-south, 185 m east-west in Sydney). */
export const POSITION_GRID_DEG = 0.002;

/** Snaps a coordinate to the grid: the van's street block, not its GPS fix. */
export const coarse = (deg: number) => Math.round(Math.round(deg / POSITION_GRID_DEG) * POSITION_GRID_DEG * 1000) / 1000;

const fileUrl = (token: string, fileId: number) => `/api/public/track/${token}/file/${fileId}/`;

export interface Tracked {
  recipient: RecipientRow;
  parcel: PackageRow;
  settings: EffectiveSettings;
}

/**
 * Counts a public recipient call from `address`; 429 past the limit. Call it before any unit of
 * work: on PostgreSQL the count takes a pooled connection of its own (units holding every connection
 * would wait for it for good), and a retried unit would count again. The POST routes count in `prepare`.
 */
export async function limitRecipient(deps: Deps, address: string): Promise<void> {
  await deps.limiter.hit(`recipient:${address}`, RECIPIENT_LIMIT, RECIPIENT_WINDOW_MS, deps.clock.now());
}

/**
 * The parcel a tracking link names, after the address's rate limit. Every public recipient call
 * starts here (or at `findTracked` once `prepare` counted it): a wrong or archived token is the same
 * 404 as one that never existed.
 */
export async function tracked(deps: Deps, token: string, address: string): Promise<Tracked> {
  await limitRecipient(deps, address);
  return findTracked(deps, token);
}

/** `tracked` for a caller that counted the call already (`limitRecipient`). */
export async function findTracked(deps: Deps, token: string): Promise<Tracked> {
  const hot = await recipientByToken(deps.db, token);
  const hotParcel = hot ? await findPackage(deps.db, hot.package_id) : undefined;
  // A parcel moved to history keeps its link: its token is indexed beside it (docs/decisions-data-layer.md, "Cold storage").
  const cold = hot ? undefined : await keptRecipientByToken(deps.db, token);
  const recipient = hot ?? cold?.recipient;
  const parcel = hotParcel ?? cold?.parcel;
  const settings = parcel?.company_id != null ? await effectiveSettings(deps.db, parcel.company_id) : undefined;
  if (!recipient || !parcel || parcel.deleted_at != null || !settings) throw notFound('This tracking link is not valid');
  return { recipient, parcel, settings };
}

/** When the parcel last went out for delivery (null when it is not out now). */
async function outSince(deps: Deps, parcel: PackageRow): Promise<number | null> {
  if (parcel.status !== 'out_for_delivery') return null;
  const e = await deps.db
    .select({ at: packageEvent.received_at })
    .from(packageEvent)
    .where(and(eq(packageEvent.package_id, parcel.id), eq(packageEvent.to_status, 'out_for_delivery')))
    .orderBy(desc(packageEvent.id))
    .limit(1)
    .get();
  return e?.at ?? null;
}

/**
 * Roughly where the van is (snapped to POSITION_GRID_DEG), shown only while all of these hold: the
 * parcel is out for delivery, it went out today, it is within the company's last N stops and at most
 * POSITION_STOPS_MAX, and the driver's newest reading is from the last few minutes. Never before (a
 * recipient cannot follow a driver around all day) nor after delivery.
 */
export async function visiblePosition(deps: Deps, parcel: PackageRow, settings: EffectiveSettings, stops: number | null) {
  const now = deps.clock.now();
  if (parcel.status !== 'out_for_delivery' || parcel.assigned_to_id == null || stops == null) return null;
  if (stops + 1 > Math.min(settings.stopsAway, POSITION_STOPS_MAX)) return null;
  const since = await outSince(deps, parcel);
  if (since == null) return null;
  // "Went out today" on the recipient's calendar: the parcel's depot's day (issue 31).
  const zone = await depotZone(deps, parcel.warehouse_id);
  if (localDay(since, zone) !== localDay(now, zone)) return null;
  const p = await lastPositionOf(deps.db, parcel.assigned_to_id);
  if (!p || now - p.occurred_at > POSITION_MAX_AGE_MS || p.occurred_at < since) return null;
  return { latitude: coarse(p.latitude), longitude: coarse(p.longitude), at: iso(p.occurred_at) ?? '' };
}

/** The parcel's proof photos with their files' ids and types, a cold parcel's from its kept rows. */
async function proofFiles(deps: Deps, parcel: PackageRow): Promise<{ slot: string; id: number; mime: string }[]> {
  if (isCold(parcel)) return (await keptPhotos(deps.db, [parcel.id])).map(({ p, f }) => ({ slot: p.slot, id: f.id, mime: f.mime }));
  return await deps.db
    .select({ slot: packagePhoto.slot, id: storedFile.id, mime: storedFile.mime })
    .from(packagePhoto)
    .innerJoin(storedFile, eq(storedFile.id, packagePhoto.file_id))
    .where(eq(packagePhoto.package_id, parcel.id))
    .all();
}

async function proofOfParcel(deps: Deps, token: string, parcel: PackageRow): Promise<RecipientView['proof']> {
  if (parcel.status !== 'delivered') return null;
  const d = isCold(parcel)
    ? await keptDeliveryRecord(deps.db, parcel.id)
    : await deps.db.select().from(deliveryRecord).where(eq(deliveryRecord.package_id, parcel.id)).get();
  const files = await proofFiles(deps, parcel);
  const link = (f: { id: number; mime: string }) => ({ url: fileUrl(token, f.id), mime: f.mime });
  const photos = PHOTO_SLOTS.map((s) => files.find((f) => f.slot === s))
    .filter((f): f is NonNullable<typeof f> => f != null)
    .map(link);
  const signature = files.find((f) => f.slot === ('signature' satisfies ProofSlot));
  return {
    delivered_at: iso(parcel.delivered_at),
    recipient_name: d?.recipient_name ?? null,
    photos,
    signature: signature ? link(signature) : null,
  };
}

/** The last day a failed parcel may be moved to, and the first (tomorrow), or null when it cannot be moved. */
export async function rescheduleWindow(
  deps: Deps,
  parcel: PackageRow,
  settings: EffectiveSettings,
): Promise<{ earliest: string; latest: string } | null> {
  if (parcel.status !== 'failed' || mustReturn(parcel.attempts, deps.config.maxAttempts)) return null;
  // Days on the recipient's calendar: the parcel's depot's (issue 31).
  const today = localDay(deps.clock.now(), await depotZone(deps, parcel.warehouse_id));
  return { earliest: addDays(today, 1), latest: addDays(today, settings.rescheduleDays) };
}

/** What the door needs and what the recipient chose; a parcel in history keeps its row (no foreign key). */
async function doorView(db: Deps['db'], parcel: PackageRow, open: boolean): Promise<RecipientView['door']> {
  const door = await doorRow(db, parcel.id);
  return {
    requirements: await parcelRequirements(db, parcel, door ?? null),
    choice: choiceOf(door),
    checked: door?.checked ? (JSON.parse(door.checked) as DoorChecked) : null,
    can_choose: open,
  };
}

export async function recipientView(deps: Deps, t: Tracked): Promise<RecipientView> {
  const { db } = deps;
  const { parcel, recipient, settings } = t;
  const token = recipient.token;
  const status = parcel.status as PackageStatus;
  const place =
    parcel.suburb_id != null
      ? ((await db.select({ name: suburb.name }).from(suburb).where(eq(suburb.id, parcel.suburb_id)).get())?.name ?? parcel.postcode_name)
      : parcel.postcode_name;
  const cold = isCold(parcel);
  const moves = cold
    ? (await keptEvents(db, parcel.id))
        .filter((e) => e.to_status != null)
        .map((e) => ({ to: e.to_status, at: e.occurred_at, received: e.received_at }))
    : await db
        .select({ to: packageEvent.to_status, at: packageEvent.occurred_at, received: packageEvent.received_at })
        .from(packageEvent)
        .where(and(eq(packageEvent.package_id, parcel.id), isNotNull(packageEvent.to_status)))
        .orderBy(asc(packageEvent.id))
        .all();
  const events = moves
    .filter((e): e is { to: PackageStatus; at: number; received: number } => e.to != null && isPackageStatus(e.to))
    .filter((e, i, all) => i === 0 || all[i - 1]?.to !== e.to);
  const stops = await stopsBefore(db, parcel);
  const eta = status === 'out_for_delivery' ? await etaWindowFor(db, parcel.id) : null;
  const lastFailure =
    status === 'failed'
      ? await db
          .select({ reason: deliveryAttempt.reason })
          .from(deliveryAttempt)
          .where(eq(deliveryAttempt.package_id, parcel.id))
          .orderBy(desc(deliveryAttempt.id))
          .limit(1)
          .get()
      : undefined;
  const rating = await ratingOf(deps, parcel);
  const open = !['delivered', 'returned', 'returned_to_sender', 'cancelled'].includes(status);
  return {
    hawb: parcel.hawb,
    status,
    status_label: STATUS_LABELS[status],
    suburb: place ?? null,
    delivery_date: parcel.delivery_date,
    timeline: events.map((e) => ({ status: e.to, label: STATUS_LABELS[e.to], time: iso(Math.min(e.at, e.received)) ?? '' })),
    eta: eta ? { from: iso(eta.from) ?? '', to: iso(eta.to) ?? '' } : null,
    time_zone: await depotZone(deps, parcel.warehouse_id),
    stops_before: stops,
    driver_position: await visiblePosition(deps, parcel, settings, stops),
    proof: await proofOfParcel(deps, token, parcel),
    failure:
      status === 'failed'
        ? { reason: lastFailure?.reason ?? null, next_step: nextStepText(parcel.attempts, deps.config.maxAttempts) }
        : null,
    company: {
      name: settings.senderName,
      logo: settings.logoFileId != null ? { url: fileUrl(token, settings.logoFileId), mime: 'image' } : null,
    },
    instructions: recipient.instructions,
    can_leave_instructions: open,
    reschedule: await rescheduleWindow(deps, parcel, settings),
    rating: rating ? { rating: rating.rating, comment: rating.comment } : null,
    // A parcel in history is never changed: its page no longer offers a rating (one would be refused).
    can_rate: status === 'delivered' && !rating && !cold,
    opted_out: recipient.opted_out_at != null || (await onOptOutList(deps, parcel, recipient)),
    door: await doorView(deps.db, parcel, open),
  };
}

/**
 * Whether the company's opt-out list stops every message this parcel would send (its e-mail and its
 * phone): after the recipient stopped them on another parcel's page, or on this one once it is in
 * history (a parcel in history is never changed, so only the list holds that). Messages check the
 * same list (render.ts); one address listed and the other not means messages still come.
 */
async function onOptOutList(deps: Deps, parcel: PackageRow, recipient: RecipientRow): Promise<boolean> {
  const addresses = (
    [
      ['email', recipient.email],
      ['sms', parcel.customer_phone?.trim()],
    ] as const
  ).filter((pair): pair is readonly [Channel, string] => !!pair[1]);
  for (const [channel, address] of addresses) if (!(await isOptedOut(deps.db, parcel.company_id, channel, address))) return false;
  return addresses.length > 0;
}

/** The recipient's rating of this parcel, a cold parcel's from its kept rows. */
export async function ratingOf(deps: Deps, parcel: PackageRow) {
  return isCold(parcel)
    ? await keptRating(deps.db, parcel.id)
    : await deps.db.select().from(deliveryRating).where(eq(deliveryRating.package_id, parcel.id)).get();
}

/** A file the tracking page of this parcel may show: its proof once delivered, or its company's logo. Anything else is a 404. */
export async function trackedFile(deps: Deps, t: Tracked, fileId: number) {
  const isLogo = t.settings.logoFileId === fileId;
  const isProof =
    t.parcel.status === 'delivered' &&
    (isCold(t.parcel)
      ? (await keptPhotos(deps.db, [t.parcel.id])).some(({ p }) => p.file_id === fileId)
      : (await deps.db
          .select({ id: packagePhoto.id })
          .from(packagePhoto)
          .where(and(eq(packagePhoto.package_id, t.parcel.id), eq(packagePhoto.file_id, fileId)))
          .get()) !== undefined);
  if (!isLogo && !isProof) throw notFound('No such file on this tracking page');
  const row = await deps.db.select().from(storedFile).where(eq(storedFile.id, fileId)).get();
  // Shown publicly only for the purpose it was uploaded for: the logo slot serves only a logo upload,
  // the proof only proof uploads (settings saved before this rule may still name another file).
  if (!row || (isLogo && !isProof && row.kind !== 'logo') || (isProof && !isLogo && !PROOF_KINDS.includes(row.kind as FileKind))) {
    throw notFound('No such file on this tracking page');
  }
  return row;
}
