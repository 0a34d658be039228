import { getMeta, META, setMeta, type SyncDb } from './db';
import { request, type Outcome, type Transport } from './http';
import { journalRowOf, summaryOf } from './journal';
import { deleteRow, nextSendable } from './outbox';
import type { BlobRow, Notice, OutboxRow, Package, StoredPackage } from './types';

export interface SenderContext {
  db: SyncDb;
  transport: Transport;
  now: () => number;
  deviceId: string;
  token: string;
  userId: number;
  /** Called after each row changes state, for the status observable. */
  changed: () => void;
}

export type DrainResult =
  | { kind: 'empty' }
  | { kind: 'retry'; message: string; retryAfterMs: number | null; offline: boolean }
  | { kind: 'auth'; message: string }
  | { kind: 'lost_lock' };

/** Rounds of "files missing" for one row before it is treated as a failure to back off from. */
const MAX_FILE_ROUNDS = 3;

function baseHeaders(ctx: SenderContext): Record<string, string> {
  return { authorization: `Bearer ${ctx.token}`, 'x-device-id': ctx.deviceId };
}

async function uploadBlob(ctx: SenderContext, blob: BlobRow): Promise<Outcome> {
  const form = new FormData();
  form.append('file', new Blob([blob.bytes], { type: blob.mime }), `${blob.clientId}`);
  form.append('kind', blob.kind);
  form.append('client_id', blob.clientId);
  form.append('sha256', blob.sha256);
  // No Idempotency-Key: a multipart body differs on every try; the upload is idempotent by client_id.
  return request(ctx.transport, 'POST', 'file/', baseHeaders(ctx), form);
}

/** Uploads what the row names and the server lacks; answers the first outcome that is not success. */
async function uploadBlobs(ctx: SenderContext, row: OutboxRow): Promise<Outcome | null> {
  for (const ref of row.blobRefs) {
    const blob = await ctx.db.blobs.get(ref);
    if (!blob)
      return { kind: 'rejected', status: 0, code: 'file_lost', message: `A file of this action (${ref}) is no longer on this device` };
    if (blob.uploaded) continue;
    const outcome = await uploadBlob(ctx, blob);
    if (outcome.kind !== 'ok') {
      return outcome.kind === 'rejected' ? { ...outcome, message: `A ${blob.kind} was refused: ${outcome.message}` } : outcome;
    }
    const serverId =
      typeof outcome.body === 'object' && outcome.body !== null && 'id' in outcome.body
        ? Number((outcome.body as { id: unknown }).id)
        : null;
    await ctx.db.blobs.update(ref, { uploaded: true, serverId });
  }
  return null;
}

function packagesIn(body: unknown): Package[] {
  if (typeof body !== 'object' || body === null) return [];
  const b = body as { package?: unknown; packages?: unknown };
  const list = [b.package, ...(Array.isArray(b.packages) ? b.packages : [])];
  return list.filter((p): p is Package => typeof p === 'object' && p !== null && 'id' in p && 'hawb' in p && 'status' in p);
}

/**
 * The answered row leaves the outbox in the same transaction that writes what the answer says
 * about its packages (so the screen never shows the old state in between) and that journals it
 * (so no moment exists where an acknowledged action is on neither list).
 */
/** An accepted action the server flagged for a supervisor: the driver is told, not just the office. */
function noticeOf(row: OutboxRow, body: unknown, at: number): Notice | null {
  if (typeof body !== 'object' || body === null || (body as { flagged?: unknown }).flagged !== true) return null;
  const message = (body as { message?: unknown }).message;
  return {
    id: row.key,
    at,
    label: row.label,
    packageId: row.effect?.packageId ?? null,
    message: typeof message === 'string' ? message : 'Accepted, and flagged for a supervisor to check',
  };
}

async function acknowledge(ctx: SenderContext, row: OutboxRow, body: unknown): Promise<void> {
  const { db } = ctx;
  await db.transaction('rw', [db.outbox, db.journal, db.blobs, db.packages, db.meta], async () => {
    const notice = noticeOf(row, body, ctx.now());
    if (notice) {
      const list = (await getMeta<Notice[]>(db, META.notices)) ?? [];
      if (!list.some((n) => n.id === notice.id)) await setMeta(db, META.notices, [...list, notice]);
    }
    // A re-sent action's answer may be the replay of a days-old state; the pull that follows a restore brings the current one.
    if (!row.resent) {
      for (const p of packagesIn(body)) {
        const mine = p.assigned_to_id === ctx.userId || (await db.packages.get(p.id)) !== undefined;
        if (mine) await db.packages.put({ ...p, syncedAt: ctx.now() } satisfies StoredPackage);
      }
    }
    await db.journal.put(journalRowOf(row, ctx.now(), summaryOf(body)));
    await deleteRow(db, row);
  });
}

async function reject(
  ctx: SenderContext,
  row: OutboxRow,
  status: number,
  code: string,
  message: string,
  details?: Record<string, unknown>,
): Promise<void> {
  const rejection = { status, code, message, ...(details ? { details } : {}) };
  await ctx.db.outbox.update(row.id as number, { status: 'rejected', rejection, lastError: message, attempts: row.attempts + 1 });
}

/**
 * Sends the outbox one row at a time, oldest first, until it is empty or something stops it.
 * Runs only under the outbox lock; `stillMine` renews it before each row.
 */
export async function drainOutbox(ctx: SenderContext, stillMine: () => Promise<boolean>): Promise<DrainResult> {
  const { db } = ctx;
  let fileRounds = 0;
  let lastId: number | undefined;
  for (;;) {
    if (!(await stillMine())) return { kind: 'lost_lock' };
    const row = await nextSendable(db, ctx.userId);
    if (!row || row.id == null) return { kind: 'empty' };
    if (row.id !== lastId) fileRounds = 0;
    lastId = row.id;
    if (row.status !== 'sending') {
      await db.outbox.update(row.id, { status: 'sending' });
      ctx.changed();
    }

    const outcome =
      (await uploadBlobs(ctx, row)) ??
      (await request(
        ctx.transport,
        row.method,
        row.path,
        {
          ...baseHeaders(ctx),
          'content-type': 'application/json',
          'idempotency-key': row.key,
          'x-device-seq': String(row.seq),
        },
        JSON.stringify(row.body),
      ));

    switch (outcome.kind) {
      case 'ok':
        await acknowledge(ctx, row, outcome.body);
        break;
      case 'rejected':
        await reject(ctx, row, outcome.status, outcome.code, outcome.message, outcome.details);
        break;
      case 'files_missing': {
        fileRounds += 1;
        const refs = outcome.missing.map(String);
        await db.blobs.where('clientId').anyOf(refs).modify({ uploaded: false, serverId: null });
        if (fileRounds >= MAX_FILE_ROUNDS) {
          const message = `The server still lacks file(s) ${refs.join(', ')}`;
          await db.outbox.update(row.id, { status: 'queued', attempts: row.attempts + 1, lastError: message });
          ctx.changed();
          return { kind: 'retry', message, retryAfterMs: null, offline: false };
        }
        break;
      }
      case 'auth':
        await db.outbox.update(row.id, { status: 'queued', lastError: outcome.message });
        ctx.changed();
        return outcome;
      case 'retry':
        await db.outbox.update(row.id, { status: 'queued', attempts: row.attempts + 1, lastError: outcome.message });
        ctx.changed();
        return outcome;
    }
    ctx.changed();
  }
}
