import type { Context, MiddlewareHandler } from 'hono';
import type { secureHeaders } from 'hono/secure-headers';
import type { AppEnv } from './env';

/** The security policy of every answer, in the form Hono's secureHeaders middleware takes. */
export const SECURE_HEADERS_OPTIONS: NonNullable<Parameters<typeof secureHeaders>[0]> = {
  contentSecurityPolicy: {
    // Scripts only from this server (no inline script, no CDN: /api/docs serves Swagger UI from the package).
    defaultSrc: ["'self'"],
    imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
    styleSrc: ["'self'", "'unsafe-inline'"],
    scriptSrc: ["'self'"],
    connectSrc: ["'self'", 'https:'],
    workerSrc: ["'self'", 'blob:'],
    mediaSrc: ["'self'", 'blob:'],
    frameAncestors: ["'none'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
  },
  crossOriginEmbedderPolicy: false,
  xFrameOptions: 'DENY',
};

/**
 * The headers those options set, written out once (test/server/answer-headers.test.ts checks them
 * against Hono's middleware, so the two cannot drift). Set one by one on a finished answer, each
 * header costs a validated Headers.set and turns the server's plain header record into a Headers
 * object; an API answer carries them from its creation instead (`jsonAnswer`).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data: blob: https:; style-src 'self' 'unsafe-inline'; script-src 'self'; " +
    "connect-src 'self' https:; worker-src 'self' blob:; media-src 'self' blob:; frame-ancestors 'none'; object-src 'none'; base-uri 'self'; form-action 'self'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=15552000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

/**
 * API answers are private (a token's data, a recipient's parcel) or change from one call to the
 * next: none may be kept by a browser or a proxy, so the next person on a shared tablet or browser
 * cannot read them from the cache after logout. An answer that says otherwise (the API docs'
 * versioned assets) keeps its own header; the PWA's files have their own rule (server/http/compress.ts).
 */
export const API_CACHE_CONTROL = 'no-store';

/** Marks an answer made with every header the middleware below would add. */
const COMPLETE = Symbol('answer headers complete');

/** Whether `res` already carries the security headers, X-Request-Id and Vary (made by `jsonAnswer`). */
export function hasAnswerHeaders(res: Response): boolean {
  return (res as Response & { [COMPLETE]?: true })[COMPLETE] === true;
}

/**
 * A JSON answer with all its headers in one plain record: the Node server writes such a record
 * straight to the socket. `Vary: Accept-Encoding` is there because compressJson may encode the
 * same URL's answer for another client.
 */
export function jsonAnswer(c: Context<AppEnv>, body: string | Uint8Array<ArrayBuffer>, status: number): Response {
  const res = new Response(body, {
    status,
    headers: {
      'content-type': 'application/json',
      vary: 'Accept-Encoding',
      'cache-control': API_CACHE_CONTROL,
      'x-request-id': c.get('requestId'),
      ...SECURITY_HEADERS,
    },
  });
  return Object.assign(res, { [COMPLETE]: true as const });
}

/**
 * The same headers on every other answer (errors, files, the PWA, the API docs): one place sets what
 * `jsonAnswer` puts in at creation (Cache-Control on /api answers that set none). Runs inside compressJson, which copies them to what it encodes.
 */
export function answerHeaders(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (hasAnswerHeaders(c.res)) return;
    // On the finished response's headers: c.header() now would rebuild the whole Response.
    const headers = c.res.headers;
    headers.set('x-request-id', c.get('requestId'));
    if ((c.req.path === '/api' || c.req.path.startsWith('/api/')) && !headers.has('cache-control'))
      headers.set('cache-control', API_CACHE_CONTROL);
    for (const name in SECURITY_HEADERS) headers.set(name, SECURITY_HEADERS[name] as string);
  };
}
