import type { Context } from 'hono';

/** Uploads (photos, documents, spreadsheets): the most a multipart body may be, larger than any JSON body. */
export const UPLOAD_LIMIT = 15 * 1024 * 1024;

/**
 * A request's body, read with the route's own limit applied while it arrives (security issue 30):
 * the read stops at the first chunk past `limit` and `tooLarge()` is thrown, whether the length was
 * declared or not. Before, a body without Content-Length (chunked) was read whole up to the app's
 * global 1 MiB before an 8 KiB route saw it, which cost the request thread tens of milliseconds per
 * refusal. The bytes are left in Hono's body cache, so `c.req.arrayBuffer()` and `parseBody()` find
 * them afterwards (a webhook's signature check, a multipart form).
 */
export async function readCappedBody(c: Context, limit: number, tooLarge: () => Error): Promise<Uint8Array> {
  const declared = c.req.header('content-length');
  if (declared !== undefined && c.req.header('transfer-encoding') === undefined) {
    // Refused unread. Node's parser never delivers more than a declared length, so a body within
    // it is read on the adapter's fast path, straight off the socket.
    if (Number(declared) > limit) throw tooLarge();
    return new Uint8Array(await c.req.arrayBuffer());
  }
  const stream = c.req.raw.body;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (stream) {
    const reader = stream.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > limit) throw tooLarge();
        chunks.push(value);
      }
    } finally {
      // Released, not cancelled: cancelling destroys Node's socket before the 413 is written. What
      // the client still sends is drained or closed on once the answer is out (server/http/listen.ts).
      reader.releaseLock();
    }
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  // Hono keeps promises in its body cache (its declared type says otherwise).
  (c.req.bodyCache as { arrayBuffer?: Promise<ArrayBuffer> }).arrayBuffer = Promise.resolve(body.buffer);
  return body;
}
