import { META, setMeta, type SyncDb } from './db';
import type { Transport } from './http';
import { checkServerSeq, requeueJournal } from './journal';
import type { OutboxLock } from './lock';
import { releaseHeld } from './outbox';
import { pullChanges } from './puller';
import type { Scheduler } from './scheduler';
import { drainOutbox } from './sender';
import type { SessionStore } from './session';
import { onlineNow, reachNow, type StatusBoard } from './status';
import type { Reach } from './types';

/** When another tab holds the outbox, look again this soon (for this tab's status). */
const LOCK_RECHECK_MS = 2000;

export interface PassContext {
  db: SyncDb;
  transport: Transport;
  now: () => number;
  pageSize: number;
  lock: OutboxLock;
  sessions: SessionStore;
  status: StatusBoard;
  scheduler: Scheduler;
}

/**
 * One pass: everything this user queued (sender.ts), then the server's changes (puller.ts); push
 * before pull, under the outbox lock. How it ended goes to the status and the scheduler.
 */
export async function runPass(ctx: PassContext): Promise<void> {
  const { db, transport, now, status, scheduler } = ctx;
  const session = await ctx.sessions.current();
  if (!session) {
    status.publish({ loginNeeded: true });
    return;
  }
  if (status.state.loginNeeded) return;
  const id = await ctx.sessions.deviceId();
  // Undo windows that closed while no timer ran (page frozen, timers throttled) end here.
  if ((await releaseHeld(db, { closedBy: now() })).length) status.changed();
  let checked = false;
  const outcome = await ctx.lock(async (stillMine) => {
    // Rows left "sending" by a tab that died: we hold the lock, nobody else is sending them.
    await db.outbox.where('status').equals('sending').modify({ status: 'queued' });
    if (scheduler.deviceCheckDue) {
      const check = await checkServerSeq(db, transport, session.token, id, now());
      if (check.kind === 'auth' || check.kind === 'retry') return check;
      scheduler.deviceChecked();
      checked = check.kind === 'checked';
      if (check.kind === 'checked' && check.resent) status.changed();
    }
    // A stopping engine finishes the row in flight and sends no more.
    const mayGoOn = async () => !scheduler.closed && (await stillMine());
    const drained = await drainOutbox(
      { db, transport, now, deviceId: id, token: session.token, userId: session.user.id, changed: status.changed },
      mayGoOn,
    );
    if (drained.kind !== 'empty' || scheduler.closed) return drained;
    const pulled = await pullChanges({ db, transport, now, token: session.token, userId: session.user.id, pageSize: ctx.pageSize });
    // A reset feed means a restored server. Unchecked this pass, rows sent before the pull may have
    // raised its last_seq above the gap, so the whole journal goes again: what the server kept replays.
    if (pulled.kind === 'done' && pulled.resets > 0 && !checked && (await requeueJournal(db, 0, now(), null))) {
      status.changed();
      scheduler.again();
    }
    return pulled;
  });
  if (outcome === null) {
    scheduler.schedule(LOCK_RECHECK_MS);
    return;
  }
  switch (outcome.kind) {
    case 'done':
      scheduler.succeeded();
      await setMeta(db, META.lastSyncedAt, now());
      // A pass that finished just after the browser went offline must not mark it online again.
      status.publish({ online: onlineNow(), lastError: null, nextRetryAt: null, reach: reachNow() });
      break;
    case 'auth':
      status.publish({ loginNeeded: true, lastError: outcome.message, online: onlineNow(), reach: reachNow() });
      break;
    case 'retry': {
      const reach: Reach = !onlineNow() ? 'no_signal' : outcome.offline ? 'no_answer' : 'server_error';
      const delay = scheduler.backOff(outcome.retryAfterMs, reach);
      status.publish({ online: !outcome.offline && onlineNow(), lastError: outcome.message, nextRetryAt: now() + delay, reach });
      break;
    }
    case 'lost_lock':
      scheduler.schedule(LOCK_RECHECK_MS);
      break;
  }
}
