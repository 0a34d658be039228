import { z } from 'zod';
import { email, phone, requiredText, text } from './common';

/** Spec 2.4: exactly these fields in the restore answer; the list adds status flags. */
export const Warehouse = z.object({
  id: z.number().int(),
  street_address: z.string(),
  additional_details: z.string(),
  suburb: z.string(),
  state: z.string(),
  postcode: z.string(),
});
export const WarehouseRecord = Warehouse.extend({ name: z.string(), is_active: z.boolean() });
export const WarehouseCreate = z.object({
  name: text(120).default(''),
  street_address: requiredText(255),
  additional_details: text(500).default(''),
  suburb: requiredText(120),
  state: requiredText(120),
  postcode: requiredText(16),
  is_active: z.boolean().default(true),
});

/** Spec 2.3. */
export const PickupPoint = z.object({
  id: z.number().int(),
  person_name: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  additional_detail: z.string(),
  suburb: z.string(),
  state: z.string(),
  pincode: z.string(),
});
export const PickupPointRecord = PickupPoint.extend({
  company: z.number().int().nullable(),
  is_active: z.boolean(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});
export const PickupPointCreate = z.object({
  person_name: requiredText(120),
  email: email(),
  phone: phone(),
  address: requiredText(255),
  additional_detail: text(500).default(''),
  suburb: requiredText(120),
  state: requiredText(120),
  pincode: requiredText(16),
  company: z.number().int().positive().nullable().optional(),
  latitude: z.number().min(-90).max(90).nullable().optional(),
  longitude: z.number().min(-180).max(180).nullable().optional(),
  is_active: z.boolean().default(true),
});

/** Spec 2.5. */
export const PackageType = z.object({ id: z.number().int(), package_type: z.string() });
export const PackageTypeRecord = PackageType.extend({ is_active: z.boolean() });
export const PackageTypeCreate = z.object({ package_type: requiredText(120), is_active: z.boolean().default(true) });

/** Spec 2.2: `name` is the only field the update body carries. */
export const FailedDeliveryStatus = z.object({
  id: z.number().int(),
  name: z.string(),
  is_active: z.boolean(),
  created_at: z.string(),
});
export const FailedDeliveryStatusCreate = z.object({ name: requiredText(200), is_active: z.boolean().default(true) });
export const FailedDeliveryStatusUpdate = z.object({ name: requiredText(200) });
