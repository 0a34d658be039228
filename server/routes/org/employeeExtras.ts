import { z } from 'zod';
import { IdParams, idParam, ListQuery, pageOf, SuccessMessage } from '../../../shared/schemas/common';
import { CompanyDriverQuery, ExcludeDriversQuery, UserGroupsBody, UserGroupsResponse } from '../../../shared/schemas/org';
import { Employee, EMPLOYEE_DOCUMENTS, type EmployeeDocument } from '../../../shared/schemas/people';
import type { Role } from '../../../shared/roles';
import { user } from '../../db/schema/index';
import { ops } from '../../http/catalogue';
import type { App } from '../../http/env';
import { defineRoute } from '../../http/route';
import { listConditions, listPage, orderBy, type ListSpec } from '../../resources/list';
import { effectivePermissions, groupsOf, setUserGroups } from '../../services/auth/permissionGroups';
import {
  assertMayManage,
  companyDriversWhere,
  deleteEmployee,
  driverWhere,
  excludeDriversWhere,
  findEmployee,
  findEmployeeForDocuments,
} from '../../services/org/employees';
import { attachUserFile, detachUserFile, fileResponse, readUserFile, type UserFileSlot } from '../../services/org/userFiles';
import { toEmployee } from '../people';
import { audit, changes } from '../../services/audit/record';
import { openWork } from '../../services/org/handover';

const OpenWorkAnswer = z.object({
  open_parcels: z.number().int(),
  open_routes: z.number().int(),
  parcels: z.array(
    z.object({ id: z.number().int(), hawb: z.string(), status: z.string(), route: z.number().int().nullable(), must_return: z.boolean() }),
  ),
  routes: z.array(z.object({ id: z.number().int(), name: z.string(), status: z.string() })),
});

const tags = ['Employee'];
const DocParams = z.object({ id: idParam, kind: z.enum(EMPLOYEE_DOCUMENTS) });
const UploadBody = z.object({ file: z.instanceof(File, { message: 'a file is required' }) });
const SLOTS: Record<EmployeeDocument, UserFileSlot> = {
  'driving-license': 'driving_license',
  'police-check': 'police_check',
  passport: 'passport',
  visa: 'visa',
};
const slotOf = (kind: EmployeeDocument): UserFileSlot => SLOTS[kind];
const DRIVER_LIST: ListSpec = { search: ['name', 'email', 'phone'], ordering: ['name', 'email', 'created_at'], defaultOrdering: 'name' };
const IMAGE_DELETE = ['Driving License', 'Police Check', 'Passport', 'Visa'];

type Q = z.output<typeof ListQuery> & Record<string, string | undefined>;
const driverPage = (deps: { db: Parameters<typeof listPage>[0] }, where: Parameters<typeof listPage>[2], query: Q, url: string) =>
  listPage(deps.db, user, where, orderBy(user, DRIVER_LIST, query.ordering), query, url, (rows) => rows.map(toEmployee));

