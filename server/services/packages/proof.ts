import { doorRow } from '../door/rules';
import type { DoorChecked } from '../../../shared/door';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import type { Deps } from '../../deps';
import { deliveryRecord, deliveryRecordHistory, packagePhoto, storedFile, user } from '../../db/schema/index';
import { iso } from '../../clock';
import { ApiError, badRequest, conflict, forbidden } from '../../errors';
import { isStaff } from '../../../shared/roles';
import { PHOTO_SLOTS, PROOF_SLOTS, type FileRef, type Proof, type ProofSlot } from '../../../shared/schemas/delivery';
import type { PackageStatus } from '../../../shared/lifecycle';
import type { SessionUser } from '../auth/session';
import { PROOF_KINDS, requireFiles, type FileKind, type StoredFile } from '../files/store';
import { anyPackage, isCold, keptDeliveryRecord, keptPhotos } from '../history/kept';
import { inHistory } from '../history/live';
import { recordEvent } from './lifecycle';
import { visiblePackage } from './scope';
import type { PackageRow } from './shape';

export const fileInfo = (f: StoredFile) => ({ id: f.id, url: `/api/file/${f.id}/`, mime: f.mime, size: f.size, sha256: f.sha256 });

/**
 * The files an action names. Missing ones answer a retryable 409 (the device uploads, then repeats
 * the same request); a driver may only name files they uploaded themselves.
 */
export async function resolveFiles(db: Db, actor: SessionUser, refs: FileRef[]): Promise<StoredFile[]> {
  let files: StoredFile[];
  try {
    files = await requireFiles(db, actor.id, refs);
  } catch (err) {
    if (err instanceof ApiError && err.details?.missing_files) err.retry();
    throw err;
  }
  if (!isStaff(actor.role)) {
    const foreign = files.filter((f) => f.owner_id !== actor.id).map((f) => f.id);
    if (foreign.length)
      throw badRequest(`File(s) ${foreign.join(', ')} were uploaded by someone else`, [{ path: 'files', message: 'not your upload' }]);
  }
  const wrongKind = files.filter((f) => !f.mime.startsWith('image/')).map((f) => f.id);
  if (wrongKind.length) throw badRequest(`File(s) ${wrongKind.join(', ')} are not images`, [{ path: 'files', message: 'not an image' }]);
  // A file serves the purpose it was uploaded for: an ID document or a logo is never proof (proof is shown to the recipient).
  const otherPurpose = files.filter((f) => !PROOF_KINDS.includes(f.kind as FileKind)).map((f) => f.id);
  if (otherPurpose.length) {
    throw badRequest(`File(s) ${otherPurpose.join(', ')} were not uploaded as proof (photo, signature or POD)`, [
      { path: 'files', message: 'not uploaded as proof' },
    ]);
  }
  return files;
}

// A delivery's proof is read and written on every delivery: these are built once per database.
const recordOf = (db: Db) =>
  db
    .select()
    .from(deliveryRecord)
    .where(eq(deliveryRecord.package_id, sql.placeholder('pkg')))
    .prepare();
const photosOf = (db: Db) =>
  db
    .select({ p: packagePhoto, f: storedFile })
    .from(packagePhoto)
    .innerJoin(storedFile, eq(storedFile.id, packagePhoto.file_id))
    .where(eq(packagePhoto.package_id, sql.placeholder('pkg')))
    .prepare();
const slotsOf = (db: Db) =>
  db
    .select()
    .from(packagePhoto)
    .where(eq(packagePhoto.package_id, sql.placeholder('pkg')))
    .prepare();
const nameOf = (db: Db) =>
  db
    .select({ name: user.name })
    .from(user)
    .where(eq(user.id, sql.placeholder('id')))
    .prepare();
const slotDelete = (db: Db) =>
  db
    .delete(packagePhoto)
    .where(and(eq(packagePhoto.package_id, sql.placeholder('pkg')), eq(packagePhoto.slot, sql.placeholder('slot'))))
    .prepare();
const slotInsert = (db: Db) =>
  db
    .insert(packagePhoto)
    .values({
      package_id: sql.placeholder('pkg'),
      slot: sql.placeholder('slot'),
      file_id: sql.placeholder('file'),
      added_by: sql.placeholder('by'),
      created_at: sql.placeholder('now'),
    })
    .prepare();
const ownFile = (db: Db) =>
  db
    .select()
    .from(storedFile)
    .where(and(eq(storedFile.owner_id, sql.placeholder('owner')), eq(storedFile.client_id, sql.placeholder('client'))))
    .prepare();

export function deliveryOf(db: Db, packageId: number) {
  return prepared(db, 'proof.recordOf', recordOf).get({ pkg: packageId });
}

type DeliveryRow = typeof deliveryRecord.$inferSelect;
type PhotoRow = { p: typeof packagePhoto.$inferSelect; f: StoredFile };

