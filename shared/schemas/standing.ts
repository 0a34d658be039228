import { z } from 'zod';
import { requiredText, text } from './common';

const day = () => z.iso.date();
/** ISO weekdays as digits, each once: "12345" = Monday to Friday, "7" = Sunday. */
const weekdays = () =>
  z
    .string()
    .trim()
    .regex(/^[1-7]{1,7}$/, 'ISO weekday digits, e.g. 12345 for Monday to Friday')
    .refine((s) => new Set(s).size === s.length, 'each weekday once');
const hhmm = () => z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM (24-hour, local time)');

export const StandingDelivery = z.object({
  id: z.number().int(),
  name: z.string(),
  company: z.number().int(),
  weekdays: z.string(),
  at_time: z.string(),
  starts_on: z.string().nullable(),
  ends_on: z.string().nullable(),
  shipper_name: z.string(),
  shipper_address: z.string(),
  customer_name: z.string(),
  customer_address: z.string(),
  customer_phone: z.string(),
  postcode: z.number().int().nullable(),
  suburb: z.number().int().nullable(),
  description_of_goods: z.string(),
  weight: z.number().nullable(),
  /** false = paused (POST standing-delivery/{id}/status-change/ {is_active}). */
  is_active: z.boolean(),
});
const ruleFields = {
  name: text(200),
  company: z.number().int().positive(),
  weekdays: weekdays(),
  at_time: hhmm(),
  starts_on: day().nullable(),
  ends_on: day().nullable(),
  shipper_name: text(200),
  shipper_address: requiredText(500),
  customer_name: text(200),
  customer_address: requiredText(500),
  customer_phone: text(32),
  postcode: z.number().int().min(0).max(99_999).nullable(),
  suburb: z.number().int().positive().nullable(),
  description_of_goods: text(1000),
  weight: z.number().finite().min(0).max(100_000).nullable(),
  is_active: z.boolean(),
};
export const StandingDeliveryCreate = z.object({
  ...ruleFields,
  name: ruleFields.name.default(''),
  starts_on: ruleFields.starts_on.optional(),
  ends_on: ruleFields.ends_on.optional(),
  shipper_name: ruleFields.shipper_name.default(''),
  customer_name: ruleFields.customer_name.default(''),
  customer_phone: ruleFields.customer_phone.default(''),
  postcode: ruleFields.postcode.optional(),
  suburb: ruleFields.suburb.optional(),
  description_of_goods: ruleFields.description_of_goods.default(''),
  weight: ruleFields.weight.optional(),
  is_active: ruleFields.is_active.default(true),
});
/** Partial: only the fields sent change (no defaults fill the rest). */
export const StandingDeliveryUpdate = z.object(ruleFields).partial();

export const PublicHoliday = z.object({ id: z.number().int(), day: z.string(), name: z.string(), is_active: z.boolean() });
export const PublicHolidayCreate = z.object({ day: day(), name: text(200).default(''), is_active: z.boolean().default(true) });
export const PublicHolidayUpdate = z.object({ day: day(), name: text(200), is_active: z.boolean() }).partial();
