import { and, eq, inArray, isNull, or, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { DeliveryRateCreate, RateFilterQuery } from '../../../shared/schemas/money';
import type { Db } from '../../db/client';
import { company, deliveryRate, unitOfMeasurement } from '../../db/schema/index';
import { badRequest } from '../../errors';
import type { ResourceContext, Row } from '../../resources/crud';
import { audit } from '../audit/record';
import type { SessionUser } from '../auth/session';
import { companyFilter, findCompanyInScope } from './access';
import { priceUnpriced } from './parcelPricing';
import { cardFor, currencyOf, FALLBACK_CURRENCY, type RateRow } from './pricing';

/** A company reads its own card and the default card; staff read every card. */
export function rateScope(user: SessionUser): SQL | undefined {
  const own = companyFilter(user);
  return own == null ? undefined : or(isNull(deliveryRate.company_id), eq(deliveryRate.company_id, own));
}

/**
 * Rate lines that would apply to a company, zone, package type or weight. Lines without a zone or
 * package type apply to every one, so they are included; a weight (kg) keeps the lines whose band holds it.
 */
export async function applicableRates(db: Db, user: SessionUser, query: z.output<typeof RateFilterQuery>): Promise<RateRow[]> {
  const conds = [isNull(deliveryRate.deleted_at), rateScope(user)];
  if (query.company != null) {
    const co = await findCompanyInScope(db, user, query.company);
    const card = await cardFor(db, co.id, co.currency);
    conds.push(
      card.source === 'company' ? eq(deliveryRate.company_id, co.id) : isNull(deliveryRate.company_id),
      eq(deliveryRate.currency, co.currency),
    );
  }
  if (query.zone != null) conds.push(or(isNull(deliveryRate.zone_id), eq(deliveryRate.zone_id, query.zone)));
  if (query.package_type != null)
    conds.push(or(isNull(deliveryRate.package_type_id), eq(deliveryRate.package_type_id, query.package_type)));
  if (query.unit != null) conds.push(eq(deliveryRate.unit_id, query.unit));
  if (query.currency) conds.push(eq(deliveryRate.currency, query.currency));
  if (query.is_active) conds.push(eq(deliveryRate.is_active, query.is_active === 'true'));
  let rows = await db
    .select({ r: deliveryRate, f: unitOfMeasurement.kg_factor })
    .from(deliveryRate)
    .leftJoin(unitOfMeasurement, eq(unitOfMeasurement.id, deliveryRate.unit_id))
    .where(and(...conds))
    .orderBy(deliveryRate.id)
    .all();
  if (query.weight != null) {
    const kg = query.weight;
    rows = rows.filter(({ r, f }) => {
      const units = kg / (f ?? 1);
      return units >= r.min_weight && (r.max_weight == null || units < r.max_weight);
    });
  }
  return rows.map(({ r }) => r);
}

/** API input -> columns of a rate line. */
export async function rateRow(input: Partial<z.output<typeof DeliveryRateCreate>>, { deps, existing }: ResourceContext): Promise<Row> {
  const { company: companyId, zone, package_type, unit, ...rest } = input;
  const row: Row = { ...rest };
  if (companyId !== undefined) row.company_id = companyId;
  if (zone !== undefined) row.zone_id = zone;
  if (package_type !== undefined) row.package_type_id = package_type;
  if (unit !== undefined) row.unit_id = unit;
  // A company's lines are in its billing currency unless told otherwise.
  if (!existing && row.currency === undefined) row.currency = await currencyOf(deps.db, companyId ?? null, FALLBACK_CURRENCY);
  return row;
}

/** A weight band is not empty, and a company's lines are in the currency it is billed in. */
export async function validateRate(values: Row, { deps }: ResourceContext): Promise<void> {
  const min = Number(values.min_weight ?? 0);
  if (values.max_weight != null && Number(values.max_weight) <= min) {
    throw badRequest('max_weight must be above min_weight', [{ path: 'max_weight', message: 'must be above min_weight' }]);
  }
  if (values.company_id != null) {
    const co = await deps.db
      .select()
      .from(company)
      .where(eq(company.id, Number(values.company_id)))
      .get();
    if (!co) throw badRequest(`Company ${String(values.company_id)} does not exist`, [{ path: 'company', message: 'unknown company' }]);
    if (co.currency !== values.currency) {
      throw badRequest(`${co.name} is billed in ${co.currency}; its rates must be too`, [
        { path: 'currency', message: `must be ${co.currency}` },
      ]);
    }
  }
}

/** A new or changed line may price parcels that were accepted unpriced: they are charged now, once (issue 18). */
export async function afterRateWrite(db: Db, ids: number[], { deps, user }: ResourceContext): Promise<void> {
  const lines = ids.length ? await db.select().from(deliveryRate).where(inArray(deliveryRate.id, ids)).all() : [];
  const companies = new Set(lines.map((l) => l.company_id));
  // The line itself is audited by defineResource (before/after); parcels it priced are a separate consequence.
  const one = companies.size === 1 && !companies.has(null) ? [...companies][0] : undefined;
  const r = await priceUnpriced(deps, user.id, one);
  if (r.priced)
    await audit(db, deps.clock.now(), user.id, 'package.priced_later', one != null ? `company:${one}` : 'package:unpriced', {
      priced: r.priced,
      remaining: r.remaining,
      rate_lines: lines.map((l) => l.id),
    });
}