function shapeProof(row: PackageRow, d: DeliveryRow | undefined, photos: readonly PhotoRow[], driverName: (id: number) => string): Proof {
  const slots = Object.fromEntries(PROOF_SLOTS.map((s) => [s, null])) as Record<ProofSlot, ReturnType<typeof fileInfo> | null>;
  for (const { p, f } of photos)
    if (p.package_id === row.id && (PROOF_SLOTS as readonly string[]).includes(p.slot)) slots[p.slot as ProofSlot] = fileInfo(f);
  return {
    package: row.id,
    hawb: row.hawb,
    status: row.status as PackageStatus,
    delivered: row.status === 'delivered',
    delivered_at: iso(row.delivered_at),
    recipient_name: d?.recipient_name ?? null,
    note: d?.note ?? null,
    driver: d?.driver_id != null ? { id: d.driver_id, name: driverName(d.driver_id) } : null,
    latitude: d?.latitude ?? null,
    longitude: d?.longitude ?? null,
    forced: d?.forced ?? false,
    flagged: row.flagged,
    flag_reason: row.flag_reason,
    ...slots,
  };
}

/** Proof answers for several parcels, hot or cold (a cold parcel's from its kept rows), in a few queries. */
export async function proofsOf(db: Db, rows: PackageRow[]): Promise<Proof[]> {
  if (!rows.length) return [];
  const hotIds = rows.filter((r) => !isCold(r)).map((r) => r.id);
  const coldIds = rows.filter(isCold).map((r) => r.id);
  const records = new Map(
    [
      ...(hotIds.length ? await db.select().from(deliveryRecord).where(inArray(deliveryRecord.package_id, hotIds)).all() : []),
      ...(coldIds.length
        ? await db.select().from(deliveryRecordHistory).where(inArray(deliveryRecordHistory.package_id, coldIds)).all()
        : []),
    ].map((d) => [d.package_id, d]),
  );
  const photos = [
    ...(hotIds.length
      ? await db
          .select({ p: packagePhoto, f: storedFile })
          .from(packagePhoto)
          .innerJoin(storedFile, eq(storedFile.id, packagePhoto.file_id))
          .where(inArray(packagePhoto.package_id, hotIds))
          .all()
      : []),
    ...(await keptPhotos(db, coldIds)),
  ];
  const driverIds = [...new Set([...records.values()].map((d) => d.driver_id).filter((d): d is number => d != null))];
  const names = new Map(
    driverIds.length
      ? (await db.select({ id: user.id, name: user.name }).from(user).where(inArray(user.id, driverIds)).all()).map((u) => [u.id, u.name])
      : [],
  );
  return rows.map((row) => shapeProof(row, records.get(row.id), photos, (id) => names.get(id) ?? ''));
}

/** A parcel's delivery record, from history for a parcel that moved there. */
const deliveryOfRow = async (db: Db, row: PackageRow) =>
  isCold(row) ? await keptDeliveryRecord(db, row.id) : await deliveryOf(db, row.id);

/** One parcel's proof (every delivery answers it) with prepared queries; a cold parcel's from its kept rows. */
export async function proofOf(db: Db, row: PackageRow): Promise<Proof> {
  const d = await deliveryOfRow(db, row);
  const photos = isCold(row) ? await keptPhotos(db, [row.id]) : await prepared(db, 'proof.photosOf', photosOf).all({ pkg: row.id });
  // shapeProof names the driver synchronously: read the name first.
  const name = d?.driver_id != null ? ((await prepared(db, 'proof.nameOf', nameOf).get({ id: d.driver_id }))?.name ?? '') : '';
  const door = await doorRow(db, row.id);
  // What was checked at the door (issue 34) goes with the proof it belongs to.
  return { ...shapeProof(row, d, photos, () => name), checked: door?.checked ? (JSON.parse(door.checked) as DoorChecked) : null };
}

/**
 * Drivers edit the proof of parcels they hold or delivered; once delivered they may only fill
 * empty slots, since replacing evidence after the fact is a staff decision.
 */
export async function checkProofEditor(db: Db, actor: SessionUser, row: PackageRow, replacing: boolean): Promise<void> {
  if (isStaff(actor.role)) return;
  if (actor.role !== 'driver') throw forbidden('Only drivers and staff change delivery proof');
  const delivered = await deliveryOf(db, row.id);
  const mine = row.assigned_to_id === actor.id || delivered?.driver_id === actor.id;
  if (!mine) throw forbidden(`Parcel ${row.hawb} is not yours`);
  if (replacing && row.status === 'delivered') {
    throw conflict(`Parcel ${row.hawb} is delivered; only staff may replace or remove its proof`, {
      package: row.id,
      hawb: row.hawb,
      status: row.status,
    });
  }
}

