import { IdParams, SuccessMessage } from '../../../shared/schemas/common';
import {
  DepotAddress,
  DepotAddressCreate,
  DepotAddressUpdate,
  RegisterCompanyBody,
  RegisterCompanyResponse,
} from '../../../shared/schemas/org';
import { Company, CompanyStatusBody } from '../../../shared/schemas/people';
import { iso } from '../../clock';
import { companyDepotAddress } from '../../db/schema/index';
import { ops } from '../../http/catalogue';
import { clientIp } from '../../http/client';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { defineResource, type Row } from '../../resources/crud';
import { hashPassword } from '../../services/auth/passwords';
import { changeCompanyStatus, REGISTER_LIMIT, REGISTER_WINDOW_MS, registerCompany, registeredMessage } from '../../services/org/company';
import { deleteDepot, depotOwner, depotRow, depotScope, keepOneDefault } from '../../services/org/depots';
import { toCompany } from '../people';
import { filterQuery } from './filters';
import { audit, changes } from '../../services/audit/record';

const tags = ['Company'];

const toDepot = (r: Row) => ({
  id: r.id,
  company: r.company_id,
  name: r.name,
  street_address: r.street_address,
  additional_details: r.additional_details,
  suburb: r.suburb,
  state: r.state,
  postcode: r.postcode,
  contact_phone: r.contact_phone,
  latitude: r.latitude,
  longitude: r.longitude,
  is_default: r.is_default,
  is_active: r.is_active,
  created_at: iso(r.created_at as number),
});

export function companyExtraRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'post',
      path: '/company/register/',
      tags,
      access: 'public',
      transactional: true,
      catalogue: ops('web/Company', 'Register Company Without Auth'),
      summary: 'Register a company and its login without an account (waits for approval)',
      description: `Creates the company with status "pending" and its company login, and e-mails the address. It can sign in once an admin sets the status to "active". An e-mail that already has an account gets the same answer (nothing is created; its owner is told by e-mail), so this cannot tell who has an account. At most ${REGISTER_LIMIT} registrations an hour per client address.`,
      body: RegisterCompanyBody,
      response: RegisterCompanyResponse,
      status: 201,
      prepare: async ({ deps, body, c }) => {
        await deps.limiter.hit(`register-company:${clientIp(c, deps.config)}`, REGISTER_LIMIT, REGISTER_WINDOW_MS, deps.clock.now());
        // Hashed whether or not the e-mail is known: both answers cost the same.
        return hashPassword(body.password);
      },
    },
    async ({ deps, body, prepared }) => {
      const made = await registerCompany(deps, body, prepared);
      // No one is signed in: the actor is empty and the new login (or the account the e-mail belongs to) is named.
      if ('existing' in made) await audit(deps.db, deps.clock.now(), null, 'company.register_existing_email', `user:${made.existing}`, {});
      else
        await audit(deps.db, deps.clock.now(), null, 'company.register', `company:${made.company.id}`, {
          ...changes(null, made.company),
          login: made.user.id,
        });
      return { success: true, message: registeredMessage(body.email) };
    },
  );

  defineRoute(
    app,
    {
      method: ['post', 'patch'],
      path: '/company/{id}/status-change/',
      tags,
      access: 'company.manage',
      catalogue: ops('web/Company', 'Status Change'),
      params: IdParams,
      body: CompanyStatusBody,
      response: Company,
      summary: 'Approve, suspend or reactivate a company',
      description:
        'Status `active`, `suspended` or `pending`. While not active its logins cannot sign in, their tokens stop working and its new packages are refused.',
    },
    async ({ deps, user, params, body }) => {
      const { before, after } = await changeCompanyStatus(deps, user, params.id, body.status);
      await audit(deps.db, deps.clock.now(), user.id, 'company.status_change', `company:${params.id}`, {
        before: { status: before.status },
        after: { status: after.status },
      });
      return toCompany(after);
    },
  );

  defineResource(app, {
    path: 'company/depot-address',
    table: companyDepotAddress,
    label: 'Depot address',
    tags: ['Company depot address'],
    view: 'company.view',
    manage: 'company.view',
    ops: {
      list: ops('web/Company/Depo Address', 'Get'),
      create: ops('web/Company/Depo Address', 'Create'),
      retrieve: ops('web/Company/Depo Address', 'Retrieve'),
      update: ops('web/Company/Depo Address', 'Update'),
    },
    record: DepotAddress,
    create: DepotAddressCreate,
    update: DepotAddressUpdate,
    toApi: toDepot,
    scope: depotScope,
    toRow: depotRow,
    validate: depotOwner,
    afterWrite: (db, ids) => keepOneDefault(db, ids),
    listQuery: filterQuery('company', 'is_active', 'is_default'),
    list: {
      search: ['name', 'street_address', 'suburb', 'state', 'postcode'],
      ordering: ['name', 'suburb', 'postcode', 'created_at'],
      filters: { company: 'company_id', is_active: 'is_active', is_default: 'is_default' },
    },
  });

  defineRoute(
    app,
    {
      method: 'delete',
      path: '/company/depot-address/{id}/',
      tags: ['Company depot address'],
      access: 'company.view',
      catalogue: ops('web/Company/Depo Address', 'Delete'),
      params: IdParams,
      response: SuccessMessage,
      summary: 'Delete a depot address',
    },
    async ({ deps, user, params }) => {
      await deleteDepot(deps, user, params.id);
      return { success: true, message: `Depot address ${params.id} deleted` };
    },
  );
}
