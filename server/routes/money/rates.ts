import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import { toMajor } from '../../../shared/money';
import {
  CompanyParams, DeliveryRate, DeliveryRateCreate, DeliveryRateUpdate, Quote, QuoteBody, RateCard, RateFilterQuery, RateList,
} from '../../../shared/schemas/money';
import { iso } from '../../clock';
import type { Db } from '../../db/client';
import { company, deliveryRate, unitOfMeasurement } from '../../db/schema/index';
import { badRequest, notFound } from '../../errors';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { zoneOfAddress } from '../../services/geo/resolve';
import { defineRoute } from '../../http/route';
import { defineResource, type Row } from '../../resources/crud';
import type { SessionUser } from '../../services/auth/session';
import { canSeeCompany, companyFilter } from '../../services/money/access';
import { cardFor, currencyOf, FALLBACK_CURRENCY, priceParcel } from '../../services/money/pricing';
import { findCompany } from '../../services/money/wallets';
import { priceUnpriced } from '../../services/money/parcelPricing';
import { audit } from '../../services/audit/record';
import { filters } from './filters';

const g = 'web/Delivery Rates';
const tags = ['Delivery Rates'];

export const toRate = (r: Row) => ({
  id: r.id, name: r.name, company: r.company_id, zone: r.zone_id, package_type: r.package_type_id, unit: r.unit_id,
  min_weight: r.min_weight, max_weight: r.max_weight, base_cents: r.base_cents, per_unit_cents: r.per_unit_cents,
  currency: r.currency, volumetric_divisor: r.volumetric_divisor, is_active: r.is_active, created_at: iso(r.created_at as number),
});

/** A company reads its own card and the default card; staff read every card. */
const rateScope = (user: SessionUser) => {
  const own = companyFilter(user);
  return own == null ? undefined : or(isNull(deliveryRate.company_id), eq(deliveryRate.company_id, own));
};

function companyInScope(user: SessionUser, companyId: number, db: Db) {
  if (!canSeeCompany(user, companyId)) throw notFound(`Company ${companyId} not found`);
  return findCompany(db, companyId);
}

