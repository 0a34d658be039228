import { isStaff } from '../../../shared/roles';
import { forbidden, notFound } from '../../errors';
import type { SessionUser } from '../auth/session';

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

/** The company scope of a list: null for staff (every company), the caller's own company otherwise. */
export function companyFilter(user: SessionUser): number | null {
  if (isStaff(user.role)) return null;
  return user.companyId ?? -1;
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
  if (!isStaff(user.role)) throw forbidden('Only the courier\'s staff can move money between wallets');
}
