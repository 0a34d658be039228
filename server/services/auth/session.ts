import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { authToken, company, user } from '../../db/schema/index';
import { ROLE_PERMISSIONS, type Permission } from '../../../shared/permissions';
import type { Role } from '../../../shared/roles';
import { hashToken } from './tokens';

export interface SessionUser {
  id: number;
  name: string;
  email: string;
  role: Role;
  companyId: number | null;
  tokenId: number;
  permissions: ReadonlySet<Permission>;
}

/** Extra permissions a user holds beyond their role (permission groups plug in here). */
export type PermissionSource = (db: Db, userId: number) => Permission[];

/** Built once per database: every request reads its session, and building the SQL cost more than running it. */
function sessionQuery(db: Db) {
  return db
    .select({
      tokenId: authToken.id, id: user.id, name: user.name, email: user.email, role: user.role,
      companyId: user.company_id, isActive: user.is_active, deletedAt: user.deleted_at,
      companyStatus: company.status, companyDeleted: company.deleted_at,
    })
    .from(authToken)
    .innerJoin(user, eq(user.id, authToken.user_id))
    .leftJoin(company, eq(company.id, user.company_id))
    .where(and(eq(authToken.token_hash, sql.placeholder('hash')), isNull(authToken.revoked_at), gt(authToken.expires_at, sql.placeholder('now'))))
    .prepare();
}

/**
 * A token works only while its user is active and not archived and, for a company login, while the
 * company is active: disabling any of them stops the token at once.
 */
export function loadSession(db: Db, token: string, now: number, extra?: PermissionSource): SessionUser | null {
  const row = prepared(db, 'session.byTokenHash', sessionQuery).get({ hash: hashToken(token), now });
  if (!row || !row.isActive || row.deletedAt != null) return null;
  if (row.companyId != null && (row.companyStatus !== 'active' || row.companyDeleted != null)) return null;
  const role = row.role as Role;
  const permissions = new Set<Permission>(ROLE_PERMISSIONS[role]);
  if (extra) for (const p of extra(db, row.id)) permissions.add(p);
  return { id: row.id, name: row.name, email: row.email, role, companyId: row.companyId, tokenId: row.tokenId, permissions };
}
