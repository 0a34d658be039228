import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Outbound calls to addresses a company chose (webhook endpoints) must never reach this machine or
 * its private network (SSRF). A target is judged by every address its name resolves to, and the
 * connection then goes to the address that was judged: there is no second lookup a rebinding DNS
 * server could answer differently.
 */

/** Addresses no company-chosen call may reach: loopback, private, link-local, multicast, reserved. */
const FORBIDDEN_V4 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  FORBIDDEN_V4.addSubnet(net, bits, 'ipv4');

const FORBIDDEN_V6 = new BlockList();
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fe80::', 10],
  ['fec0::', 10],
  ['fc00::', 7],
  ['ff00::', 8],
  ['2001:db8::', 32],
  // Teredo and ORCHID tunnel to addresses we cannot judge.
  ['2001::', 32],
  ['2001:10::', 28],
  ['100::', 64],
] as const)
  FORBIDDEN_V6.addSubnet(net, bits, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (dotted-quad tails included), or null. */
function hextets(address: string): number[] | null {
  let text = address.toLowerCase().split('%')[0] ?? '';
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad?.[1]) {
    const parts = quad[1].split('.').map(Number);
    if (parts.some((p) => p > 255)) return null;
    const [a = 0, b = 0, c = 0, d = 0] = parts;
    text = `${text.slice(0, -quad[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (s: string | undefined) => (s ? s.split(':').map((h) => parseInt(h, 16)) : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...Array<number>(Math.max(0, fill)).fill(0), ...tail];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

const v4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/** The IPv4 address an IPv6 one carries (mapped, compatible, NAT64, 6to4), if any. */
function embeddedV4(g: number[]): string | null {
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(5) && (g[5] === 0xffff || g[5] === 0)) return v4Of(g[6] ?? 0, g[7] ?? 0); // ::ffff:a.b.c.d and ::a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4Of(g[6] ?? 0, g[7] ?? 0); // NAT64
  if (g[0] === 0x2002) return v4Of(g[1] ?? 0, g[2] ?? 0); // 6to4
  return null;
}

/** True for any address a company-chosen call must not reach (see FORBIDDEN_*); unparsable counts as forbidden. */
export function forbiddenAddress(address: string): boolean {
  const family = isIP(address.split('%')[0] ?? '');
  if (family === 4) return FORBIDDEN_V4.check(address, 'ipv4');
  if (family !== 6) return true;
  const g = hextets(address);
  if (!g) return true;
  const v4 = embeddedV4(g);
  // ::/128 and ::1 are "compatible" forms of 0.0.0.0 and 0.0.0.1: both forbidden either way.
  if (v4 !== null) return FORBIDDEN_V4.check(v4, 'ipv4') || FORBIDDEN_V6.check(address, 'ipv6');
  return FORBIDDEN_V6.check(address, 'ipv6');
}

/** On-premise receivers an operator allows on purpose: host names (exact) or CIDRs (`10.0.0.0/8`, `127.0.0.1`). */
export interface OutboundPolicy {
  allowsHost(host: string): boolean;
  allowsAddress(address: string): boolean;
}

export function outboundPolicy(allow: readonly string[] = []): OutboundPolicy {
  const hosts = new Set<string>();
  const nets = new BlockList();
  for (const raw of allow) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const [net = '', bitsText] = entry.split('/');
    const bare = net.replace(/^\[|\]$/g, '');
    const family = isIP(bare);
    if (family === 0) {
      hosts.add(entry);
      continue;
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    const bits = bitsText === undefined ? (family === 4 ? 32 : 128) : Number(bitsText);
    if (!Number.isInteger(bits)) throw new Error(`WEBHOOK_ALLOW_HOSTS: "${raw}" is not a host name or CIDR`);
    nets.addSubnet(bare, bits, type);
  }
  return {
    allowsHost: (host) => hosts.has(host.toLowerCase().replace(/^\[|\]$/g, '')),
    allowsAddress: (address) => {
      const family = isIP(address);
      return family !== 0 && nets.check(address, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

export class TargetRefused extends Error {}

export interface Vetted {
  url: URL;
  host: string;
  addresses: LookupAddress[];
}

export type Resolver = (host: string) => Promise<LookupAddress[]>;
const systemResolver: Resolver = (host) =>
  new Promise((ok, fail) => {
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? fail(err) : ok(addresses)));
  });

/**
 * Resolves `target` and checks every address; throws TargetRefused when any is forbidden and not
 * allowed by the policy, or when the URL is not plain http(s) to a host. Names that do not resolve
 * throw the resolver's error (a send-time failure, not a refusal).
 */
export async function vetTarget(target: string, policy: OutboundPolicy, resolve: Resolver = systemResolver): Promise<Vetted> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new TargetRefused('not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TargetRefused('only http and https targets');
  if (url.username || url.password) throw new TargetRefused('credentials in the URL are not allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!host) throw new TargetRefused('no host');
  const literal = isIP(host);
  const addresses: LookupAddress[] = literal ? [{ address: host, family: literal }] : await resolve(host);
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  if (!policy.allowsHost(host)) {
    for (const a of addresses) {
      if (forbiddenAddress(a.address) && !policy.allowsAddress(a.address))
        throw new TargetRefused('the target resolves to a private, loopback or reserved address');
    }
  }
  return { url, host, addresses };
}

export interface PostResult {
  status: number;
}

/**
 * POSTs `body` to a vetted target, connecting only to its vetted addresses (the socket's lookup is
 * answered from them). No redirects are followed (a 3xx is just an answer), the whole exchange is
 * bounded by `timeoutMs`, and at most `maxResponseBytes` of the answer are read before the socket is dropped.
 */
export function postVetted(
  target: Vetted,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; maxResponseBytes: number },
): Promise<PostResult> {
  const pinned: LookupFunction = (_host, options, callback) => {
    const first = target.addresses[0] as LookupAddress;
    if ((options as { all?: boolean }).all) (callback as (e: null, a: LookupAddress[]) => void)(null, target.addresses);
    else callback(null, first.address, first.family);
  };
  const request = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      target.url,
      {
        method: 'POST',
        lookup: pinned,
        agent: false,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), connection: 'close' },
        signal: AbortSignal.timeout(opts.timeoutMs),
      },
      (res: IncomingMessage) => {
        let seen = 0;
        res.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > opts.maxResponseBytes) res.destroy();
        });
        const done = () => resolve({ status: res.statusCode ?? 0 });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The check when an endpoint is saved: a target refused now is a clear 400 for the company. A name
 * that does not resolve (yet) is accepted; the dispatcher checks again before every send.
 */
export async function refusedAtSave(target: string, allow: readonly string[], resolve: Resolver = systemResolver): Promise<string | null> {
  try {
    await Promise.race([
      vetTarget(target, outboundPolicy(allow), resolve),
      new Promise((ok) => {
        setTimeout(ok, 5_000).unref();
      }),
    ]);
    return null;
  } catch (err) {
    return err instanceof TargetRefused ? err.message : null;
  }
}