export function rateRoutes(app: App): void {
  defineRoute(app, {
    method: 'get', path: '/delivery-rate/rate-card-by-company/{company_id}/', tags, access: 'rate.view',
    catalogue: ops(g, 'Rate Card by Company'), params: CompanyParams, response: RateCard,
    summary: "The rate card that prices a company's parcels",
    description: 'The company\'s own active lines in its currency when it has any, otherwise the default card (`source` says which).',
  }, async ({ deps, user, params }) => {
    const co = await companyInScope(user, params.company_id, deps.db);
    const card = await cardFor(deps.db, co.id, co.currency);
    return { success: true, company: co.id, currency: co.currency, source: card.source, rates: card.rows.map(toRate) };
  });

  defineRoute(app, {
    method: 'get', path: '/delivery-rate/filter/', tags, access: 'rate.view', catalogue: ops(g, 'Delivery Rate Filters'),
    query: RateFilterQuery, response: RateList, summary: 'Rate lines that would apply to a company, zone, package type or weight',
    description: 'Lines without a zone or package type apply to every zone or type, so they are included. `company` narrows to the card that prices that company; `weight` (kg) to lines whose band holds it.',
  }, async ({ deps, user, query }) => {
    const conds = [isNull(deliveryRate.deleted_at), rateScope(user)];
    if (query.company != null) {
      const co = await companyInScope(user, query.company, deps.db);
      const card = await cardFor(deps.db, co.id, co.currency);
      conds.push(card.source === 'company' ? eq(deliveryRate.company_id, co.id) : isNull(deliveryRate.company_id), eq(deliveryRate.currency, co.currency));
    }
    if (query.zone != null) conds.push(or(isNull(deliveryRate.zone_id), eq(deliveryRate.zone_id, query.zone)));
    if (query.package_type != null) conds.push(or(isNull(deliveryRate.package_type_id), eq(deliveryRate.package_type_id, query.package_type)));
    if (query.unit != null) conds.push(eq(deliveryRate.unit_id, query.unit));
    if (query.currency) conds.push(eq(deliveryRate.currency, query.currency));
    if (query.is_active) conds.push(eq(deliveryRate.is_active, query.is_active === 'true'));
    let rows = await deps.db.select({ r: deliveryRate, f: unitOfMeasurement.kg_factor }).from(deliveryRate)
      .leftJoin(unitOfMeasurement, eq(unitOfMeasurement.id, deliveryRate.unit_id)).where(and(...conds)).orderBy(deliveryRate.id).all();
    if (query.weight != null) {
      const kg = query.weight;
      rows = rows.filter(({ r, f }) => {
        const units = kg / (f ?? 1);
        return units >= r.min_weight && (r.max_weight == null || units < r.max_weight);
      });
    }
    return { success: true, count: rows.length, results: rows.map(({ r }) => toRate(r)) };
  });

  defineRoute(app, {
    method: 'post', path: '/delivery-rate/quote/', tags, access: 'rate.view', catalogue: [], body: QuoteBody, response: Quote,
    summary: 'Price a parcel before it is sent',
    description: 'Chargeable weight is the larger of actual and volumetric (L×W×H cm / divisor). `price_cents` is null when no line of the card fits; a company always quotes its own card.',
  }, async ({ deps, user, body }) => {
    const own = companyFilter(user);
    if (own != null && body.company != null && body.company !== own) throw notFound(`Company ${body.company} not found`);
    const companyId = own ?? body.company ?? null;
    if (companyId != null) await findCompany(deps.db, companyId);
    // The zone a parcel sent to this address gets: the same resolver as creation and the depot scan.
    const zoneId = await zoneOfAddress(deps.db, {
      zone_id: body.zone, suburb_id: body.suburb, postcode: body.postcode, postcode_name: body.postcode_name, customer_address: body.customer_address,
    });
    const p = await priceParcel(deps.db, {
      companyId, zoneId, suburbId: body.suburb, packageTypeId: body.package_type, pkgType: body.pkg_type,
      weightKg: body.weight, lengthCm: body.length, widthCm: body.width, heightCm: body.height, currency: body.currency,
    });
    const priced = p.priced;
    return {
      success: true, message: priced ? `Priced by rate ${priced.line.id}` : 'No delivery rate applies to this parcel',
      price_cents: priced?.price_cents ?? null, price: priced ? toMajor(priced.price_cents, p.currency) : null,
      currency: p.currency, rate: priced?.line.id ?? null, source: priced ? p.source : null,
      chargeable_weight: p.chargeable_kg, volumetric_weight: p.volumetric_kg, units: priced?.units ?? null, extra_units: priced?.extra_units ?? null,
    };
  });

  defineResource(app, {
    path: 'delivery-rate', table: deliveryRate, label: 'Delivery rate', view: 'rate.view', manage: 'rate.manage', tags,
    ops: { list: ops(g, 'Get'), create: ops(g, 'Create'), retrieve: ops(g, 'Retrieve'), update: ops(g, 'Update'), delete: ops(g, 'Delete') },
    record: DeliveryRate, create: DeliveryRateCreate, update: DeliveryRateUpdate,
    toApi: toRate, scope: rateScope,
    toRow: async (input, { deps, existing }) => {
      const { company, zone, package_type, unit, ...rest } = input;
      const row: Row = { ...rest };
      if (company !== undefined) row.company_id = company;
      if (zone !== undefined) row.zone_id = zone;
      if (package_type !== undefined) row.package_type_id = package_type;
      if (unit !== undefined) row.unit_id = unit;
      // A company's lines are in its billing currency unless told otherwise.
      if (!existing && row.currency === undefined) row.currency = await currencyOf(deps.db, company ?? null, FALLBACK_CURRENCY);
      return row;
    },
    validate: async (values, { deps }) => {
      const min = Number(values.min_weight ?? 0);
      if (values.max_weight != null && Number(values.max_weight) <= min) {
        throw badRequest('max_weight must be above min_weight', [{ path: 'max_weight', message: 'must be above min_weight' }]);
      }
      if (values.company_id != null) {
        const co = await deps.db.select().from(company).where(eq(company.id, Number(values.company_id))).get();
        if (!co) throw badRequest(`Company ${String(values.company_id)} does not exist`, [{ path: 'company', message: 'unknown company' }]);
        if (co.currency !== values.currency) {
          throw badRequest(`${co.name} is billed in ${co.currency}; its rates must be too`, [{ path: 'currency', message: `must be ${co.currency}` }]);
        }
      }
    },
    // A new or changed line may price parcels that were accepted unpriced: they are charged now, once (issue 18).
    afterWrite: async (db, ids, { deps, user }) => {
      const lines = ids.length ? await db.select().from(deliveryRate).where(inArray(deliveryRate.id, ids)).all() : [];
      const companies = new Set(lines.map((l) => l.company_id));
      // The line itself is audited by defineResource (before/after); parcels it priced are a separate consequence.
      const one = companies.size === 1 && !companies.has(null) ? [...companies][0] : undefined;
      const r = await priceUnpriced(deps, user.id, one);
      if (r.priced) await audit(db, deps.clock.now(), user.id, 'package.priced_later', one != null ? `company:${one}` : 'package:unpriced', { priced: r.priced, remaining: r.remaining, rate_lines: lines.map((l) => l.id) });
    },
    listQuery: filters('company', 'zone', 'package_type', 'unit', 'currency', 'is_active'),
    list: {
      search: ['name', 'currency'], ordering: ['min_weight', 'base_cents', 'created_at', 'company_id', 'zone_id'],
      filters: { company: 'company_id', zone: 'zone_id', package_type: 'package_type_id', unit: 'unit_id', currency: 'currency', is_active: 'is_active' },
    },
  });
}
