import { eq, inArray, sql } from 'drizzle-orm';
import { ALL_PERMISSIONS, ROLE_PERMISSIONS, type Permission } from '../../../shared/permissions';
import type { Role } from '../../../shared/roles';
import type { Deps } from '../../deps';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { permissionGroup, userPermissionGroup } from '../../db/schema/index';
import { ApiError } from '../../errors';
import type { PermissionSource } from './session';

const KNOWN = new Set<string>(ALL_PERMISSIONS);

/** Stored JSON back to permissions; anything no longer known (a retired area) is dropped, not trusted. */
export function parsePermissions(json: string): Permission[] {
  let value: unknown;
  try { value = JSON.parse(json); } catch { return []; }
  return Array.isArray(value) ? value.filter((p): p is Permission => typeof p === 'string' && KNOWN.has(p)) : [];
}

// Read on every authenticated request, never cached (a changed group applies at once): built once per database.
const permissionsOfUser = (db: Db) => db.select({ permissions: permissionGroup.permissions }).from(userPermissionGroup)
  .innerJoin(permissionGroup, eq(permissionGroup.id, userPermissionGroup.group_id))
  .where(eq(userPermissionGroup.user_id, sql.placeholder('user'))).prepare();

/** The default permission source: the union of the permissions of the user's groups. */
export const groupPermissions: PermissionSource = (db, userId) => {
  const rows = prepared(db, 'permissionGroups.ofUser', permissionsOfUser).all({ user: userId });
  if (!rows.length) return [];
  return [...new Set(rows.flatMap((r) => parsePermissions(r.permissions)))];
};

export function groupsOf(db: Db, userId: number): { id: number; name: string }[] {
  return db.select({ id: permissionGroup.id, name: permissionGroup.name }).from(userPermissionGroup)
    .innerJoin(permissionGroup, eq(permissionGroup.id, userPermissionGroup.group_id))
    .where(eq(userPermissionGroup.user_id, userId)).orderBy(permissionGroup.name).all();
}

export function membersOf(db: Db, groupId: number): number[] {
  return db.select({ id: userPermissionGroup.user_id }).from(userPermissionGroup)
    .where(eq(userPermissionGroup.group_id, groupId)).orderBy(userPermissionGroup.user_id).all().map((r) => r.id);
}

/** Replaces the user's groups; unknown group ids are a 400 naming them, nothing changed. */
export function setUserGroups(deps: Deps, userId: number, groupIds: number[]): void {
  const wanted = [...new Set(groupIds)];
  const found = wanted.length ? deps.db.select({ id: permissionGroup.id }).from(permissionGroup).where(inArray(permissionGroup.id, wanted)).all() : [];
  const known = new Set(found.map((r) => r.id));
  const missing = wanted.filter((id) => !known.has(id));
  if (missing.length) {
    throw new ApiError(400, 'validation_error', `Unknown permission group ids: ${missing.join(', ')}`,
      missing.map((id) => ({ path: 'groups', message: `no permission group ${id}` })));
  }
  deps.db.delete(userPermissionGroup).where(eq(userPermissionGroup.user_id, userId)).run();
  const now = deps.clock.now();
  if (wanted.length) deps.db.insert(userPermissionGroup).values(wanted.map((group_id) => ({ user_id: userId, group_id, created_at: now }))).run();
}

/** What a user holds in effect: the role's defaults plus their groups'. */
export function effectivePermissions(db: Db, userId: number, role: Role): Permission[] {
  const all = new Set<Permission>([...ROLE_PERMISSIONS[role], ...groupPermissions(db, userId)]);
  return ALL_PERMISSIONS.filter((p) => all.has(p));
}

export function removeGroup(db: Db, groupId: number): boolean {
  db.delete(userPermissionGroup).where(eq(userPermissionGroup.group_id, groupId)).run();
  return db.delete(permissionGroup).where(eq(permissionGroup.id, groupId)).run().changes > 0;
}
