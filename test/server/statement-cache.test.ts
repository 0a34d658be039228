import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cacheStatements } from '../../server/db/statementCache';

function db(capacity?: number) {
  const sqlite = new Database(':memory:');
  cacheStatements(sqlite, capacity);
  sqlite.exec('create table t (id integer primary key, v text)');
  sqlite.prepare('insert into t (v) values (?), (?), (?)').run('a', 'b', 'c');
  return sqlite;
}

describe('statement cache', () => {
  it('hands out the compiled statement again for the same SQL text', () => {
    const sqlite = db();
    expect(sqlite.prepare('select v from t order by id')).toBe(sqlite.prepare('select v from t order by id'));
    expect(sqlite.prepare('select v from t order by id')).not.toBe(sqlite.prepare('select v from t order by id desc'));
  });

  it('resets raw mode, so one caller asking for value arrays does not change what the next one gets', () => {
    const sqlite = db();
    expect(sqlite.prepare('select v from t order by id').raw().all()).toEqual([['a'], ['b'], ['c']]);
    expect(sqlite.prepare('select v from t order by id').all()).toEqual([{ v: 'a' }, { v: 'b' }, { v: 'c' }]);
  });

  it('never shares a statement that is still being iterated', () => {
    const sqlite = db();
    const text = 'select v from t order by id';
    const seen: string[] = [];
    for (const row of sqlite.prepare(text).iterate() as Iterable<{ v: string }>) {
      seen.push(row.v, (sqlite.prepare(text).get() as { v: string }).v);
    }
    expect(seen).toEqual(['a', 'a', 'b', 'a', 'c', 'a']);
  });

  it('keeps at most its capacity, dropping the least recently used', () => {
    const sqlite = db(2);
    const a = sqlite.prepare('select 1');
    sqlite.prepare('select 2');
    expect(sqlite.prepare('select 1')).toBe(a);
    sqlite.prepare('select 3');
    expect(sqlite.prepare('select 1')).toBe(a);
    const two = sqlite.prepare('select 2');
    expect(sqlite.prepare('select 2')).toBe(two);
  });

  it('keeps statements working across a schema change', () => {
    const sqlite = db();
    const read = () => sqlite.prepare('select * from t where id = 1').get();
    expect(read()).toEqual({ id: 1, v: 'a' });
    sqlite.exec("alter table t add column w text default 'x'");
    expect(read()).toEqual({ id: 1, v: 'a', w: 'x' });
  });
});
