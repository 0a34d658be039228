import type { Context } from 'hono';
import { routePath } from 'hono/route';
import { randomUUID } from 'node:crypto';

/** What one request leaves in the log: no query string, body, header value, address or name. */
export interface RequestLogLine {
  t: string;
  /** Request id (X-Request-Id), to find the line from a client's report. */
  id: string;
  m: string;
  /** The route template (`/api/package/{id}/`), never the raw path: paths can carry codes or whatever a client pasted. */
  r: string | null;
  s: number;
  ms: number;
  /** User id only: enough to follow one account's requests, nothing that names the person. */
  u: number | null;
}

const REQUEST_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** A client's X-Request-Id is kept when it looks like an id, so a hostile header cannot forge log lines. */
export function requestIdOf(c: Context): string {
  const given = c.req.header('x-request-id');
  return given && REQUEST_ID.test(given) ? given : randomUUID();
}

/** `/api/package/:id{[0-9]+}/` back to the OpenAPI form of the document. */
export function routeTemplate(c: Context): string | null {
  const path = routePath(c);
  if (!path || path === '*' || path.endsWith('/*')) return null;
  return path.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, '{$1}');
}

export function requestLogLine(c: Context, now: number, started: number, userId: number | undefined): RequestLogLine {
  return {
    t: new Date(now).toISOString(),
    id: String(c.get('requestId') ?? ''),
    m: c.req.method,
    r: routeTemplate(c),
    s: c.res.status,
    ms: Math.round(performance.now() - started),
    u: userId ?? null,
  };
}
