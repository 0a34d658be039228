import type Database from 'better-sqlite3';
import type { ChangeStamp, WatchedTable } from './types';

const CHANGED = 'courier_watched_change';

/**
 * SQLite's `watch` (engine/types.ts). The stamp moves on any of three things:
 * - this connection's own writes to a watched table: TEMP triggers, which exist on this connection
 *   only, call a function of this process (so scripts, the sqlite3 shell and other connections
 *   never meet a trigger whose function they lack);
 * - another connection's commit (a script, a second process on the same file): `PRAGMA data_version`
 *   moves;
 * - writes undone after a reader may have seen them: a failed group commit (`undone` counts those;
 *   a unit undone back to its savepoint fired its triggers already, and nobody reads in between).
 * The three counts only grow, so their sum moves whenever one does. One stamp serves every watcher:
 * a change to any watched table moves it, and a cache that drops too much only reads again.
 */
export function sqliteWatcher(sqlite: Database.Database, undone: () => number): (tables: readonly WatchedTable[]) => ChangeStamp {
  let own = 0;
  let others = 0;
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  let seen = dataVersion.get() as number;
  sqlite.function(CHANGED, { deterministic: false }, () => {
    own += 1;
    return null;
  });
  const stamp: ChangeStamp = () => {
    const version = dataVersion.get() as number;
    if (version !== seen) {
      seen = version;
      others += 1;
    }
    return own + others + undone();
  };
  return (tables) => {
    for (const { name, ignore = [] } of tables) {
      const columns = (sqlite.pragma(`table_info(${quote(name)})`) as { name: string }[]).map((c) => c.name);
      if (columns.length === 0) throw new Error(`watch: no table ${name}`);
      const updated = columns.filter((c) => !ignore.includes(c));
      const on = `ON main.${quote(name)} BEGIN SELECT ${CHANGED}(); END`;
      sqlite.exec(`CREATE TEMP TRIGGER IF NOT EXISTS ${quote(`watch_${name}_insert`)} AFTER INSERT ${on}`);
      sqlite.exec(`CREATE TEMP TRIGGER IF NOT EXISTS ${quote(`watch_${name}_delete`)} AFTER DELETE ${on}`);
      sqlite.exec(`CREATE TEMP TRIGGER IF NOT EXISTS ${quote(`watch_${name}_update`)} AFTER UPDATE OF ${updated.map(quote).join(', ')} ${on}`);
    }
    return stamp;
  };
}

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;
