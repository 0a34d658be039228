import { ApiError } from '../errors';

/**
 * How much JSON a route reads (security issue 30): 1-5 MB of deeply nested or many-keyed JSON sent
 * anonymously to `auth/login/` cost 0.6-1.3 s of the request thread each. Every JSON body is now
 * bounded per route by size, and by nesting depth and key count, checked on the raw bytes in one
 * linear pass before `JSON.parse` and validation run. Uploads are multipart (UPLOAD_LIMIT).
 */
export interface JsonLimits {
  /** Bytes of the body. */
  bytes: number;
  /** Objects and arrays inside one another. */
  depth: number;
  /** Object members in the whole body. */
  keys: number;
}

/** Most routes: a form's worth, or a list of a few thousand ids (dispatch locks, bulk parcel actions). */
export const JSON_DEFAULT: JsonLimits = { bytes: 256 * 1024, depth: 16, keys: 20_000 };
/** Routes anyone may call (log in, password reset, registration): a handful of fields. */
export const JSON_SMALL: JsonLimits = { bytes: 8 * 1024, depth: 4, keys: 64 };
/** Signed company webhooks (anonymous until the signature is checked): one parcel's fields. */
export const JSON_WEBHOOK: JsonLimits = { bytes: 64 * 1024, depth: 6, keys: 512 };

/** The limits a route reads its JSON body with: its own, else JSON_SMALL when anyone may call it, else JSON_DEFAULT. */
export const jsonLimitsOf = (spec: { access: unknown; jsonLimits?: JsonLimits }): JsonLimits =>
  spec.jsonLimits ?? (spec.access === 'public' ? JSON_SMALL : JSON_DEFAULT);

const kib = (n: number) => `${Math.round(n / 1024)} KiB`;

export const tooLargeBody = (limits: JsonLimits) =>
  new ApiError(413, 'payload_too_large', `Request body is larger than ${kib(limits.bytes)}, the most this route reads`);

/** What the route's description says about its body. */
export const describeJsonLimits = (l: JsonLimits) =>
  `JSON body: at most ${kib(l.bytes)}, nested at most ${l.depth} deep, at most ${l.keys.toLocaleString('en-AU')} keys (413 or 400 otherwise).`;

/**
 * Refuses a body over the route's limits before it is parsed: bytes (413), then depth and key
 * count (400). Strings are skipped honouring escapes, so brackets and colons inside them do not
 * count. Not a validator: malformed JSON within the limits is left to `JSON.parse`.
 */
export function checkJsonShape(raw: Uint8Array, limits: JsonLimits): void {
  if (raw.byteLength > limits.bytes) throw tooLargeBody(limits);
  let depth = 0;
  let keys = 0;
  for (let i = 0, n = raw.length; i < n; i++) {
    const b = raw[i];
    if (b === 0x22 /* " */) {
      for (i++; i < n && raw[i] !== 0x22; i++) if (raw[i] === 0x5c /* \ */) i++;
    } else if (b === 0x7b /* { */ || b === 0x5b /* [ */) {
      if (++depth > limits.depth) {
        throw new ApiError(400, 'validation_error', `Request body is nested more than ${limits.depth} deep`, [
          { path: '', message: `nesting deeper than ${limits.depth}` },
        ]);
      }
    } else if (b === 0x7d /* } */ || b === 0x5d /* ] */) {
      depth--;
    } else if (b === 0x3a /* : */) {
      if (++keys > limits.keys) {
        throw new ApiError(400, 'validation_error', `Request body has more than ${limits.keys} keys`, [
          { path: '', message: `more than ${limits.keys} keys` },
        ]);
      }
    }
  }
}
