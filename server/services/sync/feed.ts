import { and, asc, eq, gt, inArray, max, min, sql, type SQL } from 'drizzle-orm';
import type { SyncChanges } from '../../../shared/schemas/sync';
import { iso } from '../../clock';
import { changedRows, type Db } from '../../db/client';
import { placeFeedRows } from '../../db/engine/feedPlacement';
import { prepared } from '../../db/prepared';
import { changeLog, failedDeliveryStatus, pkg } from '../../db/schema/index';
import { rawArray, rawObject, type RawJson } from '../../http/rawJson';
import { packageJsonByIds } from '../packages/json';
import { answersFor } from '../geo/senderView';
import { withRecipientInstructions } from '../recipients/feed';
import { withDoor } from '../door/feed';
import { withCod } from '../cod/feed';
import { DEFAULT_TIME_ZONE } from '../../../shared/time/zone';
import { withAttempts } from './attempts';
import { packageFeedRows, packagesInScope, sharedFeedRows, statusesInScope, type FeedScope } from './scope';

type Entity = 'package' | 'failed_delivery_status';
interface FeedKey {
  entity: Entity;
  id: number;
  seq: number;
}
/** A SyncChanges page whose packages SQLite serialised (packages/json.ts). */
type FeedPage = Omit<SyncChanges, 'upserts'> & { upserts: Omit<SyncChanges['upserts'], 'packages'> & { packages: RawJson[] } };

const CHUNK = 500;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

type FeedRows = 'driver' | 'company' | 'shared';
/** A company's feed shows its parcels as a sender sees them (geo/senderView.ts); drivers' and the office's as they are. */
const viewerOf = (scope: FeedScope) => ({ role: scope.kind === 'company' ? ('company' as const) : ('driver' as const) });

/** Whose feed rows: the scope's own package rows (by driver or company column) or the shared ones. */
const FEED_ROWS: Record<FeedRows, SQL | undefined> = {
  driver: and(eq(changeLog.entity, 'package'), eq(changeLog.driver_id, sql.placeholder('owner'))),
  company: and(eq(changeLog.entity, 'package'), eq(changeLog.company_id, sql.placeholder('owner'))),
  shared: sharedFeedRows,
};

/**
 * Rows in their final place in the feed. On PostgreSQL a unit's rows are written pending (seq < 0)
 * and placed after they committed (server/db/engine/feedPlacement.ts); no read of the feed counts a
 * pending one. On SQLite every seq is final.
 */
const placed = gt(changeLog.seq, 0);

// Every device polls: these are prepared once per database rather than built per request.
const latestQuery = (db: Db, rows: FeedRows) =>
  prepared(db, `feed-latest-${rows}`, (d) => {
    const latest = max(changeLog.seq);
    return d
      .select({ entity: changeLog.entity, id: changeLog.entity_id, seq: latest })
      .from(changeLog)
      .where(and(FEED_ROWS[rows], gt(changeLog.seq, sql.placeholder('cursor'))))
      .groupBy(changeLog.entity, changeLog.entity_id)
      .orderBy(asc(latest))
      .limit(sql.placeholder('take'))
      .prepare();
  });
const firstQuery = (db: Db) =>
  prepared(db, 'feed-first', (d) =>
    d
      .select({ v: min(changeLog.seq) })
      .from(changeLog)
      .where(placed)
      .prepare(),
  );
const lastQuery = (db: Db) =>
  prepared(db, 'feed-last', (d) =>
    d
      .select({ v: max(changeLog.seq) })
      .from(changeLog)
      .where(placed)
      .prepare(),
  );

/**
 * Each record changed after `cursor` once, at its latest feed row, oldest first: a record that
 * changed twice is sent once, in its current state, and the cursor never skips a record.
 */
async function latestChanges(db: Db, rows: FeedRows, owner: number, cursor: number, take: number): Promise<FeedKey[]> {
  return (await latestQuery(db, rows).all({ owner, cursor, take })).map((r) => ({ entity: r.entity as Entity, id: r.id, seq: r.seq ?? 0 }));
}