/** Writes slots (a file, or null to clear) and records what changed on the parcel's history. */
export async function writeSlots(
  deps: Deps,
  actor: SessionUser,
  row: PackageRow,
  slots: Partial<Record<ProofSlot, FileRef | null>>,
  deviceId?: string | null,
  /** The delivery itself writes its proof: the editor check is the delivery's own. */
  trusted = false,
): Promise<void> {
  if (isCold(row)) throw inHistory(row.id);
  const { db } = deps;
  const now = deps.clock.now();
  const wanted = Object.entries(slots).filter((e): e is [ProofSlot, FileRef | null] => e[1] !== undefined);
  if (!wanted.length) return;
  const existing = new Map((await prepared(db, 'proof.slotsOf', slotsOf).all({ pkg: row.id })).map((p) => [p.slot, p]));
  if (!trusted) {
    let replacing = false;
    for (const [slot, ref] of wanted) {
      if (existing.has(slot) && (ref === null || !(await sameFile(db, existing.get(slot)?.file_id, ref, actor)))) {
        replacing = true;
        break;
      }
    }
    await checkProofEditor(db, actor, row, replacing);
  }
  const refs = wanted.map(([, ref]) => ref).filter((r): r is FileRef => r !== null);
  const files = await resolveFiles(db, actor, refs);
  const byRef = new Map(refs.map((r, i) => [r, files[i] as StoredFile]));
  const changed: Record<string, number | null> = {};
  const remove = prepared(db, 'proof.slotDelete', slotDelete);
  const insert = prepared(db, 'proof.slotInsert', slotInsert);
  for (const [slot, ref] of wanted) {
    await remove.run({ pkg: row.id, slot });
    if (ref === null) {
      changed[slot] = null;
      continue;
    }
    const file = byRef.get(ref) as StoredFile;
    await insert.run({ pkg: row.id, slot, file: file.id, by: actor.id, now });
    changed[slot] = file.id;
  }
  await recordEvent(db, now, row, 'proof_update', { userId: actor.id, deviceId }, { data: changed });
}

async function sameFile(db: Db, fileId: number | undefined, ref: FileRef, actor: SessionUser): Promise<boolean> {
  if (fileId == null) return false;
  if (typeof ref === 'number') return ref === fileId;
  const f = await prepared(db, 'proof.ownFile', ownFile).get({ owner: actor.id, client: ref });
  return f?.id === fileId;
}

/** Photos of a delivery fill photo_one.. in order; the signature its own slot. */
export function deliverySlots(photos: FileRef[], signature: FileRef | undefined): Partial<Record<ProofSlot, FileRef>> {
  const out: Partial<Record<ProofSlot, FileRef>> = {};
  photos.forEach((ref, i) => {
    const slot = PHOTO_SLOTS[i];
    if (slot) out[slot] = ref;
  });
  if (signature !== undefined) out.signature = signature;
  return out;
}

/** Recipient name and note of a delivered parcel: the delivering driver or staff may correct them. */
export async function updateDeliveryText(
  deps: Deps,
  actor: SessionUser,
  row: PackageRow,
  fields: { recipient_name?: string; note?: string },
  deviceId?: string | null,
): Promise<void> {
  if (isCold(row)) throw inHistory(row.id);
  if (fields.recipient_name === undefined && fields.note === undefined) return;
  const d = await deliveryOf(deps.db, row.id);
  if (!d)
    throw conflict(`Parcel ${row.hawb} is ${row.status.replace(/_/g, ' ')}; it has no delivery to correct`, {
      package: row.id,
      status: row.status,
    });
  if (!isStaff(actor.role) && d.driver_id !== actor.id)
    throw forbidden(`Only the driver who delivered ${row.hawb} or staff may correct it`);
  const now = deps.clock.now();
  const patch: Partial<typeof deliveryRecord.$inferInsert> = { updated_at: now };
  if (fields.recipient_name !== undefined) patch.recipient_name = fields.recipient_name;
  if (fields.note !== undefined) patch.note = fields.note;
  await deps.db.update(deliveryRecord).set(patch).where(eq(deliveryRecord.id, d.id)).run();
  await recordEvent(
    deps.db,
    now,
    row,
    'delivery_update',
    { userId: actor.id, deviceId },
    {
      data: { before: { recipient_name: d.recipient_name, note: d.note }, after: fields },
    },
  );
}

/**
 * Drivers reach the proof of parcels they hold or delivered; companies read their own; staff everything.
 * A parcel in history is found too, for the same people: its proof reads as before, and changing it is refused (409).
 */
export async function proofParcel(db: Db, actor: SessionUser, id: number): Promise<PackageRow> {
  const row = await anyPackage(db, id);
  if (actor.role === 'driver' && row && row.deleted_at == null) {
    if (row.assigned_to_id === actor.id || (await deliveryOfRow(db, row))?.driver_id === actor.id) return row;
  }
  return visiblePackage(actor, row, id);
}

/** Reading proof follows the parcel's scope; changing it is for drivers and staff (then the parcel as proofParcel finds it). */
export async function writableProofParcel(db: Db, actor: SessionUser, id: number): Promise<PackageRow> {
  if (!isStaff(actor.role) && actor.role !== 'driver') throw forbidden('Only drivers and staff change delivery proof');
  const row = await proofParcel(db, actor, id);
  // Refused before an upload is recorded (writeSlots refuses too, for callers that come another way).
  if (isCold(row)) throw inHistory(row.id);
  return row;
}
