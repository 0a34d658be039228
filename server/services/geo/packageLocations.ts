import { and, asc, eq, inArray, isNotNull, isNull, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { packageLocation, pkg, suburb, zone } from '../../db/schema/index';
import { iso } from '../../clock';
import { PRECISIONS, reviewMessage, reviewOf, type LocationSource, type Precision } from '../../../shared/geo/address';
import { FINAL_STATUSES } from '../../../shared/lifecycle';
import type { PackageLocation } from '../../../shared/schemas/location';
import type { SessionUser } from '../auth/session';
import { packageScope } from '../packages/scope';
import { bookEntry, keyOfPackage } from './addressBook';
import { locationInput } from './location';
import { createResolver, type Resolver } from './resolve';
import { isStaff } from '../../../shared/roles';
import { seesAddressBook } from './senderView';

/** A parcel located before the resolver existed has no location row: its own point counts as the caller's. */
const precisionSql = sql<string>`coalesce(${packageLocation.precision}, case when ${pkg.latitude} is null then 'none' else 'exact' end)`;
const sourceSql = sql<string>`coalesce(${packageLocation.source}, case when ${pkg.latitude} is null then 'none' else 'caller' end)`;

function select(db: Db) {
  return db
    .select({
      p: pkg,
      precision: precisionSql,
      source: sourceSql,
      pending: packageLocation.pending,
      geocode_status: packageLocation.geocode_status,
      review_reason: packageLocation.review_reason,
      resolved_at: packageLocation.resolved_at,
      suburb_name: suburb.name,
      zone_name: zone.name,
    })
    .from(pkg)
    .leftJoin(packageLocation, eq(packageLocation.package_id, pkg.id))
    .leftJoin(suburb, eq(suburb.id, pkg.suburb_id))
    .leftJoin(zone, eq(zone.id, pkg.zone_id));
}
type Selected = Awaited<ReturnType<ReturnType<typeof select>['all']>>[number];

/**
 * What the shared address book may tell a caller: staff see it all. Anyone else sees only what
 * concerns their own parcel (issue 30, section 5): never the book's entry (whether, how often and
 * where the courier delivered there for others). A sender is shown a point the book gave this parcel
 * as master data places the address (its street, suburb or postcode), as if the book had no entry;
 * the parcel's driver sees the point they are sent to, as their Package answer does.
 */
async function shape(db: Db, r: Selected, withBook: boolean, user: SessionUser): Promise<PackageLocation> {
  const book = withBook && isStaff(user.role) ? await bookEntry(db, keyOfPackage(r.p)) : null;
  // The parcel's point as its Package answer shows it to this caller (geo/senderView.ts).
  const place = seesAddressBook(user) ? placeOf(r) : await ownPlace(createResolver(db, { geocoder: false, addressBook: false }), r);
  const reason = reviewOf(r.review_reason);
  return {
    package: r.p.id,
    hawb: r.p.hawb,
    customer_address: r.p.customer_address,
    postcode: r.p.postcode,
    postcode_name: r.p.postcode_name,
    ...place,
    pending: !!r.pending,
    geocode_status: r.geocode_status ?? null,
    review: reason
      ? { reason, message: reviewMessage(reason, { postcode: r.p.postcode, postcode_name: r.p.postcode_name, suburb_name: r.suburb_name }) }
      : null,
    suburb: r.p.suburb_id,
    suburb_name: r.suburb_name ?? null,
    zone: r.p.zone_id,
    zone_name: r.zone_name ?? null,
    address_book: book
      ? { latitude: book.latitude, longitude: book.longitude, source: book.source as 'deliveries' | 'office', samples: book.samples }
      : null,
    resolved_at: r.resolved_at != null ? iso(r.resolved_at) : null,
  };
}

type Place = { latitude: number | null; longitude: number | null; precision: Precision; source: LocationSource };
const placeOf = (r: Selected): Place => ({
  latitude: r.p.latitude,
  longitude: r.p.longitude,
  precision: r.precision as Precision,
  source: r.source as LocationSource,
});

/** The place as a non-office caller sees it: a point from the shared book (deliveries' or an office pin for the address) becomes master data's. */
async function ownPlace(resolver: Resolver, r: Selected): Promise<Place> {
  const place = placeOf(r);
  if (place.source !== 'address_book' && place.source !== 'office') return place;
  const own = await resolver.resolve({ ...locationInput(r.p), latitude: null, longitude: null });
  return { latitude: own.latitude, longitude: own.longitude, precision: own.precision, source: own.source };
}

export async function packageLocationOf(db: Db, packageId: number, user: SessionUser): Promise<PackageLocation> {
  const r = await select(db).where(eq(pkg.id, packageId)).get();
  if (!r) throw new Error(`package ${packageId} vanished`);
  return await shape(db, r, true, user);
}

/** Open parcels located at `worst` precision or worse, or flagged for review, for the office to check (oldest first). */
export async function reviewList(db: Db, user: SessionUser, worst: Precision, page: number, pageSize: number) {
  const levels = PRECISIONS.slice(PRECISIONS.indexOf(worst));
  const where: SQL | undefined = and(
    isNull(pkg.deleted_at),
    packageScope(user),
    notInArray(pkg.status, [...FINAL_STATUSES]),
    // A placed address the office must still check (PO box, postcode mismatch) is listed whatever its precision.
    or(inArray(precisionSql, levels), isNotNull(packageLocation.review_reason)),
  );
  const count =
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(pkg)
        .leftJoin(packageLocation, eq(packageLocation.package_id, pkg.id))
        .where(where)
        .get()
    )?.n ?? 0;
  const rows = await select(db)
    .where(where)
    .orderBy(asc(pkg.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .all();
  const results: PackageLocation[] = [];
  for (const r of rows) results.push(await shape(db, r, false, user));
  return { count, results };
}

/** Precision badges for a page of the package list; parcels outside the caller's scope are left out. */
export async function precisionsOf(db: Db, user: SessionUser, ids: number[]) {
  const rows = await select(db)
    .where(and(inArray(pkg.id, ids), packageScope(user), isNull(pkg.deleted_at)))
    .all();
  const sees = seesAddressBook(user);
  const resolver = createResolver(db, { geocoder: false, addressBook: false });
  const out = [];
  for (const r of rows) {
    const place = sees ? placeOf(r) : await ownPlace(resolver, r);
    out.push({ package: r.p.id, precision: place.precision, source: place.source, pending: !!r.pending });
  }
  return out;
}
