import { isIPv4, isIPv6 } from 'node:net';
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { ApiError } from '../errors';
import type { Config } from '../deps';

/**
 * The one answer to "who is calling" (throttles, the register limit, tracking), as the subject a
 * throttle counts: the peer address of the TCP connection, unless `trustProxy` (TRUST_PROXY) says
 * how many reverse proxies of ours stand in front: then the address the outermost of them saw, read
 * from the right of X-Forwarded-For (entries further left were written by the client and prove
 * nothing). An IPv6 address counts as its /64 (`throttleSubject`).
 */
export function clientIp(c: Context, config: Pick<Config, 'trustProxy'>): string {
  const peer = peerAddress(c);
  if (config.trustProxy <= 0) return throttleSubject(peer);
  const hops = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  // Fewer entries than proxies: a request that bypassed them; the peer is the best we know.
  const seen = hops[hops.length - config.trustProxy];
  return throttleSubject(seen && /^[0-9A-Fa-f.:]{2,45}$/.test(seen) ? seen : peer);
}

/**
 * What a per-address throttle counts. One IPv6 subscriber or server holds a whole /64 (often far
 * more), so counting single addresses let a client rotate through 2^64 of them: an IPv6 address
 * counts as its /64 (`2001:db8:1:2::/64`). An IPv4-mapped IPv6 address (`::ffff:203.0.113.9`, what
 * a dual-stack socket reports) is the IPv4 address it carries. Anything else is kept as it is.
 */
export function throttleSubject(address: string): string {
  if (isIPv4(address)) return address;
  const groups = isIPv6(address) ? ipv6Groups(address) : null;
  if (!groups) return address;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail read, a zone dropped). */
function ipv6Groups(address: string): number[] | null {
  let text = address.split('%')[0] ?? '';
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (s: string) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  const groups = [...left, ...new Array<number>(missing).fill(0), ...right];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
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
    throw new ApiError(
      503,
      'service_unavailable',
      `${what} is not available: this server has no PUBLIC_URL configured, so it cannot build a safe link. Ask the administrator to set PUBLIC_URL.`,
    );
  }
  return origin;
}
