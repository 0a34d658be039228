import type { MiddlewareHandler } from 'hono';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { AppEnv } from './env';
import { hasAnswerHeaders } from './answerHeaders';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Answers below this are sent as they are: the headers would cost more than compression saves. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * The encoding to answer with, from Accept-Encoding: brotli before gzip, `q=0` meaning "not this".
 * Anything unparseable counts as not accepted (the answer is then plain, which every client reads).
 */
export function chooseEncoding(header: string | undefined): 'br' | 'gzip' | null {
  if (!header) return null;
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((x) => x !== undefined);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

function addVary(headers: Headers): void {
  const vary = headers.get('vary');
  if (!vary) headers.set('vary', 'Accept-Encoding');
  else if (!/(^|,)\s*accept-encoding\s*(,|$)/i.test(vary)) headers.set('vary', `${vary}, Accept-Encoding`);
}

/**
 * JSON answers above COMPRESS_MIN_BYTES, brotli (quality 4: most of the gain for a fraction of the
 * CPU of 11) or gzip, on zlib's thread pool so the event loop keeps serving. Runs outermost, on the
 * finished answer: after the group commit released it, after a GET was turned into a 503. Files,
 * CSV streams and answers already encoded pass untouched.
 */
export function compressJson(minBytes = COMPRESS_MIN_BYTES): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const res = c.res;
    const encoding = chooseEncoding(c.req.header('accept-encoding'));
    // An API answer made whole (answerHeaders.ts) is JSON and says Vary already: plain, it is done.
    if (!encoding && hasAnswerHeaders(res)) return;
    // Headers and status first: asking a lightweight answer for its body turns it into a whole
    // undici Response (about a tenth of a driver's list request), needed only when compressing.
    if (c.req.method === 'HEAD' || res.headers.has('content-encoding')) return;
    if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(res.headers.get('content-type') ?? '')) return;
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (!encoding || declared < minBytes) {
      addVary(res.headers);
      return;
    }
    if (!res.body) return;
    const plain = Buffer.from(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    addVary(headers);
    let body: Buffer = plain;
    if (plain.length >= minBytes) {
      body =
        encoding === 'br'
          ? await brotli(plain, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 4,
                [constants.BROTLI_PARAM_SIZE_HINT]: plain.length,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              },
            })
          : await gz(plain, { level: 6 });
      headers.set('content-encoding', encoding);
    }
    headers.set('content-length', String(body.length));
    // Unset first: assigning over a response would merge the old headers back in.
    c.res = undefined;
    c.res = new Response(body.buffer.slice(body.byteOffset, body.byteOffset + body.length) as ArrayBuffer, {
      status: res.status,
      statusText: res.statusText,
      headers,
    });
  };
}

/** Hashed build output never changes under its name; everything else must be checked each time. */
export function staticCacheControl(path: string): string {
  return /^\/assets\/.+-[\w-]{8,}\.\w+$/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache';
}
