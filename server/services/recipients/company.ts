import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { deliveryRating, pkg, user as userTable } from '../../db/schema/index';
import { iso } from '../../clock';
import { badRequest, forbidden } from '../../errors';
import { isStaff } from '../../../shared/roles';
import type { SessionUser } from '../auth/session';
import { keptRatings } from '../history/kept';
import { findPackage } from '../packages/lifecycle';
import { visiblePackage } from '../packages/scope';
import { NO_PUBLIC_URL_WARNING, trackingUrl } from './links';
import { ensureRecipient } from './recipient';

/** The company whose recipient settings a caller manages: its own, or (staff) the one named. */
export function settingsCompany(me: SessionUser, requested: number | undefined): number {
  if (me.role === 'company') {
    if (requested != null && requested !== me.companyId) throw forbidden('A company manages only its own recipient messages');
    if (me.companyId == null) throw forbidden('This login belongs to no company');
    return me.companyId;
  }
  if (!isStaff(me.role)) throw forbidden('Only companies and staff manage recipient messages');
  if (requested == null) throw badRequest('Name the company', [{ path: 'company', message: 'required for staff' }]);
  return requested;
}

/**
 * The users whose uploads may become the company's logo: its own company logins (never its drivers,
 * whose uploads are proof and ID documents), and the staff member saving for it.
 */
export async function logoUploaders(deps: Deps, me: SessionUser, companyId: number): Promise<number[]> {
  const logins = (
    await deps.db
      .select({ id: userTable.id })
      .from(userTable)
      .where(and(eq(userTable.company_id, companyId), eq(userTable.role, 'company'), isNull(userTable.deleted_at)))
      .all()
  ).map((u) => u.id);
  return isStaff(me.role) ? [...logins, me.id] : logins;
}

const NO_SHIPPER_WARNING =
  'This parcel has no shipper: tracking pages follow a shipper’s recipient settings, so it has no tracking page. Give it its company first.';

/** The parcel's tracking link for the shipper to share (created on first ask); the same link the messages carry. */
export async function trackingLinkOf(deps: Deps, me: SessionUser, packageId: number) {
  const row = visiblePackage(me, await findPackage(deps.db, packageId), packageId);
  if (me.role === 'driver') throw forbidden('Drivers do not hand out tracking links');
  const recipient = await ensureRecipient(deps.db, deps.clock.now(), row.id);
  // The page shows a shipper's parcel under that shipper's recipient settings: without a shipper it
  // would only say "not valid", so no link is handed out (issue 32's dispatcher found this).
  if (row.company_id == null) return { package: row.id, url: null, token: recipient.token, warning: NO_SHIPPER_WARNING };
  const url = trackingUrl(deps.config.publicUrl, recipient.token);
  return { package: row.id, url, token: recipient.token, warning: url ? null : NO_PUBLIC_URL_WARNING };
}

/** How many of the newest ratings the per-driver figures are made of. */
const RATINGS_READ = 5000;

async function driverNames(deps: Deps, ids: (number | null)[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => id != null))];
  return new Map(
    wanted.length
      ? (await deps.db.select({ id: userTable.id, name: userTable.name }).from(userTable).where(inArray(userTable.id, wanted)).all()).map(
          (u) => [u.id, u.name],
        )
      : [],
  );
}

/** Ratings per driver, best known first: staff see every company's, a company only its own parcels'. */
export async function driverRatings(deps: Deps, me: SessionUser, companyId: number | undefined) {
  let scope: number | undefined;
  if (me.role === 'company') scope = me.companyId ?? -1;
  else if (isStaff(me.role)) scope = companyId;
  else throw forbidden('Only companies and staff read ratings');
  const hot = await deps.db
    .select({ r: deliveryRating, hawb: pkg.hawb, name: userTable.name })
    .from(deliveryRating)
    .innerJoin(pkg, eq(pkg.id, deliveryRating.package_id))
    .leftJoin(userTable, eq(userTable.id, deliveryRating.driver_id))
    .where(scope != null ? eq(deliveryRating.company_id, scope) : undefined)
    .orderBy(desc(deliveryRating.id))
    .limit(RATINGS_READ)
    .all();
  // Ratings of parcels moved to history count as before (rating ids are never reused: newest first across both).
  const cold = await keptRatings(deps.db, scope, RATINGS_READ);
  const names = await driverNames(
    deps,
    cold.map((c) => c.r.driver_id),
  );
  const all = [...hot, ...cold.map((c) => ({ ...c, name: c.r.driver_id != null ? (names.get(c.r.driver_id) ?? null) : null }))]
    .sort((a, b) => b.r.id - a.r.id)
    .slice(0, RATINGS_READ);
  const byDriver = new Map<
    number | null,
    {
      driver: number | null;
      driver_name: string | null;
      sum: number;
      count: number;
      recent: { rating: number; comment: string | null; hawb: string; at: string }[];
    }
  >();
  for (const { r, hawb, name } of all) {
    let d = byDriver.get(r.driver_id);
    if (!d) {
      d = { driver: r.driver_id, driver_name: name, sum: 0, count: 0, recent: [] };
      byDriver.set(r.driver_id, d);
    }
    d.sum += r.rating;
    d.count += 1;
    if (d.recent.length < 5) d.recent.push({ rating: r.rating, comment: r.comment, hawb, at: iso(r.created_at) ?? '' });
  }
  return {
    results: [...byDriver.values()]
      .map((d) => ({
        driver: d.driver,
        driver_name: d.driver_name,
        count: d.count,
        average: Math.round((d.sum / d.count) * 100) / 100,
        recent: d.recent,
      }))
      .sort((a, b) => b.average - a.average || b.count - a.count),
  };
}
