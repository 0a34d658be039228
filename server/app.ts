import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Next } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { existsSync } from 'node:fs';
import type { Db } from './db/client';
import type { UnitOptions as WriteBatchOptions } from './db/engine/types';
import { defaultConfig, type Config, type Deps } from './deps';
import type { FileStore } from './files/index';
import type { Clock } from './clock';
import { ApiError } from './errors';
import type { AppEnv } from './http/env';
import { docsRoutes } from './http/docs';
import { reachRoute } from './http/reach';
import { answerHeaders } from './http/answerHeaders';
import { compressJson, staticCacheControl } from './http/compress';
import { UPLOAD_LIMIT } from './http/bodyReader';
import { errorResponse } from './http/errorHandler';
import { requestIdOf, requestLogLine } from './http/logging';
import { openApiDocument } from './http/openapi';
import { memoryRateLimiter } from './http/rateLimit';
import { databaseRateLimiter } from './http/sharedRateLimit';
import { registerRoutes } from './routes/index';
import { createSheetParser } from './services/uploads/parser';
import { createPdfRenderer } from './services/documents/renderer';
import { databaseLoginThrottle, memoryLoginThrottle } from './services/auth/throttle';
import { outboxMailer, type Mailer } from './services/auth/mailer';
import type { PermissionSource } from './services/auth/session';
import { sessionCacheOf } from './services/auth/sessionCache';
import { announceParcelChangesOn } from './services/packages/changes';
import { parcelSubscribers } from './parcelSubscribers';

export interface AppOptions {
  db: Db;
  files: FileStore;
  clock: Clock;
  config?: Partial<Config>;
  mailer?: Mailer;
  permissionSource?: PermissionSource;
  writeBatch?: WriteBatchOptions;
}

/** The most any JSON body may declare; each route reads at most its own, smaller limit (server/http/jsonLimits.ts). */
export const JSON_LIMIT = 1024 * 1024;

export function createApp(options: AppOptions) {
  const config: Config = { ...defaultConfig, ...options.config };
  // PostgreSQL may be served by several processes (WORKERS=N): their throttles count in one table.
  // SQLite is served by one process: memory. Built here, outside any unit of work (see outsideUnits).
  const shared = options.db.$engine.shared;
  const limiter = shared ? databaseRateLimiter(options.db) : memoryRateLimiter(config.limiterCapacity);
  const deps: Deps = {
    db: options.db,
    files: options.files,
    clock: options.clock,
    config,
    mailer: options.mailer ?? outboxMailer(options.db, () => options.clock.now()),
    // Without one, the session query reads the user's permission groups itself (auth/session.ts).
    permissionSource: options.permissionSource,
    limiter,
    throttle: shared ? databaseLoginThrottle(options.db, limiter) : memoryLoginThrottle(limiter, config.limiterCapacity),
    writes: options.db.$engine.units(options.writeBatch),
    sheets: createSheetParser({ concurrency: config.uploadParsers, timeoutMs: config.uploadParseTimeoutMs }),
    pdfs: createPdfRenderer(),
  };
  // A parcel's change is announced once by the lifecycle; its subscribers are this app's.
  announceParcelChangesOn(options.db, parcelSubscribers(deps));
  // The session cache's change signal is put in place (or repaired) now, at start, before any request.
  sessionCacheOf(options.db);

  const app = new OpenAPIHono<AppEnv>({ strict: true });
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    c.set('requestId', requestIdOf(c));
    const started = performance.now();
    // The request is a caller of its own: what it waits for is the units it began (PostgreSQL).
    await deps.writes.caller(next);
    if (config.logRequests) console.log(JSON.stringify(requestLogLine(c, deps.clock.now(), started, c.get('user')?.id)));
  });
  // Outermost but for the log line: compresses the answer exactly as it leaves (after group commit).
  app.use('*', compressJson());
  app.use('*', answerHeaders());
  // Reads share the connection that holds the open write batch, so they may see rows not committed
  // yet: a read's answer leaves once that batch committed, and is a 503 if a batch failed meanwhile.
  // Mutations wait for their own batch in server/http/route.ts.
  app.use('*', async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const since = deps.writes.failures;
    await next();
    try {
      await deps.writes.settled(since);
    } catch (err) {
      // Unset first: assigning over a response would carry its headers (Content-Disposition...) over.
      c.res = undefined;
      c.res = errorResponse(c, err);
    }
  });
  app.use('/api/*', async (c, next) => {
    // No body to limit; and asking a GET for its body builds a whole undici Request (~8% of a poll).
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const type = c.req.header('content-type') ?? '';
    const limit = type.startsWith('multipart/') ? UPLOAD_LIMIT : JSON_LIMIT;
    // A declared length over any route's limit is refused unread, from the header (Node's parser never
    // delivers more than it says). A body without one (chunked) is not read here: the route reads it
    // with its own, smaller limit applied while it arrives (server/http/bodyReader.ts), so a refusal
    // costs one chunk rather than a whole megabyte; a route that takes no body never reads it.
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined && Number(length) > limit) {
      throw new ApiError(413, 'payload_too_large', `Request body is larger than ${Math.round(limit / 1024)} KiB`);
    }
    return next();
  });

  const api = new OpenAPIHono<AppEnv>({ strict: true });
  registerRoutes(api);
  let doc: unknown;
  api.get('/openapi.json', (c) => c.json((doc ??= openApiDocument(api)) as object));
  docsRoutes(api);
  reachRoute(api);
  api.notFound((c) => errorResponse(c, new ApiError(404, 'not_found', `No route for ${c.req.method} ${c.req.path}`)));
  app.route('/api', api);

  if (config.staticDir && existsSync(config.staticDir)) mountPwa(app, config.staticDir);
  app.notFound((c) => errorResponse(c, new ApiError(404, 'not_found', `No route for ${c.req.method} ${c.req.path}`)));
  app.onError((err, c) => errorResponse(c, err));
  return Object.assign(app, { deps });
}

/**
 * The built PWA at `/`, with index.html for client-side routes. Files come precompressed from the
 * build (`.br`, `.gz` beside each, see vite.config.ts) with `Vary: Accept-Encoding`; hashed assets
 * are cached for good, index.html, the service worker and the rest are revalidated every time.
 */
function mountPwa(app: OpenAPIHono<AppEnv>, dir: string): void {
  const finish = (path: string, res: Response) => {
    res.headers.set('cache-control', staticCacheControl(path));
    if (
      /^(text\/|application\/(javascript|json|manifest\+json)|image\/svg)/.test(res.headers.get('content-type') ?? '') &&
      !res.headers.get('vary')
    ) {
      res.headers.set('vary', 'Accept-Encoding');
    }
  };
  const serve = (path?: string) => async (c: Context<AppEnv>, next: Next) => {
    let found = false;
    // serveStatic answers the file's Response (not yet c.res) when it found one; otherwise it ran next().
    const res = await serveStatic<AppEnv>({
      root: dir,
      path,
      precompressed: true,
      onFound: () => {
        found = true;
      },
    })(c, next);
    if (!found || !(res instanceof Response)) return res;
    finish(path ? `/${path}` : c.req.path, res);
    return res;
  };
  const files = serve();
  const index = serve('index.html');
  app.use('*', (c, next) => (c.req.path.startsWith('/api/') || c.req.path === '/api' ? next() : files(c, next)));
  app.get('*', (c, next) => (c.req.path.startsWith('/api') ? next() : index(c, next)));
}

export type CourierApp = ReturnType<typeof createApp>;
