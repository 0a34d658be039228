import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Deps } from '../../deps';
import type { Db } from '../../db/client';
import { company, companyApiKey } from '../../db/schema/index';
import { notFound, unauthenticated } from '../../errors';
import { iso } from '../../clock';
import type { SessionUser } from '../auth/session';
import { companyFilter, owningCompany } from './owner';

type KeyRow = typeof companyApiKey.$inferSelect;
const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');
const KEY_FORMAT = /^ck_[A-Za-z0-9_-]{43}$/;

export const toApiKey = (r: KeyRow) => ({
  id: r.id,
  company: r.company_id,
  name: r.name,
  prefix: r.prefix,
  last_used_at: iso(r.last_used_at),
  revoked_at: iso(r.revoked_at),
  created_at: iso(r.created_at) ?? '',
});

/** A new key, answered once: `ck_` + 32 random bytes (base64url). Only its SHA-256 is stored. */
export async function createApiKey(deps: Deps, me: SessionUser, requested: number | undefined, name: string | undefined) {
  const companyId = await owningCompany(deps.db, me, requested);
  const key = `ck_${randomBytes(32).toString('base64url')}`;
  const now = deps.clock.now();
  const row = await deps.db
    .insert(companyApiKey)
    .values({
      company_id: companyId,
      name: name ?? '',
      prefix: key.slice(0, 10),
      key_hash: hashOf(key),
      created_at: now,
      updated_at: now,
    })
    .returning()
    .get();
  return { row, key };
}

export async function listApiKeys(db: Db, me: SessionUser, requested?: number) {
  const companyId = companyFilter(me, requested);
  return (
    await db
      .select()
      .from(companyApiKey)
      .where(companyId != null ? eq(companyApiKey.company_id, companyId) : undefined)
      .orderBy(desc(companyApiKey.id))
      .all()
  ).map(toApiKey);
}

export async function revokeApiKey(deps: Deps, me: SessionUser, id: number) {
  const row = await deps.db.select().from(companyApiKey).where(eq(companyApiKey.id, id)).get();
  if (!row || (me.companyId != null && row.company_id !== me.companyId)) throw notFound(`API key ${id} not found`);
  if (row.revoked_at != null) return toApiKey(row);
  const now = deps.clock.now();
  return toApiKey(
    (await deps.db.update(companyApiKey).set({ revoked_at: now, updated_at: now }).where(eq(companyApiKey.id, id)).returning().get()) ??
      row,
  );
}

/** The company an `X-Api-Key` belongs to; 401 for a missing, unknown or revoked key, or a company that is not active. */
export async function companyOfApiKey(db: Db, key: string | undefined, now: number): Promise<number> {
  const given = key?.trim() ?? '';
  if (!KEY_FORMAT.test(given)) throw unauthenticated('Send a valid company API key in X-Api-Key');
  const row = await db
    .select({ key: companyApiKey, status: company.status, deleted: company.deleted_at })
    .from(companyApiKey)
    .innerJoin(company, eq(company.id, companyApiKey.company_id))
    .where(and(eq(companyApiKey.key_hash, hashOf(given)), isNull(companyApiKey.revoked_at)))
    .get();
  if (!row || row.deleted != null || row.status !== 'active') throw unauthenticated('Unknown or revoked API key');
  // Written at most once a minute per key, so a polling integration does not turn every read into a write.
  if (row.key.last_used_at == null || now - row.key.last_used_at > 60_000) {
    await db.update(companyApiKey).set({ last_used_at: now }).where(eq(companyApiKey.id, row.key.id)).run();
  }
  return row.key.company_id;
}
