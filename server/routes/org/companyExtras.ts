import { and, eq, inArray, ne } from 'drizzle-orm';
import { IdParams, SuccessMessage } from '../../../shared/schemas/common';
import { DepotAddress, DepotAddressCreate, DepotAddressUpdate, RegisterCompanyBody, RegisterCompanyResponse } from '../../../shared/schemas/org';
import { Company, CompanyStatusBody } from '../../../shared/schemas/people';
import { iso } from '../../clock';
import type { Db } from '../../db/client';
import { company, companyDepotAddress } from '../../db/schema/index';
import { badRequest, forbidden, notFound } from '../../errors';
import { ops } from '../../http/catalogue';
import { clientIp } from '../../http/client';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { defineResource, type ResourceContext, type Row } from '../../resources/crud';
import { authUser } from '../../services/auth/accounts';
import { hashPassword } from '../../services/auth/passwords';
import { changeCompanyStatus, REGISTER_LIMIT, REGISTER_WINDOW_MS, registerCompany } from '../../services/org/company';
import { toCompany } from '../people';
import { filterQuery } from './filters';
import { audit, changes } from '../../services/audit/record';

const tags = ['Company'];

const toDepot = (r: Row) => ({
  id: r.id, company: r.company_id, name: r.name, street_address: r.street_address, additional_details: r.additional_details,
  suburb: r.suburb, state: r.state, postcode: r.postcode, contact_phone: r.contact_phone, latitude: r.latitude, longitude: r.longitude,
  is_default: r.is_default, is_active: r.is_active, created_at: iso(r.created_at as number),
});

/** A company login writes its own depots; staff need company.manage and name an existing company. */
async function depotOwner(values: Row, { deps, user }: ResourceContext): Promise<void> {
  if (user.companyId == null && !user.permissions.has('company.manage')) throw forbidden('You need the "company.manage" permission');
  const id = values.company_id as number | undefined;
  if (id == null) throw badRequest('Name the company of this depot address', [{ path: 'company', message: 'required' }]);
  const co = await deps.db.select({ id: company.id }).from(company).where(eq(company.id, id)).get();
  if (!co || (user.companyId != null && id !== user.companyId)) throw notFound(`Company ${id} not found`);
}

export function companyExtraRoutes(app: App): void {
  defineRoute(app, {
    method: 'post', path: '/company/register/', tags, access: 'public', transactional: true,
    catalogue: ops('web/Company', 'Register Company Without Auth'),
    summary: 'Register a company and its login without an account (waits for approval)',
    description: `Creates the company with status "pending" and its company login. It can sign in once an admin sets the status to "active". At most ${REGISTER_LIMIT} registrations an hour per client address.`,
    body: RegisterCompanyBody, response: RegisterCompanyResponse, status: 201,
    prepare: async ({ deps, body, c }) => {
      await deps.limiter.hit(`register-company:${clientIp(c, deps.config)}`, REGISTER_LIMIT, REGISTER_WINDOW_MS, deps.clock.now());
      return hashPassword(body.password);
    },
  }, async ({ deps, body, prepared }) => {
    const made = await registerCompany(deps, body, prepared);
    // No one is signed in: the actor is empty and the new login is named in `after`.
    await audit(deps.db, deps.clock.now(), null, 'company.register', `company:${made.company.id}`, { ...changes(null, made.company), login: made.user.id });
    return {
      success: true, message: 'Registered; an administrator will review the company before it can log in',
      company: toCompany(made.company), user: authUser(made.user),
    };
  });

  defineRoute(app, {
    method: ['post', 'patch'], path: '/company/{id}/status-change/', tags, access: 'company.manage',
    catalogue: ops('web/Company', 'Status Change'), params: IdParams, body: CompanyStatusBody, response: Company,
    summary: 'Approve, suspend or reactivate a company',
    description: 'Status `active`, `suspended` or `pending`. While not active its logins cannot sign in, their tokens stop working and its new packages are refused.',
  }, async ({ deps, user, params, body }) => {
    if (user.companyId != null && user.companyId !== params.id) throw notFound(`Company ${params.id} not found`);
    if (user.companyId != null) throw forbidden('A company cannot change its own status');
    const before = await deps.db.select({ status: company.status }).from(company).where(eq(company.id, params.id)).get();
    const changed = await changeCompanyStatus(deps, params.id, body.status);
    await audit(deps.db, deps.clock.now(), user.id, 'company.status_change', `company:${params.id}`, { before: { status: before?.status ?? null }, after: { status: changed.status } });
    return toCompany(changed);
  });

  defineResource(app, {
    path: 'company/depot-address', table: companyDepotAddress, label: 'Depot address', tags: ['Company depot address'],
    view: 'company.view', manage: 'company.view',
    ops: {
      list: ops('web/Company/Depo Address', 'Get'), create: ops('web/Company/Depo Address', 'Create'),
      retrieve: ops('web/Company/Depo Address', 'Retrieve'), update: ops('web/Company/Depo Address', 'Update'),
    },
    record: DepotAddress, create: DepotAddressCreate, update: DepotAddressUpdate, toApi: toDepot,
    scope: (u) => (u.companyId != null ? eq(companyDepotAddress.company_id, u.companyId) : undefined),
    toRow: (input, { user, existing }) => {
      const { company: companyId, ...rest } = input;
      const row: Row = { ...rest };
      if (user.companyId != null) {
        if (companyId != null && companyId !== user.companyId) throw notFound(`Company ${companyId} not found`);
        if (!existing) row.company_id = user.companyId;
      } else if (companyId !== undefined) row.company_id = companyId;
      return row;
    },
    validate: depotOwner,
    afterWrite: (db, ids) => keepOneDefault(db, ids),
    listQuery: filterQuery('company', 'is_active', 'is_default'),
    list: {
      search: ['name', 'street_address', 'suburb', 'state', 'postcode'], ordering: ['name', 'suburb', 'postcode', 'created_at'],
      filters: { company: 'company_id', is_active: 'is_active', is_default: 'is_default' },
    },
  });

  defineRoute(app, {
    method: 'delete', path: '/company/depot-address/{id}/', tags: ['Company depot address'], access: 'company.view',
    catalogue: ops('web/Company/Depo Address', 'Delete'), params: IdParams, response: SuccessMessage,
    summary: 'Delete a depot address',
  }, async ({ deps, user, params }) => {
    const row = await deps.db.select().from(companyDepotAddress).where(and(
      user.companyId != null ? eq(companyDepotAddress.company_id, user.companyId) : undefined, eq(companyDepotAddress.id, params.id),
    )).get();
    if (!row) throw notFound(`Depot address ${params.id} not found`);
    await depotOwner(row, { deps, user });
    await deps.db.delete(companyDepotAddress).where(eq(companyDepotAddress.id, params.id)).run();
    return { success: true, message: `Depot address ${params.id} deleted` };
  });
}

/** A company has at most one default depot: marking one clears the flag on the others. */
async function keepOneDefault(db: Db, ids: number[]): Promise<void> {
  const rows = ids.length ? await db.select().from(companyDepotAddress).where(and(inArray(companyDepotAddress.id, ids), eq(companyDepotAddress.is_default, true))).all() : [];
  for (const r of rows) {
    await db.update(companyDepotAddress).set({ is_default: false })
      .where(and(eq(companyDepotAddress.company_id, r.company_id), ne(companyDepotAddress.id, r.id))).run();
  }
}
