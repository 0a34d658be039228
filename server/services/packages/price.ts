import type { Db } from '../../db/client';
import { notFound } from '../../errors';
import { priceParcel } from '../money/pricing';

/** What a price depends on; dimensions in cm, weight in kg. Rate cards (issue 9) may read more of it. */
export interface PriceInput {
  companyId?: number | null;
  weightKg?: number | null;
  lengthCm?: number | null;
  widthCm?: number | null;
  heightCm?: number | null;
  zoneId?: number | null;
  postcode?: number | null;
  /** The package type by name, as packages carry it; rate lines may be specific to one. */
  pkgType?: string | null;
}

export interface PriceQuote {
  currency: string;
  /** Minor units (cents), like every amount of money in the system. */
  amount: number;
  /** The weight charged for: the larger of actual and volumetric weight, in kg. */
  chargeableWeight: number;
  volumetricWeight: number | null;
  /** Which rule priced it, so a quote can be explained and rate cards can say which card applied. */
  method: string;
}

/** Until rate cards exist: a flat base per parcel plus a rate per started kilogram. */
export const DEFAULT_TARIFF = { base: 800, perKg: 150, currency: 'AUD' } as const;

/**
 * Prices a parcel or a quote from the rate cards (server/services/money/pricing.ts): the company's
 * own card, else the default card. No fitting line is a 404 rather than an invented price, since
 * such a parcel is accepted uncharged.
 */
export function priceFor(db: Db, input: PriceInput): PriceQuote {
  const p = priceParcel(db, {
    companyId: input.companyId, zoneId: input.zoneId, pkgType: input.pkgType, weightKg: input.weightKg,
    lengthCm: input.lengthCm, widthCm: input.widthCm, heightCm: input.heightCm,
  });
  if (!p.priced) throw notFound('No delivery rate applies to this parcel: no line of its rate card fits its zone, package type and weight');
  const hasDims = !!(input.lengthCm && input.widthCm && input.heightCm);
  return {
    currency: p.currency, amount: p.priced.price_cents, chargeableWeight: p.chargeable_kg,
    volumetricWeight: hasDims ? p.volumetric_kg : null, method: `rate_card:${p.source ?? 'default'}:${p.priced.line.id}`,
  };
}
