import { z } from 'zod';
import { Package } from './package';
import { FailedDeliveryStatus } from './places';
import { DoorInfoSchema } from './door';
import { CodOnPhoneSchema } from './cod';

export const SYNC_PAGE_DEFAULT = 500;
export const SYNC_PAGE_MAX = 1000;

export const SyncChangesQuery = z.object({
  /** The `cursor` of the previous answer; 0 asks for a full snapshot of the caller's scope. */
  cursor: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  limit: z.coerce.number().int().min(1).max(SYNC_PAGE_MAX).default(SYNC_PAGE_DEFAULT),
});
export type SyncChangesQuery = z.infer<typeof SyncChangesQuery>;

/**
 * A device's copy of a parcel: the Package answer plus what only its driver needs: the recipient's
 * instructions, and the failed attempts of this delivery cycle (the must-return rule the phone
 * checks offline, shared/driverActions.ts; a redelivery starts again at 0, while
 * `package_failed_delivery_status` lists every cycle's reasons).
 */
export const SyncPackage = Package.extend({
  recipient_instructions: z.string().nullable().optional(),
  attempts: z.number().int().min(0).optional(),
  /** What the door needs (issue 34): absent when nothing is required and the recipient chose nothing. */
  door: DoorInfoSchema.optional(),
  /** What the driver must collect (issue 34, shared/cod.ts CodOnPhone): absent when nothing is due or it was collected. */
  cod: CodOnPhoneSchema.optional(),
});
export type SyncPackage = z.infer<typeof SyncPackage>;

export const SyncUpserts = z.object({
  packages: z.array(SyncPackage),
  failed_delivery_statuses: z.array(FailedDeliveryStatus),
});
export type SyncUpserts = z.infer<typeof SyncUpserts>;

export const SyncRemoves = z.object({
  packages: z.array(z.number().int()),
  failed_delivery_statuses: z.array(z.number().int()),
});
export type SyncRemoves = z.infer<typeof SyncRemoves>;

export const SyncChanges = z.object({
  /** True when the cursor cannot be served (newer than the server, or older than the pruned feed): drop every copy and pull from 0. */
  reset: z.boolean(),
  upserts: SyncUpserts,
  removes: SyncRemoves,
  cursor: z.number().int(),
  has_more: z.boolean(),
});
export type SyncChanges = z.infer<typeof SyncChanges>;

export const SyncDeviceQuery = z.object({
  /** The `X-Device-Id` the device sends with its actions. */
  device_id: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'device_id must be 1-128 letters, digits, _ or -'),
});
export type SyncDeviceQuery = z.infer<typeof SyncDeviceQuery>;

export const SyncDevice = z.object({
  device_id: z.string(),
  /** The highest `X-Device-Seq` this server has recorded for the device; 0 when it never saw one. */
  last_seq: z.number().int(),
});
export type SyncDevice = z.infer<typeof SyncDevice>;