/**
 * Two separate reads on purpose: SQLite answers a lone min() or max() of the key from one end of
 * the b-tree, but both in one select scan the whole feed (it runs on every sync request).
 */
async function feedBounds(db: Db): Promise<{ first: number | null; last: number | null }> {
  return { first: (await firstQuery(db).get())?.v ?? null, last: (await lastQuery(db).get())?.v ?? null };
}

async function shapeStatuses(db: Db, ids: number[]) {
  if (!ids.length) return [];
  const rows = [];
  for (const part of chunks(ids)) {
    rows.push(
      ...(await db
        .select()
        .from(failedDeliveryStatus)
        .where(and(inArray(failedDeliveryStatus.id, part), statusesInScope))
        .all()),
    );
  }
  return rows.map((r) => ({ id: r.id, name: r.name, is_active: r.is_active, created_at: iso(r.created_at) ?? '' }));
}

/**
 * Parcels as the feed sends them to this device: each one's answer as its caller may see it, with
 * the recipient's instructions, attempts, the door's rules and the cash still due.
 */
async function feedPackages(db: Db, scope: FeedScope, ids: number[], timeZone: string) {
  const answers = await answersFor(db, viewerOf(scope), await packageJsonByIds(db, ids));
  return withCod(db, await withDoor(db, await withAttempts(db, await withRecipientInstructions(db, answers)), timeZone));
}
/** Splits touched ids into those still in scope (sent whole) and those that left it (removed). */
async function resolve(
  db: Db,
  scope: FeedScope,
  keys: FeedKey[],
  now: number,
  withRemoves: boolean,
  timeZone: string,
): Promise<Pick<FeedPage, 'upserts' | 'removes'>> {
  const packageIds = keys.filter((k) => k.entity === 'package').map((k) => k.id);
  const statusIds = keys.filter((k) => k.entity === 'failed_delivery_status').map((k) => k.id);
  const inScope = packagesInScope(scope, now);
  const keptPackages: number[] = [];
  if (inScope && packageIds.length) {
    for (const part of chunks(packageIds)) {
      keptPackages.push(
        ...(
          await db
            .select({ id: pkg.id })
            .from(pkg)
            .where(and(inScope, inArray(pkg.id, part)))
            .all()
        ).map((r) => r.id),
      );
    }
  }
  const statuses = await shapeStatuses(db, statusIds);
  const keptSet = new Set(keptPackages);
  const statusSet = new Set(statuses.map((s) => s.id));
  const packages = await feedPackages(db, scope, keptPackages, timeZone);
  return {
    upserts: { packages, failed_delivery_statuses: statuses },
    removes: {
      packages: withRemoves ? packageIds.filter((id) => !keptSet.has(id)) : [],
      failed_delivery_statuses: withRemoves ? statusIds.filter((id) => !statusSet.has(id)) : [],
    },
  };
}

const RESET: FeedPage = {
  reset: true,
  upserts: { packages: [], failed_delivery_statuses: [] },
  removes: { packages: [], failed_delivery_statuses: [] },
  cursor: 0,
  has_more: true,
};

/**
 * Cursor 0: every record in scope now, packages in the order of their latest feed row so that the
 * next page continues as an ordinary incremental read from the last one sent. Shared records all
 * come on the first page (there are few).
 */
