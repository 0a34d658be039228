import { z } from 'zod';
import { COD_METHODS } from '../cod';
import { MAX_AMOUNT_CENTS } from '../money';
import { idParam, text } from './common';

const cents = () => z.number().int().min(0).max(MAX_AMOUNT_CENTS);
const day = () => z.iso.date();
const currency = () =>
  z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as AUD')
    .default('AUD');

/** What the driver collected at the door, sent with the delivery (and queued with it offline). */
export const CollectionBody = z.object({ amount_cents: cents(), method: z.enum(COD_METHODS) });

/** A parcel's amount to collect as the phone keeps it (sync feed). */
export const CodOnPhoneSchema = z.object({ amount_cents: z.number().int(), waived_cents: z.number().int(), currency: z.string() });

export const CodWaiveBody = z.object({
  reason: text(500).pipe(z.string().min(1, 'say why')),
  /** Waived amount; default all that is still due. */
  amount_cents: z.number().int().min(1).max(MAX_AMOUNT_CENTS).optional(),
});

export const PackageCod = z.object({
  package: z.number().int(),
  amount_cents: z.number().int(),
  currency: z.string(),
  waived_cents: z.number().int(),
  waive_reason: z.string().nullable(),
  required_cents: z.number().int(),
  collected_cents: z.number().int().nullable(),
  method: z.enum(COD_METHODS).nullable(),
  collected_at: z.string().nullable(),
  collected_by: z.number().int().nullable(),
});
export type PackageCod = z.infer<typeof PackageCod>;

export const FloatBody = z.object({
  driver: idParam,
  day: day().optional(),
  amount_cents: z.number().int().min(1).max(MAX_AMOUNT_CENTS),
  currency: currency(),
  note: text(500).optional(),
});
export const HandoverBody = z.object({
  driver: idParam,
  day: day().optional(),
  counted_cents: cents(),
  currency: currency(),
  note: text(500).optional(),
});
export const Handover = z.object({
  id: z.number().int(),
  driver: z.number().int(),
  day: z.string(),
  currency: z.string(),
  float_cents: z.number().int(),
  cash_collected_cents: z.number().int(),
  expected_cents: z.number().int(),
  counted_cents: z.number().int(),
  difference_cents: z.number().int(),
  note: z.string(),
  created_at: z.string(),
});
export const DriverCash = z.object({
  driver: z.number().int(),
  day: z.string(),
  currency: z.string(),
  float_cents: z.number().int(),
  cash_collected_cents: z.number().int(),
  card_collected_cents: z.number().int(),
  handed_over: Handover.nullable(),
  cash_held_cents: z.number().int(),
  debt_cents: z.number().int(),
});
export const DriverCashQuery = z.object({ driver: idParam.optional(), day: day().optional(), currency: currency() });

export const PayoutBody = z.object({
  company: idParam,
  amount_cents: z.number().int().min(1).max(MAX_AMOUNT_CENTS),
  reference: text(200).optional(),
});
export const CodPosition = z.object({
  company: z.number().int(),
  currency: z.string(),
  collected_cents: z.number().int(),
  netted_cents: z.number().int(),
  paid_cents: z.number().int(),
  owed_cents: z.number().int(),
});

export const CodReportQuery = z.object({ from: day().optional(), to: day().optional(), driver: idParam.optional() });
export const CodReportRow = z.object({
  day: z.string(),
  driver: z.number().int().nullable(),
  currency: z.string(),
  collected_cash_cents: z.number().int(),
  collected_card_cents: z.number().int(),
  waived_cents: z.number().int(),
  handed_over_cents: z.number().int(),
  difference_cents: z.number().int(),
  owed_cents: z.number().int(),
  paid_cents: z.number().int(),
});
export const CodReport = z.object({
  from: z.string(),
  to: z.string(),
  rows: z.array(CodReportRow),
  totals: z.array(CodReportRow.omit({ day: true, driver: true })),
});
