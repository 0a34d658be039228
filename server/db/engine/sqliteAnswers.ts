import type Database from 'better-sqlite3';
import { ANSWER_PREFIX, answerDriftQuery, answerTag, liveWhere, type AnswerSource } from './answerStore';

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
const PREFIX = ANSWER_PREFIX;

function triggers(src: AnswerSource, tag: string): string[] {
  const live = liveWhere(src);
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
  const tag = answerTag(src);
  const ddl = triggers(src, tag);
  const have = sqlite.prepare(`select name from sqlite_master where type = 'trigger' and name like '${PREFIX}%'`).pluck().all() as string[];
  if (have.length === ddl.length && have.every((n) => n.startsWith(`${PREFIX}${tag}_`))) return;
  sqlite.transaction(() => {
    for (const n of have) sqlite.exec(`drop trigger "${n}"`);
    sqlite.exec('create table if not exists package_answer (package_id integer primary key, json text not null)');
    sqlite.exec('delete from package_answer');
    for (const t of ddl) sqlite.exec(t);
    sqlite.exec(`insert into package_answer (package_id, json) ${src.select} where ${liveWhere(src)}`);
  })();
}

/** See answerDriftQuery: 0 unless a trigger misses a case. */
export function answerStoreDrift(sqlite: Database.Database, src: AnswerSource): number {
  return sqlite.prepare(answerDriftQuery('sqlite', src)).pluck().get() as number;
}
