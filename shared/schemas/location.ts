import { z } from 'zod';
import { LOCATION_SOURCES, PRECISIONS, REVIEW_REASONS } from '../geo/address';
import { ListQuery } from './common';
import { latitude, longitude } from './common';

/** How a parcel was located (issue 16); the Package answer (spec 2.1) is exact, so this is its own resource. */
export const PackageLocation = z.object({
  package: z.number().int(),
  hawb: z.string(),
  customer_address: z.string().nullable(),
  postcode: z.number().int().nullable(),
  postcode_name: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  precision: z.enum(PRECISIONS),
  source: z.enum(LOCATION_SOURCES),
  /** Waiting for the background geocoder. */
  pending: z.boolean(),
  /** What the geocoder last said when it could not help (not_found, failed, rate_limited), else null. */
  geocode_status: z.string().nullable(),
  /** Why the office should check this address although it was placed (a PO box, a place its postcode does not cover), else null. */
  review: z.object({ reason: z.enum(REVIEW_REASONS), message: z.string() }).nullable(),
  suburb: z.number().int().nullable(),
  suburb_name: z.string().nullable(),
  zone: z.number().int().nullable(),
  zone_name: z.string().nullable(),
  /** The address book's entry for this address, if it has one. */
  address_book: z
    .object({ latitude: z.number(), longitude: z.number(), source: z.enum(['deliveries', 'office']), samples: z.number().int() })
    .nullable(),
  resolved_at: z.string().nullable(),
});
export type PackageLocation = z.infer<typeof PackageLocation>;

export const PinBody = z.object({ latitude, longitude });
export const PinAnswer = z.object({ success: z.boolean(), message: z.string(), moved: z.number().int(), location: PackageLocation });

export const ReviewQuery = ListQuery.omit({ ordering: true }).extend({
  /** The worst precision to list down to: `suburb` lists suburb, postcode and none; parcels flagged for review are always listed. */
  precision: z.enum(['street', 'suburb', 'postcode', 'none']).default('suburb'),
});
export const ReviewAnswer = z.object({
  count: z.number().int(),
  next: z.string().nullable(),
  previous: z.string().nullable(),
  results: z.array(PackageLocation),
});

export const PrecisionsQuery = z.object({ ids: z.string().regex(/^\d+(,\d+){0,499}$/, 'up to 500 comma-separated ids') });
export const PrecisionsAnswer = z.object({
  results: z.array(
    z.object({ package: z.number().int(), precision: z.enum(PRECISIONS), source: z.enum(LOCATION_SOURCES), pending: z.boolean() }),
  ),
});

export const GeocodeProgressAnswer = z.object({
  job: z.number().int(),
  total: z.number().int(),
  done: z.number().int(),
  pending: z.number().int(),
  located: z.record(z.string(), z.number().int()),
});
