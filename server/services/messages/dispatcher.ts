import { and, asc, eq, lt, lte } from 'drizzle-orm';
import { backgroundLoop } from '../background/loop';
import type { Clock } from '../../clock';
import { changedRows, type Db } from '../../db/client';
import type { Units } from '../../db/engine/types';
import { messageOutbox } from '../../db/schema/index';
import { backoffDelay } from '../webhooks/dispatcher';
import type { EmailTransport, SendOutcome, SmsProvider } from './transports';

export type OutboxRow = typeof messageOutbox.$inferSelect;
/** Text for a row queued without one (recipient notices are rendered from the company's template when sent). */
export type Rendered = { subject: string | null; body: string; senderName?: string | null } | { skip: string };
export type Renderer = (row: OutboxRow) => Rendered | Promise<Rendered>;

export interface MessageDispatcherOptions {
  db: Db;
  clock: Clock;
  email: EmailTransport;
  sms: SmsProvider;
  /** The envelope sender address; the display name is the company's sender name. */
  fromAddress: string;
  render?: Renderer;
  /**
   * The app's units of work: rows are read after the writes answered so far are durable, and each claim
   * is a unit of its own, committed before the network call.
   */
  writes?: Units;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  batchSize?: number;
  /** A row claimed longer ago than this was cut off mid-send by a stop: marked uncertain, never re-sent. */
  leaseMs?: number;
  log?: (line: string) => void;
}

export interface MessageDispatcher {
  /** Sends what is due now; resolves with the number of rows attempted. Overlapping calls share one run. */
  runOnce(): Promise<number>;
  start(intervalMs?: number): void;
  stop(): Promise<void>;
}

const quoteName = (name: string) => `"${name.replace(/["\\\r\n]/g, '')}"`;

/**
 * Drains `message_outbox`. Each row is claimed (status `sending`, committed on its own) before the
 * network call and settled after it, so a crash between the two leaves an `uncertain` row rather
 * than a second copy in someone's inbox: at most once, retried only when the provider said it did
 * not take the message.
 */
export function createMessageDispatcher(opts: MessageDispatcherOptions): MessageDispatcher {
  const { db, clock } = opts;
  const maxAttempts = opts.maxAttempts ?? 6;
  const baseDelay = opts.baseDelayMs ?? 30_000;
  const maxDelay = opts.maxDelayMs ?? 3600_000;
  const batch = opts.batchSize ?? 50;
  const leaseMs = opts.leaseMs ?? 10 * 60_000;

  async function committed(): Promise<void> {
    await opts.writes?.settled().catch(() => undefined);
  }

  /** Runs a write as a unit of its own and resolves once it is durable (directly when no units are given). */
  function durably<T>(work: () => Promise<T>): Promise<T> {
    return opts.writes ? opts.writes.run(work) : work();
  }

  async function settle(row: OutboxRow, attempts: number, outcome: SendOutcome): Promise<void> {
    const at = clock.now();
    if (outcome.ok) {
      await db
        .update(messageOutbox)
        .set({ status: 'sent', sent_at: at, provider_id: outcome.providerId ?? null, last_error: null, updated_at: at })
        .where(eq(messageOutbox.id, row.id))
        .run();
      return;
    }
    const dead = !outcome.retry || attempts >= maxAttempts;
    const wait = Math.max(backoffDelay(attempts, baseDelay, maxDelay), outcome.retryAfterMs ?? 0);
    await db
      .update(messageOutbox)
      .set({
        status: dead ? 'dead' : 'pending',
        last_error: outcome.error,
        next_attempt_at: dead ? at : at + wait,
        claimed_at: null,
        updated_at: at,
      })
      .where(eq(messageOutbox.id, row.id))
      .run();
    opts.log?.(`[messages] ${row.channel} ${row.id} (${row.kind}) attempt ${attempts} failed: ${outcome.error}${dead ? ' (dead)' : ''}`);
  }

  async function sendOne(row: OutboxRow): Promise<void> {
    await committed();
    // The claim below is conditional on `pending` and committed (its own unit) before the send.
    const fresh = await db
      .select()
      .from(messageOutbox)
      .where(and(eq(messageOutbox.id, row.id), eq(messageOutbox.status, 'pending')))
      .get();
    if (!fresh) return;
    const now = clock.now();
    let subject = fresh.subject;
    let body = fresh.body;
    let senderName: string | null = null;
    if (opts.render && fresh.kind !== 'account') {
      const r = await opts.render(fresh);
      if ('skip' in r) {
        await db
          .update(messageOutbox)
          .set({ status: 'skipped', last_error: r.skip, updated_at: now })
          .where(eq(messageOutbox.id, fresh.id))
          .run();
        return;
      }
      subject = r.subject;
      body = r.body;
      senderName = r.senderName ?? null;
    }
    if (body == null) {
      await db
        .update(messageOutbox)
        .set({ status: 'dead', last_error: 'nothing to send', updated_at: now })
        .where(eq(messageOutbox.id, fresh.id))
        .run();
      return;
    }
    const attempts = fresh.attempts + 1;
    const claimed = changedRows(
      await durably(() =>
        db
          .update(messageOutbox)
          .set({ status: 'sending', claimed_at: now, attempts, subject, body, updated_at: now })
          .where(and(eq(messageOutbox.id, fresh.id), eq(messageOutbox.status, 'pending')))
          .run(),
      ),
    );
    if (claimed === 0) return;
    const outcome =
      fresh.channel === 'email'
        ? await opts.email.send({
            from: `${quoteName(senderName ?? 'Courier')} <${opts.fromAddress}>`,
            to: fresh.to,
            subject: subject ?? '',
            text: body,
          })
        : await opts.sms.send({ to: fresh.to, body });
    await settle(fresh, attempts, outcome);
    if (outcome.ok && (fresh.channel === 'email' ? opts.email.kind : opts.sms.kind) === 'log') {
      await db.update(messageOutbox).set({ status: 'logged' }).where(eq(messageOutbox.id, fresh.id)).run();
    }
  }

  async function run(): Promise<number> {
    await committed();
    const now = clock.now();
    const stale = changedRows(
      await db
        .update(messageOutbox)
        .set({ status: 'uncertain', last_error: 'stopped while sending; not retried (it may have gone)', updated_at: now })
        .where(and(eq(messageOutbox.status, 'sending'), lt(messageOutbox.claimed_at, now - leaseMs)))
        .run(),
    );
    if (stale) opts.log?.(`[messages] ${stale} message(s) cut off mid-send marked uncertain`);
    const due = await db
      .select()
      .from(messageOutbox)
      .where(and(eq(messageOutbox.status, 'pending'), lte(messageOutbox.next_attempt_at, now)))
      .orderBy(asc(messageOutbox.next_attempt_at), asc(messageOutbox.id))
      .limit(batch)
      .all();
    for (const row of due) await sendOne(row);
    return due.length;
  }

  return backgroundLoop(run, { name: 'messages', intervalMs: 2_000, log: opts.log });
}
