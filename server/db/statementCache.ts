import type Database from 'better-sqlite3';

/**
 * Compiling SQL is a large share of a short request: drizzle prepares every query it runs, and
 * most requests repeat the same few texts. Statements are cached per connection by their SQL text
 * (bounded, least recently used dropped). A cached statement is handed out with its default row
 * mode (drizzle switches `raw()` on for value arrays) and never while another caller is still
 * iterating it.
 */
export function cacheStatements(sqlite: Database.Database, capacity = 500): void {
  const compile = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, Database.Statement>();
  const prepare = (source: string): Database.Statement => {
    const hit = cache.get(source);
    if (hit && !hit.busy) {
      cache.delete(source);
      cache.set(source, hit);
      if (hit.reader) hit.raw(false);
      return hit;
    }
    const stmt = compile(source);
    if (!hit) {
      cache.set(source, stmt);
      if (cache.size > capacity) cache.delete(cache.keys().next().value as string);
    }
    return stmt;
  };
  // Schema changes (migrations, tests creating tables) leave old statements valid in better-sqlite3:
  // SQLite re-prepares them itself, so the cache needs no invalidation.
  sqlite.prepare = prepare as typeof sqlite.prepare;
}
