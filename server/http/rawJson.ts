/**
 * JSON text that is already serialised (SQLite builds package rows with json_object), spliced into
 * an answer as is: a 100-parcel list is 130 KB, and turning it into objects only to stringify them
 * again was most of the request.
 *
 * It is kept as the pieces it was made of, and a large answer goes to the socket as bytes written
 * piece by piece, never as one string: V8 puts every string over 128 KiB in its large-object space,
 * allocated and freed apart from the young generation, and one such string made a 100-parcel list
 * (132 KB) cost ~250 µs more than a 90-parcel one (119 KB), a fifth of the request
 * (docs/operations.md, "The 128 KiB string").
 */
export class RawJson {
  readonly parts: readonly string[];
  #text: string | undefined;

  constructor(text: string | readonly string[]) {
    this.parts = typeof text === 'string' ? [text] : text;
    if (typeof text === 'string') this.#text = text;
  }

  /** The whole text as one string: for readers that parse it, not for answers (see `body`). */
  get text(): string {
    this.#text ??= this.parts.join('');
    return this.#text;
  }

  /** What an answer sends: the text while it is small, else its UTF-8 bytes, made without joining the pieces. */
  body(): string | Uint8Array<ArrayBuffer> {
    if (this.#text !== undefined || this.parts.length === 1) return this.text;
    let chars = 0;
    for (const part of this.parts) chars += part.length;
    if (chars < ONE_STRING_MAX_CHARS) return this.text;
    let bytes = 0;
    for (const part of this.parts) bytes += Buffer.byteLength(part);
    const out = Buffer.allocUnsafe(bytes);
    let at = 0;
    for (const part of this.parts) at += out.write(part, at);
    return out;
  }
}

/**
 * Below this many UTF-16 units the pieces are joined: one small string is the cheapest answer, and
 * even text that is all two-byte characters stays under V8's 128 KiB large-object threshold.
 */
const ONE_STRING_MAX_CHARS = 60_000;

/** An object whose members may be RawJson; undefined members are left out, as JSON.stringify does. */
export function rawObject(fields: Record<string, unknown>): RawJson {
  const parts: string[] = [];
  let lead = '{';
  for (const key in fields) {
    const v = fields[key];
    if (v === undefined) continue;
    if (v instanceof RawJson) splice(parts, `${lead}${JSON.stringify(key)}:`, v);
    else parts.push(`${lead}${JSON.stringify(key)}:${JSON.stringify(v)}`);
    lead = ',';
  }
  parts.push(lead === '{' ? '{}' : '}');
  return new RawJson(parts);
}

export function rawArray(items: readonly RawJson[]): RawJson {
  const parts: string[] = [];
  let lead = '[';
  for (const item of items) {
    splice(parts, lead, item);
    lead = ',';
  }
  parts.push(lead === '[' ? '[]' : ']');
  return new RawJson(parts);
}

/** Appends `before` and then the pieces of `raw`, never joining them. */
function splice(parts: string[], before: string, raw: RawJson): void {
  parts.push(before);
  for (const part of raw.parts) parts.push(part);
}

export function jsonText(value: unknown): string {
  return value instanceof RawJson ? value.text : JSON.stringify(value);
}
