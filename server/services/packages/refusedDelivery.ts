import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Deps } from '../../deps';
import { refusedDelivery, refusedDeliveryFile, storedFile } from '../../db/schema/index';
import { PROOF_KINDS, type FileKind, type StoredFile } from '../files/store';
import type { ApiError } from '../../errors';
import type { FileRef, ProofSlot } from '../../../shared/schemas/delivery';
import { findPackage, updatePackage } from './lifecycle';
import { deliverySlots, fileInfo } from './proof';
import type { ScanContext } from './scan';
import type { PackageRow } from './shape';
import type { SessionUser } from '../auth/session';
import { anyPackage, isCold, keptRefusals } from '../history/kept';
import { visiblePackage } from './scope';

export interface RefusedInput {
  photos: FileRef[];
  signature?: FileRef;
  recipient_name?: string;
  note?: string;
}

/** The driver's own uploads an action names; a ref the server lacks is skipped (nothing to keep). */
async function ownFiles(db: Db, ownerId: number, refs: FileRef[]): Promise<Map<FileRef, StoredFile>> {
  const ids = refs.filter((r): r is number => typeof r === 'number');
  const clientIds = refs.filter((r): r is string => typeof r === 'string');
  const rows = [
    ...(ids.length
      ? await db
          .select()
          .from(storedFile)
          .where(and(eq(storedFile.owner_id, ownerId), inArray(storedFile.id, ids)))
          .all()
      : []),
    ...(clientIds.length
      ? await db
          .select()
          .from(storedFile)
          .where(and(eq(storedFile.owner_id, ownerId), inArray(storedFile.client_id, clientIds)))
          .all()
      : []),
  ];
  const out = new Map<FileRef, StoredFile>();
  for (const r of refs) {
    const f = rows.find((row) => row.id === r || row.client_id === r);
    // Only files uploaded as proof are kept as proof (an ID document never is).
    if (f && PROOF_KINDS.includes(f.kind as FileKind)) out.set(r, f);
  }
  return out;
}

const words = (s: string) => s.replace(/_/g, ' ');

/**
 * A refused delivery still happened at the door. Attached to the refusal (runs after the rollback,
 * in the transaction that stores it): what the driver recorded and its proof are kept in
 * `refused_delivery`, and the parcel is flagged for a supervisor, whatever the reason.
 */
export function keepRefusedDelivery(deps: Deps, ctx: ScanContext, row: PackageRow, input: RefusedInput, err: ApiError): ApiError {
  const previous = err.record;
  const now = deps.clock.now();
  return err.withRecord(async () => {
    await previous?.();
    const { db } = deps;
    const driver = ctx.actor;
    const current = (await findPackage(db, row.id)) ?? row;
    const refused = await db
      .insert(refusedDelivery)
      .values({
        package_id: row.id,
        driver_id: driver.id,
        device_id: ctx.deviceId ?? null,
        code: err.code,
        message: err.message,
        status: current.status,
        recipient_name: input.recipient_name ?? null,
        note: input.note ?? null,
        occurred_at: ctx.meta.occurredAt ?? now,
        received_at: now,
        latitude: ctx.meta.latitude ?? null,
        longitude: ctx.meta.longitude ?? null,
      })
      .returning({ id: refusedDelivery.id })
      .get();
    const slots = deliverySlots(input.photos, input.signature);
    const files = await ownFiles(db, driver.id, Object.values(slots));
    let kept = 0;
    for (const [slot, ref] of Object.entries(slots) as [ProofSlot, FileRef][]) {
      const f = files.get(ref);
      if (!f) continue;
      await db.insert(refusedDeliveryFile).values({ refused_id: refused.id, slot, file_id: f.id }).run();
      kept += 1;
    }
    const cause = current.status === 'cancelled' ? 'the office had cancelled it' : `it was ${words(current.status)}`;
    const reason = `Delivery by ${driver.name} refused (${cause}); ${kept} proof file${kept === 1 ? '' : 's'} kept with the refusal`;
    await updatePackage(
      db,
      now,
      current,
      { flagged: true, flag_reason: reason },
      'delivery_refused_flagged',
      { userId: driver.id, deviceId: ctx.deviceId },
      { ...ctx.meta, data: { refused_delivery: refused.id, code: err.code } },
    );
  });
}

/** Refused deliveries of a parcel with their proof, newest first (for the supervisor who clears the flag). */
export async function refusedDeliveriesOf(db: Db, packageId: number) {
  const rows = await db
    .select()
    .from(refusedDelivery)
    .where(eq(refusedDelivery.package_id, packageId))
    .orderBy(desc(refusedDelivery.id))
    .all();
  if (!rows.length) return [];
  const files = await db
    .select({ rf: refusedDeliveryFile, f: storedFile })
    .from(refusedDeliveryFile)
    .innerJoin(storedFile, eq(storedFile.id, refusedDeliveryFile.file_id))
    .where(
      inArray(
        refusedDeliveryFile.refused_id,
        rows.map((r) => r.id),
      ),
    )
    .all();
  return shapeRefusals(rows, files);
}

/**
 * The refused deliveries of the parcel `id` as the caller may see it, hot or moved to history
 * (read-only there: the flag they raised was cleared before the parcel could move).
 */
export async function refusedDeliveriesFor(db: Db, me: SessionUser, id: number) {
  const row = visiblePackage(me, await anyPackage(db, id), id);
  if (!isCold(row)) return await refusedDeliveriesOf(db, row.id);
  const kept = await keptRefusals(db, row.id);
  return shapeRefusals(kept.refusals, kept.files);
}

function shapeRefusals(
  rows: (typeof refusedDelivery.$inferSelect)[],
  files: { rf: typeof refusedDeliveryFile.$inferSelect; f: StoredFile }[],
) {
  return rows.map((r) => ({
    id: r.id,
    package: r.package_id,
    driver: r.driver_id,
    code: r.code,
    message: r.message,
    status: r.status,
    recipient_name: r.recipient_name,
    note: r.note,
    occurred_at: new Date(r.occurred_at).toISOString(),
    received_at: new Date(r.received_at).toISOString(),
    latitude: r.latitude,
    longitude: r.longitude,
    files: files.filter((x) => x.rf.refused_id === r.id).map((x) => ({ slot: x.rf.slot, ...fileInfo(x.f) })),
  }));
}
