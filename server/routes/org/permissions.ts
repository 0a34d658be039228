import { and, eq, ne } from 'drizzle-orm';
import { IdParams, SuccessMessage } from '../../../shared/schemas/common';
import { PermissionGroup, PermissionGroupCreate, PermissionGroupUpdate } from '../../../shared/schemas/org';
import { iso } from '../../clock';
import { permissionGroup } from '../../db/schema/index';
import { conflict, notFound } from '../../errors';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { defineResource, type Row } from '../../resources/crud';
import { assertMayWriteGroup, membersOf, parsePermissions, removeGroup } from '../../services/auth/permissionGroups';
import { audit, changes } from '../../services/audit/record';

const GROUP = 'web/Group Permission';

export function permissionGroupRoutes(app: App): void {
  defineResource(app, {
    path: 'group-permission', table: permissionGroup, label: 'Permission group', tags: ['Group Permission'],
    view: 'permission.view', manage: 'permission.manage',
    ops: { list: ops(GROUP, 'Get'), create: ops(GROUP, 'Create'), retrieve: ops(GROUP, 'Retrieve'), update: ops(GROUP, 'Update') },
    record: PermissionGroup, create: PermissionGroupCreate, update: PermissionGroupUpdate,
    toApi: async (r, db) => ({
      id: r.id, name: r.name, description: r.description, permissions: parsePermissions(String(r.permissions)),
      users: await membersOf(db, r.id as number), created_at: iso(r.created_at as number),
    }),
    toRow: async (input, { deps, user, existing }) => {
      const { permissions, ...rest } = input;
      const current = existing ? parsePermissions(String(existing.permissions)) : [];
      await assertMayWriteGroup(deps, user, existing?.id as number | undefined, permissions ?? current);
      const row: Row = { ...rest };
      if (permissions !== undefined) row.permissions = JSON.stringify([...new Set(permissions)].sort());
      return row;
    },
    validate: async (values, { deps, existing }) => {
      const dup = await deps.db.select({ id: permissionGroup.id }).from(permissionGroup)
        .where(and(eq(permissionGroup.name, String(values.name)), existing ? ne(permissionGroup.id, existing.id as number) : undefined)).get();
      if (dup) throw conflict(`A permission group named "${String(values.name)}" already exists (id ${dup.id})`);
    },
    list: { search: ['name', 'description'], ordering: ['name', 'created_at'], defaultOrdering: 'name' },
    // The trail shows the permission list as a list, so before -> after reads as what was granted or taken.
    auditView: (r) => ({ ...r, permissions: parsePermissions(String(r.permissions)) }),
  });

  defineRoute(app, {
    method: 'delete', path: '/group-permission/{id}/', tags: ['Group Permission'], access: 'permission.manage',
    catalogue: ops(GROUP, 'Delete'), params: IdParams, response: SuccessMessage,
    summary: 'Delete a permission group', description: 'Its members lose its permissions from their next request.',
  }, async ({ deps, user, params }) => {
    await assertMayWriteGroup(deps, user, params.id, []);
    const before = await deps.db.select().from(permissionGroup).where(eq(permissionGroup.id, params.id)).get();
    if (!before || !(await removeGroup(deps.db, params.id))) throw notFound(`Permission group ${params.id} not found`);
    await audit(deps.db, deps.clock.now(), user.id, 'permission_group.delete', `permission_group:${params.id}`,
      changes({ ...before, permissions: parsePermissions(before.permissions) }, null));
    return { success: true, message: `Permission group ${params.id} deleted` };
  });
}
