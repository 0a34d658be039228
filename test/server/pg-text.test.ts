import { describe, expect, it } from 'vitest';
import { forPostgres } from '../../server/db/engine/dialect';

/**
 * The few places where SQL drizzle's SQLite dialect writes must read differently on PostgreSQL, on
 * hand-written edge cases. drizzle's real output for every statement shape the services use is
 * snapshotted in test/server/drizzle-sql.test.ts.
 */
describe('statement text for PostgreSQL', () => {
  const ids = { package: 'id', change_log: 'seq' };
  const pg = (text: string) => forPostgres(text, ids).text;

  it('numbers parameters in order, leaving a ? in quoted text alone', () => {
    expect(forPostgres('select "a" from "t" where "t"."b" = ? and "t"."c" in (?, ?) limit ?', ids)).toEqual({
      text: 'select "a" from "t" where "t"."b" = $1 and "t"."c" in ($2, $3) limit $4',
      params: 4,
    });
    expect(forPostgres(`select 'why?', 'it''s ?', "odd?name" from "t" where "x" = ?`, ids)).toEqual({
      text: `select 'why?', 'it''s ?', "odd?name" from "t" where "x" = $1`,
      params: 1,
    });
    expect(forPostgres('select 1', ids)).toEqual({ text: 'select 1', params: 0 });
  });

  it('asks for the identity where SQLite is given NULL to number a rowid, in every row of a multi-row insert', () => {
    expect(
      pg('insert into "package" ("id", "hawb", "note") values (null, ?, coalesce(?, \'(null, x)\')), (null, ?, null) returning "id"'),
    ).toBe(
      'insert into "package" ("id", "hawb", "note") values (default, $1, coalesce($2, \'(null, x)\')), (default, $3, null) returning "id"',
    );
    expect(pg('insert into "change_log" ("seq", "entity") values (null, ?)')).toBe(
      'insert into "change_log" ("seq", "entity") values (default, $1)',
    );
    // An id given by the caller, or a table without identity, is left alone.
    expect(pg('insert into "package" ("id", "hawb") values (?, ?)')).toBe('insert into "package" ("id", "hawb") values ($1, $2)');
    expect(pg('insert into "device" ("device_id", "x") values (null, ?)')).toBe(
      'insert into "device" ("device_id", "x") values (null, $1)',
    );
  });

  it('names conflict targets without their table', () => {
    expect(pg('insert into "device" ("device_id") values (?) on conflict ("device"."device_id") do update set "x" = 1')).toBe(
      'insert into "device" ("device_id") values ($1) on conflict ("device_id") do update set "x" = 1',
    );
  });

  it('places NULLs where SQLite does: first going up, last going down', () => {
    expect(pg('select "a" from "t" order by "t"."a" asc, "t"."b" desc limit ?')).toBe(
      'select "a" from "t" order by "t"."a" asc nulls first, "t"."b" desc nulls last limit $1',
    );
    expect(pg('select json_agg(x order by "f"."id" asc) from "f"')).toBe('select json_agg(x order by "f"."id" asc nulls first) from "f"');
  });
});