export function employeeExtraRoutes(app: App): void {
  defineRoute(
    app,
    {
      method: 'get',
      path: '/employee/{id}/open-work/',
      tags,
      access: 'employee.manage',
      catalogue: [],
      summary: 'Open parcels and routes an employee still holds (asked before deactivating a driver)',
      params: IdParams,
      response: OpenWorkAnswer,
    },
    async ({ deps, user: me, params }) => {
      const row = await findEmployee(deps.db, me, params.id);
      const work = await openWork(deps.db, row.id, deps.config.maxAttempts);
      return { open_parcels: work.parcels.length, open_routes: work.routes.length, ...work };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/employee/driver-list/',
      tags,
      access: 'employee.view',
      catalogue: ops('web/Employee', 'Driver List'),
      summary: 'Active drivers (a company sees its own)',
      query: ListQuery,
      response: pageOf(Employee),
    },
    ({ deps, user: me, query, c }) => {
      const q = query as Q;
      return driverPage(deps, driverWhere(me, ...listConditions(user, DRIVER_LIST, q)), q, c.req.url);
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/employee/company-driver/',
      tags,
      access: 'employee.view',
      catalogue: ops('web/Employee', 'Company Driver'),
      summary: "A company's own active drivers",
      description: 'A company login gets its own; staff name the company with `?company=`.',
      query: ListQuery.extend(CompanyDriverQuery.shape),
      response: pageOf(Employee),
    },
    ({ deps, user: me, query, c }) => {
      const q = query as Q & { company?: number };
      return driverPage(deps, companyDriversWhere(me, q.company), q, c.req.url);
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/employee/exclude-drivers/',
      tags,
      access: 'employee.view',
      catalogue: ops('web/Employee', 'Exclude Drivers'),
      summary: 'Active drivers except the given ids',
      description: '`?exclude=3,7` leaves those drivers out (e.g. to pick another driver for a route).',
      query: ListQuery.extend(ExcludeDriversQuery.shape),
      response: pageOf(Employee),
    },
    ({ deps, user: me, query, c }) => {
      const q = query as Q;
      return driverPage(deps, excludeDriversWhere(me, q.exclude), q, c.req.url);
    },
  );

  defineRoute(
    app,
    {
      method: 'delete',
      path: '/employee/{id}/',
      tags,
      access: 'employee.manage',
      catalogue: ops('web/Employee', 'Delete'),
      params: IdParams,
      response: SuccessMessage,
      summary: 'Delete an employee',
      description:
        'Refused with 409 while packages, files or tickets refer to the employee; archive instead. Sessions and group memberships go with the account.',
    },
    async ({ deps, user: me, params }) => {
      const before = await findEmployee(deps.db, me, params.id);
      await deleteEmployee(deps, me, params.id);
      await audit(deps.db, deps.clock.now(), me.id, 'user.delete', `user:${params.id}`, changes(before, null));
      return { success: true, message: `Employee ${params.id} deleted` };
    },
  );

  defineRoute(
    app,
    {
      method: ['put', 'patch'],
      path: '/employee/{id}/groups/',
      tags: ['Group Permission'],
      access: 'permission.manage',
      catalogue: [],
      params: IdParams,
      body: UserGroupsBody,
      response: UserGroupsResponse,
      summary: "Set an employee's permission groups",
      description: 'Replaces the groups; the permissions apply from the next request.',
    },
    async ({ deps, user: me, params, body }) => {
      const row = await findEmployee(deps.db, me, params.id);
      // Groups raise what an account can do: never one's own, never someone of one's rank or above.
      assertMayManage(me, row, 'deny');
      const before = await groupsOf(deps.db, row.id);
      await setUserGroups(deps, me, row, body.groups);
      await audit(deps.db, deps.clock.now(), me.id, 'user.groups_set', `user:${row.id}`, {
        groups: body.groups,
        before: { groups: before },
        after: { groups: await groupsOf(deps.db, row.id) },
      });
      return {
        user: row.id,
        groups: await groupsOf(deps.db, row.id),
        permissions: await effectivePermissions(deps.db, row.id, row.role as Role),
      };
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/employee/{id}/groups/',
      tags: ['Group Permission'],
      access: 'permission.view',
      catalogue: [],
      params: IdParams,
      response: UserGroupsResponse,
      summary: "An employee's permission groups and effective permissions",
    },
    async ({ deps, user: me, params }) => {
      const row = await findEmployee(deps.db, me, params.id);
      return {
        user: row.id,
        groups: await groupsOf(deps.db, row.id),
        permissions: await effectivePermissions(deps.db, row.id, row.role as Role),
      };
    },
  );

  defineRoute(
    app,
    {
      method: ['post', 'put'],
      path: '/employee/{id}/document/{kind}/',
      tags,
      access: 'authenticated',
      catalogue: [],
      transactional: false,
      params: DocParams,
      bodyKind: 'multipart',
      body: UploadBody,
      response: Employee,
      summary: 'Upload a driving licence, police check, passport or visa image (JPEG, PNG, WebP or PDF)',
      description: 'Staff with employee.manage, or the employee themself. Replaces (and removes) the previous image.',
    },
    async ({ deps, user: me, params, body }) => {
      await findEmployeeForDocuments(deps.db, me, params.id, true);
      await attachUserFile(deps, params.id, slotOf(params.kind), body.file);
      return toEmployee(await findEmployee(deps.db, me, params.id));
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/employee/{id}/document/{kind}/',
      tags,
      access: 'authenticated',
      catalogue: [],
      params: DocParams,
      summary: "An employee's document image (staff and the employee only)",
      produces: 'application/octet-stream',
    },
    async ({ deps, user: me, params }) => {
      const row = await findEmployeeForDocuments(deps.db, me, params.id, false);
      const { file, bytes } = await readUserFile(deps, row, slotOf(params.kind));
      return fileResponse(file, bytes);
    },
  );

  defineRoute(
    app,
    {
      method: 'delete',
      path: '/employee/{id}/document/{kind}/',
      tags,
      access: 'authenticated',
      transactional: false,
      catalogue: IMAGE_DELETE.flatMap((n) => ops('web/Employee', `Image Delete/${n}`)),
      params: DocParams,
      response: Employee,
      summary: 'Delete a driving licence, police check, passport or visa image',
      description:
        'Path `kind`: driving-license, police-check, passport or visa. Staff with employee.manage, or the employee themself; the stored file is removed.',
    },
    async ({ deps, user: me, params }) => {
      await findEmployeeForDocuments(deps.db, me, params.id, true);
      await detachUserFile(deps, params.id, slotOf(params.kind));
      return toEmployee(await findEmployee(deps.db, me, params.id));
    },
  );

  defineRoute(
    app,
    {
      method: 'get',
      path: '/employee/{id}/profile-image/',
      tags,
      access: 'authenticated',
      catalogue: [],
      params: IdParams,
      summary: "An employee's profile image (staff and the employee only)",
      produces: 'application/octet-stream',
    },
    async ({ deps, user: me, params }) => {
      const row = await findEmployeeForDocuments(deps.db, me, params.id, false);
      const { file, bytes } = await readUserFile(deps, row, 'profile_image');
      return fileResponse(file, bytes);
    },
  );
}
