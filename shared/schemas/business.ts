import { z } from 'zod';
import { isValidAbn } from '../gst';
import { TimeZoneName } from './time';

/** Issue 18: the courier's business profile, printed on every tax invoice. */
export const BusinessProfile = z.object({
  legal_name: z.string(),
  trading_name: z.string(),
  abn: z.string(),
  address: z.string(),
  email: z.string(),
  phone: z.string(),
  bank_account_name: z.string(),
  bank_bsb: z.string(),
  bank_account_number: z.string(),
  payment_instructions: z.string(),
  gst_rate_bp: z.number().int(),
  prices_include_gst: z.boolean(),
  updated_at: z.string().nullable(),
  /** Issue 31: the business's IANA zone; null = the server's configured TIME_ZONE (`time_zone_default`). */
  time_zone: z.string().nullable(),
  time_zone_default: z.string(),
});

const text = (max: number) => z.string().trim().max(max);

export const BusinessProfileUpdate = z
  .object({
    legal_name: text(200).optional(),
    trading_name: text(200).optional(),
    // Stored without spaces; the checksum is the ABR's, so a mistyped digit is refused here.
    abn: z
      .string()
      .transform((s) => s.replace(/\s+/g, ''))
      .refine((s) => s === '' || isValidAbn(s), 'ABN must be 11 digits with a valid checksum')
      .optional(),
    address: text(500).optional(),
    email: z.union([z.literal(''), z.string().trim().email().max(254)]).optional(),
    phone: text(40).optional(),
    bank_account_name: text(200).optional(),
    bank_bsb: z
      .string()
      .transform((s) => s.replace(/[\s-]+/g, ''))
      .refine((s) => s === '' || /^\d{6}$/.test(s), 'BSB must be 6 digits')
      .optional(),
    bank_account_number: z
      .string()
      .transform((s) => s.replace(/\s+/g, ''))
      .refine((s) => s === '' || /^\d{5,10}$/.test(s), 'Account number must be 5 to 10 digits')
      .optional(),
    payment_instructions: text(1000).optional(),
    gst_rate_bp: z.number().int().min(0).max(10_000).optional(),
    prices_include_gst: z.boolean().optional(),
    time_zone: TimeZoneName.nullable().optional(),
  })
  .strict();
