/**
 * JSON that is already serialised (the database builds package answers as JSON), spliced into an
 * answer as is: a 100-parcel list is 130 KB, and turning it into objects only to stringify them
 * again was most of the request.
 *
 * The pieces stay pieces until the answer is sent. SQLite hands a package answer over as UTF-8
 * bytes (a BLOB), which are copied once into the body; read as text, each row became a JS string,
 * the list one large string joined from them, and the response turned that back into UTF-8: about
 * 0.45 ms of a 200-parcel list (bench/api.ts).
 */
type Chunk = string | Uint8Array;

export class RawJson {
  readonly #chunks: readonly Chunk[];
  #text: string | undefined;

  constructor(json: Chunk | readonly Chunk[]) {
    this.#chunks = typeof json === 'string' || json instanceof Uint8Array ? [json] : json;
  }

  get chunks(): readonly Chunk[] {
    return this.#chunks;
  }

  /** The JSON as one string, decoded once: for the few callers that parse or read an answer. */
  get text(): string {
    if (this.#text === undefined) {
      const only = this.#chunks.length === 1 ? this.#chunks[0] : undefined;
      this.#text = typeof only === 'string' ? only : bytesOf(this.#chunks).toString('utf8');
    }
    return this.#text;
  }

  /** What goes on the wire: the string itself when every piece is one, else the pieces' bytes. */
  body(): string | Buffer<ArrayBuffer> {
    return this.#chunks.every((c) => typeof c === 'string') ? (this.#chunks as string[]).join('') : bytesOf(this.#chunks);
  }

  /** The first `length` characters (a package answer starts with its id), without decoding the rest. */
  head(length: number): string {
    const first = this.#chunks[0];
    if (typeof first === 'string') return first.slice(0, length);
    return first ? Buffer.from(first.buffer, first.byteOffset, Math.min(first.byteLength, length)).toString('utf8') : '';
  }

  /** This object with more members: `members` is `"name":value,...` text, added before the closing brace. */
  withMembers(members: string): RawJson {
    const chunks = [...this.#chunks];
    const last = chunks.pop();
    if (last === undefined) throw new Error('an empty RawJson has no members to add to');
    const open = typeof last === 'string' ? last.slice(0, last.lastIndexOf('}')) : last.subarray(0, last.lastIndexOf(0x7d));
    return new RawJson([...chunks, open, `,${members}}`]);
  }
}

/** The pieces' UTF-8 bytes in one array (what Buffer.concat does, typed for a Response body). */
function bytesOf(chunks: readonly Chunk[]): Buffer<ArrayBuffer> {
  const parts = chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c));
  const out = Buffer.allocUnsafe(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** Adds `piece`'s chunks to `out`, merging neighbouring strings so a body stays a few pieces. */
function push(out: Chunk[], piece: Chunk): void {
  const last = out.length - 1;
  if (typeof piece === 'string' && typeof out[last] === 'string') out[last] += piece;
  else out.push(piece);
}

/** An object whose members may be RawJson; undefined members are left out, as JSON.stringify does. */
export function rawObject(fields: Record<string, unknown>): RawJson {
  const out: Chunk[] = ['{'];
  let first = true;
  for (const key in fields) {
    const v = fields[key];
    if (v === undefined) continue;
    push(out, `${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    if (v instanceof RawJson) for (const c of v.chunks) push(out, c);
    else push(out, JSON.stringify(v));
  }
  push(out, '}');
  return new RawJson(out);
}

export function rawArray(items: readonly RawJson[]): RawJson {
  const out: Chunk[] = ['['];
  items.forEach((item, i) => {
    if (i) push(out, ',');
    for (const c of item.chunks) push(out, c);
  });
  push(out, ']');
  return new RawJson(out);
}

export function jsonText(value: unknown): string {
  return value instanceof RawJson ? value.text : JSON.stringify(value);
}
