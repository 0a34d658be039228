import type Database from 'better-sqlite3';
import type { ChangeStamp, WatchedTable } from './types';

/** One row counting every change to a watched table, moved by triggers stored in the database file. */
const EPOCH = 'courier_watch_epoch';
const PREFIX = 'courier_watch_';

/**
 * SQLite's `watch` (engine/types.ts). The stamp is a counter row that triggers in the database file
 * move in the same transaction as the change they count: a revocation and the signal that clears the
 * session cache are one durable write, whichever connection or process makes it (a script, the
 * sqlite3 shell, a second server). Nothing held only by this connection takes part: TEMP triggers
 * once did, and `PRAGMA temp_store` (switched by the group commit, sqliteUnits.ts) deletes every TEMP
 * trigger, so after the first scan no revocation cleared the cache (issue 30 §1).
 *
 * The stamp also counts writes undone after a reader may have seen them (a failed group commit: the
 * counter row goes back with them, so it alone could repeat a value a reader already saw).
 *
 * The stamp is null, and nothing may be kept, whenever the signal is not whole: before the triggers
 * are in place, or after anything dropped or changed one (a migration that rebuilds a table drops its
 * triggers). Each change of the schema re-checks them against the tables as they are now; the next
 * start puts them back.
 */
export function sqliteWatcher(sqlite: Database.Database, undone: () => number): (tables: readonly WatchedTable[]) => ChangeStamp {
  const watched = new Map<string, WatchedTable>();
  let intact = false;
  let checkedAt = -1;
  let warned = false;
  let counter: Database.Statement | null = null;
  // Two plain statements (~1.5 µs together): one SELECT reading pragma_schema_version beside the row took 6.
  const schemaVersion = sqlite.prepare('PRAGMA schema_version').pluck();
  // Prepared once the counter table exists; prepared again after anything dropped it.
  const read = (): [number | null, number] => {
    counter ??= sqlite.prepare(`SELECT n FROM ${EPOCH} WHERE id = 1`).pluck();
    return [(counter.get() as number | undefined) ?? null, schemaVersion.get() as number];
  };

  const wanted = (): Map<string, string> => {
    const all = new Map<string, string>();
    for (const table of watched.values()) for (const [name, sql] of triggersOf(sqlite, table)) all.set(name, sql);
    return all;
  };
  const stored = (): Map<string, string> =>
    new Map(
      (
        sqlite.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE '${PREFIX}%'`).all() as {
          name: string;
          sql: string;
        }[]
      ).map((r) => [r.name, r.sql]),
    );
  const inPlace = (): boolean => {
    const have = stored();
    for (const [name, sql] of wanted()) if (have.get(name) !== sql) return false;
    return true;
  };
  const put = sqlite.transaction(() => {
    sqlite.exec(`CREATE TABLE IF NOT EXISTS ${EPOCH} (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL)`);
    sqlite.exec(`INSERT OR IGNORE INTO ${EPOCH} (id, n) VALUES (1, 0)`);
    const have = stored();
    for (const [name, sql] of wanted()) {
      if (have.get(name) === sql) continue;
      sqlite.exec(`DROP TRIGGER IF EXISTS ${quote(name)}`);
      sqlite.exec(sql);
    }
  });
  /** Creates or repairs the counter and its triggers; only outside a transaction, so they never share the fate of someone's batch. */
  const install = (): void => {
    if (sqlite.inTransaction) return;
    try {
      put.immediate();
    } catch (err) {
      // Busy past the timeout, or a read-only file: the stamp stays null and the next check tries again.
      console.error('[courier] could not put the change triggers in place', err);
    }
  };

  const stamp: ChangeStamp = () => {
    let row: [number | null, number];
    try {
      row = read();
    } catch {
      // The counter table itself is gone: put it back (when no transaction is open) and keep nothing now.
      counter = null;
      install();
      return lost();
    }
    const [n, schema] = row;
    if (schema !== checkedAt || !intact) {
      if (!inPlace()) install();
      intact = n !== null && inPlace();
      checkedAt = read()[1];
      if (!intact) return lost();
    }
    return `${n}:${undone()}`;
  };
  const lost = (): null => {
    intact = false;
    if (!warned && watched.size > 0) {
      warned = true;
      console.error(
        '[courier] the change triggers behind the session cache are missing; sessions are read on every request until they are back',
      );
    }
    return null;
  };

  return (tables) => {
    for (const table of tables) {
      const columns = columnsOf(sqlite, table.name);
      if (columns.length === 0) throw new Error(`watch: no table ${table.name}`);
      watched.set(table.name, table);
    }
    install();
    intact = false;
    stamp();
    if (intact) warned = false;
    return stamp;
  };
}

/** The three triggers a table needs, as SQLite stores their text, from the table's columns now. */
function triggersOf(sqlite: Database.Database, { name, ignore = [] }: WatchedTable): [string, string][] {
  const columns = columnsOf(sqlite, name);
  if (columns.length === 0) return [[`${PREFIX}${name}_missing`, '']];
  const bump = `BEGIN UPDATE ${EPOCH} SET n = n + 1 WHERE id = 1; END`;
  const on = `ON ${quote(name)} ${bump}`;
  const updated = columns.filter((c) => !ignore.includes(c));
  return [
    [`${PREFIX}${name}_insert`, `CREATE TRIGGER ${quote(`${PREFIX}${name}_insert`)} AFTER INSERT ${on}`],
    [`${PREFIX}${name}_delete`, `CREATE TRIGGER ${quote(`${PREFIX}${name}_delete`)} AFTER DELETE ${on}`],
    [
      `${PREFIX}${name}_update`,
      `CREATE TRIGGER ${quote(`${PREFIX}${name}_update`)} AFTER UPDATE OF ${updated.map(quote).join(', ')} ${on}`,
    ],
  ];
}

const columnsOf = (sqlite: Database.Database, table: string): string[] =>
  (sqlite.pragma(`table_info(${quote(table)})`) as { name: string }[]).map((c) => c.name);

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;
