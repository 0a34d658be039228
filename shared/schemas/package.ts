import { ParcelRequirementsSchema } from './door';
import { z } from 'zod';
import { PACKAGE_STATUSES } from '../lifecycle';
import { email, latitude, longitude, ListQuery, text } from './common';

/** Spec 2.1 exactly: every field present, null where unset. */
export const Package = z.object({
  id: z.number().int(),
  hawb: z.string(),
  customer_code: z.string().nullable(),
  customer_name: z.string().nullable(),
  customer_address: z.string().nullable(),
  customer_phone: z.string().nullable(),
  postcode: z.number().int().nullable(),
  postcode_name: z.string().nullable(),
  description_of_goods: z.string().nullable(),
  count: z.number().int().nullable(),
  landed: z.boolean(),
  company: z.number().int().nullable(),
  company_name: z.string().nullable(),
  weight: z.number().nullable(),
  price: z.number().nullable(),
  shipper_code: z.string().nullable(),
  shipper_name: z.string().nullable(),
  shipper_address: z.string().nullable(),
  shipper_city: z.string().nullable(),
  shipper_state: z.string().nullable(),
  shipper_postcode: z.string().nullable(),
  shipper_country: z.string().nullable(),
  origin: z.string().nullable(),
  port: z.string().nullable(),
  total_value: z.string().nullable(),
  goods_currency: z.string().nullable(),
  sac: z.boolean(),
  fr_reference: z.string().nullable(),
  sub_master: z.string().nullable(),
  pkg_type: z.string().nullable(),
  country_of_origin: z.string().nullable(),
  cyber_vendor_account: z.string().nullable(),
  customs_code: z.string().nullable(),
  cyber_importer_account: z.string().nullable(),
  importer_abn: z.string().nullable(),
  importer_cac: z.string().nullable(),
  cyber_supplier_account: z.string().nullable(),
  supplier_customs_code: z.string().nullable(),
  is_scanned: z.boolean(),
  parcel_no: z.number().int().nullable(),
  sequence_no: z.number().int().nullable(),
  status: z.enum(PACKAGE_STATUSES),
  zone: z.number().int().nullable(),
  zone_name: z.string().nullable(),
  suburb: z.number().int().nullable(),
  suburb_name: z.string().nullable(),
  state: z.number().int().nullable(),
  state_name: z.string().nullable(),
  country: z.number().int().nullable(),
  country_name: z.string().nullable(),
  height: z.number().nullable(),
  length: z.number().nullable(),
  volume_weighted: z.number().nullable(),
  assigned_to_id: z.number().int().nullable(),
  assigned_to: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  coordinates: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
  delivery_date: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  created_at: z.string(),
  package_failed_delivery_status: z.array(
    z.object({ id: z.number().int(), name: z.string(), note: z.string().nullable(), created_at: z.string() }),
  ),
});
export type Package = z.infer<typeof Package>;

const optText = (max = 255) => text(max).nullable().optional();
const optNum = () => z.number().finite().min(0).max(1_000_000).nullable().optional();
const optInt = () => z.number().int().min(0).max(2_147_483_647).nullable().optional();
const optId = () => z.number().int().positive().nullable().optional();

/** What a client may send when creating a package; joined names and state are server-owned. */
export const PackageCreate = z.object({
  hawb: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces'),
  customer_code: optText(64),
  customer_name: optText(200),
  customer_address: optText(500),
  customer_phone: optText(32),
  /** Where the recipient's e-mail notices go (issue 17); kept beside the parcel, not in the Package answer of spec 2.1. */
  recipient_email: email().nullable().optional(),
  /** Proof this parcel needs beyond its company's default (issue 34); kept beside the parcel, null clears. */
  proof_requirements: ParcelRequirementsSchema.nullable().optional(),
  postcode: optInt(),
  postcode_name: optText(120),
  description_of_goods: optText(1000),
  count: optInt(),
  company: optId(),
  weight: optNum(),
  price: optNum(),
  shipper_code: optText(64),
  shipper_name: optText(200),
  shipper_address: optText(500),
  shipper_city: optText(120),
  shipper_state: optText(120),
  shipper_postcode: optText(16),
  shipper_country: optText(120),
  origin: optText(120),
  port: optText(120),
  total_value: optText(32),
  goods_currency: optText(8),
  sac: z.boolean().optional(),
  fr_reference: optText(120),
  sub_master: optText(120),
  pkg_type: optText(120),
  country_of_origin: optText(120),
  cyber_vendor_account: optText(120),
  customs_code: optText(120),
  cyber_importer_account: optText(120),
  importer_abn: optText(32),
  importer_cac: optText(32),
  cyber_supplier_account: optText(120),
  supplier_customs_code: optText(120),
  parcel_no: optInt(),
  zone: optId(),
  suburb: optId(),
  state: optId(),
  country: optId(),
  height: optNum(),
  length: optNum(),
  width: optNum(),
  delivery_date: z.iso.date().nullable().optional(),
  latitude: latitude.nullable().optional(),
  longitude: longitude.nullable().optional(),
  /** Cash on delivery (issue 34): whole cents to collect from the recipient, owed to the parcel's company; kept beside the parcel (GET package/{id}/cod/). */
  cod_amount_cents: z.number().int().min(1).max(100_000_000_000).nullable().optional(),
});
export type PackageCreate = z.infer<typeof PackageCreate>;

