import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './env';

/**
 * `GET /api/reach/`: the phone's cheap question while its queue waits out a back-off ("does the
 * office answer again?", client/sync/probe.ts). No session, no database, no body: it answers only
 * that this process takes requests, so phones may ask every few seconds at almost no cost.
 */
export function reachRoute(api: OpenAPIHono<AppEnv>): void {
  api.get('/reach/', (c) => {
    c.header('cache-control', 'no-store');
    return c.body(null, 204);
  });
}
