import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { jsonSql } from '../../db/engine/dialect';
import { authToken, company, permissionGroup, user, userPermissionGroup } from '../../db/schema/index';
import { grantableTo, ROLE_PERMISSIONS, type Permission } from '../../../shared/permissions';
import type { Role } from '../../../shared/roles';
import { hashToken } from './tokens';
import { parsePermissions } from './storedPermissions';
import { sessionCacheOf, type KnownSession } from './sessionCache';

export interface SessionUser {
  id: number;
  name: string;
  email: string;
  role: Role;
  companyId: number | null;
  tokenId: number;
  permissions: ReadonlySet<Permission>;
  /** The token's last use is older than TOUCH_EVERY: the caller records this use (route.ts). */
  stale?: boolean;
}

/** Last use is recorded to the minute: one small write a minute per active session, not one per request. */
export const TOUCH_EVERY = 60_000;

/**
 * Extra permissions a user holds beyond their role. Without one, the user's permission groups apply,
 * read by the session query itself (permissionGroups.ts says what they hold).
 */
export type PermissionSource = (db: Db, userId: number) => Promise<Permission[]>;

/**
 * Built once per database: every request reads its session, and building the SQL cost more than running it.
 * The user's groups' permissions come in the same statement (a JSON array of each group's stored
 * list): read on every request, never cached, so a changed group applies at once, without a second
 * round trip to the database.
 */
function sessionQuery(db: Db) {
  const json = jsonSql(db);
  const groups = json.text(
    json.arrayOf(
      sql`${permissionGroup.permissions}`,
      sql`from ${userPermissionGroup} inner join ${permissionGroup} on ${permissionGroup.id} = ${userPermissionGroup.group_id} where ${userPermissionGroup.user_id} = ${user.id}`,
      sql`${permissionGroup.id}`,
    ),
  );
  return db
    .select({
      tokenId: authToken.id,
      lastUsedAt: authToken.last_used_at,
      createdAt: authToken.created_at,
      expiresAt: authToken.expires_at,
      id: user.id,
      name: user.name,
      email: user.email,
      role: user.role,
      companyId: user.company_id,
      isActive: user.is_active,
      deletedAt: user.deleted_at,
      companyStatus: company.status,
      companyDeleted: company.deleted_at,
      groups,
    })
    .from(authToken)
    .innerJoin(user, eq(user.id, authToken.user_id))
    .leftJoin(company, eq(company.id, user.company_id))
    .where(
      and(
        eq(authToken.token_hash, sql.placeholder('hash')),
        isNull(authToken.revoked_at),
        gt(authToken.expires_at, sql.placeholder('now')),
      ),
    )
    .prepare();
}

/**
 * A token works only while its user is active and not archived and, for a company login, while the
 * company is active: disabling any of them stops the token at once. A staff or company session
 * unused for `idleMs` stops too (a forgotten office browser); drivers' sessions do not idle out,
 * because a phone may stay offline for days, and are revoked per device by an admin instead.
 * Group permissions a role may not hold (a company login given staff-wide powers) are ignored.
 */
export async function loadSession(
  db: Db,
  token: string,
  now: number,
  extra?: PermissionSource,
  idleMs = Infinity,
): Promise<SessionUser | null> {
  const hash = hashToken(token);
  // A permission source is a caller's own (tests): what it answers is not watched, so never kept.
  const cache = extra ? null : sessionCacheOf<Session>(db);
  let known = cache?.get(hash);
  if (!known) {
    const stamp = cache?.stamp() ?? null;
    const read = await readSession(db, hash, now, extra);
    if (!read) return null;
    cache?.set(hash, read, stamp);
    known = read;
  }
  const { session, expiresAt, lastUsed } = known;
  if (expiresAt <= now) return null;
  if (session.role !== 'driver' && now - lastUsed > idleMs) return null;
  const stale = now - lastUsed >= TOUCH_EVERY;
  // The caller records this use (route.ts); a kept session counts from it as the database will.
  if (stale) known.lastUsed = now;
  return { ...session, stale };
}

type Session = Omit<SessionUser, 'stale'>;

async function readSession(db: Db, hash: string, now: number, extra?: PermissionSource): Promise<KnownSession<Session> | null> {
  const row = await prepared(db, 'session.byTokenHash', sessionQuery).get({ hash, now });
  if (!row || !row.isActive || row.deletedAt != null) return null;
  if (row.companyId != null && (row.companyStatus !== 'active' || row.companyDeleted != null)) return null;
  const role = row.role as Role;
  const permissions = new Set<Permission>(ROLE_PERMISSIONS[role]);
  const granted = extra ? await extra(db, row.id) : groupsGrant(row.groups);
  for (const p of granted) if (grantableTo(role, p)) permissions.add(p);
  return {
    session: { id: row.id, name: row.name, email: row.email, role, companyId: row.companyId, tokenId: row.tokenId, permissions },
    expiresAt: row.expiresAt,
    lastUsed: row.lastUsedAt ?? row.createdAt,
  };
}

/** The permissions of the session query's `groups` column: each group's stored list, merged. */
function groupsGrant(groups: string | null): Permission[] {
  const lists = groups ? (JSON.parse(groups) as string[]) : [];
  return lists.flatMap((list) => parsePermissions(list));
}

const touchQuery = (db: Db) =>
  db
    .update(authToken)
    .set({ last_used_at: sql`${sql.placeholder('now')}` })
    .where(eq(authToken.id, sql.placeholder('id')))
    .prepare();

export async function touchSession(db: Db, tokenId: number, now: number): Promise<void> {
  await prepared(db, 'session.touch', touchQuery).run({ id: tokenId, now });
}
