import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Deps } from '../../deps';
import type { Db } from '../../db/client';
import { company, companySecret } from '../../db/schema/index';
import { badRequest, notFound } from '../../errors';
import type { SessionUser } from '../auth/session';

/**
 * Makes (or replaces) a company's webhook signing key: 32 random bytes, answered once as hex. A
 * company login always acts for its own company; staff name the company.
 */
export async function generateWebhookKey(deps: Deps, me: SessionUser, requested: number | undefined) {
  const companyId = me.companyId ?? requested;
  if (companyId == null) throw badRequest('Name the company the key is for', [{ path: 'company', message: 'required' }]);
  if (me.companyId != null && requested != null && requested !== me.companyId) throw notFound(`Company ${requested} not found`);
  const co = await deps.db.select({ id: company.id, deleted: company.deleted_at }).from(company).where(eq(company.id, companyId)).get();
  if (!co || co.deleted != null) throw notFound(`Company ${companyId} not found`);
  const secret = randomBytes(32).toString('hex');
  const now = deps.clock.now();
  const existing = await deps.db
    .select({ id: companySecret.company_id })
    .from(companySecret)
    .where(eq(companySecret.company_id, companyId))
    .get();
  if (existing) await deps.db.update(companySecret).set({ secret, updated_at: now }).where(eq(companySecret.company_id, companyId)).run();
  else await deps.db.insert(companySecret).values({ company_id: companyId, secret, created_at: now, updated_at: now }).run();
  return { company: companyId, secret, regenerated: existing != null, now };
}

/** The key to verify a company's webhook signatures with, if it has generated one. */
export async function companyWebhookSecret(db: Db, companyId: number): Promise<string | undefined> {
  return (await db.select({ secret: companySecret.secret }).from(companySecret).where(eq(companySecret.company_id, companyId)).get())
    ?.secret;
}
