/**
 * drizzle's real output for every statement shape the services use, as each engine receives it:
 * the text drizzle's SQLite dialect renders (what SQLite runs) and its PostgreSQL translation
 * (server/db/engine/dialect.ts `forPostgres`, what PostgreSQL runs), with the engine's own
 * expressions. drizzle-orm is pinned (package.json); an upgrade that renders any of these otherwise
 * fails here with the diff, to be read before `vitest -u` (docs/decisions-engine-joint.md).
 */
import { and, asc, count, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMemoryDatabase, type Db } from '../../server/db/client';
import { forPostgres, greatest, inJsonIds, jsonSql, orderNulls } from '../../server/db/engine/dialect';
import { IDENTITIES } from '../../server/db/engine/open';
import { answerSource } from '../../server/db/engine/packageAnswer';
import type { EngineKind } from '../../server/db/engine/types';
import { addressSighting, changeLog, device, packageHistoryAnswer, packageHistoryTally, pkg, throttle } from '../../server/db/schema/index';

interface Rendered {
  sql: string;
  params: unknown[];
}
interface Buildable {
  toSQL(): Rendered;
}

/** Every shape, built by the services' query builder with `kind`'s expressions. */
function shapes(db: Db, kind: EngineKind): Record<string, Buildable | Rendered> {
  const e = { $engine: { kind } };
  const j = jsonSql(kind);
  const now = 1_700_000_000_000;
  return {
    // Identity columns: left out, given, several rows; RETURNING the new id.
    'insert, identity left out, returning': db
      .insert(changeLog)
      .values({ entity: 'package', entity_id: 7, op: 'update', created_at: now })
      .returning({ seq: changeLog.seq }),
    'insert, several rows': db.insert(changeLog).values([
      { entity: 'package', entity_id: 7, op: 'update', created_at: now },
      { entity: 'route', entity_id: 8, op: 'delete', driver_id: 3, created_at: now },
    ]),
    'insert, identity given': db.insert(changeLog).values({ seq: 5, entity: 'package', entity_id: 7, op: 'update', created_at: now }),
    // Conflict targets: one column, several, none.
    'upsert, one-column target, SET from the row (throttle)': db
      .insert(throttle)
      .values({ key: 'k', n: 1, until_at: now, expires_at: now })
      .onConflictDoUpdate({
        target: throttle.key,
        set: { n: sql`case when ${throttle.until_at} <= ${now} then 1 else ${throttle.n} + 1 end` },
      })
      .returning({ n: throttle.n, until: throttle.until_at }),
    'upsert, several-column target, SET from excluded': db
      .insert(packageHistoryTally)
      .values([{ scope: 'all', owner_id: 0, status: 'delivered', n: 2 }])
      .onConflictDoUpdate({
        target: [packageHistoryTally.scope, packageHistoryTally.owner_id, packageHistoryTally.status],
        set: { n: sql`${packageHistoryTally.n} + excluded.n` },
      }),
    'insert or nothing, target': db
      .insert(addressSighting)
      .values({ address_key: 'a', package_id: 1, latitude: -33.8, longitude: 151.2, occurred_at: now })
      .onConflictDoNothing({ target: [addressSighting.address_key, addressSighting.package_id] }),
    'insert or nothing, no target': db.insert(device).values({ device_id: 'd', user_id: 1, updated_at: now }).onConflictDoNothing(),
    // Ordering on nullable columns: bare, with a direction, with NULLs placed (orderNulls), raw.
    'order, bare nullable column': db.select({ id: pkg.id }).from(pkg).orderBy(pkg.sequence_no, pkg.id),
    'order, asc and desc on nullable columns, limit and offset': db
      .select({ id: pkg.id })
      .from(pkg)
      .orderBy(asc(pkg.sequence_no), desc(pkg.delivered_at))
      .limit(50)
      .offset(100),
    'order, NULLs placed': db
      .select({ id: pkg.id })
      .from(pkg)
      .orderBy(orderNulls(pkg.sequence_no, 'asc', 'last'), orderNulls(pkg.delivered_at, 'desc', 'first'), asc(pkg.id)),
    'order, raw direction': db
      .select({ id: pkg.id })
      .from(pkg)
      .orderBy(sql`${pkg.id} desc`),
    // Insert-select (a parcel moved to history).
    'insert-select': db.insert(packageHistoryAnswer).select(
      db
        .select({ package_id: pkg.id, answer: j.text(j.object([['id', pkg.id]])).as('answer') })
        .from(pkg)
        .where(inArray(pkg.id, [1, 2])),
    ),
    // JSON built by the database.
    'json object, array, bool, iso': db
      .select({
        json: j.text(
          j.object([
            ['id', pkg.id],
            ['scanned', j.bool(pkg.is_scanned)],
            ['created_at', j.iso(pkg.created_at)],
            [
              'events',
              j.arrayOf(sql`${changeLog.seq}`, sql`from ${changeLog} where ${changeLog.entity_id} = ${pkg.id}`, sql`${changeLog.seq}`),
            ],
          ]),
        ),
      })
      .from(pkg)
      .where(eq(pkg.id, 1)),
    'ids as one JSON parameter': db
      .select({ id: pkg.id })
      .from(pkg)
      .where(inJsonIds(e, pkg.id, sql`${JSON.stringify([1, 2, 3])}`)),
    // Updates and deletes, RETURNING, expressions.
    'update, expression, returning': db
      .update(throttle)
      .set({ n: sql`${throttle.n} - 1`, until_at: sql`${greatest(e, throttle.until_at, sql`${now}`)}` })
      .where(and(eq(throttle.key, 'k'), gt(throttle.n, 0)))
      .returning({ n: throttle.n }),
    'delete, returning': db.delete(device).where(isNull(device.user_id)).returning({ id: device.device_id }),
    'count, group by': db
      .select({ status: pkg.status, n: count() })
      .from(pkg)
      .where(inArray(pkg.status, ['created', 'assigned']))
      .groupBy(pkg.status),
    // Prepared statements bind named placeholders by position.
    'placeholders (prepared)': db
      .select({ id: pkg.id })
      .from(pkg)
      .where(and(eq(pkg.id, sql.placeholder('id')), eq(pkg.company_id, sql.placeholder('company'))))
      .limit(sql.placeholder('limit')),
    'package answer (answer store source)': { sql: answerSource(kind).select, params: [] },
  };
}

