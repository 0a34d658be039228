import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Deps } from '../../deps';
import type { AppEnv } from '../env';
import { toApiError } from '../errorHandler';
import { bodyHash, findAnswer, isUniqueViolation, storeAnswer, type IdempotencyInfo, type StoredAnswer } from '../idempotency';

/** Refusals kept as the key's answer; others (401, 429, 5xx) may come out differently next time. */
const RECORDED = new Set([400, 403, 404, 409, 413, 415, 422]);

/**
 * A mutation under an Idempotency-Key (DESIGN.md section 6): the key, whose it is, and the hash of
 * what was sent, which a replay must match. `idem` is null for a request without one.
 */
export interface Keyed {
  c: Context<AppEnv>;
  deps: Deps;
  idem: IdempotencyInfo | null;
  userId: number;
  hash: string;
}

export function keyedRequest(c: Context<AppEnv>, idem: IdempotencyInfo | null, userId: number, raw: Uint8Array | undefined): Keyed {
  const hash = idem ? bodyHash(c.req.method, c.req.path, raw ?? new Uint8Array()) : '';
  return { c, deps: c.get('deps'), idem, userId, hash };
}

/** The answer stored for this key already, as the replay it is; null: this request runs. */
export async function storedReplay(k: Keyed): Promise<Response | null> {
  if (!k.idem) return null;
  const stored = await findAnswer(k.deps.db, k.idem.key, k.userId, k.hash);
  if (!stored) return null;
  // It may be a twin's answer in the batch still open: replayed once that batch committed.
  await k.deps.writes.settled();
  return replay(k.c, stored);
}

/** A twin's answer stored under this key (it got there first); null when there is none. */
export async function twinAnswer(k: Keyed): Promise<StoredAnswer | null> {
  return k.idem ? ((await findAnswer(k.deps.db, k.idem.key, k.userId, k.hash)) ?? null) : null;
}

/** Keeps the handler's answer as the key's, inside the handler's unit. */
export async function keepAnswer(k: Keyed, idem: IdempotencyInfo, answer: StoredAnswer): Promise<void> {
  await storeAnswer(k.deps.db, idem, k.userId, k.c.req.method, k.c.req.path, k.hash, answer, k.deps.clock.now());
}

/**
 * Runs a step before the unit of work (reading the body, `prepare`); a refusal it throws is the key's
 * answer like any other rejection, recorded in a unit of its own: replayed, never re-run.
 */
export async function refusalKept<T>(k: Keyed, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (k.idem) await k.deps.writes.run(() => recordRejection(k, err), { small: true });
    throw err;
  }
}

export function replay(c: Context<AppEnv>, stored: StoredAnswer): Response {
  const res = c.json(stored.body as object, stored.status as ContentfulStatusCode);
  res.headers.set('Idempotent-Replayed', 'true');
  return res;
}

/**
 * A business rejection is an answer too: stored so one bad queued action never blocks the queue,
 * together with whatever the rejection must leave behind (a refused scan is recorded). Runs inside
 * a unit of the write batch; answers whether it wrote anything.
 */
export async function recordRejection(k: Keyed, err: unknown): Promise<boolean> {
  const apiError = toApiError(err);
  const keep = k.idem != null && RECORDED.has(apiError.status) && !apiError.retryable;
  if (!keep && !apiError.record) return false;
  try {
    await k.deps.db.$engine.savepoint(async () => {
      await apiError.record?.();
      if (keep && k.idem) await keepAnswer(k, k.idem, { status: apiError.status, body: apiError.toBody() });
    });
    return true;
  } catch (storeErr) {
    if (!isUniqueViolation(storeErr)) throw storeErr;
    return false;
  }
}
