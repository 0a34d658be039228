import type { Context } from 'hono';
import { isRetryable } from '../../db/engine/errors';
import type { SessionUser } from '../../services/auth/session';
import { jsonAnswer } from '../answerHeaders';
import type { AppEnv } from '../env';
import { noteDevice, type DeviceInfo, type StoredAnswer } from '../idempotency';
import { RawJson } from '../rawJson';
import { keepAnswer, recordRejection, replay, twinAnswer, type Keyed } from './idempotency';

/** What a transactional request's unit of work ends with; answered once its batch committed. */
type Outcome = { result: unknown } | { replayed: StoredAnswer } | { rejected: unknown };

export interface UnitOptions {
  /** The status of a JSON answer. */
  status: number;
  /** The unit's undo journal stays in memory (RouteSpec.small). */
  small: boolean;
  device: DeviceInfo | null;
  maybeUser: SessionUser | undefined;
}

/**
 * One unit of the open write batch: the effect with its stored answer or, failing that, the
 * rejection stored instead; one savepoint inside the unit so the rejection outlives the effect.
 * Answers the response once the unit ran (the caller waits for its batch) or throws the refusal.
 */
export async function runUnit(k: Keyed, handle: () => unknown, o: UnitOptions): Promise<Response> {
  const { deps, c, idem } = k;
  const outcome = await deps.writes.run(
    async (): Promise<Outcome> => {
      try {
        return {
          result: await deps.db.$engine.savepoint(async () => {
            const out = await handle();
            if (!(out instanceof Response)) {
              if (idem) await keepAnswer(k, idem, { status: o.status, body: out });
              else if (o.maybeUser) await noteDevice(deps.db, o.device, o.maybeUser.id, deps.clock.now());
            }
            return out;
          }),
        };
      } catch (err) {
        // PostgreSQL could not serialize this unit: it runs again from the start (server/db/engine/postgres.ts).
        if (isRetryable(err)) throw err;
        // A twin with the same key got there first (our insert of the key failed, or our handler
        // saw the twin's effect and refused), maybe earlier in this same batch: its answer is ours.
        const stored = await twinAnswer(k);
        if (stored) return { replayed: stored };
        // Nothing to keep: failing the unit lets the batch see the error itself (disk full...).
        if (!(await recordRejection(k, err))) throw err;
        return { rejected: err };
      }
    },
    { small: o.small },
  );
  if ('replayed' in outcome) return replay(c, outcome.replayed);
  if ('rejected' in outcome) throw outcome.rejected;
  return answer(c, outcome.result, o.status);
}

/** A handler's result as the answer: a Response as it is, anything else as JSON. */
export function answer(c: Context<AppEnv>, result: unknown, status: number): Response {
  if (result instanceof Response) return result;
  return jsonAnswer(c, result instanceof RawJson ? result.body() : JSON.stringify(result), status);
}
