import { Column, SQL, is, sql } from 'drizzle-orm';
import type { Db } from './client';

const caches = new WeakMap<Db, Map<string, unknown>>();

/**
 * A drizzle query built and `.prepare()`d once per database under a name, with `sql.placeholder`s
 * for its inputs. Hot paths (scans, deliveries, sessions) run the same few queries thousands of
 * times a minute, and building their SQL costs more than executing it.
 */
export function prepared<T>(db: Db, name: string, build: (db: Db) => T): T {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let q = cache.get(name) as T | undefined;
  if (q === undefined) cache.set(name, (q = build(db)));
  return q;
}

const shapeCaches = new WeakMap<Db, Map<string, Map<string, unknown>>>();

/**
 * Like `prepared`, for a family of queries whose text depends on the call (an UPDATE whose SET list
 * names the columns a caller changes): one prepared query per shape. Shapes can come from request
 * input (which fields an edit sends), so only the `capacity` most recently used are kept.
 */
export function preparedShape<T>(db: Db, family: string, shape: string, build: (db: Db) => T, capacity = 64): T {
  let families = shapeCaches.get(db);
  if (!families) shapeCaches.set(db, (families = new Map()));
  let cache = families.get(family);
  if (!cache) families.set(family, (cache = new Map()));
  let q = cache.get(shape) as T | undefined;
  if (q === undefined) {
    q = build(db);
    if (cache.size >= capacity) cache.delete(cache.keys().next().value as string);
  } else {
    cache.delete(shape);
  }
  cache.set(shape, q);
  return q;
}

export interface EncodedPatch {
  /** The sorted names of the columns set: the shape of the UPDATE. */
  shape: string;
  keys: string[];
  /** Placeholder name -> value as drizzle itself would bind it (booleans as 0/1). */
  values: Record<string, unknown>;
}

/**
 * A patch ready for a prepared UPDATE built by `placeholderSet`. Undefined values and keys that are
 * no column are left out, as drizzle's own `set()` does. Null when a value is an SQL expression or a
 * column, which cannot be bound: the caller builds that one query as usual. Not for tables with
 * `$onUpdate` columns: drizzle would compute their value once, when the prepared query is built.
 */
export function encodePatch(columns: Readonly<Record<string, Column>>, patch: Readonly<Record<string, unknown>>): EncodedPatch | null {
  const keys: string[] = [];
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    const column = columns[key];
    if (value === undefined || !column) continue;
    if (is(value, SQL) || is(value, Column)) return null;
    keys.push(key);
    values[key] = value === null ? null : column.mapToDriverValue(value);
  }
  keys.sort();
  return { shape: keys.join(','), keys, values };
}

/**
 * `row` with an encoded patch applied, each value as a read of the row returns it (decoded by its
 * column, as drizzle decodes a select): what `UPDATE ... RETURNING` would have answered, for a
 * caller that knows `row` is the row as stored.
 */
export function patchedRow<R extends object>(columns: Readonly<Record<string, Column>>, row: R, patch: EncodedPatch): R {
  const out: Record<string, unknown> = { ...(row as Record<string, unknown>) };
  for (const key of patch.keys) {
    const value = patch.values[key];
    out[key] = value === null ? null : columns[key]!.mapFromDriverValue(value);
  }
  return out as R;
}

/** A placeholder where drizzle's types want SQL (`set()`), bound as given: no column encodes it. */
export const bound = (name: string): SQL => sql`${sql.placeholder(name)}`;

/**
 * A `set()` source of placeholders named after the columns. Each is wrapped in `sql` so drizzle
 * binds the value `encodePatch` already encoded instead of encoding it again.
 */
export function placeholderSet(keys: readonly string[]): Record<string, SQL> {
  const set: Record<string, SQL> = {};
  for (const key of keys) set[key] = bound(key);
  return set;
}