/** Fields that change only through their own operations; sending them to an update is a 400 that says where to go. */
const ELSEWHERE = {
  status: 'POST package/{id}/status-change/',
  assigned_to_id: 'the assign and unassign operations',
  assigned_to: 'the assign and unassign operations',
  driver: 'the assign and unassign operations',
  is_scanned: 'the scan operations',
  landed: 'the inbound scan operations',
  /** The zone follows the address (the resolver); the office sets one by hand through its own audited operation. */
  zone: 'the address fields (the zone follows them); the office sets a zone with POST package/{id}/zone-override/',
} as const;

/** Partial update: only the fields sent change (PUT is a synonym). */
export const PackageUpdate = PackageCreate.partial()
  .extend(
    Object.fromEntries(Object.keys(ELSEWHERE).map((k) => [k, z.unknown().optional()])) as Record<
      keyof typeof ELSEWHERE,
      z.ZodOptional<z.ZodUnknown>
    >,
  )
  .superRefine((value, ctx) => {
    for (const [key, where] of Object.entries(ELSEWHERE)) {
      if ((value as Record<string, unknown>)[key] !== undefined)
        ctx.addIssue({ code: 'custom', path: [key], message: `not editable here; use ${where}` });
    }
  });
export type PackageUpdate = z.infer<typeof PackageUpdate>;

/**
 * Statuses an admin or supervisor may set by hand. The others carry data of their own (a driver for
 * `assigned`, a scan for `out_for_delivery`, proof or a reason for `delivered`/`failed`) and have
 * their own operations.
 */
export const STATUS_CHANGE_TARGETS = ['received', 'cancelled', 'returned', 'returned_to_sender', 'picked_up'] as const;
export const PackageStatusChangeBody = z.object({
  status: z.enum(STATUS_CHANGE_TARGETS),
  note: z.string().trim().max(1000).optional(),
});

const packageIds = z.array(z.number().int().positive()).min(1).max(5000);
export const PackageIdsBody = z.object({ packages: packageIds });
/** `note`: why (a re-attempt from the office names its reason; it goes into the parcel's history). */
export const AssignSingleBody = z.object({ driver: z.number().int().positive(), note: z.string().trim().max(1000).optional() });

export const PackageListAnswer = z.object({
  count: z.number().int(),
  next: z.string().nullable(),
  previous: z.string().nullable(),
  results: z.array(Package),
});
export const PackagesChanged = z.object({ success: z.boolean(), message: z.string(), count: z.number().int(), packages: z.array(Package) });

/** The office sets a parcel's zone by hand (an override of the zone its address gives), with a reason for the audit log. */
export const ZoneOverrideBody = z.object({
  zone: z.number().int().positive(),
  reason: z.string().trim().min(3).max(1000),
});

/** A quote for a parcel not yet created; dimensions in cm, weight in kg. */
export const PriceQuoteBody = z.object({
  company: z.number().int().positive().optional(),
  weight: z.number().finite().min(0).max(100_000),
  length: z.number().finite().min(0).max(10_000).optional(),
  width: z.number().finite().min(0).max(10_000).optional(),
  height: z.number().finite().min(0).max(10_000).optional(),
  zone: z.number().int().positive().optional(),
  postcode: z.number().int().min(0).max(99_999_999).optional(),
  /** The place as a parcel would carry it: a suburb id, or its name (`postcode_name`) and the address line. */
  suburb: z.number().int().positive().optional(),
  postcode_name: z.string().trim().max(120).optional(),
  customer_address: z.string().trim().max(500).optional(),
  /** A package type by name, as packages carry it. */
  pkg_type: z.string().trim().max(120).optional(),
});
export const PriceAnswer = z.object({
  success: z.boolean(),
  package: z.number().int().nullable(),
  currency: z.string(),
  /** Minor units (cents). */
  amount: z.number().int(),
  /** The same in major units, as the Package `price` field carries it. */
  price: z.number(),
  chargeable_weight: z.number(),
  volumetric_weight: z.number().nullable(),
  method: z.string(),
  /** The zone it was priced in (the one a creation of the same parcel gets). */
  zone: z.number().int().nullable(),
});

