import { eq, getTableColumns, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openMemoryDatabase } from '../../server/db/client';
import { encodePatch, placeholderSet, preparedShape } from '../../server/db/prepared';
import { pkg } from '../../server/db/schema/index';
import { updatePackage } from '../../server/services/packages/lifecycle';
import { makeApp } from '../helpers/app';

const columns = getTableColumns(pkg);

describe('encodePatch', () => {
  it('keys the patch by its sorted columns and binds values as drizzle would', () => {
    const encoded = encodePatch(columns, {
      status: 'assigned',
      is_scanned: true,
      landed: false,
      flag_reason: null,
      weight: undefined,
      nonsense: 1,
    });
    expect(encoded).toEqual({
      shape: 'flag_reason,is_scanned,landed,status',
      keys: ['flag_reason', 'is_scanned', 'landed', 'status'],
      values: { status: 'assigned', is_scanned: 1, landed: 0, flag_reason: null },
    });
    expect(encodePatch(columns, { landed: true, status: 'x' })?.shape).toBe(encodePatch(columns, { status: 'y', landed: false })?.shape);
  });

  it('gives up on values that are SQL or columns, which cannot be bound', () => {
    expect(encodePatch(columns, { attempts: sql`${pkg.attempts} + 1` })).toBeNull();
    expect(encodePatch(columns, { attempts: pkg.parcel_no })).toBeNull();
  });
});

describe('preparedShape', () => {
  it('builds once per shape and database', async () => {
    const db = await openMemoryDatabase();
    const other = await openMemoryDatabase();
    let built = 0;
    const build = () => ({ n: ++built });
    const a = preparedShape(db, 'f', 'a', build);
    expect(preparedShape(db, 'f', 'a', build)).toBe(a);
    expect(preparedShape(db, 'g', 'a', build)).not.toBe(a);
    expect(preparedShape(other, 'f', 'a', build)).not.toBe(a);
    expect(built).toBe(3);
  });

  it('keeps only the most recently used shapes', async () => {
    const db = await openMemoryDatabase();
    const built: string[] = [];
    const get = (shape: string) =>
      preparedShape(
        db,
        'f',
        shape,
        () => {
          built.push(shape);
          return { shape };
        },
        2,
      );
    get('a');
    get('b');
    get('a');
    get('c');
    get('a');
    expect(built).toEqual(['a', 'b', 'c']);
    get('b');
    expect(built).toEqual(['a', 'b', 'c', 'b']);
  });
});

describe('prepared package update', () => {
  it('applies booleans, nulls and numbers and returns the row, across shapes', async () => {
    // The lifecycle announces each change to the app's subscribers: a database an app was made over.
    const { db } = await makeApp();
    const now = 1_700_000_000_000;
    const row = await db.insert(pkg).values({ hawb: 'P1', created_at: now, updated_at: now }).returning().get();
    const actor = { userId: null };
    const a = await updatePackage(db, now + 1, row, { is_scanned: true, flag_reason: 'look' }, 'test', actor);
    expect(a).toMatchObject({ is_scanned: true, flag_reason: 'look', updated_at: now + 1 });
    const b = await updatePackage(db, now + 2, a, { is_scanned: false, flag_reason: null, attempts: 2 }, 'test', actor);
    expect(b).toMatchObject({ is_scanned: false, flag_reason: null, attempts: 2, updated_at: now + 2 });
    // The same shape again reuses the prepared query with new values.
    const c = await updatePackage(db, now + 3, b, { is_scanned: true, flag_reason: 'again', attempts: 3 }, 'test', actor);
    expect(c).toMatchObject({ is_scanned: true, flag_reason: 'again', attempts: 3 });
    const stored = await db.select().from(pkg).where(eq(pkg.id, row.id)).get();
    expect(stored).toEqual(c);
    expect(await db.values(sql`select is_scanned from package where id = ${row.id}`)).toEqual([[1]]);
  });

  it('with the row read in the same unit, the UPDATE answers nothing and the patched row is the stored one', async () => {
    // The lifecycle announces each change to the app's subscribers: a database an app was made over.
    const { db } = await makeApp();
    const now = 1_700_000_000_000;
    const row = await db.insert(pkg).values({ hawb: 'P2', weight: 1.5, created_at: now, updated_at: now }).returning().get();
    const seen: string[] = [];
    db.$engine.onStatement = (text) => {
      seen.push(text);
    };
    const patch = {
      is_scanned: true,
      landed: true,
      flag_reason: null,
      weight: 2.25,
      attempts: 1,
      status: 'assigned',
      delivery_date: '2026-11-27',
    };
    const a = await updatePackage(db, now + 1, row, patch, 'test', { userId: null }, {}, null, true);
    db.$engine.onStatement = null;
    const update = seen.filter((s) => s.startsWith('update "package"'));
    expect(update).toHaveLength(1);
    expect(update[0]).not.toMatch(/returning/i);
    const stored = await db.select().from(pkg).where(eq(pkg.id, row.id)).get();
    expect(a).toEqual(stored);
    expect(a).toMatchObject({ ...patch, updated_at: now + 1 });
  });

  it('a placeholder set binds what it is given', async () => {
    // The lifecycle announces each change to the app's subscribers: a database an app was made over.
    const { db } = await makeApp();
    const now = 1_700_000_000_000;
    const row = await db.insert(pkg).values({ hawb: 'P3', created_at: now, updated_at: now }).returning().get();
    const q = db
      .update(pkg)
      .set(placeholderSet(['hawb']))
      .where(eq(pkg.id, sql.placeholder('id')))
      .returning({ hawb: pkg.hawb })
      .prepare();
    expect(await q.get({ hawb: 'P3b', id: row.id })).toEqual({ hawb: 'P3b' });
  });
});
