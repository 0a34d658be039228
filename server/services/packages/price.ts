import type { Db } from '../../db/client';
import { notFound } from '../../errors';
import { priceParcel } from '../money/pricing';
import { zoneOfAddress } from '../geo/resolve';

/** What a price depends on; dimensions in cm, weight in kg. Rate cards (issue 9) may read more of it. */
export interface PriceInput {
  companyId?: number | null;
  weightKg?: number | null;
  lengthCm?: number | null;
  widthCm?: number | null;
  heightCm?: number | null;
  zoneId?: number | null;
  postcode?: number | null;
  suburbId?: number | null;
  /** The place name as a parcel carries it (`postcode_name`, e.g. "Bondi"). */
  postcodeName?: string | null;
  customerAddress?: string | null;
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

/**
 * Prices a parcel or a quote from the rate cards (server/services/money/pricing.ts): the company's
 * own card, else the default card. No fitting line is a 404 rather than an invented price, since
 * such a parcel is accepted uncharged.
 */
export async function priceFor(db: Db, input: PriceInput): Promise<PriceQuote & { zoneId: number | null }> {
  // The zone a creation of this parcel would get: the same resolver, so quote and charge agree.
  const zoneId = await zoneOfAddress(db, {
    zone_id: input.zoneId,
    postcode: input.postcode,
    suburb_id: input.suburbId,
    postcode_name: input.postcodeName,
    customer_address: input.customerAddress,
  });
  const p = await priceParcel(db, {
    companyId: input.companyId,
    zoneId,
    pkgType: input.pkgType,
    weightKg: input.weightKg,
    lengthCm: input.lengthCm,
    widthCm: input.widthCm,
    heightCm: input.heightCm,
  });
  if (!p.priced) throw notFound('No delivery rate applies to this parcel: no line of its rate card fits its zone, package type and weight');
  const hasDims = !!(input.lengthCm && input.widthCm && input.heightCm);
  return {
    currency: p.currency,
    amount: p.priced.price_cents,
    chargeableWeight: p.chargeable_kg,
    volumetricWeight: hasDims ? p.volumetric_kg : null,
    method: `rate_card:${p.source ?? 'default'}:${p.priced.line.id}`,
    zoneId,
  };
}
