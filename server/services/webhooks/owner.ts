import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { company } from '../../db/schema/index';
import { badRequest, notFound } from '../../errors';
import type { SessionUser } from '../auth/session';

/**
 * The company an integration record belongs to: a company login always its own (naming another is
 * a 404, as if it did not exist); staff must name an existing company.
 */
export async function owningCompany(db: Db, me: SessionUser, requested: number | undefined | null): Promise<number> {
  if (me.companyId != null) {
    if (requested != null && requested !== me.companyId) throw notFound(`Company ${requested} not found`);
    return me.companyId;
  }
  if (requested == null) throw badRequest('Name the company', [{ path: 'company', message: 'required' }]);
  const co = await db.select({ id: company.id, deleted: company.deleted_at }).from(company).where(eq(company.id, requested)).get();
  if (!co || co.deleted != null) throw notFound(`Company ${requested} not found`);
  return co.id;
}

/** Rows a user may see: a company login only its own company's, staff any (optionally one company). */
export function companyFilter(me: SessionUser, requested?: number): number | undefined {
  if (me.companyId != null) {
    if (requested != null && requested !== me.companyId) throw notFound(`Company ${requested} not found`);
    return me.companyId;
  }
  return requested;
}