function rendered(db: Db, kind: EngineKind): Record<string, Rendered> {
  const out: Record<string, Rendered> = {};
  for (const [name, shape] of Object.entries(shapes(db, kind))) {
    const { sql: text, params } = 'toSQL' in shape ? shape.toSQL() : shape;
    // What the PostgreSQL engine runs for it (postgres.ts): the translation, cached per text.
    if (kind === 'postgres') {
      const pg = forPostgres(text, IDENTITIES);
      expect(pg.params, name).toBe(params.length);
      out[name] = { sql: pg.text, params };
    } else {
      out[name] = { sql: text, params };
    }
  }
  return out;
}

describe("drizzle's SQL as each engine receives it", () => {
  let db: Db;
  beforeAll(async () => {
    db = await openMemoryDatabase();
  });
  afterAll(() => db.$engine.close());

  it('SQLite', () => {
    expect(rendered(db, 'sqlite')).toMatchSnapshot();
  });

  it('PostgreSQL', () => {
    expect(rendered(db, 'postgres')).toMatchSnapshot();
  });

  it('is what the engine under test is sent', async () => {
    const seen: string[] = [];
    db.$engine.onStatement = (text) => seen.push(text);
    try {
      await db.select({ id: pkg.id }).from(pkg).orderBy(asc(pkg.sequence_no), desc(pkg.delivered_at)).limit(50).offset(100).all();
      await db
        .select({ id: pkg.id })
        .from(pkg)
        .where(inJsonIds(db, pkg.id, sql`${JSON.stringify([1, 2, 3])}`))
        .all();
      const row = await db
        .insert(changeLog)
        .values({ entity: 'package', entity_id: 7, op: 'update', created_at: 1_700_000_000_000 })
        .returning({ seq: changeLog.seq })
        .get();
      // The identity gave it a number: on PostgreSQL a feed row's is pending (negative) until the feed is read (feedPlacement.ts).
      expect(Math.abs(row?.seq ?? 0)).toBeGreaterThan(0);
    } finally {
      db.$engine.onStatement = null;
    }
    const expected = rendered(db, db.$engine.kind);
    expect(seen.filter((s) => !/^(begin|commit|savepoint|release)/.test(s)).slice(0, 3)).toEqual([
      expected['order, asc and desc on nullable columns, limit and offset']!.sql,
      expected['ids as one JSON parameter']!.sql,
      expected['insert, identity left out, returning']!.sql,
    ]);
  });
});
