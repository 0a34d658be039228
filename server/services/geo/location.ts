import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import type { Deps } from '../../deps';
import { packageLocation, pkg } from '../../db/schema/index';
import { standingZoneOverride } from '../packages/zoneOverride';
import { createResolver, type LocationInput, type Resolution, type Resolver } from './resolve';

export type PackageInsert = Partial<typeof pkg.$inferInsert>;

/** The resolver of this app: queues addresses for the geocoder only when GEOCODER_URL is set. */
export function resolverFor(deps: Pick<Deps, 'db' | 'config'>): Resolver {
  return createResolver(deps.db, { geocoder: !!deps.config.geocoderUrl });
}

/** The address fields of a package row (or of values about to be written). */
export function locationInput(v: PackageInsert | LocationInput): LocationInput {
  return {
    customer_address: v.customer_address,
    postcode: v.postcode,
    postcode_name: v.postcode_name,
    suburb_id: v.suburb_id,
    zone_id: v.zone_id,
    state_id: v.state_id,
    country_id: v.country_id,
    latitude: v.latitude,
    longitude: v.longitude,
  };
}

/** Writes a resolution into package values: coordinates, suburb, zone, state, country. */
export function applyResolution(values: PackageInsert, r: Resolution): void {
  values.latitude = r.latitude;
  values.longitude = r.longitude;
  values.suburb_id = r.suburb_id;
  values.zone_id = r.zone_id;
  values.state_id = r.state_id;
  values.country_id = r.country_id;
}

const upsert = (db: Db) =>
  db
    .insert(packageLocation)
    .values({
      package_id: sql.placeholder('package_id'),
      precision: sql.placeholder('precision'),
      source: sql.placeholder('source'),
      address_key: sql.placeholder('address_key'),
      pending: sql.placeholder('pending'),
      job_id: sql.placeholder('job_id'),
      geocode_status: sql.placeholder('geocode_status'),
      review_reason: sql.placeholder('review_reason'),
      resolved_at: sql.placeholder('resolved_at'),
    })
    .onConflictDoUpdate({
      target: packageLocation.package_id,
      set: {
        precision: sql`excluded.precision`,
        source: sql`excluded.source`,
        address_key: sql`excluded.address_key`,
        pending: sql`excluded.pending`,
        job_id: sql`excluded.job_id`,
        geocode_status: sql`excluded.geocode_status`,
        review_reason: sql`excluded.review_reason`,
        resolved_at: sql`excluded.resolved_at`,
      },
    })
    .prepare();

/** Records how a parcel was located (one row per parcel, replaced on every re-resolution). */
export async function recordLocation(
  db: Db,
  packageId: number,
  r: Resolution,
  now: number,
  jobId: number | null = null,
  geocodeStatus: string | null = null,
): Promise<void> {
  await prepared(db, 'location.upsert', upsert).run({
    package_id: packageId,
    precision: r.precision,
    source: r.source,
    address_key: r.address_key,
    pending: r.pending ? 1 : 0,
    job_id: jobId,
    geocode_status: geocodeStatus,
    review_reason: r.review,
    resolved_at: now,
  });
}

export function locationRow(db: Db, packageId: number) {
  return db.select().from(packageLocation).where(eq(packageLocation.package_id, packageId)).get();
}

/** Fields whose change means the parcel must be located again. */
export const LOCATION_FIELDS = [
  'customer_address',
  'postcode',
  'postcode_name',
  'suburb_id',
  'zone_id',
  'state_id',
  'latitude',
  'longitude',
] as const;
export const touchesLocation = (values: PackageInsert) => LOCATION_FIELDS.some((f) => values[f] !== undefined);

const ADDRESS_FIELDS = ['customer_address', 'postcode', 'postcode_name', 'suburb_id'] as const;

/**
 * An edit of a parcel's address fields: locates it again from the fields as they will be. The
 * point stays the caller's only if sent now, or if it was the caller's and the address did not
 * change; a changed address re-derives suburb, zone and state unless those are sent too.
 * Returns null when the edit touches no address field.
 */
export async function relocate(
  deps: Pick<Deps, 'db' | 'config'>,
  row: typeof pkg.$inferSelect,
  values: PackageInsert,
): Promise<Resolution | null> {
  if (!touchesLocation(values)) return null;
  const addressChanged = ADDRESS_FIELDS.some((f) => values[f] !== undefined && values[f] !== row[f]);
  const input: LocationInput = locationInput(row);
  for (const f of LOCATION_FIELDS) if (values[f] !== undefined) (input as Record<string, unknown>)[f] = values[f];
  const prev = await locationRow(deps.db, row.id);
  if (values.latitude === undefined && values.longitude === undefined) {
    const callersPoint = prev ? prev.source === 'caller' : true;
    if (addressChanged || !callersPoint) {
      input.latitude = null;
      input.longitude = null;
    }
  }
  if (addressChanged) {
    if (values.suburb_id === undefined) input.suburb_id = null;
    if (values.zone_id === undefined) input.zone_id = null;
    if (values.state_id === undefined) input.state_id = null;
    if (values.country_id === undefined) input.country_id = null;
  }
  const r = await resolverFor(deps).resolve(input);
  // The office's zone for this very address stands (packages/zoneOverride.ts); a new address is located afresh.
  if (r.zone_id !== row.zone_id && !addressChanged) {
    const kept = await standingZoneOverride(deps.db, row);
    if (kept != null) r.zone_id = kept;
  }
  // The suburb carried over from before is not a new choice: a mismatch the shipper's own place name
  // raised stands until the address or the suburb is corrected.
  if (!addressChanged && values.suburb_id === undefined && r.review == null && prev?.review_reason === 'postcode_mismatch')
    r.review = 'postcode_mismatch';
  applyResolution(values, r);
  return r;
}
