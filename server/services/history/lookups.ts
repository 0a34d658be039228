import { and, count, eq, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  deliveryAttempt,
  deliveryRecord,
  deliveryRoute,
  packageEvent,
  packageHistoryActor,
  packageHistoryTally,
  packageHistoryToken,
  packagePhoto,
  packageRecipient,
  pkg,
} from '../../db/schema/index';
import { FINAL_STATUSES } from '../../../shared/lifecycle';
import { isStaff } from '../../../shared/roles';
import type { SessionUser } from '../auth/session';

/** Tally rows beside the statuses (the tally's `status` column): parcels with any proof, and failed attempts. */
export const WITH_PROOF = 'with_proof';
export const ATTEMPTS = 'attempts';

/**
 * The small indexed lookups over cold parcels that reads cannot get from the JSON rows without a
 * scan (docs/decisions-data-layer.md, "Cold storage"): tracking tokens, the all-time tally and each
 * actor's last event. The mover writes them in the unit that moves the parcels, from the hot rows,
 * before those are deleted; migration 0004 filled them for parcels moved before they existed.
 */
export async function writeLookups(db: Db, ids: number[]): Promise<void> {
  await db
    .insert(packageHistoryToken)
    .select(
      db
        .select({ token: packageRecipient.token, package_id: packageRecipient.package_id })
        .from(packageRecipient)
        .where(inArray(packageRecipient.package_id, ids)),
    )
    .run();

  const groups = await db
    .select({ company: pkg.company_id, driver: pkg.assigned_to_id, route: pkg.route_id, status: pkg.status, n: count() })
    .from(pkg)
    .where(inArray(pkg.id, ids))
    .groupBy(pkg.company_id, pkg.assigned_to_id, pkg.route_id, pkg.status)
    .all();
  const tally = new Map<string, typeof packageHistoryTally.$inferInsert>();
  const add = (scope: string, owner: number | null, status: string, n: number) => {
    if (owner == null) return;
    const key = `${scope}:${owner}:${status}`;
    const row = tally.get(key) ?? { scope, owner_id: owner, status, n: 0 };
    row.n += n;
    tally.set(key, row);
  };
  for (const g of groups) {
    add('all', 0, g.status, g.n);
    add('company', g.company, g.status, g.n);
    add('driver', g.driver, g.status, g.n);
    add('route', g.route, g.status, g.n);
  }
  // What the office's unfiltered proof and attempts lists count: parcels with any proof, failed attempts.
  const withProof = await db
    .select({ company: pkg.company_id, n: count() })
    .from(pkg)
    .where(
      and(
        inArray(pkg.id, ids),
        or(
          sql`exists (select 1 from ${packagePhoto} where ${packagePhoto.package_id} = ${pkg.id})`,
          sql`exists (select 1 from ${deliveryRecord} where ${deliveryRecord.package_id} = ${pkg.id})`,
        ),
      ),
    )
    .groupBy(pkg.company_id)
    .all();
  const attempts = await db
    .select({ company: pkg.company_id, n: count() })
    .from(deliveryAttempt)
    .innerJoin(pkg, eq(pkg.id, deliveryAttempt.package_id))
    .where(inArray(pkg.id, ids))
    .groupBy(pkg.company_id)
    .all();
  for (const [what, rows] of [
    [WITH_PROOF, withProof],
    [ATTEMPTS, attempts],
  ] as const) {
    for (const g of rows) {
      add('all', 0, what, g.n);
      add('company', g.company, what, g.n);
    }
  }
  if (tally.size) {
    await db
      .insert(packageHistoryTally)
      .values([...tally.values()])
      .onConflictDoUpdate({
        target: [packageHistoryTally.scope, packageHistoryTally.owner_id, packageHistoryTally.status],
        set: { n: sql`${packageHistoryTally.n} + excluded.n` },
      })
      .run();
  }

  // Each actor's last event on each parcel: what a driver's history list shows for it.
  const lastOf = db
    .select({ actor: packageEvent.actor_id, pkg: packageEvent.package_id, last: sql<number>`max(${packageEvent.id})`.as('last') })
    .from(packageEvent)
    .where(and(inArray(packageEvent.package_id, ids), isNotNull(packageEvent.actor_id)))
    .groupBy(packageEvent.actor_id, packageEvent.package_id)
    .as('last');
  const last = await db
    .select({
      actor_id: lastOf.actor,
      package_id: lastOf.pkg,
      event_id: packageEvent.id,
      action: packageEvent.action,
      received_at: packageEvent.received_at,
    })
    .from(lastOf)
    .innerJoin(packageEvent, eq(packageEvent.id, lastOf.last))
    .all();
  for (let i = 0; i < last.length; i += 200) {
    await db
      .insert(packageHistoryActor)
      .values(last.slice(i, i + 200).map((r) => ({ ...r, actor_id: r.actor_id ?? 0 })))
      .run();
  }
}

