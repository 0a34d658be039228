import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import type { Deps } from '../deps';
import { ApiError, forbidden, unauthenticated } from '../errors';
import type { SessionUser } from '../services/auth/session';
import { loadSession, touchSession } from '../services/auth/session';
import type { App, AppEnv } from './env';
import { errorResponse, toApiError, validationError } from './errorHandler';
import {
  bodyHash,
  deviceOf,
  findAnswer,
  idempotencyOf,
  isUniqueViolation,
  noteDevice,
  storeAnswer,
  type DeviceInfo,
  type IdempotencyInfo,
  type StoredAnswer,
} from './idempotency';
import { registerOperation } from './openapi';
import { RawJson } from './rawJson';
import { jsonAnswer } from './answerHeaders';
import { isRetryable } from '../db/engine/errors';
import { checkJsonShape, jsonLimitsOf, tooLargeBody, type JsonLimits } from './jsonLimits';
import { readCappedBody, UPLOAD_LIMIT } from './bodyReader';

import type { Access, Method } from './routeTypes';

type Schema = z.ZodType | undefined;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteSpec<P extends Schema, Q extends Schema, B extends Schema, X> {
  method: Method | readonly Method[];
  /** Relative to `/api`, OpenAPI style: `/warehouse/{id}/`. Params named id, *_id, *Id or number match digits only. */
  path: string;
  catalogue: readonly string[];
  summary: string;
  description?: string;
  tags?: readonly string[];
  access: Access;
  params?: P;
  query?: Q;
  body?: B;
  /** `multipart` bodies are parsed from form data; files arrive as `File`. */
  bodyKind?: 'json' | 'multipart';
  /**
   * What a JSON body may be (server/http/jsonLimits.ts): JSON_DEFAULT, or JSON_SMALL for public
   * routes unless they say otherwise. Refused before it is parsed.
   */
  jsonLimits?: JsonLimits;
  response?: z.ZodType;
  /** Non-JSON answers (files, CSV) are described by their media type. */
  produces?: string;
  status?: 200 | 201 | 202;
  /**
   * Mutations default to transactional: the handler runs as one unit of work (server/db/engine/types.ts)
   * with the Idempotency-Key record; it awaits only the database. `false` lets a handler await
   * other things (login, password hashing) and opts out of idempotency.
   */
  transactional?: boolean;
  /**
   * The write changes a handful of rows whatever its input (one parcel scanned, delivered, failed):
   * its unit's undo journal stays in memory (server/db/engine/types.ts, `RunOptions`). Not for
   * anything that takes a list or a file.
   */
  small?: boolean;
  /** Async work before the transaction (reading uploads, writing files); its result reaches the handler. */
  prepare?: (input: Input<P, Q, B, undefined>) => Promise<X>;
  /**
   * Runs after the request's answer is final and its batch committed, whatever the outcome
   * (success, refusal, replay): e.g. removing bytes `prepare` wrote that no committed row names.
   */
  settle?: (prepared: X, deps: Deps) => Promise<void>;
}

export interface Input<P extends Schema, Q extends Schema, B extends Schema, X> {
  c: Context<AppEnv>;
  deps: Deps;
  /** The caller; reading it on a public route without a token answers 401. */
  readonly user: SessionUser;
  readonly maybeUser: SessionUser | undefined;
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  device: DeviceInfo | null;
  prepared: X;
}

type Result = unknown;
/** What a transactional request's unit of work ends with; answered once its batch committed. */
type Outcome = { result: Result } | { replayed: StoredAnswer } | { rejected: unknown };
export type Handler<P extends Schema, Q extends Schema, B extends Schema, X> = (input: Input<P, Q, B, X>) => Result | Promise<Result>;

/** Units that write one row (a session's last use, a refused request's answer). */
const SMALL = { small: true } as const;

const ID_PARAM = /^(id|number|.*_id|.*Id)$/;

export function routingPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => (ID_PARAM.test(name) ? `:${name}{[0-9]+}` : `:${name}`));
}

export async function authenticate(c: Context<AppEnv>): Promise<SessionUser | undefined> {
  const cached = c.get('user');
  if (cached) return cached;
  const header = c.req.header('authorization');
  if (!header) return undefined;
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]{16,256})$/i.exec(header.trim());
  if (!match?.[1]) throw unauthenticated('Malformed Authorization header: expected "Bearer <token>"');
  const deps = c.get('deps');
  const now = deps.clock.now();
  const user = await loadSession(deps.db, match[1], now, deps.permissionSource, deps.config.staffIdleMs);
  if (!user) throw unauthenticated('Invalid or expired token');
  // In the group commit (one fsync shared with other writes); a failed touch only shortens the idle clock.
  if (user.stale) deps.writes.run(() => touchSession(deps.db, user.tokenId, now), SMALL).catch(() => undefined);
  c.set('user', user);
  return user;
}

