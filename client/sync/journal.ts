import { META, type SyncDb } from './db';
import { request, type Transport } from './http';
import type { AnswerSummary, JournalRow, OutboxRow } from './types';

/**
 * How long acknowledged actions are kept for a re-send after a server restore. Well inside the
 * server's 30-day key retention, so a re-send the server did not need is always a replay.
 */
export const JOURNAL_KEPT_MS = 7 * 24 * 3600_000;

export interface RestoreResend {
  count: number;
  at: number;
  serverLastSeq: number | null;
}

export function journalRowOf(row: OutboxRow, acknowledgedAt: number, answer: AnswerSummary | null = null): JournalRow {
  return {
    seq: row.seq,
    key: row.key,
    userId: row.userId,
    method: row.method,
    path: row.path,
    body: row.body,
    blobRefs: row.blobRefs,
    effect: row.effect,
    label: row.label,
    acknowledgedAt,
    answer,
  };
}

/** The brief of an answer body kept with its journal row (types.ts AnswerSummary); null for anything else. */
export function summaryOf(body: unknown): AnswerSummary | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as { message?: unknown; already_scanned?: unknown; zone?: unknown; package?: unknown };
  const p = typeof b.package === 'object' && b.package !== null ? (b.package as Record<string, unknown>) : null;
  const z = typeof b.zone === 'object' && b.zone !== null ? (b.zone as { id?: unknown; name?: unknown }) : null;
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const zoneId = p && typeof p.zone === 'number' ? p.zone : null;
  return {
    message: str(b.message),
    alreadyScanned: b.already_scanned === true,
    zone:
      z && typeof z.id === 'number' && typeof z.name === 'string'
        ? { id: z.id, name: z.name }
        : zoneId != null
          ? { id: zoneId, name: str(p?.zone_name) ?? `Zone ${zoneId}` }
          : null,
    status: str(p?.status),
    parcel: p && typeof p.hawb === 'string' ? { hawb: p.hawb, customer_name: str(p.customer_name), suburb_name: str(p.suburb_name) } : null,
  };
}

/** Callers run it in a transaction over outbox, journal and blobs. */
export async function blobStillNamed(db: SyncDb, ref: string): Promise<boolean> {
  const queued = await db.outbox.filter((r) => r.blobRefs.includes(ref)).count();
  if (queued) return true;
  return (await db.journal.filter((r) => r.blobRefs.includes(ref)).count()) > 0;
}

/** Journal rows past retention go, and with them the files no queued or journaled action names. */
export async function pruneJournal(db: SyncDb, now: number): Promise<number> {
  return db.transaction('rw', db.journal, db.outbox, db.blobs, async () => {
    const old = await db.journal
      .where('acknowledgedAt')
      .below(now - JOURNAL_KEPT_MS)
      .toArray();
    if (!old.length) return 0;
    await db.journal.bulkDelete(old.map((r) => r.seq));
    for (const ref of new Set(old.flatMap((r) => r.blobRefs))) {
      if (!(await blobStillNamed(db, ref))) await db.blobs.delete(ref);
    }
    return old.length;
  });
}

/**
 * Journaled actions after `afterSeq` go back to the outbox with their key, seq and body, so they
 * are sent before anything queued later (seqs only grow) and apply at most once. Their files are
 * marked not uploaded: a restored server has lost its records of them.
 */
export async function requeueJournal(db: SyncDb, afterSeq: number, now: number, serverLastSeq: number | null): Promise<number> {
  return db.transaction('rw', [db.journal, db.outbox, db.blobs, db.meta], async () => {
    const rows = await db.journal.where('seq').above(afterSeq).sortBy('seq');
    let count = 0;
    for (const j of rows) {
      const clash = (await db.outbox.where('seq').equals(j.seq).count()) + (await db.outbox.where('key').equals(j.key).count());
      if (!clash) {
        await db.outbox.add({
          seq: j.seq,
          key: j.key,
          userId: j.userId,
          method: j.method,
          path: j.path,
          body: j.body,
          blobRefs: j.blobRefs,
          status: 'queued',
          attempts: 0,
          lastError: null,
          rejection: null,
          effect: j.effect,
          label: j.label,
          createdAt: now,
          resent: true,
        });
        await db.blobs.where('clientId').anyOf(j.blobRefs).modify({ uploaded: false, serverId: null });
        count += 1;
      }
      // Acknowledged again, it is journaled again.
      await db.journal.delete(j.seq);
    }
    if (count) await db.meta.put({ key: META.restoreResend, value: { count, at: now, serverLastSeq } satisfies RestoreResend });
    return count;
  });
}

export type DeviceCheck =
  | { kind: 'checked'; resent: number }
  /** The server cannot tell (another user's device): nothing to compare with. */
  | { kind: 'unknown' }
  | { kind: 'retry'; message: string; retryAfterMs: number | null; offline: boolean }
  | { kind: 'auth'; message: string };

/**
 * Asks the server for the highest seq it recorded for this device. Lower than what the journal
 * holds means the server was restored from a backup older than those acknowledgements.
 * Run under the outbox lock and before any row is sent: a newer send would raise the server's
 * last_seq above the gap and hide it.
 */
export async function checkServerSeq(db: SyncDb, transport: Transport, token: string, deviceId: string, now: number): Promise<DeviceCheck> {
  // Nothing sent that a restored server could have lost: whatever it answers, nothing goes again.
  // Asking anyway would put a round trip between a fresh phone's login and its first stop.
  const newest = await db.journal.orderBy('seq').last();
  if (!newest) return { kind: 'checked', resent: 0 };
  const outcome = await request(transport, 'GET', `sync/device/?device_id=${encodeURIComponent(deviceId)}`, {
    authorization: `Bearer ${token}`,
  });
  if (outcome.kind === 'auth' || outcome.kind === 'retry') return outcome;
  if (outcome.kind !== 'ok') return { kind: 'unknown' };
  const body = outcome.body as { last_seq?: unknown } | null;
  const lastSeq = typeof body?.last_seq === 'number' ? body.last_seq : null;
  if (lastSeq == null) return { kind: 'unknown' };
  if (newest.seq <= lastSeq) return { kind: 'checked', resent: 0 };
  return { kind: 'checked', resent: await requeueJournal(db, lastSeq, now, lastSeq) };
}