type TallyScope = { company: number } | { driver: number } | undefined;

/** Whose cold parcels a caller may count, by the rule of packageScope(): staff all, a driver theirs, others their company's. */
export function tallyScope(user: SessionUser): TallyScope {
  if (isStaff(user.role)) return undefined;
  return user.role === 'driver' ? { driver: user.id } : { company: user.companyId ?? -1 };
}

const tallyOf = (scope: TallyScope) =>
  !scope
    ? and(eq(packageHistoryTally.scope, 'all'), eq(packageHistoryTally.owner_id, 0))
    : 'company' in scope
      ? and(eq(packageHistoryTally.scope, 'company'), eq(packageHistoryTally.owner_id, scope.company))
      : and(eq(packageHistoryTally.scope, 'driver'), eq(packageHistoryTally.owner_id, scope.driver));

/** Cold parcels per status, of everyone (`scope` undefined), one company or one driver (route tallies: `routeTally`). */
export async function historyTally(db: Db, scope?: TallyScope): Promise<Map<string, number>> {
  const rows = await db
    .select({ status: packageHistoryTally.status, n: packageHistoryTally.n })
    .from(packageHistoryTally)
    .where(and(tallyOf(scope), inArray(packageHistoryTally.status, [...FINAL_STATUSES])))
    .all();
  return new Map(rows.map((r) => [r.status, Number(r.n)]));
}

/**
 * Cold delivered parcels of everyone or of one scope: what an unfiltered delivered list counts on the
 * history side (every delivered parcel has its delivery record, and cold parcels are never archived).
 */
export async function historyDelivered(db: Db, scope?: TallyScope): Promise<number> {
  return (await historyTally(db, scope)).get('delivered') ?? 0;
}

/**
 * Cold parcels with any proof (`with_proof`), or cold failed attempts (`attempts`), that a staff
 * member (all) or a company's user (their company's) may count. These are not tallied per driver:
 * drivers' lists count their cold side with their filter.
 */
export async function historyListTally(db: Db, what: typeof WITH_PROOF | typeof ATTEMPTS, user: SessionUser): Promise<number> {
  if (user.role === 'driver') throw new Error('cold proof and attempt lists are not tallied per driver');
  const row = await db
    .select({ n: packageHistoryTally.n })
    .from(packageHistoryTally)
    .where(and(tallyOf(tallyScope(user)), eq(packageHistoryTally.status, what)))
    .get();
  return Number(row?.n ?? 0);
}

/** Cold parcels per status on the routes matching `where` (written over `deliveryRoute`): read per route, never per parcel. */
export async function routeTally(db: Db, where: SQL | undefined): Promise<Map<string, number>> {
  const rows = await db
    .select({ status: packageHistoryTally.status, n: sql<number>`sum(${packageHistoryTally.n})` })
    .from(packageHistoryTally)
    .innerJoin(deliveryRoute, eq(deliveryRoute.id, packageHistoryTally.owner_id))
    .where(and(eq(packageHistoryTally.scope, 'route'), where))
    .groupBy(packageHistoryTally.status)
    .all();
  return new Map(rows.map((r) => [r.status, Number(r.n)]));
}