export function checkAccess(user: SessionUser | undefined, access: Access): void {
  if (access === 'public') return;
  if (!user) throw unauthenticated();
  if (access === 'authenticated') return;
  if (typeof access === 'string') {
    if (!user.permissions.has(access)) throw forbidden(`You need the "${access}" permission`);
    return;
  }
  if (!access.roles.includes(user.role)) throw forbidden(`Only ${access.roles.join(', ')} may do this`);
}

function parseWith<S extends Schema>(schema: S, value: unknown, where: string): Out<S> {
  if (!schema) return undefined as Out<S>;
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, where);
  return result.data as Out<S>;
}

const tooLargeUpload = () => new ApiError(413, 'payload_too_large', `Request body is larger than ${Math.round(UPLOAD_LIMIT / 1024)} KiB`);

async function readBody(c: Context<AppEnv>, kind: 'json' | 'multipart', limits: JsonLimits): Promise<{ raw: Uint8Array; value: unknown }> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  if (kind === 'json') {
    if (!/^application\/([a-z.+-]*\+)?json\b/.test(type)) {
      throw new ApiError(415, 'unsupported_media_type', 'Send the body as application/json');
    }
    // The route's own limit, applied while the body arrives: a refusal costs one chunk's read.
    const raw = await readCappedBody(c, limits.bytes, () => tooLargeBody(limits));
    if (raw.byteLength === 0) throw new ApiError(400, 'validation_error', 'Request body is empty: a JSON object was expected');
    checkJsonShape(raw, limits);
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder().decode(raw));
    } catch {
      throw new ApiError(400, 'validation_error', 'Malformed JSON in request body');
    }
    return { raw, value };
  }
  if (!type.startsWith('multipart/form-data')) {
    throw new ApiError(415, 'unsupported_media_type', 'Send the body as multipart/form-data');
  }
  const raw = await readCappedBody(c, UPLOAD_LIMIT, tooLargeUpload);
  let form: Record<string, unknown>;
  try {
    form = await c.req.parseBody({ all: true });
  } catch {
    throw new ApiError(400, 'validation_error', 'Malformed multipart body');
  }
  return { raw, value: form };
}

const RECORDED = new Set([400, 403, 404, 409, 413, 415, 422]);

/**
 * Declares one operation: OpenAPI entry with its catalogue ids, access check, validation, and for
 * mutations the transaction and Idempotency-Key handling of DESIGN.md section 6.
 */
