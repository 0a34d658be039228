import { z } from 'zod';
import { ArchiveBody, IdParams, restoreEnvelope, SuccessMessage } from '../../shared/schemas/common';
import {
  AreaByPostcodeAnswer,
  AreaByPostcodeQuery,
  LIST_FILTERS_DOC,
  Package,
  PackageCreate,
  PackageListAnswer,
  PackageListQuery,
  PackageStatusChangeBody,
  PackageUpdate,
  PriceAnswer,
  PriceQuoteBody,
  ZoneOverrideBody,
} from '../../shared/schemas/package';
import { isStaff, STAFF_ROLES } from '../../shared/roles';
import { badRequest, forbidden } from '../errors';
import { ops } from '../http/catalogue';
import type { App } from '../http/env';
import { rawArray, rawObject } from '../http/rawJson';
import { defineRoute } from '../http/route';
import { placesByPostcode } from '../services/geo/lookup';
import { setPackagesArchived } from '../services/packages/archive';
import { createPackage, senderZone } from '../services/packages/create';
import { changeStatus, deletePackage, editPackage } from '../services/packages/edit';
import { findPackage } from '../services/packages/lifecycle';
import { priceFor, type PriceQuote } from '../services/packages/price';
import { visiblePackage } from '../services/packages/scope';
import { packageJson, packageJsonByIds } from '../services/packages/json';
import { answerFor, answersFor } from '../services/geo/senderView';
import type { Db } from '../db/client';
import type { SessionUser } from '../services/auth/session';
import { assignedTo, packageList, packageListWhere, packagePage, withZone } from '../services/packages/list';
import { livePackage } from '../services/history/live';
import { frozenAnswer, visibleInHistory } from '../services/history/read';
import { overrideZone } from '../services/packages/zoneOverride';
import { requireQuoteAccess } from '../services/money/access';

const tags = ['Package'];
const pm = (...names: string[]) => ops('web/Package Model', ...names);

/** One parcel's answer as the caller may see it (a sender never sees the shared address book's point). */
const one = async (db: Db, user: SessionUser, id: number) => answerFor(db, user, await packageJson(db, id));

const priceAnswer = (packageId: number | null, q: PriceQuote & { zoneId: number | null }) => ({
  success: true,
  package: packageId,
  currency: q.currency,
  amount: q.amount,
  price: q.amount / 100,
  chargeable_weight: q.chargeableWeight,
  volumetric_weight: q.volumetricWeight,
  method: q.method,
  zone: q.zoneId,
});

