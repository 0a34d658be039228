import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { errorResponse } from '../errorHandler';

/**
 * The end of a request: a mutation's answer, an error's too, leaves once the write batch it rests on
 * committed (reads wait in server/app.ts), then the route's `settle` runs, whatever the outcome.
 */
export interface Settlement {
  /** The route's `settle`, once `prepare` gave it something to settle. */
  after(settle: () => Promise<void>): void;
  /** A handler outside a unit: its writes joined whichever batch was open; a failed one may have taken them. */
  batchCommitted(): Promise<void>;
  send(res: Response): Promise<Response>;
  /** The error's answer, or the batch's own failure if that came first (a twin's key, a revoked token). */
  fail(err: unknown): Promise<Response>;
}

export function settlement(c: Context<AppEnv>): Settlement {
  const deps = c.get('deps');
  const write = c.req.method !== 'GET' && c.req.method !== 'HEAD';
  const since = deps.writes.failures;
  let settle: (() => Promise<void>) | null = null;
  const send = async (res: Response): Promise<Response> => {
    if (!settle) return res;
    await deps.writes.settled(since).catch(() => undefined);
    await settle().catch((err: unknown) => console.error('[courier] settle failed', c.req.method, c.req.path, err));
    return res;
  };
  return {
    after(fn) {
      settle = fn;
    },
    async batchCommitted() {
      if (write) await deps.writes.settled(since);
    },
    send,
    async fail(err) {
      if (write) {
        try {
          await deps.writes.settled(since);
        } catch (batchErr) {
          return send(errorResponse(c, batchErr));
        }
      }
      return send(errorResponse(c, err));
    },
  };
}
