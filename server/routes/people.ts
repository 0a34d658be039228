import { Company, CompanyCreate, CompanyUpdate, Employee, EmployeeCreate, EmployeeUpdate } from '../../shared/schemas/people';
import { company, user } from '../db/schema/index';
import { iso } from '../clock';
import { ops } from '../http/catalogue';
import type { App } from '../http/env';
import { defineResource, type Row } from '../resources/crud';
import { companyScope, validateCompany } from '../services/org/company';
import { afterEmployeeWrite, assertMayManage, employeeRow, employeeScope, validateEmployee } from '../services/org/employees';
import { filterQuery } from './org/filters';
import { HandoverChoice, handOverOnDeactivate, refuseArchiveWithOpenWork } from '../services/org/handover';
import { z } from 'zod';

/** Deactivating a driver may carry what happens to their open parcels and routes (issue 18 item 6). */
const EmployeeStatusChange = z.object({ is_active: z.boolean(), handover: HandoverChoice.optional() });

export const toCompany = (r: Row) => ({
  id: r.id,
  name: r.name,
  email: r.email,
  phone: r.phone,
  address: r.address,
  code: r.code,
  abn: r.abn,
  status: r.status,
  billing_type: r.billing_type,
  currency: r.currency,
  is_active: r.is_active,
  created_at: iso(r.created_at as number),
});
const docUrl = (r: Row, column: string, slug: string) => (r[column] != null ? `/api/employee/${String(r.id)}/document/${slug}/` : null);
export const toEmployee = (r: Row) => ({
  id: r.id,
  name: r.name,
  email: r.email,
  phone: r.phone,
  role: r.role,
  company: r.company_id,
  is_active: r.is_active,
  profile_image: r.profile_image_file_id != null ? `/api/employee/${String(r.id)}/profile-image/` : null,
  documents: {
    driving_license: docUrl(r, 'driving_license_file_id', 'driving-license'),
    police_check: docUrl(r, 'police_check_file_id', 'police-check'),
    passport: docUrl(r, 'passport_file_id', 'passport'),
    visa: docUrl(r, 'visa_file_id', 'visa'),
  },
  archived_at: iso(r.deleted_at as number | null),
  created_at: iso(r.created_at as number),
});

export function peopleRoutes(app: App): void {
  defineResource(app, {
    path: 'company',
    table: company,
    label: 'Company',
    view: 'company.view',
    manage: 'company.manage',
    ops: {
      list: ops('web/Company', 'Get'),
      create: ops('web/Company', 'Create'),
      retrieve: ops('web/Company', 'Retrieve'),
      update: ops('web/Company', 'Update'),
      delete: ops('web/Company', 'Delete'),
      archiveList: ops('web/Company', 'Archive/Archive List'),
      archive: ops('web/Company', 'Archive/Archive'),
      restore: ops('web/Company', 'Archive/Restore'),
    },
    record: Company,
    create: CompanyCreate,
    update: CompanyUpdate,
    toApi: toCompany,
    scope: companyScope,
    validate: validateCompany,
    listQuery: filterQuery('status', 'billing_type', 'is_active'),
    list: {
      search: ['name', 'email', 'code', 'phone'],
      ordering: ['name', 'code', 'created_at', 'status'],
      filters: { status: 'status', billing_type: 'billing_type', is_active: 'is_active' },
    },
  });

  defineResource(app, {
    path: 'employee',
    table: user,
    label: 'Employee',
    view: 'employee.view',
    manage: 'employee.manage',
    ops: {
      list: ops('web/Employee', 'Get'),
      create: ops('web/Employee', 'Create'),
      retrieve: ops('web/Employee', 'Retrieve'),
      update: ops('web/Employee', 'Update'),
      statusChange: ops('web/Employee', 'Status Change'),
      archiveList: ops('web/Employee', 'Archive/Archive List'),
      archive: ops('web/Employee', 'Archive/Archive'),
      restore: ops('web/Employee', 'Archive/Restore'),
    },
    record: Employee,
    create: EmployeeCreate,
    update: EmployeeUpdate,
    toApi: toEmployee,
    scope: employeeScope,
    guard: (row, { user: me }) => assertMayManage(me, { id: row.id as number, role: String(row.role) }),
    afterWrite: afterEmployeeWrite,
    beforeArchive: (row, { deps }) => refuseArchiveWithOpenWork(deps.db, { id: row.id as number, role: String(row.role) }),
    statusChange: {
      body: EmployeeStatusChange,
      before: async (row, body, { deps, user: me }) => {
        const sent = EmployeeStatusChange.parse(body);
        if (sent.is_active) return;
        await handOverOnDeactivate(
          deps,
          me,
          { id: row.id as number, role: String(row.role), is_active: Boolean(row.is_active) },
          sent.handover,
        );
      },
    },
    toRow: employeeRow,
    validate: validateEmployee,
    listQuery: filterQuery('role', 'company', 'is_active'),
    list: {
      search: ['name', 'email', 'phone'],
      ordering: ['name', 'email', 'role', 'created_at'],
      filters: { role: 'role', company: 'company_id', is_active: 'is_active' },
    },
  });
}
