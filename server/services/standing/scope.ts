import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { company, standingDelivery } from '../../db/schema/index';
import { badRequest } from '../../errors';
import type { SessionUser } from '../auth/session';

/** A standing delivery names a live company (the route module builds no queries). */
export async function checkStandingCompany(db: Db, companyId: number): Promise<void> {
  const co = await db
    .select({ id: company.id })
    .from(company)
    .where(and(eq(company.id, companyId), isNull(company.deleted_at)))
    .get();
  if (!co) throw badRequest(`Company ${companyId} does not exist`, [{ path: 'company', message: 'unknown company' }]);
}

/** A company sees and changes only its own standing deliveries. */
export function standingScope(user: SessionUser): SQL | undefined {
  return user.role === 'company' && user.companyId != null ? eq(standingDelivery.company_id, user.companyId) : undefined;
}
