import { describe, expect, it } from 'vitest';
import { forPostgres } from '../../server/db/engine/postgres';

/** The few places where SQL drizzle's SQLite dialect writes must read differently on PostgreSQL. */
describe('statement text for PostgreSQL', () => {
  const ids = { package: 'id', change_log: 'seq' };

  it('asks for the identity where SQLite is given NULL to number a rowid, in every row of a multi-row insert', () => {
    expect(
      forPostgres(
        'insert into "package" ("id", "hawb", "note") values (null, $1, coalesce($2, \'(null, x)\')), (null, $3, null) returning "id"',
        ids,
      ),
    ).toBe(
      'insert into "package" ("id", "hawb", "note") values (default, $1, coalesce($2, \'(null, x)\')), (default, $3, null) returning "id"',
    );
    expect(forPostgres('insert into "change_log" ("seq", "entity") values (null, $1)', ids)).toBe(
      'insert into "change_log" ("seq", "entity") values (default, $1)',
    );
    // An id given by the caller, or a table without identity, is left alone.
    expect(forPostgres('insert into "package" ("id", "hawb") values ($1, $2)', ids)).toBe(
      'insert into "package" ("id", "hawb") values ($1, $2)',
    );
    expect(forPostgres('insert into "device" ("device_id", "x") values (null, $1)', ids)).toBe(
      'insert into "device" ("device_id", "x") values (null, $1)',
    );
  });

  it('names conflict targets without their table', () => {
    expect(
      forPostgres('insert into "device" ("device_id") values ($1) on conflict ("device"."device_id") do update set "x" = 1', ids),
    ).toBe('insert into "device" ("device_id") values ($1) on conflict ("device_id") do update set "x" = 1');
  });

  it('places NULLs where SQLite does: first going up, last going down', () => {
    expect(forPostgres('select "a" from "t" order by "t"."a" asc, "t"."b" desc limit $1', ids)).toBe(
      'select "a" from "t" order by "t"."a" asc nulls first, "t"."b" desc nulls last limit $1',
    );
    expect(forPostgres('select json_agg(x order by "f"."id" asc) from "f"', ids)).toBe(
      'select json_agg(x order by "f"."id" asc nulls first) from "f"',
    );
  });
});
