import { z } from 'zod';

/** Issue 18: parcels no rate line priced, the office's "price now", weight adjustments and company terms. */
export const UnpricedQuery = z
  .object({
    company: z.coerce.number().int().positive().optional(),
    page: z.coerce.number().int().min(1).default(1),
    page_size: z.coerce.number().int().min(1).max(500).default(50),
  })
  .strict();

export const UnpricedParcel = z.object({
  package: z.number().int(),
  hawb: z.string(),
  company: z.number().int(),
  company_name: z.string().nullable(),
  status: z.string(),
  reason: z.string(),
  weight: z.number().nullable(),
  zone: z.number().int().nullable(),
  since: z.string(),
});
export const UnpricedList = z.object({ count: z.number().int(), results: z.array(UnpricedParcel) });

/** One parcel's money: its pricing state and what its company has paid for it so far (net of re-prices and refunds). */
export const ParcelPricing = z.object({
  package: z.number().int(),
  state: z.enum(['priced', 'unpriced', 'none']),
  price_cents: z.number().int().nullable(),
  charged_cents: z.number().int(),
  currency: z.string().nullable(),
  reason: z.string(),
});

export const PriceNowBody = z.object({ company: z.number().int().positive().optional() }).strict();
export const PriceNowAnswer = z.object({
  success: z.boolean(),
  message: z.string(),
  priced: z.number().int(),
  remaining: z.number().int(),
});

const cm = z.number().finite().min(0).max(10_000).nullable().optional();
export const WeightAdjustmentBody = z
  .object({
    weight: z.number().finite().min(0).max(100_000),
    length: cm,
    width: cm,
    height: cm,
    reason: z.string().trim().min(1, 'say why').max(1000),
  })
  .strict();

export const UNPRICED_POLICIES = ['accept', 'refuse'] as const;
export const CompanyTerms = z.object({
  company: z.number().int(),
  unpriced_policy: z.enum(UNPRICED_POLICIES),
  payment_terms_days: z.number().int().min(0).max(365),
});
export const CompanyTermsUpdate = z
  .object({
    unpriced_policy: z.enum(UNPRICED_POLICIES).optional(),
    payment_terms_days: z.number().int().min(0).max(365).optional(),
  })
  .strict();
