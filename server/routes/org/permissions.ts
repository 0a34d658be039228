import { IdParams, SuccessMessage } from '../../../shared/schemas/common';
import { PermissionGroup, PermissionGroupCreate, PermissionGroupUpdate } from '../../../shared/schemas/org';
import { iso } from '../../clock';
import { permissionGroup } from '../../db/schema/index';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { defineResource } from '../../resources/crud';
import { deleteGroup, groupRow, membersOf, validateGroup } from '../../services/auth/permissionGroups';
import { parsePermissions } from '../../services/auth/storedPermissions';
import { audit, changes } from '../../services/audit/record';

const GROUP = 'web/Group Permission';

export function permissionGroupRoutes(app: App): void {
  defineResource(app, {
    path: 'group-permission',
    table: permissionGroup,
    label: 'Permission group',
    tags: ['Group Permission'],
    view: 'permission.view',
    manage: 'permission.manage',
    ops: { list: ops(GROUP, 'Get'), create: ops(GROUP, 'Create'), retrieve: ops(GROUP, 'Retrieve'), update: ops(GROUP, 'Update') },
    record: PermissionGroup,
    create: PermissionGroupCreate,
    update: PermissionGroupUpdate,
    toApi: async (r, db) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      permissions: parsePermissions(String(r.permissions)),
      users: await membersOf(db, r.id as number),
      created_at: iso(r.created_at as number),
    }),
    toRow: groupRow,
    validate: validateGroup,
    list: { search: ['name', 'description'], ordering: ['name', 'created_at'], defaultOrdering: 'name' },
    // The trail shows the permission list as a list, so before -> after reads as what was granted or taken.
    auditView: (r) => ({ ...r, permissions: parsePermissions(String(r.permissions)) }),
  });

  defineRoute(
    app,
    {
      method: 'delete',
      path: '/group-permission/{id}/',
      tags: ['Group Permission'],
      access: 'permission.manage',
      catalogue: ops(GROUP, 'Delete'),
      params: IdParams,
      response: SuccessMessage,
      summary: 'Delete a permission group',
      description: 'Its members lose its permissions from their next request.',
    },
    async ({ deps, user, params }) => {
      const before = await deleteGroup(deps, user, params.id);
      await audit(
        deps.db,
        deps.clock.now(),
        user.id,
        'permission_group.delete',
        `permission_group:${params.id}`,
        changes({ ...before, permissions: parsePermissions(before.permissions) }, null),
      );
      return { success: true, message: `Permission group ${params.id} deleted` };
    },
  );
}
