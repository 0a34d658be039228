import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { ApiError } from '../errors';
import type { Config } from '../deps';

/**
 * The one answer to "who is calling" (throttles, the register limit, tracking). The peer address of
 * the TCP connection, unless `trustProxy` (TRUST_PROXY) says how many reverse proxies of ours stand
 * in front: then the address the outermost of them saw, read from the right of X-Forwarded-For
 * (entries further left were written by the client and prove nothing).
 */
export function clientIp(c: Context, config: Pick<Config, 'trustProxy'>): string {
  const peer = peerAddress(c);
  if (config.trustProxy <= 0) return peer;
  const hops = (c.req.header('x-forwarded-for') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  // Fewer entries than proxies: a request that bypassed them; the peer is the best we know.
  const seen = hops[hops.length - config.trustProxy];
  return seen && /^[0-9A-Fa-f.:]{2,45}$/.test(seen) ? seen : peer;
}

function peerAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'local'; // app.request() in tests has no socket
  }
}

/**
 * The one answer to "where does this server live" (its base URL) for anything sent away from the request (e-mailed
 * links): PUBLIC_URL only. Never the Host or X-Forwarded-Host header, which the caller writes.
 */
export function publicOrigin(config: Pick<Config, 'publicUrl'>): string | undefined {
  // A path is kept (a server under https://example.com/courier), a trailing slash is not.
  return config.publicUrl ? config.publicUrl.replace(/\/+$/, '') : undefined;
}

/** For features that cannot work without PUBLIC_URL: a clear refusal instead of a guessed link. */
export function requirePublicOrigin(config: Pick<Config, 'publicUrl'>, what: string): string {
  const origin = publicOrigin(config);
  if (!origin) {
    throw new ApiError(503, 'service_unavailable', `${what} is not available: this server has no PUBLIC_URL configured, so it cannot build a safe link. Ask the administrator to set PUBLIC_URL.`);
  }
  return origin;
}
