import { and, asc, eq, lte } from 'drizzle-orm';
import type { Clock } from '../../clock';
import type { Db } from '../../db/client';
import { webhookDelivery, webhookEndpoint } from '../../db/schema/index';
import { companyWebhookSecret } from '../org/webhookKey';
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
  /** Endpoints on loopback or private address literals are refused unless allowed (tests, on-premise receivers). */
  allowPrivateTargets?: boolean;
  fetch?: typeof fetch;
  log?: (message: string) => void;
}

export interface WebhookDispatcher {
  /** Sends what is due now; resolves with the number of deliveries attempted. Overlapping calls share one run. */
  runOnce(): Promise<number>;
  start(intervalMs?: number): void;
  stop(): Promise<void>;
}

const PRIVATE = [/^127\./, /^10\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./, /^169\.254\./, /^0\./, /^localhost$/i, /^\[?::1\]?$/, /^\[?f[cd][0-9a-f]{2}:/i];

function privateTarget(url: string): boolean {
  const host = new URL(url).hostname;
  return PRIVATE.some((re) => re.test(host));
}

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
  const send = opts.fetch ?? fetch;
  let running: Promise<number> | null = null;
  let timer: NodeJS.Timeout | null = null;

  async function attempt(row: typeof webhookDelivery.$inferSelect, url: string): Promise<{ ok: boolean; status: number | null; error: string | null }> {
    const secret = companyWebhookSecret(db, row.company_id);
    if (!secret) return { ok: false, status: null, error: 'the company has no webhook key; generate one to receive events' };
    if (!opts.allowPrivateTargets && privateTarget(url)) return { ok: false, status: null, error: 'private or loopback address refused' };
    const timestamp = Math.floor(clock.now() / 1000);
    try {
      const res = await send(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Courier-Webhooks/1',
          'x-courier-event': row.event,
          'x-courier-event-id': row.event_id,
          'x-courier-delivery': String(row.id),
          'x-courier-timestamp': String(timestamp),
          'x-courier-signature': signBody(secret, timestamp, row.payload),
        },
        body: row.payload,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      // The receiver's body is not needed; reading it frees the connection.
      await res.arrayBuffer().catch(() => undefined);
      return res.status >= 200 && res.status < 300 ? { ok: true, status: res.status, error: null } : { ok: false, status: res.status, error: `HTTP ${res.status}` };
    } catch (err) {
      const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
      return { ok: false, status: null, error: `${err instanceof Error ? err.message : String(err)}${cause}`.slice(0, 500) };
    }
  }

  async function run(): Promise<number> {
    const now = clock.now();
    const due = db.select({ row: webhookDelivery, url: webhookEndpoint.url }).from(webhookDelivery)
      .innerJoin(webhookEndpoint, eq(webhookEndpoint.id, webhookDelivery.endpoint_id))
      .where(and(eq(webhookDelivery.status, 'pending'), lte(webhookDelivery.next_attempt_at, now)))
      .orderBy(asc(webhookDelivery.next_attempt_at), asc(webhookDelivery.id)).limit(batch).all();
    for (const { row, url } of due) {
      const result = await attempt(row, url);
      const at = clock.now();
      const attempts = row.attempts + 1;
      const dead = !result.ok && attempts >= maxAttempts;
      db.update(webhookDelivery).set({
        attempts,
        status: result.ok ? 'delivered' : dead ? 'dead' : 'pending',
        last_attempt_at: at,
        last_status_code: result.status,
        last_error: result.error,
        delivered_at: result.ok ? at : null,
        next_attempt_at: result.ok || dead ? at : at + backoffDelay(attempts, baseDelay, maxDelay),
        updated_at: at,
      }).where(eq(webhookDelivery.id, row.id)).run();
      if (!result.ok) opts.log?.(`[webhooks] delivery ${row.id} (${row.event}) attempt ${attempts} failed: ${result.error}${dead ? ' (dead)' : ''}`);
    }
    return due.length;
  }

  const runOnce = (): Promise<number> => {
    running ??= run().finally(() => { running = null; });
    return running;
  };

  return {
    runOnce,
    start(intervalMs = 5_000) {
      if (timer) return;
      timer = setInterval(() => { runOnce().catch((err: unknown) => opts.log?.(`[webhooks] dispatcher error: ${String(err)}`)); }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
