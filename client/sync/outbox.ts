import { getMeta, META, setMeta, type SyncDb } from './db';
import { blobStillNamed } from './journal';
import type { ActionInput, BlobRow, FileInput, OutboxRow } from './types';

/** Writing to the device failed (storage full, private mode): the action was NOT saved and the screen must say so. */
export class SyncStorageError extends Error {
  readonly quota: boolean;
  constructor(
    message: string,
    override readonly cause: unknown,
  ) {
    super(message);
    this.name = 'SyncStorageError';
    const name = typeof cause === 'object' && cause !== null && 'name' in cause ? String((cause as { name: unknown }).name) : '';
    this.quota = /quota/i.test(name) || /quota/i.test(String(cause));
  }
}

export function newId(): string {
  return crypto.randomUUID();
}

async function toArrayBuffer(bytes: FileInput['bytes']): Promise<ArrayBuffer> {
  if (bytes instanceof ArrayBuffer) return bytes;
  if (bytes instanceof Uint8Array) return bytes.slice().buffer;
  return bytes.arrayBuffer();
}

async function sha256Hex(bytes: ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function prepareFile(f: FileInput, now: number): Promise<BlobRow> {
  const bytes = await toArrayBuffer(f.bytes);
  return {
    clientId: f.clientId ?? newId(),
    bytes,
    mime: f.mime,
    kind: f.kind ?? 'photo',
    sha256: await sha256Hex(bytes),
    uploaded: false,
    serverId: null,
    createdAt: now,
  };
}

/** Takes the next X-Device-Seq; callers run it inside a transaction that includes `meta`. */
async function takeSeq(db: SyncDb): Promise<number> {
  const seq = (await getMeta<number>(db, META.nextSeq)) ?? 1;
  await setMeta(db, META.nextSeq, seq + 1);
  return seq;
}

/**
 * The action, its files and its seq in ONE transaction: when this resolves the action is on the
 * device for good; when it throws, nothing of it was written and the caller must not say "saved".
 */
export async function addToOutbox(
  db: SyncDb,
  action: ActionInput,
  userId: number,
  now: number,
  holdUntil: number | null = null,
): Promise<OutboxRow> {
  const files = await Promise.all((action.files ?? []).map((f) => prepareFile(f, now)));
  try {
    return await db.transaction('rw', db.outbox, db.blobs, db.meta, async () => {
      for (const f of files) await db.blobs.put(f);
      const row: OutboxRow = {
        seq: holdUntil != null ? await placeholderSeq(db) : await takeSeq(db),
        key: newId(),
        userId,
        method: action.method ?? 'POST',
        path: action.path,
        body: action.body,
        blobRefs: files.map((f) => f.clientId),
        status: holdUntil != null ? 'held' : 'queued',
        attempts: 0,
        lastError: null,
        rejection: null,
        effect: action.effect ?? null,
        label: action.label ?? `${action.method ?? 'POST'} ${action.path}`,
        createdAt: now,
        holdUntil,
      };
      row.id = await db.outbox.add(row);
      return row;
    });
  } catch (err) {
    throw new SyncStorageError(`The action could not be saved on this device: ${err instanceof Error ? err.message : String(err)}`, err);
  }
}

/** A held row's seq until it is released: negative (never sent, never clashing with a real seq), unique. */
async function placeholderSeq(db: SyncDb): Promise<number> {
  const lowest = (await db.outbox.orderBy('seq').first())?.seq ?? 0;
  return Math.min(0, lowest) - 1;
}

/** The oldest row this user may send: strict seq order, rejected and held rows skipped (they never block). */
export async function nextSendable(db: SyncDb, userId: number): Promise<OutboxRow | undefined> {
  return db.outbox
    .orderBy('seq')
    .filter((r) => r.userId === userId && r.status !== 'rejected' && r.status !== 'held')
    .first();
}

/**
 * Ends the undo window of held rows (`ids`, or every held row whose window closed by `closedBy`,
 * or all of them): each takes the next seq, in the order they were held, and becomes sendable.
 * Answers the ids released.
 */
export async function releaseHeld(db: SyncDb, which: { ids?: number[]; closedBy?: number }): Promise<number[]> {
  return db.transaction('rw', db.outbox, db.meta, async () => {
    const held = (await db.outbox.where('status').equals('held').toArray())
      .filter((r) => (which.ids ? which.ids.includes(r.id as number) : which.closedBy == null || (r.holdUntil ?? 0) <= which.closedBy))
      .sort((a, b) => a.createdAt - b.createdAt || b.seq - a.seq);
    for (const r of held) await db.outbox.update(r.id as number, { seq: await takeSeq(db), status: 'queued', holdUntil: null });
    return held.map((r) => r.id as number);
  });
}

/** Undo inside the window: the held row and its files leave the device; false once it was released. */
export async function undoHeld(db: SyncDb, id: number): Promise<boolean> {
  return db.transaction('rw', db.outbox, db.journal, db.blobs, async () => {
    const row = await db.outbox.get(id);
    if (!row || row.status !== 'held') return false;
    await deleteRow(db, row);
    return true;
  });
}

/**
 * A rejected action sent again is a new request: a new key (the old one would replay the refusal)
 * and a new seq, so it goes after everything queued since.
 */
export async function requeueRejected(db: SyncDb, id: number): Promise<boolean> {
  return db.transaction('rw', db.outbox, db.meta, async () => {
    const row = await db.outbox.get(id);
    if (!row || row.status !== 'rejected') return false;
    await db.outbox.update(id, { seq: await takeSeq(db), key: newId(), status: 'queued', attempts: 0, lastError: null, rejection: null });
    return true;
  });
}

/** Callers run it in a transaction over outbox, journal and blobs. */
export async function deleteRow(db: SyncDb, row: OutboxRow): Promise<void> {
  if (row.id == null) return;
  await db.outbox.delete(row.id);
  // A blob another queued row or a journaled action still names stays: a re-send after a server restore uploads it again.
  for (const ref of row.blobRefs) {
    if (!(await blobStillNamed(db, ref))) await db.blobs.delete(ref);
  }
}

/** Files of a row the server does not hold yet (never uploaded): discarding the row would lose them for good. */
export async function unsentFiles(db: SyncDb, row: OutboxRow): Promise<number> {
  const blobs = await db.blobs.bulkGet(row.blobRefs);
  return blobs.filter((b) => b !== undefined && !b.uploaded).length;
}

/**
 * Discarding a refusal deletes the phone's copies of its files only once the server holds them
 * (uploaded: a refused delivery keeps its proof on the server). A row whose files never reached the
 * server is discarded only with `force` (the driver was told the files will be lost).
 */
export async function discardRejectedRow(db: SyncDb, id: number, force = false): Promise<boolean> {
  return db.transaction('rw', db.outbox, db.journal, db.blobs, async () => {
    const row = await db.outbox.get(id);
    if (!row || row.status !== 'rejected') return false;
    if (!force && (await unsentFiles(db, row)) > 0) return false;
    await deleteRow(db, row);
    return true;
  });
}
