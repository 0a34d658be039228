import { eq, inArray, sql } from 'drizzle-orm';
import { ALL_PERMISSIONS, grantableTo, ROLE_PERMISSIONS, type Permission } from '../../../shared/permissions';
import { outranks, type Role } from '../../../shared/roles';
import type { Deps } from '../../deps';
import { changedRows, type Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { permissionGroup, user, userPermissionGroup } from '../../db/schema/index';
import { ApiError, conflict, forbidden, notFound } from '../../errors';
import { twinOf } from '../../db/twin';
import type { ResourceContext, Row } from '../../resources/crud';
import type { PermissionSource, SessionUser } from './session';
import type { PermissionGroupCreate } from '../../../shared/schemas/org';
import type { z } from 'zod';
import { parsePermissions } from './storedPermissions';

// Read on every authenticated request, never cached (a changed group applies at once): built once per database.
const permissionsOfUser = (db: Db) =>
  db
    .select({ permissions: permissionGroup.permissions })
    .from(userPermissionGroup)
    .innerJoin(permissionGroup, eq(permissionGroup.id, userPermissionGroup.group_id))
    .where(eq(userPermissionGroup.user_id, sql.placeholder('user')))
    .prepare();

/** The default permission source: the union of the permissions of the user's groups. */
export const groupPermissions: PermissionSource = async (db, userId) => {
  const rows = await prepared(db, 'permissionGroups.ofUser', permissionsOfUser).all({ user: userId });
  if (!rows.length) return [];
  return [...new Set(rows.flatMap((r) => parsePermissions(r.permissions)))];
};

export async function groupsOf(db: Db, userId: number): Promise<{ id: number; name: string }[]> {
  return await db
    .select({ id: permissionGroup.id, name: permissionGroup.name })
    .from(userPermissionGroup)
    .innerJoin(permissionGroup, eq(permissionGroup.id, userPermissionGroup.group_id))
    .where(eq(userPermissionGroup.user_id, userId))
    .orderBy(permissionGroup.name)
    .all();
}

export async function membersOf(db: Db, groupId: number): Promise<number[]> {
  return (
    await db
      .select({ id: userPermissionGroup.user_id })
      .from(userPermissionGroup)
      .where(eq(userPermissionGroup.group_id, groupId))
      .orderBy(userPermissionGroup.user_id)
      .all()
  ).map((r) => r.id);
}

/** Replaces the user's groups; unknown group ids are a 400 naming them, nothing changed. */
export async function setUserGroups(deps: Deps, me: SessionUser, target: { id: number; role: string }, groupIds: number[]): Promise<void> {
  const wanted = [...new Set(groupIds)];
  const found = wanted.length ? await deps.db.select().from(permissionGroup).where(inArray(permissionGroup.id, wanted)).all() : [];
  const known = new Set(found.map((r) => r.id));
  const missing = wanted.filter((id) => !known.has(id));
  if (missing.length) {
    throw new ApiError(
      400,
      'validation_error',
      `Unknown permission group ids: ${missing.join(', ')}`,
      missing.map((id) => ({ path: 'groups', message: `no permission group ${id}` })),
    );
  }
  const granted = new Set(found.flatMap((g) => parsePermissions(g.permissions)));
  assertMayGrant(me, target.role as Role, [...granted], 'groups');
  await deps.db.delete(userPermissionGroup).where(eq(userPermissionGroup.user_id, target.id)).run();
  const now = deps.clock.now();
  if (wanted.length)
    await deps.db
      .insert(userPermissionGroup)
      .values(wanted.map((group_id) => ({ user_id: target.id, group_id, created_at: now })))
      .run();
}

/**
 * Nobody hands out a permission they do not hold themself, and a company login is never given one
 * that acts outside its own company (shared/permissions.ts COMPANY_GRANTABLE).
 */
export function assertMayGrant(me: SessionUser, role: Role, permissions: Permission[], path: string): void {
  const notHeld = permissions.filter((p) => !me.permissions.has(p));
  if (notHeld.length) throw forbidden(`You cannot grant permissions you do not hold: ${notHeld.join(', ')}`);
  const outside = permissions.filter((p) => !grantableTo(role, p));
  if (outside.length) {
    throw new ApiError(
      400,
      'validation_error',
      `A ${role.replace('_', ' ')} login cannot hold ${outside.join(', ')}: these act outside its company`,
      outside.map((p) => ({ path, message: `${p} cannot be granted to a ${role} login` })),
    );
  }
}

/**
 * Before a group is created, changed or deleted: the writer holds every permission it grants, ranks
 * above every member (changing a group changes what its members can do), and no company login in it
 * would receive a permission outside its company.
 */
export async function assertMayWriteGroup(
  deps: Deps,
  me: SessionUser,
  groupId: number | undefined,
  permissions: Permission[],
): Promise<void> {
  const members =
    groupId == null
      ? []
      : await deps.db
          .select({ id: user.id, role: user.role })
          .from(userPermissionGroup)
          .innerJoin(user, eq(user.id, userPermissionGroup.user_id))
          .where(eq(userPermissionGroup.group_id, groupId))
          .all();
  for (const m of members) {
    if (m.id === me.id ? me.role !== 'super_admin' : !outranks(me.role, m.role as Role)) {
      throw forbidden(
        `Permission group ${groupId} includes an account of your rank or above (user ${m.id}); only a higher rank can change it`,
      );
    }
  }
  assertMayGrant(me, me.role, permissions, 'permissions');
  for (const role of new Set(members.map((m) => m.role as Role))) assertMayGrant(me, role, permissions, 'permissions');
}

/** What a user holds in effect: the role's defaults plus their groups'. */
export async function effectivePermissions(db: Db, userId: number, role: Role): Promise<Permission[]> {
  const all = new Set<Permission>([...ROLE_PERMISSIONS[role], ...(await groupPermissions(db, userId)).filter((p) => grantableTo(role, p))]);
  return ALL_PERMISSIONS.filter((p) => all.has(p));
}

/** API input -> columns of a group, once the writer may grant what it holds; stored sorted, without repeats. */
export async function groupRow(
  input: Partial<z.output<typeof PermissionGroupCreate>>,
  { deps, user: me, existing }: ResourceContext,
): Promise<Row> {
  const { permissions, ...rest } = input;
  const current = existing ? parsePermissions(String(existing.permissions)) : [];
  await assertMayWriteGroup(deps, me, existing?.id as number | undefined, permissions ?? current);
  const row: Row = { ...rest };
  if (permissions !== undefined) row.permissions = JSON.stringify([...new Set(permissions)].sort());
  return row;
}

/** Group names are what admins pick from, so two groups never share one. */
export async function validateGroup(values: Row, { deps, existing }: ResourceContext): Promise<void> {
  const dup = await twinOf(deps.db, permissionGroup, [eq(permissionGroup.name, String(values.name))], existing?.id);
  if (dup) throw conflict(`A permission group named "${String(values.name)}" already exists (id ${dup.id})`);
}

/** Deletes a group the caller may write (its members lose its permissions); answers the row as it was, for the audit line. */
export async function deleteGroup(deps: Deps, me: SessionUser, groupId: number): Promise<PermissionGroupRow> {
  await assertMayWriteGroup(deps, me, groupId, []);
  const before = await deps.db.select().from(permissionGroup).where(eq(permissionGroup.id, groupId)).get();
  if (!before || !(await removeGroup(deps.db, groupId))) throw notFound(`Permission group ${groupId} not found`);
  return before;
}

export type PermissionGroupRow = typeof permissionGroup.$inferSelect;

export async function removeGroup(db: Db, groupId: number): Promise<boolean> {
  await db.delete(userPermissionGroup).where(eq(userPermissionGroup.group_id, groupId)).run();
  return changedRows(await db.delete(permissionGroup).where(eq(permissionGroup.id, groupId)).run()) > 0;
}
