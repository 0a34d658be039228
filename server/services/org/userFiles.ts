import { eq } from 'drizzle-orm';
import type { Deps } from '../../deps';
import type { Db } from '../../db/client';
import { referencingRows } from '../../db/references';
import { storedFile, user } from '../../db/schema/index';
import { notFound } from '../../errors';
import { userFileResponse } from '../files/serve';
import { checkUpload, fileById, recordFile, writeBytes, type FileKind, type StoredFile } from '../files/store';
import { atomically } from '../../db/atomically';

/** The images kept on a user row, each a stored_file id column. */
export const USER_FILE_SLOTS = {
  profile_image: { column: 'profile_image_file_id', kind: 'profile', label: 'profile image' },
  driving_license: { column: 'driving_license_file_id', kind: 'document', label: 'driving licence' },
  police_check: { column: 'police_check_file_id', kind: 'document', label: 'police check' },
  passport: { column: 'passport_file_id', kind: 'document', label: 'passport' },
  visa: { column: 'visa_file_id', kind: 'document', label: 'visa' },
} as const satisfies Record<string, { column: keyof typeof user.$inferSelect; kind: FileKind; label: string }>;
export type UserFileSlot = keyof typeof USER_FILE_SLOTS;

type UserRow = typeof user.$inferSelect;

export function slotFileId(row: UserRow, slot: UserFileSlot): number | null {
  return row[USER_FILE_SLOTS[slot].column];
}

/** Drops a stored file nothing points at any more; answers its storage key so the bytes can go after commit. */
async function discard(db: Db, fileId: number | null): Promise<string[]> {
  if (fileId == null) return [];
  const file = await fileById(db, fileId);
  if (!file || (await referencingRows(db, 'stored_file', fileId)).length) return [];
  await db.delete(storedFile).where(eq(storedFile.id, fileId)).run();
  return [file.key];
}

/**
 * Best effort: called once the change committed (or failed), so a store that cannot delete right now
 * (bucket down) must not turn the answer into an error. Bytes left behind are named by no row, and
 * the orphan sweep removes them later.
 */
async function removeBytes(deps: Deps, keys: string[]): Promise<void> {
  for (const key of keys) {
    await deps.files
      .delete(key)
      .catch((err: unknown) => console.error('[courier] file left for the sweep:', err instanceof Error ? err.message : err));
  }
}

/**
 * Stores an upload as the user's image in `slot`, replacing (and removing) the previous one. The
 * bytes are written before the transaction and the old bytes removed only after it committed.
 */
export async function attachUserFile(deps: Deps, userId: number, slot: UserFileSlot, file: File): Promise<StoredFile> {
  const { kind, column } = USER_FILE_SLOTS[slot];
  const upload = checkUpload(new Uint8Array(await file.arrayBuffer()), kind);
  const { key, hold } = await writeBytes(deps, upload, userId);
  let stale: string[] = [];
  let stored: StoredFile;
  try {
    stored = await atomically(deps, async () => {
      const row = await deps.db.select().from(user).where(eq(user.id, userId)).get();
      if (!row) throw notFound(`Employee ${userId} not found`);
      // The employee owns their documents, so they can also fetch them through GET file/{id}/.
      const rec = await recordFile(deps.db, deps.clock.now(), userId, key, upload, kind, null);
      await deps.db
        .update(user)
        .set({ [column]: rec.id, updated_at: deps.clock.now() })
        .where(eq(user.id, userId))
        .run();
      stale = await discard(deps.db, row[column]);
      return rec;
    });
  } catch (err) {
    await hold.release();
    await removeBytes(deps, [key]);
    throw err;
  }
  // The old bytes go only once the row that dropped them is on disk (it may sit in an open write batch).
  try {
    await deps.writes.settled();
  } finally {
    await hold.release();
  }
  await removeBytes(deps, stale);
  return stored;
}

/** Removes the user's image in `slot`, row and bytes; 404 when there is none. */
export async function detachUserFile(deps: Deps, userId: number, slot: UserFileSlot): Promise<void> {
  const { column, label } = USER_FILE_SLOTS[slot];
  const stale = await atomically(deps, async () => {
    const row = await deps.db.select().from(user).where(eq(user.id, userId)).get();
    if (!row || row[column] == null) throw notFound(`No ${label} is stored for this user`);
    await deps.db
      .update(user)
      .set({ [column]: null, updated_at: deps.clock.now() })
      .where(eq(user.id, userId))
      .run();
    return discard(deps.db, row[column]);
  });
  await deps.writes.settled();
  await removeBytes(deps, stale);
}

/** The bytes of the user's image in `slot`, for a route that already checked who may see it. */
export async function readUserFile(deps: Deps, row: UserRow, slot: UserFileSlot): Promise<{ file: StoredFile; bytes: Uint8Array }> {
  const id = slotFileId(row, slot);
  const file = id != null ? await fileById(deps.db, id) : undefined;
  const bytes = file ? await deps.files.get(file.key) : null;
  if (!file || !bytes) throw notFound(`No ${USER_FILE_SLOTS[slot].label} is stored for this user`);
  return { file, bytes };
}

export function fileResponse(file: StoredFile, bytes: Uint8Array): Response {
  return userFileResponse(file, bytes, 'private, no-store');
}
