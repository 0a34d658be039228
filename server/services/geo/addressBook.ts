import { and, desc, eq, isNull, ne, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { addressBook, addressSighting, deliveryRecord, packageLocation, pkg } from '../../db/schema/index';
import { addressKey, agreedPosition, validCoordinates } from '../../../shared/geo/address';
import { FINAL_STATUSES } from '../../../shared/lifecycle';
import { updatePackage, type Actor } from '../packages/lifecycle';

type PackageRow = typeof pkg.$inferSelect;

const sightingUpsert = (db: Db) =>
  db
    .insert(addressSighting)
    .values({
      address_key: sql.placeholder('key'),
      package_id: sql.placeholder('pkg'),
      latitude: sql.placeholder('lat'),
      longitude: sql.placeholder('lng'),
      occurred_at: sql.placeholder('at'),
    })
    .onConflictDoUpdate({
      target: [addressSighting.address_key, addressSighting.package_id],
      set: { latitude: sql`excluded.latitude`, longitude: sql`excluded.longitude`, occurred_at: sql`excluded.occurred_at` },
    })
    .prepare();
/**
 * The newest sightings of an address with the driver who made each (their delivery record), leaving
 * out parcels their sender placed (a caller's own point never teaches the shared book).
 */
const recentSightings = (db: Db) =>
  db
    .select({ latitude: addressSighting.latitude, longitude: addressSighting.longitude, driver: deliveryRecord.driver_id })
    .from(addressSighting)
    .innerJoin(deliveryRecord, eq(deliveryRecord.package_id, addressSighting.package_id))
    .leftJoin(packageLocation, eq(packageLocation.package_id, addressSighting.package_id))
    .where(and(eq(addressSighting.address_key, sql.placeholder('key')), sql`coalesce(${packageLocation.source}, '') <> 'caller'`))
    .orderBy(desc(addressSighting.occurred_at))
    .limit(100)
    .prepare();
const sourceOf = (db: Db) =>
  db
    .select({ source: packageLocation.source })
    .from(packageLocation)
    .where(eq(packageLocation.package_id, sql.placeholder('pkg')))
    .prepare();
const bookByKey = (db: Db) =>
  db
    .select()
    .from(addressBook)
    .where(eq(addressBook.address_key, sql.placeholder('key')))
    .prepare();

export const keyOfPackage = (row: Pick<PackageRow, 'customer_address' | 'postcode'>) => addressKey(row.customer_address, row.postcode);

/**
 * A delivery's recorded position teaches the shared address book, by agreement no single driver or
 * shipper controls (shared/geo/address.ts `agreedPosition`): one vote per driver, three different
 * drivers within ~50 m to learn a position, more drivers than agree with it to move it. A parcel
 * whose sender placed the point (`caller`) teaches nothing: honest drivers delivering at a sender's
 * pin would otherwise copy it into the book for every company. A pin the office set is never
 * overwritten by deliveries. Runs inside the delivery's transaction.
 */
export async function learnFromDelivery(
  db: Db,
  now: number,
  row: PackageRow,
  lat: number | null | undefined,
  lng: number | null | undefined,
  at: number,
): Promise<void> {
  if (!validCoordinates(lat, lng)) return;
  const key = keyOfPackage(row);
  if (!key) return;
  const placed = await prepared(db, 'book.sourceOf', sourceOf).get({ pkg: row.id });
  // Parcels older than the resolver have no location row: a point of their own was the caller's.
  if ((placed?.source ?? (row.latitude != null ? 'caller' : 'none')) === 'caller') return;
  await prepared(db, 'book.sighting', sightingUpsert).run({ key, pkg: row.id, lat, lng, at });
  const known = await prepared(db, 'book.byKey', bookByKey).get({ key });
  if (known?.source === 'office') return;
  const sightings = (await prepared(db, 'book.recent', recentSightings).all({ key })).flatMap((s) =>
    s.driver == null ? [] : [{ latitude: s.latitude, longitude: s.longitude, driver: s.driver }],
  );
  const agreed = agreedPosition(sightings, known ?? null);
  if (!agreed) return;
  await db
    .insert(addressBook)
    .values({
      address_key: key,
      latitude: agreed.latitude,
      longitude: agreed.longitude,
      source: 'deliveries',
      samples: agreed.samples,
      updated_at: now,
    })
    .onConflictDoUpdate({
      target: addressBook.address_key,
      set: { latitude: agreed.latitude, longitude: agreed.longitude, source: 'deliveries', samples: agreed.samples, updated_at: now },
    })
    .run();
}

export async function bookEntry(db: Db, key: string | null) {
  return key ? ((await prepared(db, 'book.byKey', bookByKey).get({ key })) ?? null) : null;
}

/**
 * The office drags a parcel's pin: the address book takes that position for the address (it wins
 * over what deliveries taught), and every open parcel to the same address that the caller did not
 * place itself moves there. Returns how many parcels moved, the dragged one included.
 */
export async function pinAddress(db: Db, now: number, row: PackageRow, latitude: number, longitude: number, actor: Actor): Promise<number> {
  const key = keyOfPackage(row);
  if (key) {
    await db
      .insert(addressBook)
      .values({ address_key: key, latitude, longitude, source: 'office', samples: 0, updated_by: actor.userId, updated_at: now })
      .onConflictDoUpdate({
        target: addressBook.address_key,
        set: { latitude, longitude, source: 'office', updated_by: actor.userId, updated_at: now },
      })
      .run();
  }
  const open = key
    ? (
        await db
          .select({ p: pkg })
          .from(pkg)
          .leftJoin(packageLocation, eq(packageLocation.package_id, pkg.id))
          .where(
            and(
              eq(pkg.postcode, row.postcode ?? -1),
              isNull(pkg.deleted_at),
              notInArray(pkg.status, [...FINAL_STATUSES]),
              sql`coalesce(${packageLocation.source}, '') <> 'caller'`,
              ne(pkg.id, row.id),
            ),
          )
          .all()
      )
        .map((r) => r.p)
        .filter((p) => keyOfPackage(p) === key)
    : [];
  const moved = [row, ...open];
  for (const p of moved) {
    await updatePackage(db, now, p, { latitude, longitude }, 'location_pinned', actor, { latitude, longitude, data: { address_key: key } });
  }
  const ids = moved.map((p) => p.id);
  await db
    .insert(packageLocation)
    .values(ids.map((id) => ({ package_id: id, precision: 'exact', source: 'office', address_key: key, pending: false, resolved_at: now })))
    .onConflictDoUpdate({
      target: packageLocation.package_id,
      set: { precision: 'exact', source: 'office', address_key: key, pending: false, job_id: null, geocode_status: null, resolved_at: now },
    })
    .run();
  return ids.length;
}
