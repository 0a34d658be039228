import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

/**
 * SQLite keeps the answer JSON of every parcel still in play (not delivered, returned or cancelled)
 * in `package_answer`, kept by triggers, so a driver's list reads ready-made text instead of building
 * ~67 members per row on every poll (about half of a 200-parcel list's CPU). Ended parcels are read
 * rarely and have no stored answer: readers fall back to building it (`coalesce`, json.ts).
 *
 * The triggers are made here, not in a migration, because their text is the answer expression,
 * which lives in code (server/services/packages/json.ts). They are named by a hash of their text:
 * a server whose expression differs drops them, makes its own and rebuilds the stored answers once.
 */
export interface AnswerSource {
  /** `select "package"."id", <answer json> from "package" left join ...` with no WHERE. */
  select: string;
  /** SQL list of the statuses that end a parcel, e.g. `'delivered', 'cancelled'`. */
  finalStatuses: string;
  /** Lookup tables whose `name` the answer shows, with the package column that points at them. */
  lookups: readonly { table: string; column: string }[];
  /** The table of a parcel's failed attempts (its rows are part of the answer) and its parcel column. */
  children: readonly { table: string; column: string }[];
}

const PREFIX = 'package_answer_';

function triggers(src: AnswerSource, tag: string): string[] {
  const live = `"package"."status" not in (${src.finalStatuses})`;
  const put = (where: string) => `insert or replace into package_answer (package_id, json) ${src.select} where ${where} and ${live};`;
  const name = (what: string) => `${PREFIX}${tag}_${what}`;
  const out = [
    `create trigger ${name('insert')} after insert on package begin ${put('"package"."id" = new.id')} end`,
    `create trigger ${name('update')} after update on package begin
       ${put('"package"."id" = new.id')}
       delete from package_answer where package_id = new.id and new.status in (${src.finalStatuses});
     end`,
    `create trigger ${name('delete')} after delete on package begin delete from package_answer where package_id = old.id; end`,
  ];
  for (const { table, column } of src.lookups) {
    out.push(`create trigger ${name(`${table}_name`)} after update of name on "${table}" when old.name is not new.name begin
       ${put(`"package"."${column}" = new.id`)}
     end`);
  }
  for (const { table, column } of src.children) {
    out.push(`create trigger ${name(`${table}_insert`)} after insert on "${table}" begin ${put(`"package"."id" = new."${column}"`)} end`);
    out.push(`create trigger ${name(`${table}_update`)} after update on "${table}" begin
       ${put(`"package"."id" = new."${column}"`)}
       ${put(`"package"."id" = old."${column}"`)}
     end`);
    out.push(`create trigger ${name(`${table}_delete`)} after delete on "${table}" begin ${put(`"package"."id" = old."${column}"`)} end`);
  }
  return out;
}

/** Makes the store and its triggers when missing or made by another answer expression; rebuilds the answers then. */
export function installAnswerStore(sqlite: Database.Database, src: AnswerSource): void {
  const tag = createHash('sha256').update(JSON.stringify(src)).digest('hex').slice(0, 12);
  const ddl = triggers(src, tag);
  const have = sqlite.prepare(`select name from sqlite_master where type = 'trigger' and name like '${PREFIX}%'`).pluck().all() as string[];
  if (have.length === ddl.length && have.every((n) => n.startsWith(`${PREFIX}${tag}_`))) return;
  sqlite.transaction(() => {
    for (const n of have) sqlite.exec(`drop trigger "${n}"`);
    sqlite.exec('create table if not exists package_answer (package_id integer primary key, json text not null)');
    sqlite.exec('delete from package_answer');
    for (const t of ddl) sqlite.exec(t);
    sqlite.exec(`insert into package_answer (package_id, json) ${src.select} where "package"."status" not in (${src.finalStatuses})`);
  })();
}

/**
 * Parcels whose stored answer differs from the one built now, is missing, or should not be there
 * (an ended or deleted parcel): always 0 unless a trigger is missing a case. Tests check it after each test.
 */
export function answerStoreDrift(sqlite: Database.Database, src: AnswerSource): number {
  const built = `select * from (${src.select} where "package"."status" not in (${src.finalStatuses}))`;
  const row = sqlite.prepare(`select
      (select count(*) from (${built}) b left join package_answer a on a.package_id = b.id where a.json is not b.json)
    + (select count(*) from package_answer a where not exists (select 1 from package p where p.id = a.package_id and p.status not in (${src.finalStatuses})))`).pluck().get();
  return row as number;
}
