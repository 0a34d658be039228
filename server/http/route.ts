import type { Context } from 'hono';
import { z } from 'zod';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import type { SessionUser } from '../services/auth/session';
import type { App, AppEnv } from './env';
import { deviceOf, idempotencyOf, type DeviceInfo } from './idempotency';
import { registerOperation } from './openapi';
import { checkJsonShape, jsonLimitsOf, tooLargeBody, type JsonLimits } from './jsonLimits';
import { callerOf } from './route/caller';
import { refusalKept, keyedRequest, storedReplay } from './route/idempotency';
import { parseWith, withUser } from './route/input';
import { settlement } from './route/settle';
import { answer, runUnit } from './route/unit';
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
export type Handler<P extends Schema, Q extends Schema, B extends Schema, X> = (input: Input<P, Q, B, X>) => Result | Promise<Result>;

const ID_PARAM = /^(id|number|.*_id|.*Id)$/;

export function routingPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => (ID_PARAM.test(name) ? `:${name}{[0-9]+}` : `:${name}`));
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
      const end = settlement(c);
      try {
        const maybeUser = await callerOf(c, spec.access);
        const params = parseWith(spec.params as P, c.req.param(), 'path');
        const query = parseWith(spec.query as Q, c.req.query(), 'query');
        const idem = transactional && maybeUser ? idempotencyOf(c) : null;
        const device = idem?.device ?? deviceOf(c);
        const bodyRead = spec.body ? await readBody(c, spec.bodyKind ?? 'json', jsonLimitsOf(spec)) : null;
        const keyed = keyedRequest(c, idem, maybeUser?.id ?? 0, bodyRead?.raw);
        const stored = await storedReplay(keyed);
        if (stored) return stored;

        const body = await refusalKept(keyed, () => parseWith(spec.body as B, bodyRead?.value, 'body'));
        const make = <T>(prepared: T) => withUser({ c, deps, params, query, body, device, prepared, maybeUser }) as Input<P, Q, B, T>;
        const prepared = await refusalKept(keyed, async () => (spec.prepare ? await spec.prepare(make(undefined)) : (undefined as X)));
        const settle = spec.settle;
        if (settle) end.after(() => settle(prepared, deps));
        const input = make(prepared);

        if (!transactional) {
          const result = await handler(input);
          await end.batchCommitted();
          return end.send(answer(c, result, status));
        }
        return end.send(await runUnit(keyed, () => handler(input), { status, small: spec.small === true, device, maybeUser }));
      } catch (err) {
        return end.fail(err);
      }
    },
  );
}
