import type pg from 'pg';
import { ANSWER_PREFIX, answerTag, liveWhere, type AnswerSource } from './answerStore';

/**
 * PostgreSQL's stored answers (answerStore.ts): the same rules as SQLite's triggers, as PL/pgSQL
 * trigger functions. Building a 100-parcel list's answers cost PostgreSQL about 3.4 ms of CPU, more
 * than the server's own share, and with one PostgreSQL for every server process that capped what a
 * second process could add. Made under the migration lock (postgresMigrate.ts), named by the tag.
 */
function functions(src: AnswerSource, tag: string): { name: string; ddl: string[] }[] {
  const live = liveWhere(src);
  const put = (where: string) => `insert into package_answer (package_id, json) ${src.select} where ${where} and ${live}
      on conflict (package_id) do update set json = excluded.json;`;
  const fn = (what: string, body: string, triggers: string[]) => {
    const name = `${ANSWER_PREFIX}${tag}_${what}`;
    return {
      name,
      ddl: [
        `create function "${name}"() returns trigger language plpgsql as $body$ begin ${body} return null; end $body$`,
        ...triggers.map((on, i) => `create trigger "${name}_${i}" ${on} for each row execute function "${name}"()`),
      ],
    };
  };
  const out = [
    fn(
      'package',
      `
      if tg_op = 'DELETE' then delete from package_answer where package_id = old.id; return null; end if;
      if new.status in (${src.finalStatuses}) then delete from package_answer where package_id = new.id; return null; end if;
      ${put('"package"."id" = new.id')}`,
      ['after insert or update or delete on "package"'],
    ),
  ];
  for (const { table, column } of src.lookups) {
    out.push(fn(table, put(`"package"."${column}" = new.id`), [`after update of name on "${table}"`]));
  }
  for (const { table, column } of src.children) {
    out.push(
      fn(
        table,
        `
      if tg_op <> 'INSERT' then ${put(`"package"."id" = old."${column}"`)} end if;
      if tg_op <> 'DELETE' then ${put(`"package"."id" = new."${column}"`)} end if;`,
        [`after insert or update or delete on "${table}"`],
      ),
    );
  }
  return out;
}

/** Makes the store and its trigger functions when missing or made from another answer expression; rebuilds the answers then. */
export async function installPostgresAnswerStore(client: pg.ClientBase, src: AnswerSource): Promise<void> {
  const tag = answerTag(src);
  const want = functions(src, tag);
  const have = (
    await client.query<{ name: string }>(`select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = current_schema() and p.proname like '${ANSWER_PREFIX}%'`)
  ).rows.map((r) => r.name);
  if (have.length === want.length && want.every((f) => have.includes(f.name))) return;
  await client.query('begin');
  try {
    // CASCADE takes each function's triggers with it.
    for (const name of have) await client.query(`drop function "${name}"() cascade`);
    await client.query('create table if not exists package_answer (package_id bigint primary key, json text not null)');
    await client.query('delete from package_answer');
    for (const f of want) for (const ddl of f.ddl) await client.query(ddl);
    await client.query(`insert into package_answer (package_id, json) ${src.select} where ${liveWhere(src)}`);
    await client.query('commit');
  } catch (err) {
    await client.query('rollback');
    throw err;
  }
}
