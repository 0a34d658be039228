import { and, eq, ne } from 'drizzle-orm';
import { Company, CompanyCreate, CompanyUpdate, Employee, EmployeeCreate, EmployeeUpdate } from '../../shared/schemas/people';
import { isAdmin } from '../../shared/roles';
import { company, user } from '../db/schema/index';
import { iso } from '../clock';
import { badRequest, conflict, forbidden } from '../errors';
import { ops } from '../http/catalogue';
import type { App } from '../http/env';
import { defineResource, type Row } from '../resources/crud';
import { revokeAllTokens } from '../services/auth/accounts';
import { hashPasswordSync } from '../services/auth/passwords';

export const toCompany = (r: Row) => ({
  id: r.id, name: r.name, email: r.email, phone: r.phone, address: r.address, code: r.code, abn: r.abn,
  status: r.status, billing_type: r.billing_type, currency: r.currency, is_active: r.is_active, created_at: iso(r.created_at as number),
});
export const toEmployee = (r: Row) => ({
  id: r.id, name: r.name, email: r.email, phone: r.phone, role: r.role, company: r.company_id, is_active: r.is_active,
  created_at: iso(r.created_at as number),
});

export function peopleRoutes(app: App): void {
  defineResource(app, {
    path: 'company', table: company, label: 'Company', view: 'company.view', manage: 'company.manage',
    ops: {
      list: ops('web/Company', 'Get'), create: ops('web/Company', 'Create'), retrieve: ops('web/Company', 'Retrieve'),
      update: ops('web/Company', 'Update'),
    },
    record: Company, create: CompanyCreate, update: CompanyUpdate, toApi: toCompany,
    // A company login sees only its own company.
    scope: (u) => (u.companyId != null ? eq(company.id, u.companyId) : undefined),
    validate: (values, { deps, existing }) => {
      const dup = deps.db.select({ id: company.id }).from(company)
        .where(and(eq(company.code, String(values.code)), existing ? ne(company.id, existing.id as number) : undefined)).get();
      if (dup) throw conflict(`Company code ${String(values.code)} is already used by company ${dup.id}`);
    },
    list: { search: ['name', 'email', 'code', 'phone'], ordering: ['name', 'code', 'created_at', 'status'], filters: { status: 'status', billing_type: 'billing_type', is_active: 'is_active' } },
  });

  defineResource(app, {
    path: 'employee', table: user, label: 'Employee', view: 'employee.view', manage: 'employee.manage',
    ops: {
      list: ops('web/Employee', 'Get'), create: ops('web/Employee', 'Create'), retrieve: ops('web/Employee', 'Retrieve'),
      update: ops('web/Employee', 'Update'),
    },
    record: Employee, create: EmployeeCreate, update: EmployeeUpdate, toApi: toEmployee,
    scope: (u) => (u.companyId != null ? eq(user.company_id, u.companyId) : undefined),
    toRow: (input, { user: me, existing }) => {
      const { password, company: companyId, ...rest } = input;
      const role = input.role ?? (existing?.role as string | undefined);
      if ((role === 'super_admin' || role === 'admin') && !isAdmin(me.role)) throw forbidden('Only admins can create or promote admins');
      if (role === 'super_admin' && me.role !== 'super_admin') throw forbidden('Only a super admin can create super admins');
      const row: Row = { ...rest };
      if (companyId !== undefined) row.company_id = companyId;
      if (me.companyId != null) row.company_id = me.companyId;
      if (password) row.password_hash = hashPasswordSync(password);
      return row;
    },
    validate: (values, { deps, existing }) => {
      if (values.role === 'company' && values.company_id == null) {
        throw badRequest('A company login needs its company', [{ path: 'company', message: 'required for role company' }]);
      }
      const dup = deps.db.select({ id: user.id }).from(user)
        .where(and(eq(user.email, String(values.email)), existing ? ne(user.id, existing.id as number) : undefined)).get();
      if (dup) throw conflict(`The e-mail ${String(values.email)} is already used by another account`);
      if (existing && (values.is_active === false || values.password_hash !== existing.password_hash || values.deleted_at != null)) {
        revokeAllTokens(deps, existing.id as number);
      }
    },
    list: {
      search: ['name', 'email', 'phone'], ordering: ['name', 'email', 'role', 'created_at'],
      filters: { role: 'role', company: 'company_id', is_active: 'is_active' },
    },
  });
}

