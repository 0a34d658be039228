import { z } from 'zod';
import { PACKAGE_STATUSES } from '../lifecycle';
import { idParam, latitude, ListQuery, longitude, occurredAt, pageOf, text } from './common';
import { Package } from './package';
import { DoorCheckedSchema, DoorFields } from './door';
import { CollectionBody } from './cod';

/** A file an action names: the server's id, or the id the device gave it before it had signal. */
export const FileRef = z.union([z.number().int().positive(), z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'a file id or client id')]);
export type FileRef = z.infer<typeof FileRef>;

/** When and where an action happened on the device (DESIGN.md section 6). */
export const ActionFields = {
  occurred_at: occurredAt.optional(),
  latitude: latitude.optional(),
  longitude: longitude.optional(),
};

export const PHOTO_SLOTS = ['photo_one', 'photo_two', 'photo_three', 'photo_four', 'photo_five'] as const;
export const PROOF_SLOTS = [...PHOTO_SLOTS, 'signature'] as const;
export type ProofSlot = (typeof PROOF_SLOTS)[number];
/** Slots as they appear in paths: `photo-one`, `signature`. */
export const slotPath = (slot: ProofSlot) => slot.replace(/_/g, '-');
export const SlotParam = z.enum(PROOF_SLOTS.map(slotPath) as [string, ...string[]]).transform((s) => s.replace(/-/g, '_') as ProofSlot);

const note = () => text(1000).optional();
const barcode = () => z.string().trim().min(1).max(128);

export const DeliverFields = {
  recipient_name: text(200).optional(),
  note: note(),
  photos: z.array(FileRef).max(5).default([]),
  signature: FileRef.optional(),
  /** What the door needed (issue 34, shared/door.ts): how it was handed over, the scan, the age check, the code. */
  ...DoorFields,
  /** Cash on delivery (issue 34): what was collected and how; required when the parcel carries an amount. */
  collection: CollectionBody.optional(),
  ...ActionFields,
};
export const DeliverBody = z.object(DeliverFields);
export type DeliverBody = z.infer<typeof DeliverBody>;
export const ScanDeliverBody = z.object({ barcode: barcode(), ...DeliverFields });
export const TrackingDeliverBody = z.object({ tracking_no: barcode(), ...DeliverFields });

export const FailFields = {
  failed_delivery_status: idParam,
  note: note(),
  photo: FileRef.optional(),
  ...ActionFields,
};
export const FailBody = z.object(FailFields);
export type FailBody = z.infer<typeof FailBody>;
export const AttemptCreateBody = z.object({ package: idParam, ...FailFields });

/** Admin force actions must say why. */
export const ForceDeliverBody = z.object({
  note: text(1000).pipe(z.string().min(1, 'say why')),
  recipient_name: text(200).optional(),
  ...ActionFields,
});
export const ForceFailBody = z.object({
  note: text(1000).pipe(z.string().min(1, 'say why')),
  failed_delivery_status: idParam.optional(),
  ...ActionFields,
});

export const ScanBody = z.object({ barcode: barcode(), note: note(), ...ActionFields });
export const NoParcelBody = z.object({ code: barcode(), note: note(), ...ActionFields });
export const ResolveBody = z.object({ note: note(), package: idParam.optional() });
export const FlagResolveBody = z.object({ note: note() });
export const CancelBody = z.object({ note: note() });

export const DepotReturnBody = z
  .object({
    barcode: barcode(),
    outcome: z.enum(['returned', 'returned_to_sender', 'redeliver']),
    driver: idParam.optional(),
    note: note(),
    ...ActionFields,
  })
  .refine((b) => b.outcome !== 'redeliver' || b.driver != null, { message: 'a redelivery needs a driver', path: ['driver'] });

const slotShape = Object.fromEntries(PROOF_SLOTS.map((s) => [s, FileRef.nullable().optional()])) as Record<
  ProofSlot,
  z.ZodOptional<z.ZodNullable<typeof FileRef>>
>;
export const ProofUpdateBody = z.object({ ...slotShape, recipient_name: text(200).optional(), note: note() });
export type ProofUpdateBody = z.infer<typeof ProofUpdateBody>;
export const ProofCreateBody = ProofUpdateBody.extend({ package: idParam });

const uploadFields = {
  file: z.instanceof(File, { message: 'a file is required' }),
  client_id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/)
    .optional(),
  sha256: z
    .string()
    .regex(/^[a-fA-F0-9]{64}$/)
    .optional(),
};
export const SlotUploadBody = z.object({ slot: z.enum(PROOF_SLOTS), ...uploadFields });
export const FailPhotoBody = z.object(uploadFields);

export const FileInfo = z.object({ id: z.number().int(), url: z.string(), mime: z.string(), size: z.number().int(), sha256: z.string() });

/** A delivery the server refused, kept with the proof the driver recorded (flagged for a supervisor). */
export const RefusedDelivery = z.object({
  id: z.number().int(),
  package: z.number().int(),
  driver: z.number().int(),
  code: z.string(),
  message: z.string(),
  status: z.string().describe("the parcel's status when the delivery arrived"),
  recipient_name: z.string().nullable(),
  note: z.string().nullable(),
  occurred_at: z.string(),
  received_at: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  files: z.array(FileInfo.extend({ slot: z.string() })),
});
const person = z.object({ id: z.number().int(), name: z.string() });

