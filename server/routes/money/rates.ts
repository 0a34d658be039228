import { toMajor } from '../../../shared/money';
import {
  CompanyParams,
  DeliveryRate,
  DeliveryRateCreate,
  DeliveryRateUpdate,
  Quote,
  QuoteBody,
  RateCard,
  RateFilterQuery,
  RateList,
} from '../../../shared/schemas/money';
import { iso } from '../../clock';
import { deliveryRate } from '../../db/schema/index';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { zoneOfAddress } from '../../services/geo/resolve';
import { defineRoute } from '../../http/route';
import { defineResource, type Row } from '../../resources/crud';
import { companyAsked, findCompanyInScope } from '../../services/money/access';
import { cardFor, priceParcel } from '../../services/money/pricing';
import { afterRateWrite, applicableRates, rateRow, rateScope, validateRate } from '../../services/money/rates';
import { findCompany } from '../../services/money/wallets';
import { filters } from './filters';

const g = 'web/Delivery Rates';
const tags = ['Delivery Rates'];

export const toRate = (r: Row) => ({
  id: r.id,
  name: r.name,
  company: r.company_id,
  zone: r.zone_id,
  package_type: r.package_type_id,
  unit: r.unit_id,
  min_weight: r.min_weight,
  max_weight: r.max_weight,
  base_cents: r.base_cents,
  per_unit_cents: r.per_unit_cents,
  currency: r.currency,
  volumetric_divisor: r.volumetric_divisor,
  is_active: r.is_active,
  created_at: iso(r.created_at as number),
});

export function rateRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/delivery-rate/rate-card-by-company/{company_id}/',
      tags,
      access: 'rate.view',
      catalogue: ops(g, 'Rate Card by Company'),
      params: CompanyParams,
      response: RateCard,
      summary: "The rate card that prices a company's parcels",
      description: "The company's own active lines in its currency when it has any, otherwise the default card (`source` says which).",
    },
    async ({ deps, user, params }) => {
      const co = await findCompanyInScope(deps.db, user, params.company_id);
      const card = await cardFor(deps.db, co.id, co.currency);
      return { success: true, company: co.id, currency: co.currency, source: card.source, rates: card.rows.map(toRate) };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/delivery-rate/filter/',
      tags,
      access: 'rate.view',
      catalogue: ops(g, 'Delivery Rate Filters'),
      query: RateFilterQuery,
      response: RateList,
      summary: 'Rate lines that would apply to a company, zone, package type or weight',
      description:
        'Lines without a zone or package type apply to every zone or type, so they are included. `company` narrows to the card that prices that company; `weight` (kg) to lines whose band holds it.',
    },
    async ({ deps, user, query }) => {
      const rows = await applicableRates(deps.db, user, query);
      return { success: true, count: rows.length, results: rows.map(toRate) };
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/delivery-rate/quote/',
      tags,
      access: 'rate.view',
      catalogue: [],
      body: QuoteBody,
      response: Quote,
      summary: 'Price a parcel before it is sent',
      description:
        'Chargeable weight is the larger of actual and volumetric (L×W×H cm / divisor). `price_cents` is null when no line of the card fits; a company always quotes its own card.',
    },
    async ({ deps, user, body }) => {
      const companyId = companyAsked(user, body.company);
      if (companyId != null) await findCompany(deps.db, companyId);
      // The zone a parcel sent to this address gets: the same resolver as creation and the depot scan.
      // A zone named without an address is a question about the card (which the caller may read), not a
      // parcel's zone: it moves no money, so any caller may ask it (a parcel's zone follows its address).
      const zoneId = await zoneOfAddress(deps.db, {
        zone_id: body.zone ?? undefined,
        suburb_id: body.suburb,
        postcode: body.postcode,
        postcode_name: body.postcode_name,
        customer_address: body.customer_address,
      });
      const p = await priceParcel(deps.db, {
        companyId,
        zoneId,
        suburbId: body.suburb,
        packageTypeId: body.package_type,
        pkgType: body.pkg_type,
        weightKg: body.weight,
        lengthCm: body.length,
        widthCm: body.width,
        heightCm: body.height,
        currency: body.currency,
      });
      const priced = p.priced;
      return {
        success: true,
        message: priced ? `Priced by rate ${priced.line.id}` : 'No delivery rate applies to this parcel',
        price_cents: priced?.price_cents ?? null,
        price: priced ? toMajor(priced.price_cents, p.currency) : null,
        currency: p.currency,
        rate: priced?.line.id ?? null,
        source: priced ? p.source : null,
        chargeable_weight: p.chargeable_kg,
        volumetric_weight: p.volumetric_kg,
        units: priced?.units ?? null,
        extra_units: priced?.extra_units ?? null,
      };
    },
  );

  defineResource(app, {
    path: 'delivery-rate',
    table: deliveryRate,
    label: 'Delivery rate',
    view: 'rate.view',
    manage: 'rate.manage',
    tags,
    ops: {
      list: ops(g, 'Get'),
      create: ops(g, 'Create'),
      retrieve: ops(g, 'Retrieve'),
      update: ops(g, 'Update'),
      delete: ops(g, 'Delete'),
    },
    record: DeliveryRate,
    create: DeliveryRateCreate,
    update: DeliveryRateUpdate,
    toApi: toRate,
    scope: rateScope,
    toRow: rateRow,
    validate: validateRate,
    afterWrite: afterRateWrite,
    listQuery: filters('company', 'zone', 'package_type', 'unit', 'currency', 'is_active'),
    list: {
      search: ['name', 'currency'],
      ordering: ['min_weight', 'base_cents', 'created_at', 'company_id', 'zone_id'],
      filters: {
        company: 'company_id',
        zone: 'zone_id',
        package_type: 'package_type_id',
        unit: 'unit_id',
        currency: 'currency',
        is_active: 'is_active',
      },
    },
  });
}
