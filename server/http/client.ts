import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/** The peer address for throttling; behind no proxy we trust nothing the client writes in headers. */
export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'local';
  }
}

export function originOf(c: Context): string {
  return new URL(c.req.url).origin;
}
