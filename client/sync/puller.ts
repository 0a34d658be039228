import { FINAL_STATUSES } from '../../shared/lifecycle';
import type { SyncChanges } from '../../shared/schemas/sync';
import { getMeta, META, type SyncDb } from './db';
import { request, type Transport } from './http';

export interface PullContext {
  db: SyncDb;
  transport: Transport;
  now: () => number;
  token: string;
  userId: number;
  pageSize: number;
}

export type PullResult =
  /** `resets`: the server could not serve the cursor (restored database, or a device away past the feed's retention). */
  | { kind: 'done'; pages: number; resets: number }
  | { kind: 'retry'; message: string; retryAfterMs: number | null; offline: boolean }
  | { kind: 'auth'; message: string };

/** Delivered and other final parcels stay on the device this long after they were last written. */
export const FINAL_KEPT_MS = 3 * 24 * 3600_000;
/** A server that keeps answering reset is broken; stop rather than loop. */
const MAX_RESETS = 2;

function isChanges(v: unknown): v is SyncChanges {
  return typeof v === 'object' && v !== null && 'cursor' in v && 'has_more' in v;
}

/** Copies, tombstones and the cursor move together: a half-applied page is never visible. */
async function applyPage(ctx: PullContext, page: SyncChanges, fresh: boolean): Promise<void> {
  const { db } = ctx;
  const at = ctx.now();
  await db.transaction('rw', [db.packages, db.failedStatuses, db.gone, db.meta], async () => {
    if (fresh) {
      await db.packages.clear();
      await db.failedStatuses.clear();
    }
    if (page.upserts.packages.length) {
      await db.gone
        .where('hawb')
        .anyOf(page.upserts.packages.map((p) => p.hawb))
        .delete();
      await db.packages.bulkPut(page.upserts.packages.map((p) => ({ ...p, syncedAt: at })));
    }
    if (page.upserts.failed_delivery_statuses.length) {
      await db.failedStatuses.bulkPut(page.upserts.failed_delivery_statuses.map((s) => ({ ...s, syncedAt: at })));
    }
    if (page.removes.packages.length) {
      const leaving = await db.packages.bulkGet(page.removes.packages);
      await db.gone.bulkPut(leaving.filter((p) => p !== undefined).map((p) => ({ hawb: p.hawb, id: p.id, at })));
      await db.packages.bulkDelete(page.removes.packages);
    }
    if (page.removes.failed_delivery_statuses.length) await db.failedStatuses.bulkDelete(page.removes.failed_delivery_statuses);
    await db.meta.put({ key: META.cursor, value: page.cursor });
  });
}

/** Old delivered history and old tombstones go; the server never needs to say so. */
async function ageOut(ctx: PullContext): Promise<void> {
  const { db } = ctx;
  const before = ctx.now() - FINAL_KEPT_MS;
  await db.transaction('rw', db.packages, db.gone, async () => {
    await db.packages
      .where('status')
      .anyOf([...FINAL_STATUSES])
      .filter((p) => p.syncedAt < before)
      .delete();
    await db.gone.filter((g) => g.at < before).delete();
  });
}

/** Drops every server copy and the cursor, so the next pull starts from a snapshot. */
export async function forgetCopies(db: SyncDb): Promise<void> {
  await db.transaction('rw', [db.packages, db.failedStatuses, db.gone, db.meta], async () => {
    await db.packages.clear();
    await db.failedStatuses.clear();
    await db.gone.clear();
    await db.meta.put({ key: META.cursor, value: 0 });
  });
}

/** Reads `sync/changes` from the stored cursor until `has_more` is false. */
export async function pullChanges(ctx: PullContext): Promise<PullResult> {
  let cursor = (await getMeta<number>(ctx.db, META.cursor)) ?? 0;
  let pages = 0;
  let resets = 0;
  for (;;) {
    const outcome = await request(ctx.transport, 'GET', `sync/changes/?cursor=${cursor}&limit=${ctx.pageSize}`, {
      authorization: `Bearer ${ctx.token}`,
    });
    if (outcome.kind === 'auth' || outcome.kind === 'retry') return outcome;
    if (outcome.kind !== 'ok' || !isChanges(outcome.body)) {
      return {
        kind: 'retry',
        message: outcome.kind === 'rejected' ? outcome.message : 'Unexpected answer to sync/changes',
        retryAfterMs: null,
        offline: false,
      };
    }
    const page = outcome.body;
    // The session may have changed hands while the request was out; its answer belongs to nobody now.
    const user = await getMeta<{ id: number }>(ctx.db, META.user);
    if (user?.id !== ctx.userId) return { kind: 'auth', message: 'The session changed during sync' };
    if (page.reset) {
      resets += 1;
      if (resets > MAX_RESETS) return { kind: 'retry', message: 'The server keeps asking for a reset', retryAfterMs: null, offline: false };
      await forgetCopies(ctx.db);
      cursor = 0;
      continue;
    }
    await applyPage(ctx, page, cursor === 0 && pages === 0);
    pages += 1;
    cursor = page.cursor;
    if (!page.has_more) break;
  }
  await ageOut(ctx);
  return { kind: 'done', pages, resets };
}
