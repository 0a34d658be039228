import { eq, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { isStaff } from '../../../shared/roles';
import { forbidden, notFound } from '../../errors';
import type { Db } from '../../db/client';
import type { SessionUser } from '../auth/session';
import { findCompany, type CompanyRow } from './wallets';

/**
 * A company sees only its own money; staff see every company's. Outside scope answers 404 so ids
 * never reveal which companies have wallets or invoices.
 */
export function canSeeCompany(user: SessionUser, companyId: number): boolean {
  return isStaff(user.role) || (user.companyId != null && user.companyId === companyId);
}

export function requireCompanyInScope(user: SessionUser, companyId: number, what: string): void {
  if (!canSeeCompany(user, companyId)) throw notFound(`${what} not found`);
}

/** A money record looked up by id, if the caller may see it: missing and another company's answer the same 404. */
export function inScope<T extends { company_id: number }>(user: SessionUser, row: T | undefined, what: string): T {
  if (!row) throw notFound(`${what} not found`);
  requireCompanyInScope(user, row.company_id, what);
  return row;
}

/** A company the caller may see (a company login: itself); outside scope, missing or archived is 404. */
export function findCompanyInScope(db: Db, user: SessionUser, companyId: number): Promise<CompanyRow> {
  if (!canSeeCompany(user, companyId)) throw notFound(`Company ${companyId} not found`);
  return findCompany(db, companyId);
}

/**
 * The company a request is about: a company login's own (naming another is 404, as if it did not
 * exist), or the one staff name, or null when staff name none.
 */
export function companyAsked(user: SessionUser, requested: number | null | undefined): number | null {
  const own = companyFilter(user);
  if (own != null && requested != null && requested !== own) throw notFound(`Company ${requested} not found`);
  return own ?? requested ?? null;
}

/** The company scope of a list: null for staff (every company), the caller's own company otherwise. */
export function companyFilter(user: SessionUser): number | null {
  if (isStaff(user.role)) return null;
  return user.companyId ?? -1;
}

/**
 * The conditions of a money list over `column` (a company id): the caller's scope, then the
 * company staff asked for (a company asking for another sees nothing, not an error).
 */
export function companyConds(user: SessionUser, column: SQLiteColumn, requested: number | undefined): (SQL | undefined)[] {
  const own = companyFilter(user);
  return [own != null ? eq(column, own) : undefined, requested ? eq(column, requested) : undefined];
}

/**
 * A price quote reads a rate card, so it needs what the card needs: `rate.view` and the company in
 * the caller's scope (a company login: its own; staff: any). A driver (no `rate.view`), or a login
 * given rights over people, cannot learn a company's negotiated prices through a quote.
 */
export function requireQuoteAccess(user: SessionUser, companyId: number | null): void {
  if (!user.permissions.has('rate.view')) throw forbidden('Quotes need permission to read rate cards (rate.view)');
  if (companyId != null && !canSeeCompany(user, companyId)) throw forbidden("You may be quoted only your own company's prices");
}

/** "Login company" operations belong to a company's own login. */
export function loginCompany(user: SessionUser): number {
  if (user.companyId == null || isStaff(user.role)) throw forbidden('Only a company login has its own wallet and invoices');
  return user.companyId;
}

/**
 * Moving money (recharges, adjustments, invoice status) is for the courier's staff: a company
 * login may hold `wallet.manage` for its own screens, but never credits itself.
 */
export function requireMoneyStaff(user: SessionUser): void {
  if (!isStaff(user.role)) throw forbidden("Only the courier's staff can move money between wallets");
}
