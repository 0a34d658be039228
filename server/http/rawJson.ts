/**
 * JSON text that is already serialised (SQLite builds package rows with json_object), spliced into
 * an answer as is: a 100-parcel list is 130 KB, and turning it into objects only to stringify them
 * again was most of the request.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/** An object whose members may be RawJson; undefined members are left out, as JSON.stringify does. */
export function rawObject(fields: Record<string, unknown>): RawJson {
  let out = '';
  for (const key in fields) {
    const v = fields[key];
    if (v === undefined) continue;
    out += `${out ? ',' : ''}${JSON.stringify(key)}:${v instanceof RawJson ? v.text : JSON.stringify(v)}`;
  }
  return new RawJson(`{${out}}`);
}

export function rawArray(items: readonly RawJson[]): RawJson {
  return new RawJson(`[${items.map((i) => i.text).join(',')}]`);
}

export function jsonText(value: unknown): string {
  return value instanceof RawJson ? value.text : JSON.stringify(value);
}
