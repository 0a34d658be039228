import type { z } from 'zod';
import { IdParams } from '../../shared/schemas/common';
import { CompanyParams } from '../../shared/schemas/money';
import { Package } from '../../shared/schemas/package';
import {
  CompanyTerms,
  CompanyTermsUpdate,
  ParcelPricing,
  PriceNowAnswer,
  PriceNowBody,
  UnpricedList,
  UnpricedQuery,
  WeightAdjustmentBody,
} from '../../shared/schemas/pricing';
import { ADMIN_ROLES, STAFF_ROLES } from '../../shared/roles';
import { notFound } from '../errors';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import { audit } from '../services/audit/record';
import { findCompanyInScope } from '../services/money/access';
import { companyPolicy, priceUnpriced, pricingOf, setCompanyTerms, unpricedPage } from '../services/money/parcelPricing';
import { findCompany } from '../services/money/wallets';
import { adjustWeight } from '../services/packages/edit';
import { packagesByIds } from '../services/packages/shape';
import { livePackage } from '../services/history/live';

const tags = ['Parcel pricing'];

/** Issue 18: unpriced parcels listed for the office, priced later once; weight adjustments; company terms. */
export function pricingRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/package/unpriced/',
      tags,
      access: 'package.view',
      catalogue: [],
      query: UnpricedQuery,
      response: UnpricedList,
      summary: 'Parcels no rate line priced (not charged yet), oldest first',
      description:
        'Staff see every company (`?company=` narrows), a company its own. `reason`: `no_rate_line` or `insufficient_balance` (prepaid). ' +
        'Adding a rate line prices them at once; `POST package/unpriced/price/` tries again.',
    },
    ({ deps, user, query }) => unpricedPage(deps.db, user, query),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/package/unpriced/price/',
      tags,
      access: { roles: STAFF_ROLES },
      catalogue: [],
      body: PriceNowBody,
      response: PriceNowAnswer,
      summary: 'Price every unpriced parcel a rate line now fits (each charged once)',
    },
    async ({ deps, user, body }) => {
      if (body.company != null) await findCompany(deps.db, body.company);
      const r = await priceUnpriced(deps, user.id, body.company);
      if (r.priced)
        await audit(
          deps.db,
          deps.clock.now(),
          user.id,
          'package.priced_later',
          body.company != null ? `company:${body.company}` : 'package:unpriced',
          { priced: r.priced, remaining: r.remaining },
        );
      return { success: true, message: `${r.priced} parcel(s) priced, ${r.remaining} still unpriced`, ...r };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/package/{id}/pricing/',
      tags,
      access: 'package.view',
      catalogue: [],
      params: IdParams,
      response: ParcelPricing,
      summary: "A parcel's pricing state and what its company has been charged for it (net)",
    },
    async ({ deps, user, params }) => {
      if (user.role === 'driver') throw notFound(`Package ${params.id} not found`);
      await livePackage(deps.db, user, params.id);
      return pricingOf(deps.db, params.id);
    },
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/package/{id}/weight-adjustment/',
      tags,
      access: { roles: STAFF_ROLES },
      catalogue: [],
      params: IdParams,
      body: WeightAdjustmentBody,
      response: Package,
      summary: "Change a parcel's weight (and size) with a reason; after depot receipt this is the depot's measurement, which wins",
      description:
        'Re-prices the parcel: the difference is charged or refunded once (`reprice` transaction). Recorded in the history and the audit log, before -> after.',
    },
    async ({ deps, user, params, body }) =>
      (await packagesByIds(deps.db, [(await adjustWeight(deps, user, params.id, body)).id]))[0] as z.infer<typeof Package>,
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/company/{company_id}/terms/',
      tags,
      access: { roles: STAFF_ROLES },
      catalogue: [],
      params: CompanyParams,
      response: CompanyTerms,
      summary: "A company's terms: unpriced parcels accepted or refused, days to pay a statement",
    },
    async ({ deps, user, params }) => {
      await findCompanyInScope(deps.db, user, params.company_id);
      return { company: params.company_id, ...(await companyPolicy(deps.db, params.company_id)) };
    },
  );

  defineRoute(
    app,
    {
      method: 'patch',
      path: '/company/{company_id}/terms/',
      tags,
      access: { roles: ADMIN_ROLES },
      catalogue: [],
      params: CompanyParams,
      body: CompanyTermsUpdate,
      response: CompanyTerms,
      summary: "Set a company's terms (admins); audited before -> after",
    },
    async ({ deps, user, params, body }) => {
      await findCompany(deps.db, params.company_id);
      const now = deps.clock.now();
      const { before, after } = await setCompanyTerms(deps.db, now, params.company_id, body);
      await audit(deps.db, now, user.id, 'company.terms', `company:${params.company_id}`, { before, after });
      return { company: params.company_id, ...after };
    },
  );
}