export function packageRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/package/',
      tags,
      access: 'package.view',
      query: PackageListQuery,
      response: PackageListAnswer,
      catalogue: pm('Get', 'Multiple Zone Filter'),
      summary: 'List packages (companies see their own, drivers theirs)',
      description: LIST_FILTERS_DOC,
    },
    async ({ deps, user, query, c }) => packageList(deps.db, user, await withZone(deps, query), c.req.url),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/package/',
      tags,
      access: 'package.manage',
      body: PackageCreate,
      response: Package,
      status: 201,
      catalogue: pm('Create', 'Create Package by Company'),
      summary: 'Create a package (a company user creates for its own company)',
    },
    async ({ deps, user, body }) => one(deps.db, user, (await createPackage(deps, user, body)).id),
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/package/archive-package-list/',
      tags,
      access: 'package.view',
      query: PackageListQuery,
      response: PackageListAnswer,
      catalogue: pm('Archive/Archive List'),
      summary: 'List archived packages',
      description: LIST_FILTERS_DOC,
    },
    async ({ deps, user, query, c }) =>
      packagePage(deps.db, user, packageListWhere(user, await withZone(deps, query), true), query, c.req.url),
  );

  for (const archive of [true, false]) {
    defineRoute(
      app,
      {
        method: ['post', 'patch'],
        path: archive ? '/package/archive-package/' : '/package/restore-package/',
        tags,
        access: 'package.manage',
        body: ArchiveBody,
        response: restoreEnvelope(Package),
        catalogue: pm(archive ? 'Archive/Archive' : 'Archive/Restore'),
        summary: archive ? 'Archive packages' : 'Restore archived packages',
        description:
          "Body `{ deleted: [ids] }`, all or nothing; unknown ids (or another company's) answer 400 naming them. " +
          'Answers the envelope of spec 4.6 with the packages this call changed. ' +
          (archive ? 'A parcel with a driver (assigned, out for delivery, failed) cannot be archived (409).' : ''),
      },
      async ({ deps, user, body }) => {
        const data = await answersFor(
          deps.db,
          user,
          await packageJsonByIds(deps.db, await setPackagesArchived(deps, user, body.deleted, archive)),
        );
        return rawObject({ count: data.length, next: null, previous: null, results: rawObject({ success: true, data: rawArray(data) }) });
      },
    );
  }

  defineRoute(
    app,
    {
      method: 'get',
      path: '/package/area-by-postcode/',
      tags,
      access: 'package.view',
      query: AreaByPostcodeQuery,
      response: AreaByPostcodeAnswer,
      catalogue: pm('Area by Postcode'),
      summary: 'Suburbs (with their zone and state) and areas for a postcode',
      description: 'Matches suburbs by their own postcode and by the pincode table.',
    },
    async ({ deps, query }) => ({ success: true, postcode: query.postcode, ...(await placesByPostcode(deps.db, query.postcode)) }),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/package/price/',
      tags,
      access: 'package.view',
      body: PriceQuoteBody,
      response: PriceAnswer,
      catalogue: pm('Get Price'),
      transactional: false,
      summary: 'Quote a price for a parcel not yet created',
      description:
        'Weight in kg, dimensions in cm. `amount` is in minor units; `price` the same in major units. A company is quoted its own prices. ' +
        "A quote needs what the rate card needs (`rate.view`, and the company in the caller's scope): otherwise 403. No rate line that fits the parcel answers 404.",
    },
    async ({ deps, user, body }) => {
      if (user.role === 'company' && body.company != null && body.company !== user.companyId)
        throw forbidden('A company is quoted only its own prices');
      const companyId = user.role === 'company' ? user.companyId : body.company;
      // A quote reads a rate card: it needs what the card itself needs (rate.view, and the company in scope).
      requireQuoteAccess(user, companyId ?? null);
      return priceAnswer(
        null,
        await priceFor(deps.db, {
          companyId,
          weightKg: body.weight,
          lengthCm: body.length,
          widthCm: body.width,
          heightCm: body.height,
          zoneId: senderZone(user, body.zone),
          postcode: body.postcode,
          suburbId: body.suburb,
          postcodeName: body.postcode_name,
          customerAddress: body.customer_address,
          pkgType: body.pkg_type,
        }),
      );
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/package/{id}/price/',
      tags,
      access: 'package.view',
      params: IdParams,
      response: PriceAnswer,
      catalogue: pm('Get Price'),
      summary: 'The price of an existing package',
      description: 'No rate line that fits the parcel answers 404.',
    },
    async ({ deps, user, params }) => {
      const row = await livePackage(deps.db, user, params.id);
      return priceAnswer(
        row.id,
        await priceFor(deps.db, {
          companyId: row.company_id,
          weightKg: row.weight,
          lengthCm: row.length,
          widthCm: row.width,
          heightCm: row.height,
          zoneId: row.zone_id,
          postcode: row.postcode,
          pkgType: row.pkg_type,
        }),
      );
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/package/by-driver/',
      tags,
      access: { roles: [...STAFF_ROLES, 'driver'] },
      query: PackageListQuery.extend({ driver: z.coerce.number().int().positive().optional() }),
      response: PackageListAnswer,
      catalogue: pm('Package by Driver'),
      summary: "A driver's packages (staff: `?driver=<employee id>`, required; a driver: their own)",
      description: `Every package assigned to the driver, archived ones left out. ${LIST_FILTERS_DOC}`,
    },
    async ({ deps, user, query, c }) => {
      let driverId = query.driver;
      if (isStaff(user.role)) {
        if (driverId == null) throw badRequest('Name the driver: ?driver=<employee id>', [{ path: 'driver', message: 'required' }]);
      } else {
        if (driverId != null && driverId !== user.id) throw forbidden('You may only list your own packages');
        driverId = user.id;
      }
      const q = await withZone(deps, { ...query, driver: undefined });
      return packageList(deps.db, user, q, c.req.url, assignedTo(driverId));
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/package/{id}/',
      tags,
      access: 'package.view',
      params: IdParams,
      response: Package,
      catalogue: pm('Retrieve', 'Get Package by ID'),
      summary: 'Retrieve a package',
    },
    async ({ deps, user, params }) => {
      const row = await findPackage(deps.db, params.id);
      // A parcel moved to history answers what it answered the moment it moved.
      const cold = row ? undefined : await visibleInHistory(deps.db, user, params.id);
      if (cold) return answerFor(deps.db, user, await frozenAnswer(deps.db, cold));
      visiblePackage(user, row, params.id);
      return one(deps.db, user, params.id);
    },
  );

  defineRoute(
    app,
    {
      method: ['patch', 'put'],
      path: '/package/{id}/',
      tags,
      access: 'package.manage',
      params: IdParams,
      body: PackageUpdate,
      response: Package,
      catalogue: pm('Update', 'Update Package by Company'),
      summary: 'Update the details of a package that is not final (a company: its own)',
      description:
        'Partial: only the fields sent change; PUT is a synonym. Status and driver are not editable here ' +
        '(status-change, assign and unassign are). A final package answers 409; the hawb changes only while the package is `created`.',
    },
    async ({ deps, user, params, body }) => one(deps.db, user, (await editPackage(deps, user, params.id, body)).id),
  );

  defineRoute(
    app,
    {
      method: 'post',
      path: '/package/{id}/zone-override/',
      tags,
      access: { roles: ['super_admin', 'admin', 'supervisor'] },
      params: IdParams,
      body: ZoneOverrideBody,
      response: Package,
      catalogue: [],
      summary: "The office sets a parcel's zone by hand (audited)",
      description:
        "A parcel's zone follows its address; senders cannot set it. This override, with a `reason`, re-prices the parcel once " +
        '(charging or refunding the difference), goes into its history and the audit log, and holds while the address stays the same ' +
        '(a depot scan keeps it; a new address is located again). A final parcel answers 409, an unknown zone 400.',
    },
    async ({ deps, user, params, body }) => one(deps.db, user, (await overrideZone(deps, user, params.id, body)).id),
  );

  defineRoute(
    app,
    {
      method: 'delete',
      path: '/package/{id}/',
      tags,
      access: 'package.manage',
      params: IdParams,
      response: SuccessMessage,
      catalogue: pm('Delete'),
      summary: 'Delete a package nobody has handled yet',
      description: 'Only while `created` with no scan or transition beyond its creation; afterwards 409 (cancel or archive it instead).',
    },
    async ({ deps, user, params }) => {
      const row = await deletePackage(deps, user, params.id);
      return { success: true, message: `Package ${row.hawb} deleted` };
    },
  );

  defineRoute(
    app,
    {
      method: ['post', 'patch'],
      path: '/package/{id}/status-change/',
      tags,
      access: { roles: ['super_admin', 'admin', 'supervisor'] },
      params: IdParams,
      body: PackageStatusChangeBody,
      response: Package,
      catalogue: pm('Status Change'),
      summary: 'Set a package status by hand (admins and supervisors)',
      description:
        'Goes through the lifecycle table: a change it does not allow answers 409 invalid_transition. `received` also takes the ' +
        'parcel off its driver. Assigning, loading, delivering and failing have their own operations.',
    },
    async ({ deps, user, params, body }) => one(deps.db, user, (await changeStatus(deps, user, params.id, body.status, body.note)).id),
  );
}