export const Proof = z.object({
  package: z.number().int(),
  hawb: z.string(),
  status: z.enum(PACKAGE_STATUSES),
  delivered: z.boolean(),
  delivered_at: z.string().nullable(),
  recipient_name: z.string().nullable(),
  note: z.string().nullable(),
  driver: person.nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  forced: z.boolean(),
  flagged: z.boolean(),
  flag_reason: z.string().nullable(),
  /** What was checked at the door (issue 34); null for deliveries recorded before it or forced. */
  checked: DoorCheckedSchema.nullable().optional(),
  ...(Object.fromEntries(PROOF_SLOTS.map((s) => [s, FileInfo.nullable()])) as Record<ProofSlot, z.ZodNullable<typeof FileInfo>>),
});
export type Proof = z.infer<typeof Proof>;

export const DeliverAnswer = z.object({
  success: z.boolean(),
  message: z.string(),
  flagged: z.boolean(),
  package: Package,
  proof: Proof,
});
export const FailAnswer = z.object({
  success: z.boolean(),
  message: z.string(),
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  must_return: z.boolean(),
  package: Package,
});

export const Attempt = z.object({
  id: z.number().int(),
  package: z.number().int(),
  hawb: z.string(),
  attempt_no: z.number().int(),
  driver: person.nullable(),
  failed_delivery_status: z.number().int().nullable(),
  reason: z.string(),
  note: z.string().nullable(),
  photo: FileInfo.nullable(),
  occurred_at: z.string(),
  received_at: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  forced: z.boolean(),
});
export type Attempt = z.infer<typeof Attempt>;
export const AttemptQuery = ListQuery.extend({ package: idParam.optional(), driver: idParam.optional() });

export const PackageEvent = z.object({
  id: z.number().int(),
  action: z.string(),
  from_status: z.string().nullable(),
  to_status: z.string().nullable(),
  actor: person.nullable(),
  occurred_at: z.string(),
  received_at: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  note: z.string().nullable(),
});

export const ScanAnswer = z.object({ success: z.boolean(), message: z.string(), already_scanned: z.boolean(), package: Package });
export const ZoneScanAnswer = ScanAnswer.extend({
  zone: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export const CheckScanAnswer = z.object({
  success: z.boolean(),
  message: z.string(),
  status: z.enum(PACKAGE_STATUSES),
  status_label: z.string(),
  allowed: z.array(z.enum(PACKAGE_STATUSES)),
  package: Package,
  last_event: PackageEvent.nullable(),
});
export const ScannedPackagesResponse = z.object({ success: z.boolean(), message: z.string(), scanned_packages: z.array(Package) });

export const ScanException = z.object({
  id: z.number().int(),
  code: z.string(),
  action: z.string(),
  actor: person.nullable(),
  device_id: z.string().nullable(),
  occurred_at: z.string(),
  received_at: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  note: z.string().nullable(),
  resolved: z.boolean(),
  resolved_at: z.string().nullable(),
  resolution_note: z.string().nullable(),
});
export const ScanExceptionQuery = ListQuery.extend({ resolved: z.enum(['true', 'false']).optional() });

const day = z.iso.date();
export const DayQuery = ListQuery.extend({ date: day.optional(), supervisor: idParam.optional() });
export const SupervisorScanItem = z.object({ event: PackageEvent, package: Package });

export const PackageListQuery = ListQuery.extend({ driver: idParam.optional(), date_from: day.optional(), date_to: day.optional() });
export const ReturnListQuery = PackageListQuery.extend({ status: z.enum(['returned', 'returned_to_sender', 'failed']).optional() });
export const ReturnInfoAnswer = z.object({
  success: z.boolean(),
  returned: z.number().int(),
  returned_to_sender: z.number().int(),
  failed_must_return: z.number().int(),
  failed_awaiting_reattempt: z.number().int(),
  max_attempts: z.number().int(),
});
export const ReturnDetailAnswer = z.object({
  success: z.boolean(),
  package: Package,
  attempts: z.array(Attempt),
  events: z.array(PackageEvent),
  must_return: z.boolean(),
});

export const HistoryQuery = PackageListQuery.extend({
  status: z.string().max(500).optional(),
  search: z.string().max(200).optional(),
});
export const HistoryItem = z.object({ package: Package, last_action: z.string(), last_at: z.string() });
export const HistoryDetail = z.object({
  success: z.boolean(),
  package: Package,
  events: z.array(PackageEvent),
  attempts: z.array(Attempt),
  proof: Proof.nullable(),
});

export const CurrentDateQuery = z.object({
  date: day.optional(),
  /**
   * Older apps' way to say "my day": the device's offset from UTC in minutes (+600 for Sydney). Without
   * it the driver's day is the local day of the business's time zone (issue 31), daylight saving included.
   */
  utc_offset: z.coerce.number().int().min(-840).max(840).optional(),
});
export const PackagesAnswer = z.object({ success: z.boolean(), message: z.string(), count: z.number().int(), packages: z.array(Package) });

export const StatusListAnswer = z.object({
  count: z.number().int(),
  results: z.array(
    z.object({ value: z.enum(PACKAGE_STATUSES), label: z.string(), final: z.boolean(), next: z.array(z.enum(PACKAGE_STATUSES)) }),
  ),
  max_attempts: z.number().int(),
});
export const TrackParams = z.object({
  hawb: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[\x21-\x7e]+$/, 'a tracking number'),
});
export const TrackingAnswer = z.object({
  success: z.boolean(),
  hawb: z.string(),
  status: z.enum(PACKAGE_STATUSES),
  status_label: z.string(),
  delivered_at: z.string().nullable(),
  suburb: z.string().nullable(),
  events: z.array(z.object({ status: z.enum(PACKAGE_STATUSES), label: z.string(), time: z.string(), suburb: z.string().nullable() })),
  /** Cash on delivery still to pay at the door, e.g. "AUD 50.00" (issue 34); absent or null when nothing. */
  cash_on_delivery: z.string().nullable().optional(),
});
export type TrackingAnswer = z.infer<typeof TrackingAnswer>;

export const pageOfPackages = pageOf(Package);