export const AreaByPostcodeQuery = z.object({
  postcode: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9 -]{2,12}$/, 'a postcode'),
});
export const AreaByPostcodeAnswer = z.object({
  success: z.boolean(),
  postcode: z.string(),
  suburbs: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      zone: z.number().int().nullable(),
      zone_name: z.string().nullable(),
      state: z.number().int(),
      state_name: z.string().nullable(),
    }),
  ),
  areas: z.array(z.object({ id: z.number().int(), name: z.string(), suburb: z.number().int(), suburb_name: z.string() })),
});

export const UPLOAD_MAX_ROWS = 50_000;
export const UploadBody = z.object({
  file: z.instanceof(File, { message: 'a file is required' }),
  /** Staff only: the company of rows without a `company` column. */
  company: z.coerce.number().int().positive().optional(),
});
export const UploadQuery = z.object({
  partial: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});
export const UploadReportRow = z.object({
  row: z.number().int(),
  hawb: z.string().nullable(),
  status: z.enum(['created', 'rejected']),
  id: z.number().int().nullable(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })),
});
export type UploadReportRow = z.infer<typeof UploadReportRow>;
export const UploadAnswer = z.object({
  success: z.boolean(),
  message: z.string(),
  created: z.number().int(),
  rejected: z.number().int(),
  unpriced: z.number().int().optional(),
  report: z.array(UploadReportRow),
  /** How precisely the new parcels were located: counts per precision (issue 16). */
  located: z.record(z.string(), z.number().int()).optional(),
  /** With GEOCODER_URL set: the background job filling in the rest (`GET geocode-job/{id}/`), else null. */
  geocode_job: z.number().int().nullable().optional(),
});

export const DashboardCountAnswer = z.object({
  success: z.boolean(),
  total: z.number().int(),
  by_status: z.record(z.enum(PACKAGE_STATUSES), z.number().int()),
  unassigned: z.number().int(),
  assigned_not_scanned: z.number().int(),
  flagged: z.number().int(),
});

export const ScanPackageQuery = z.object({ barcode: z.string().trim().min(1).max(128) });
export const HealthAnswer = z.object({ success: z.boolean(), status: z.literal('ok'), time: z.string() });

export const AssignDriverBody = z.object({
  driver: z.number().int().positive(),
  packages: z.array(z.number().int().positive()).min(1).max(5000),
});

export const BarcodeBody = z.object({
  barcode: z.string().trim().min(1).max(128),
  occurred_at: z.iso.datetime({ offset: true }).optional(),
  latitude: latitude.optional(),
  longitude: longitude.optional(),
});
export type BarcodeBody = z.infer<typeof BarcodeBody>;

export const RemainingPackagesResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  pending_packages: z.array(Package),
});

/** The package list's query (DESIGN.md section 3), shared by the list, archive list, CSV and driver views. */
export const PackageListQuery = ListQuery.extend({
  status: z.string().max(500).optional(),
  company: z.string().max(500).optional(),
  zone: z.string().max(2000).optional(),
  driver: z.string().max(500).optional(),
  route: z.string().max(500).optional(),
  is_scanned: z.enum(['true', 'false']).optional(),
  created_from: z.iso.date().optional(),
  created_to: z.iso.date().optional(),
  // Unknown filters answer 400 (issue 18: `?hawb=X` used to be ignored and returned every parcel); use `search` for a tracking number.
}).strict();
export type PackageListQuery = z.output<typeof PackageListQuery>;
/** The pickup lists: the package list's filters plus the pickup point. */
export const PickupListQuery = PackageListQuery.extend({ pickup_point: z.coerce.number().int().positive().optional() });
export type PickupListQuery = z.output<typeof PickupListQuery>;

export const LIST_FILTERS_DOC =
  'Filters: status, company, zone, driver, route (each comma-separated for several, e.g. `zone=1,2,3`), ' +
  `is_scanned, created_from/created_to (dates), search, ordering. Statuses: ${PACKAGE_STATUSES.join(', ')}.`;