async function snapshot(db: Db, scope: FeedScope, limit: number, now: number, last: number, timeZone: string): Promise<FeedPage> {
  const inScope = packagesInScope(scope, now);
  const ids = inScope ? (await db.select({ id: pkg.id }).from(pkg).where(inScope).all()).map((r) => r.id) : [];
  const feed = packageFeedRows(scope);
  const latestOf = new Map<number, number>();
  if (feed) {
    for (const part of chunks(ids)) {
      const latest = max(changeLog.seq);
      for (const r of await db
        .select({ id: changeLog.entity_id, seq: latest })
        .from(changeLog)
        .where(and(feed, placed, inArray(changeLog.entity_id, part)))
        .groupBy(changeLog.entity_id)
        .all()) {
        latestOf.set(r.id, r.seq ?? 0);
      }
    }
  }
  // Parcels written without a feed row (seq 0) tie; ties are never split across pages, so the cursor always moves.
  const ordered = ids.map((id) => ({ id, seq: latestOf.get(id) ?? 0 })).sort((a, b) => a.seq - b.seq || a.id - b.id);
  let end = Math.min(limit, ordered.length);
  while (end < ordered.length && end > 0 && ordered[end].seq === ordered[end - 1].seq) end += 1;
  const page = ordered.slice(0, end);
  const hasMore = end < ordered.length;
  const statusIds = (await db.select({ id: failedDeliveryStatus.id }).from(failedDeliveryStatus).where(statusesInScope).all()).map(
    (r) => r.id,
  );
  return {
    reset: false,
    upserts: {
      packages: await feedPackages(
        db,
        scope,
        page.map((p) => p.id),
        timeZone,
      ),
      failed_delivery_statuses: await shapeStatuses(db, statusIds),
    },
    removes: { packages: [], failed_delivery_statuses: [] },
    cursor: hasMore ? page[page.length - 1].seq : last,
    has_more: hasMore,
  };
}

/**
 * `GET sync/changes/` (DESIGN.md section 6) as the SyncChanges JSON text. Synchronous from first
 * read to last, so in one process nothing commits in between: the answer is one consistent state
 * of the database.
 */
export async function changesSince(
  db: Db,
  scope: FeedScope,
  cursor: number,
  limit: number,
  now: number,
  timeZone = DEFAULT_TIME_ZONE,
): Promise<RawJson> {
  const { reset, upserts, removes, cursor: next, has_more } = await feedPage(db, scope, cursor, limit, now, timeZone);
  return rawObject({
    reset,
    upserts: rawObject({ packages: rawArray(upserts.packages), failed_delivery_statuses: upserts.failed_delivery_statuses }),
    removes,
    cursor: next,
    has_more,
  });
}

async function feedPage(db: Db, scope: FeedScope, cursor: number, limit: number, now: number, timeZone: string): Promise<FeedPage> {
  // What committed before this request is read at its final seq; what commits later is placed above `last`.
  await placeFeedRows(db);
  const { first, last } = await feedBounds(db);
  if (cursor === 0) return await snapshot(db, scope, limit, now, last ?? 0, timeZone);
  // Newer than anything here (a restored database) or older than what pruning kept: unservable.
  if (last == null || cursor > last || (first != null && cursor < first - 1)) return RESET;
  const own =
    scope.kind === 'driver'
      ? await latestChanges(db, 'driver', scope.driverId, cursor, limit + 1)
      : scope.kind === 'company'
        ? await latestChanges(db, 'company', scope.companyId, cursor, limit + 1)
        : [];
  const merged = [...own, ...(await latestChanges(db, 'shared', 0, cursor, limit + 1))].sort((a, b) => a.seq - b.seq);
  const page = merged.slice(0, limit);
  const hasMore = merged.length > limit;
  return {
    reset: false,
    ...(await resolve(db, scope, page, now, true, timeZone)),
    cursor: hasMore ? page[page.length - 1].seq : last,
    has_more: hasMore,
  };
}

/**
 * Feed rows older than `olderThan` are dropped, never the newest (it anchors the cursor); a device
 * whose cursor falls before what is left is told to reset.
 */
export async function pruneChanges(db: Db, olderThan: number): Promise<number> {
  await placeFeedRows(db);
  const { last } = await feedBounds(db);
  if (last == null) return 0;
  return changedRows(
    await db
      .delete(changeLog)
      .where(and(sql`${changeLog.created_at} < ${olderThan}`, placed, sql`${changeLog.seq} < ${last}`))
      .run(),
  );
}
