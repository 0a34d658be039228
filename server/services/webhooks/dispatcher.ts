import { and, asc, eq, lte } from 'drizzle-orm';
import { changedRows } from '../../db/client';
import { backgroundLoop } from '../background/loop';
import type { Clock } from '../../clock';
import type { Db } from '../../db/client';
import { webhookDelivery, webhookEndpoint } from '../../db/schema/index';
import { companyWebhookSecret } from '../org/webhookKey';
import { outboundPolicy, postVetted, TargetRefused, vetTarget, type Resolver } from './outbound';
import { signBody } from './signature';

export interface DispatcherOptions {
  db: Db;
  clock: Clock;
  /** Attempts before a delivery is marked dead (a replay gives it as many again). */
  maxAttempts?: number;
  /** First retry delay; each further retry doubles it, up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  timeoutMs?: number;
  batchSize?: number;
  /**
   * Host names or CIDRs that may be private (on-premise receivers; WEBHOOK_ALLOW_HOSTS): every other
   * target resolving to a loopback, private, link-local or reserved address is refused (outbound.ts).
   */
  allow?: readonly string[];
  resolve?: Resolver;
  /** How much of a receiver's answer is read before the connection is dropped. */
  maxResponseBytes?: number;
  /**
   * How long a claimed delivery is kept from other dispatchers (other machines on one PostgreSQL
   * database). One whose sender died is tried again after it: at least once, never twice at once.
   */
  claimMs?: number;
  log?: (message: string) => void;
}

export interface WebhookDispatcher {
  /** Sends what is due now; resolves with the number of deliveries attempted. Overlapping calls share one run. */
  runOnce(): Promise<number>;
  start(intervalMs?: number): void;
  stop(): Promise<void>;
}

/**
 * What the company may see of an attempt: the outcome and the status class. The exact status or the
 * network error would make the delivery log a port scanner of whatever the target reaches; the
 * operator's log line keeps the detail.
 */
export const DELIVERY_FAILURES = {
  noKey: 'the company has no webhook key; generate one to receive events',
  refused: 'target refused: it resolves to a private, loopback or reserved address',
  noAnswer: 'failed: no HTTP answer',
} as const;
export const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/** Delay before the attempt after `attempts` failures: base, 2x, 4x, ... capped. */
export function backoffDelay(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * Sends the `webhook_delivery` queue: each due row is POSTed with the company's signature (the same
 * scheme as inbound calls), its event id and type. Success is any 2xx; anything else schedules the
 * next attempt with exponential back-off, persisted in the row so a restart resumes where it was.
 */
export function createWebhookDispatcher(opts: DispatcherOptions): WebhookDispatcher {
  const { db, clock } = opts;
  const maxAttempts = opts.maxAttempts ?? 8;
  const baseDelay = opts.baseDelayMs ?? 30_000;
  const maxDelay = opts.maxDelayMs ?? 6 * 3600_000;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const batch = opts.batchSize ?? 25;
  const policy = outboundPolicy(opts.allow);
  const maxResponseBytes = opts.maxResponseBytes ?? 64 * 1024;
  const claimMs = opts.claimMs ?? Math.max(60_000, timeoutMs * 3);

  interface Attempt {
    ok: boolean;
    status: number | null;
    shown: string | null;
    detail: string | null;
  }

  async function attempt(row: typeof webhookDelivery.$inferSelect, url: string): Promise<Attempt> {
    const secret = await companyWebhookSecret(db, row.company_id);
    if (!secret) return { ok: false, status: null, shown: DELIVERY_FAILURES.noKey, detail: 'no webhook key' };
    const timestamp = Math.floor(clock.now() / 1000);
    try {
      // Vetted now, at send time, whatever was checked when the endpoint was saved: DNS may have changed.
      const target = await vetTarget(url, policy, opts.resolve);
      const { status } = await postVetted(
        target,
        {
          'content-type': 'application/json',
          'user-agent': 'Courier-Webhooks/1',
          'x-courier-event': row.event,
          'x-courier-event-id': row.event_id,
          'x-courier-delivery': String(row.id),
          'x-courier-timestamp': String(timestamp),
          'x-courier-signature': signBody(secret, timestamp, row.payload),
        },
        row.payload,
        { timeoutMs, maxResponseBytes },
      );
      const ok = status >= 200 && status < 300;
      return { ok, status, shown: ok ? null : `failed: ${statusClass(status)}`, detail: ok ? null : `HTTP ${status}` };
    } catch (err) {
      const detail = `${err instanceof Error ? err.message : String(err)}`.slice(0, 300);
      return {
        ok: false,
        status: null,
        shown: err instanceof TargetRefused ? DELIVERY_FAILURES.refused : DELIVERY_FAILURES.noAnswer,
        detail,
      };
    }
  }

  async function run(): Promise<number> {
    const now = clock.now();
    const due = await db
      .select({ row: webhookDelivery, url: webhookEndpoint.url })
      .from(webhookDelivery)
      .innerJoin(webhookEndpoint, eq(webhookEndpoint.id, webhookDelivery.endpoint_id))
      .where(and(eq(webhookDelivery.status, 'pending'), lte(webhookDelivery.next_attempt_at, now)))
      .orderBy(asc(webhookDelivery.next_attempt_at), asc(webhookDelivery.id))
      .limit(batch)
      .all();
    let attempted = 0;
    for (const { row, url } of due) {
      // The claim: moving the row's due time on, if no other dispatcher moved it since it was read.
      // One statement outside any unit: a second dispatcher's waits on the row lock, then finds the
      // time changed and leaves the delivery to the first.
      const claimed = changedRows(
        await db
          .update(webhookDelivery)
          .set({ next_attempt_at: clock.now() + claimMs })
          .where(
            and(
              eq(webhookDelivery.id, row.id),
              eq(webhookDelivery.status, 'pending'),
              eq(webhookDelivery.next_attempt_at, row.next_attempt_at),
            ),
          )
          .run(),
      );
      if (claimed === 0) continue;
      attempted += 1;
      const result = await attempt(row, url);
      const at = clock.now();
      const attempts = row.attempts + 1;
      const dead = !result.ok && attempts >= maxAttempts;
      await db
        .update(webhookDelivery)
        .set({
          attempts,
          status: result.ok ? 'delivered' : dead ? 'dead' : 'pending',
          last_attempt_at: at,
          last_status_code: result.status,
          last_error: result.shown,
          delivered_at: result.ok ? at : null,
          next_attempt_at: result.ok || dead ? at : at + backoffDelay(attempts, baseDelay, maxDelay),
          updated_at: at,
        })
        .where(eq(webhookDelivery.id, row.id))
        .run();
      if (!result.ok)
        opts.log?.(`[webhooks] delivery ${row.id} (${row.event}) attempt ${attempts} failed: ${result.detail}${dead ? ' (dead)' : ''}`);
    }
    return attempted;
  }

  return backgroundLoop(run, { name: 'webhooks', intervalMs: 5_000, log: opts.log });
}
