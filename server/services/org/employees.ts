import { and, eq, inArray, isNull, notInArray, type SQL } from 'drizzle-orm';
import { isStaff, outranks, type Role } from '../../../shared/roles';
import type { Deps } from '../../deps';
import type { Db } from '../../db/client';
import { referencingRows } from '../../db/references';
import { authToken, passwordReset, user, userPermissionGroup } from '../../db/schema/index';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import type { ResourceContext, Row } from '../../resources/crud';
import { twinOf } from '../../db/twin';
import { revokeAllTokens } from '../auth/accounts';
import { hashPassword } from '../auth/passwords';
import type { EmployeeCreate } from '../../../shared/schemas/people';
import type { z } from 'zod';
import type { SessionUser } from '../auth/session';

export type UserRow = typeof user.$inferSelect;

/**
 * The rank rule (shared/roles.ts `outranks`) on another person's account, whatever the fields of the
 * request: nobody edits, deactivates, archives, deletes, resets, re-roles, regroups or signs out an
 * account of their own rank or above. `self: 'allow'` lets an account act on itself where the path
 * has its own self rules (an edit of one's own name); 'deny' for paths that would raise oneself.
 */
export function assertMayManage(me: SessionUser, target: { id: number; role: string }, self: 'allow' | 'deny' = 'allow'): void {
  if (target.id === me.id && self === 'allow') return;
  if (target.id === me.id && me.role !== 'super_admin')
    throw forbidden('You cannot do this to your own account; ask someone of a higher rank');
  if (!outranks(me.role, target.role as Role)) {
    throw forbidden(`Only someone of a higher rank than ${target.role.replace('_', ' ')} can change this account`);
  }
}

/** Nobody gives an account (new or existing) a role of their own rank or above. */
export function assertMayGiveRole(me: SessionUser, role: string): void {
  if (!outranks(me.role, role as Role)) throw forbidden(`You cannot give the role ${role.replace('_', ' ')}: it is not below your own`);
}

/** A company login sees only its own company's people; staff see everyone. */
export function employeeScope(me: SessionUser): SQL | undefined {
  return me.companyId != null ? eq(user.company_id, me.companyId) : undefined;
}

/** An employee the caller may see (archived ones included); outside scope is 404. */
export async function findEmployee(db: Db, me: SessionUser, id: number): Promise<UserRow> {
  const row = await db
    .select()
    .from(user)
    .where(and(employeeScope(me), eq(user.id, id)))
    .get();
  if (!row) throw notFound(`Employee ${id} not found`);
  return row;
}

/** Identity documents are for staff and the employee themself, not for a company login. */
export async function findEmployeeForDocuments(db: Db, me: SessionUser, id: number, write: boolean): Promise<UserRow> {
  if (me.id !== id) {
    if (!isStaff(me.role) && !me.permissions.has('employee.manage')) throw notFound(`Employee ${id} not found`);
    if (write && !me.permissions.has('employee.manage')) throw forbidden('You need the "employee.manage" permission');
  }
  const row = await findEmployee(db, me, id);
  if (write) assertMayManage(me, row);
  return row;
}

/** Active, not archived drivers the caller may see, with extra conditions. */
export function driverWhere(me: SessionUser, ...more: (SQL | undefined)[]): SQL | undefined {
  return and(employeeScope(me), eq(user.role, 'driver'), eq(user.is_active, true), isNull(user.deleted_at), ...more);
}

export function companyDriversWhere(me: SessionUser, companyId: number | undefined): SQL | undefined {
  const company = me.companyId ?? companyId;
  if (company == null) throw badRequest('Name the company: ?company=<id>', [{ path: 'company', message: 'required' }]);
  if (me.companyId != null && companyId != null && companyId !== me.companyId) throw notFound(`Company ${companyId} not found`);
  return driverWhere(me, eq(user.company_id, company));
}

export function excludeDriversWhere(me: SessionUser, exclude: string | undefined): SQL | undefined {
  const ids = (exclude ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number)
    .slice(0, 500);
  return driverWhere(me, ids.length ? notInArray(user.id, ids) : undefined);
}

/** API input -> columns of an account; a company login only ever writes its own company's people. */
export async function employeeRow(input: Partial<z.output<typeof EmployeeCreate>>, { user: me, existing }: ResourceContext): Promise<Row> {
  const { password, company: companyId, ...rest } = input;
  // The rank rule: a new account, or a changed role, must rank below the one who gives it.
  if (input.role !== undefined && input.role !== existing?.role) assertMayGiveRole(me, input.role);
  const row: Row = { ...rest };
  if (companyId !== undefined) row.company_id = companyId;
  if (me.companyId != null) row.company_id = me.companyId;
  if (password) row.password_hash = await hashPassword(password);
  return row;
}

/** Before an employee write: a company login names its company, e-mails stay unique, a new password ends old sessions. */
export async function validateEmployee(values: Row, { deps, existing }: ResourceContext): Promise<void> {
  if (values.role === 'company' && values.company_id == null) {
    throw badRequest('A company login needs its company', [{ path: 'company', message: 'required for role company' }]);
  }
  const dup = await twinOf(deps.db, user, [eq(user.email, String(values.email))], existing?.id);
  if (dup) throw conflict(`The e-mail ${String(values.email)} is already used by another account`);
  if (existing && values.password_hash !== existing.password_hash) await revokeAllTokens(deps, existing.id as number);
}

/**
 * After any employee write: a disabled or archived account loses its sessions at once (so restoring
 * it does not revive old tokens), and nobody disables or archives themself or a super admin
 * without being one.
 */
export async function afterEmployeeWrite(db: Db, ids: number[], { deps, user: me }: ResourceContext): Promise<void> {
  const rows = ids.length ? await db.select().from(user).where(inArray(user.id, ids)).all() : [];
  for (const row of rows) {
    if (row.is_active && row.deleted_at == null) continue;
    if (row.id === me.id) throw badRequest('You cannot disable or archive your own account');
    assertMayManage(me, row);
    await revokeAllTokens(deps, row.id);
  }
}

/**
 * Deletes an employee nothing refers to. Sessions, reset tokens and group memberships belong to the
 * account itself and go with it; anything else (packages, files, tickets) refuses with 409.
 */
export async function deleteEmployee(deps: Deps, me: SessionUser, id: number): Promise<void> {
  const row = await findEmployee(deps.db, me, id);
  if (row.id === me.id) throw badRequest('You cannot delete your own account');
  assertMayManage(me, row);
  await deps.db.delete(authToken).where(eq(authToken.user_id, id)).run();
  await deps.db.delete(passwordReset).where(eq(passwordReset.user_id, id)).run();
  await deps.db.delete(userPermissionGroup).where(eq(userPermissionGroup.user_id, id)).run();
  const refs = await referencingRows(deps.db, 'user', id);
  if (refs.length) throw conflict(`Employee ${id} is still referenced by ${refs.join(', ')}; archive it instead`, { referenced_by: refs });
  await deps.db.delete(user).where(eq(user.id, id)).run();
}