export function defineRoute<P extends Schema = undefined, Q extends Schema = undefined, B extends Schema = undefined, X = undefined>(
  app: App,
  spec: RouteSpec<P, Q, B, X>,
  handler: Handler<P, Q, B, X>,
): void {
  const methods = (Array.isArray(spec.method) ? spec.method : [spec.method]) as Method[];
  const mutation = methods.some((m) => m !== 'get');
  const transactional = mutation && spec.transactional !== false;
  const status = spec.status ?? 200;
  methods.forEach((method, i) => registerOperation(app, spec, method, i === 0));

  app.on(
    methods.map((m) => m.toUpperCase()),
    routingPath(spec.path),
    async (c) => {
      const deps = c.get('deps');
      // Reads are held back in server/app.ts; a mutation's answer waits here (docs/architecture.md).
      const write = c.req.method !== 'GET' && c.req.method !== 'HEAD';
      const since = deps.writes.failures;
      let settle: (() => Promise<void>) | null = null;
      const settled = async (res: Response): Promise<Response> => {
        if (!settle) return res;
        await deps.writes.settled(since).catch(() => undefined);
        await settle().catch((err: unknown) => console.error('[courier] settle failed', c.req.method, c.req.path, err));
        return res;
      };
      try {
        const maybeUser = await (spec.access === 'public' ? tryAuthenticate(c) : authenticate(c));
        checkAccess(maybeUser, spec.access);
        const params = parseWith(spec.params as P, c.req.param(), 'path');
        const query = parseWith(spec.query as Q, c.req.query(), 'query');
        const idem = transactional && maybeUser ? idempotencyOf(c) : null;
        const device = idem?.device ?? deviceOf(c);
        const bodyRead = spec.body ? await readBody(c, spec.bodyKind ?? 'json', jsonLimitsOf(spec)) : null;
        const hash = idem ? bodyHash(c.req.method, c.req.path, bodyRead?.raw ?? new Uint8Array()) : '';
        const userId = maybeUser?.id ?? 0;

        if (idem) {
          const stored = await findAnswer(deps.db, idem.key, userId, hash);
          if (stored) {
            // It may be a twin's answer in the batch still open: replayed once that batch committed.
            await deps.writes.settled();
            return replay(c, stored.status, stored.body);
          }
        }

        let body: Out<B>;
        try {
          body = parseWith(spec.body as B, bodyRead?.value, 'body');
        } catch (err) {
          if (idem) await deps.writes.run(() => recordRejection(deps, idem, userId, c, hash, err), SMALL);
          throw err;
        }
        const userGetter = {
          get() {
            if (!maybeUser) throw unauthenticated();
            return maybeUser;
          },
          enumerable: true,
        };
        const make = <T>(prepared: T) =>
          Object.defineProperty({ c, deps, params, query, body, device, prepared, maybeUser }, 'user', userGetter) as Input<P, Q, B, T>;
        let prepared: X;
        try {
          prepared = spec.prepare ? await spec.prepare(make(undefined)) : (undefined as X);
          const done = prepared;
          if (spec.settle) settle = () => (spec.settle as NonNullable<typeof spec.settle>)(done, deps);
        } catch (err) {
          // A refused upload is an answer like any other rejection: replayed, never re-run.
          if (idem) await deps.writes.run(() => recordRejection(deps, idem, userId, c, hash, err), SMALL);
          throw err;
        }
        const input = make(prepared);

        if (!transactional) {
          const result = await handler(input);
          // Its writes joined whichever batch was open at the time; a failed one may have taken them.
          if (write) await deps.writes.settled(since);
          return settled(answer(c, result, status));
        }

        // One unit of the open write batch: the effect with its stored answer or, failing that, the
        // rejection stored instead; one savepoint inside the unit so the rejection outlives the effect.
        const outcome = await deps.writes.run(
          async (): Promise<Outcome> => {
            try {
              return {
                result: await deps.db.$engine.savepoint(async () => {
                  const out = await handler(input);
                  if (!(out instanceof Response)) {
                    if (idem)
                      await storeAnswer(deps.db, idem, userId, c.req.method, c.req.path, hash, { status, body: out }, deps.clock.now());
                    else if (maybeUser) await noteDevice(deps.db, device, maybeUser.id, deps.clock.now());
                  }
                  return out;
                }),
              };
            } catch (err) {
              // PostgreSQL could not serialize this unit: it runs again from the start (server/db/engine/postgres.ts).
              if (isRetryable(err)) throw err;
              if (idem) {
                // A twin with the same key got there first (our insert of the key failed, or our handler
                // saw the twin's effect and refused), maybe earlier in this same batch: its answer is ours.
                const stored = await findAnswer(deps.db, idem.key, userId, hash);
                if (stored) return { replayed: stored };
              }
              // Nothing to keep: failing the unit lets the batch see the error itself (disk full...).
              if (!(await recordRejection(deps, idem, userId, c, hash, err))) throw err;
              return { rejected: err };
            }
          },
          { small: spec.small === true },
        );
        if ('replayed' in outcome) return settled(replay(c, outcome.replayed.status, outcome.replayed.body));
        if ('rejected' in outcome) throw outcome.rejected;
        return settled(answer(c, outcome.result, status));
      } catch (err) {
        if (write) {
          // An error answer may rest on rows of a batch still open (a twin's key, a revoked token).
          try {
            await deps.writes.settled(since);
          } catch (batchErr) {
            return settled(errorResponse(c, batchErr));
          }
        }
        return settled(errorResponse(c, err));
      }
    },
  );
}

function answer(c: Context<AppEnv>, result: Result, status: number): Response {
  if (result instanceof Response) return result;
  return jsonAnswer(c, result instanceof RawJson ? result.body() : JSON.stringify(result), status);
}

async function tryAuthenticate(c: Context<AppEnv>): Promise<SessionUser | undefined> {
  try {
    return await authenticate(c);
  } catch {
    return undefined;
  }
}

function replay(c: Context<AppEnv>, status: number, body: unknown): Response {
  const res = c.json(body as object, status as ContentfulStatusCode);
  res.headers.set('Idempotent-Replayed', 'true');
  return res;
}

/**
 * A business rejection is an answer too: stored so one bad queued action never blocks the queue,
 * together with whatever the rejection must leave behind (a refused scan is recorded). Runs inside
 * a unit of the write batch; answers whether it wrote anything.
 */
async function recordRejection(
  deps: Deps,
  idem: IdempotencyInfo | null,
  userId: number,
  c: Context<AppEnv>,
  hash: string,
  err: unknown,
): Promise<boolean> {
  const apiError = toApiError(err);
  const keep = idem != null && RECORDED.has(apiError.status) && !apiError.retryable;
  if (!keep && !apiError.record) return false;
  try {
    await deps.db.$engine.savepoint(async () => {
      await apiError.record?.();
      if (keep && idem) {
        await storeAnswer(
          deps.db,
          idem,
          userId,
          c.req.method,
          c.req.path,
          hash,
          { status: apiError.status, body: apiError.toBody() },
          deps.clock.now(),
        );
      }
    });
    return true;
  } catch (storeErr) {
    if (!isUniqueViolation(storeErr)) throw storeErr;
    return false;
  }
}
