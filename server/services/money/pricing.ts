import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  chargeableKg,
  DEFAULT_VOLUMETRIC_DIVISOR,
  selectRate,
  volumetricKg,
  type Parcel,
  type PricedLine,
  type RateLine,
} from '../../../shared/money';
import type { Db } from '../../db/client';
import { company, deliveryRate, packageType, suburb, unitOfMeasurement } from '../../db/schema/index';
import type { PackageRow } from '../packages/shape';

export const FALLBACK_CURRENCY = 'AUD';

export interface PricingInput {
  companyId?: number | null;
  zoneId?: number | null;
  suburbId?: number | null;
  packageTypeId?: number | null;
  /** A package type by name, as packages carry it. */
  pkgType?: string | null;
  weightKg?: number | null;
  lengthCm?: number | null;
  widthCm?: number | null;
  heightCm?: number | null;
  /** Only for a quote without a company: which currency's default card to read. */
  currency?: string | null;
}

export type CardSource = 'company' | 'default';

export interface Pricing {
  currency: string;
  source: CardSource | null;
  parcel: Parcel;
  /** Null when no line of the card fits the parcel. */
  priced: PricedLine | null;
  chargeable_kg: number;
  volumetric_kg: number;
}

export type RateRow = typeof deliveryRate.$inferSelect;

/** Active lines of one card, in one currency; `companyId` null reads the default card. */
export async function cardLines(db: Db, companyId: number | null, currency: string): Promise<RateRow[]> {
  return await db
    .select()
    .from(deliveryRate)
    .where(
      and(
        companyId == null ? isNull(deliveryRate.company_id) : eq(deliveryRate.company_id, companyId),
        eq(deliveryRate.currency, currency),
        eq(deliveryRate.is_active, true),
        isNull(deliveryRate.deleted_at),
      ),
    )
    .orderBy(deliveryRate.id)
    .all();
}

/**
 * The card that prices a company's parcels: its own when it has any active line in its currency,
 * otherwise the default card. The card is chosen as a whole, never mixed line by line.
 */
export async function cardFor(db: Db, companyId: number | null, currency: string): Promise<{ source: CardSource; rows: RateRow[] }> {
  if (companyId != null) {
    const own = await cardLines(db, companyId, currency);
    if (own.length) return { source: 'company', rows: own };
  }
  return { source: 'default', rows: await cardLines(db, null, currency) };
}

export async function toRateLines(db: Db, rows: RateRow[]): Promise<RateLine[]> {
  const factors = new Map(
    (await db.select({ id: unitOfMeasurement.id, f: unitOfMeasurement.kg_factor }).from(unitOfMeasurement).all()).map((u) => [u.id, u.f]),
  );
  return rows.map((r) => ({
    id: r.id,
    zone_id: r.zone_id,
    package_type_id: r.package_type_id,
    kg_factor: r.unit_id == null ? 1 : (factors.get(r.unit_id) ?? 1),
    min_weight: r.min_weight,
    max_weight: r.max_weight,
    base_cents: r.base_cents,
    per_unit_cents: r.per_unit_cents,
    volumetric_divisor: r.volumetric_divisor,
  }));
}

/** Package types are named on packages; names match case-insensitively, archived types never. */
export async function packageTypeIdByName(db: Db, name: string | null | undefined): Promise<number | null> {
  const wanted = name?.trim().toLowerCase();
  if (!wanted) return null;
  return (
    (
      await db
        .select({ id: packageType.id })
        .from(packageType)
        .where(and(sql`lower(${packageType.package_type}) = ${wanted}`, isNull(packageType.deleted_at)))
        .orderBy(packageType.id)
        .get()
    )?.id ?? null
  );
}

export async function currencyOf(db: Db, companyId: number | null | undefined, fallback?: string | null): Promise<string> {
  if (companyId != null) {
    const c = (await db.select({ c: company.currency }).from(company).where(eq(company.id, companyId)).get())?.c;
    if (c) return c;
  }
  return fallback ?? FALLBACK_CURRENCY;
}

/** Prices a parcel or quote from the database; the arithmetic is the pure `selectRate`. */
export async function priceParcel(db: Db, input: PricingInput): Promise<Pricing> {
  const currency = await currencyOf(db, input.companyId, input.currency);
  const zoneId =
    input.zoneId ??
    (input.suburbId != null
      ? ((await db.select({ z: suburb.zone_id }).from(suburb).where(eq(suburb.id, input.suburbId)).get())?.z ?? null)
      : null);
  const parcel: Parcel = {
    weight: input.weightKg,
    length: input.lengthCm,
    width: input.widthCm,
    height: input.heightCm,
    zone_id: zoneId,
    package_type_id: input.packageTypeId ?? (await packageTypeIdByName(db, input.pkgType)),
  };
  const card = await cardFor(db, input.companyId ?? null, currency);
  const priced = selectRate(await toRateLines(db, card.rows), parcel);
  return {
    currency,
    source: card.rows.length ? card.source : null,
    parcel,
    priced,
    chargeable_kg: priced?.chargeable_kg ?? chargeableKg(parcel, DEFAULT_VOLUMETRIC_DIVISOR),
    volumetric_kg: priced?.volumetric_kg ?? volumetricKg(parcel, DEFAULT_VOLUMETRIC_DIVISOR),
  };
}

export async function priceOfPackage(db: Db, row: PackageRow): Promise<Pricing> {
  return await priceParcel(db, {
    companyId: row.company_id,
    zoneId: row.zone_id,
    suburbId: row.suburb_id,
    pkgType: row.pkg_type,
    weightKg: row.weight,
    lengthCm: row.length,
    widthCm: row.width,
    heightCm: row.height,
  });
}
