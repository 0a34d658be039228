import { createHash } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { Deps } from '../../deps';
import type { Db } from '../../db/client';
import { storedFile } from '../../db/schema/index';
import { ApiError, conflict } from '../../errors';
import { reserveUpload, type UploadHold } from './allowance';
import { sniff, type FileType } from './sniff';

export type StoredFile = typeof storedFile.$inferSelect;
/**
 * What a file is for, chosen when it is uploaded. A file may be used only for that purpose (a logo
 * slot takes only `logo`, delivery proof only photos, signatures and PODs, an ID document slot only
 * `document`), so an upload for one purpose (a driver's passport scan) can never be shown for another
 * (a public logo, a proof photo on the tracking page).
 */
export const FILE_KINDS = ['photo', 'signature', 'document', 'profile', 'pod', 'logo'] as const;
export type FileKind = (typeof FILE_KINDS)[number];
/** The kinds a delivery's (or a failed attempt's) proof may name: what the driver app uploads at the door. */
export const PROOF_KINDS: readonly FileKind[] = ['photo', 'signature', 'pod'];

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
const IMAGE_TYPES: readonly FileType[] = ['image/jpeg', 'image/png', 'image/webp'];
const ACCEPTED: Record<FileKind, readonly FileType[]> = {
  photo: IMAGE_TYPES,
  signature: IMAGE_TYPES,
  profile: IMAGE_TYPES,
  pod: IMAGE_TYPES,
  logo: IMAGE_TYPES,
  document: [...IMAGE_TYPES, 'application/pdf'],
};

export interface CheckedUpload {
  bytes: Uint8Array;
  mime: FileType;
  sha256: string;
}

/** Size, type by content and optional declared hash: everything checked before a byte is stored. */
export function checkUpload(bytes: Uint8Array, kind: FileKind, declaredSha256?: string): CheckedUpload {
  if (bytes.byteLength === 0) throw new ApiError(400, 'validation_error', 'The file is empty', [{ path: 'file', message: 'empty' }]);
  if (bytes.byteLength > MAX_FILE_BYTES)
    throw new ApiError(413, 'payload_too_large', `Files are limited to ${MAX_FILE_BYTES / 1024 / 1024} MiB`);
  const mime = sniff(bytes);
  if (!mime || !ACCEPTED[kind].includes(mime)) {
    throw new ApiError(415, 'unsupported_media_type', `A ${kind} must be ${ACCEPTED[kind].join(', ')}`, [
      { path: 'file', message: 'unsupported type' },
    ]);
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (declaredSha256 && declaredSha256.toLowerCase() !== sha256) {
    throw new ApiError(400, 'validation_error', 'The file does not match its sha256; it was damaged on the way', [
      { path: 'sha256', message: 'mismatch' },
    ]);
  }
  return { bytes, mime, sha256 };
}

export interface WrittenBytes {
  key: string;
  hold: UploadHold;
}

/**
 * Writes the bytes (async, before any transaction) and returns the storage key; the row is
 * inserted by `recordFile` inside the caller's transaction. The owner's rate and quota are reserved
 * first (allowance.ts) and the reservation is the caller's to release once its unit settled
 * (`settleUpload`); bytes no row ends up naming are removed then, or by the sweep (sweep.ts).
 */
export async function writeBytes(deps: Deps, upload: CheckedUpload, ownerId: number): Promise<WrittenBytes> {
  const hold = await reserveUpload(deps, ownerId, upload.bytes.byteLength);
  try {
    return { key: await deps.files.put(upload.bytes), hold };
  } catch (err) {
    await hold.release();
    throw err;
  }
}

export async function keyInUse(db: Db, key: string): Promise<boolean> {
  return (await db.select({ id: storedFile.id }).from(storedFile).where(eq(storedFile.key, key)).get()) !== undefined;
}

/** For a route's `settle`: once its answer committed, bytes it wrote that no row names (refused, or a replay) go. */
export async function dropIfUnused(deps: Deps, key: string): Promise<void> {
  if (!(await keyInUse(deps.db, key))) await deps.files.delete(key);
}

/** A route's `settle` after `writeBytes`: the row (if any) committed, so the reservation goes and unused bytes too. */
export async function settleUpload(deps: Deps, written: WrittenBytes): Promise<void> {
  await written.hold.release();
  await dropIfUnused(deps, written.key);
}

export async function recordFile(
  db: Db,
  now: number,
  ownerId: number,
  key: string,
  upload: CheckedUpload,
  kind: FileKind,
  clientId: string | null,
): Promise<StoredFile> {
  if (clientId) {
    const existing = await db
      .select()
      .from(storedFile)
      .where(and(eq(storedFile.owner_id, ownerId), eq(storedFile.client_id, clientId)))
      .get();
    if (existing) {
      if (existing.sha256 !== upload.sha256) throw conflict(`File ${clientId} was already uploaded with other content`);
      return existing;
    }
  }
  return await db
    .insert(storedFile)
    .values({
      key,
      client_id: clientId,
      sha256: upload.sha256,
      mime: upload.mime,
      size: upload.bytes.byteLength,
      kind,
      owner_id: ownerId,
      created_at: now,
    })
    .returning()
    .get();
}

export async function fileById(db: Db, id: number): Promise<StoredFile | undefined> {
  return await db.select().from(storedFile).where(eq(storedFile.id, id)).get();
}

/**
 * Resolves the files an action names, by server id or by the client id the device gave them. A
 * missing one answers 409 so the device uploads it and retries (DESIGN.md section 6).
 */
export async function requireFiles(db: Db, ownerId: number, refs: (number | string)[]): Promise<StoredFile[]> {
  if (!refs.length) return [];
  const ids = refs.filter((r): r is number => typeof r === 'number');
  const clientIds = refs.filter((r): r is string => typeof r === 'string');
  const rows = [
    ...(ids.length ? await db.select().from(storedFile).where(inArray(storedFile.id, ids)).all() : []),
    ...(clientIds.length
      ? await db
          .select()
          .from(storedFile)
          .where(and(eq(storedFile.owner_id, ownerId), inArray(storedFile.client_id, clientIds)))
          .all()
      : []),
  ];
  const found = new Set<number | string>([...rows.map((r) => r.id), ...rows.map((r) => r.client_id ?? '')]);
  const missing = refs.filter((r) => !found.has(r));
  if (missing.length) {
    throw new ApiError(409, 'conflict', `The server does not have file(s) ${missing.join(', ')} yet; upload them first`, [], {
      missing_files: missing,
    });
  }
  return refs.map((r) => rows.find((row) => row.id === r || row.client_id === r) as StoredFile);
}
