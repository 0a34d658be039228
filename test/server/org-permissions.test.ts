import { describe, expect, it } from 'vitest';
import { makeApp } from '../helpers/app';

type Body = Record<string, unknown>;

describe('group permission', () => {
  it('a group grants its permissions to its members from the next request, and loses them when removed', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const supervisor = await t.login('supervisor');
    const co = await t.company('Target Co');

    expect((await t.json('PATCH', `/api/company/${co}/`, supervisor.token, { phone: '123' })).status).toBe(403);

    const group = await t.json<Body>('POST', '/api/group-permission/', admin.token, {
      name: 'Account managers',
      description: 'Edit shippers',
      permissions: ['company.manage', 'company.view', 'company.manage'],
    });
    expect(group.status).toBe(201);
    expect(group.body).toMatchObject({ name: 'Account managers', permissions: ['company.manage', 'company.view'], users: [] });
    const gid = group.body.id as number;

    const assigned = await t.json<Body>('PUT', `/api/employee/${supervisor.id}/groups/`, admin.token, { groups: [gid] });
    expect(assigned.status).toBe(200);
    expect(assigned.body.groups).toEqual([{ id: gid, name: 'Account managers' }]);
    expect(assigned.body.permissions).toContain('company.manage');

    const ok = await t.json<Body>('PATCH', `/api/company/${co}/`, supervisor.token, { phone: '123' });
    expect(ok.status).toBe(200);
    expect(ok.body.phone).toBe('123');
    const profile = await t.json<{ permissions: string[] }>('GET', '/api/profile/', supervisor.token);
    expect(profile.body.permissions).toContain('company.manage');

    const retrieved = await t.json<Body>('GET', `/api/group-permission/${gid}/`, admin.token);
    expect(retrieved.body.users).toEqual([supervisor.id]);
    const listed = await t.json<{ count: number }>('GET', '/api/group-permission/?search=account', admin.token);
    expect(listed.body.count).toBe(1);

    // Narrowing the group narrows its members at once.
    const narrowed = await t.json<Body>('PATCH', `/api/group-permission/${gid}/`, admin.token, { permissions: ['company.view'] });
    expect(narrowed.body.permissions).toEqual(['company.view']);
    expect((await t.json('PATCH', `/api/company/${co}/`, supervisor.token, { phone: '456' })).status).toBe(403);

    await t.json('PATCH', `/api/group-permission/${gid}/`, admin.token, { permissions: ['company.manage'] });
    expect((await t.json('PATCH', `/api/company/${co}/`, supervisor.token, { phone: '789' })).status).toBe(200);
    const deleted = await t.json('DELETE', `/api/group-permission/${gid}/`, admin.token);
    expect(deleted.status).toBe(200);
    expect((await t.json('PATCH', `/api/company/${co}/`, supervisor.token, { phone: '000' })).status).toBe(403);
    expect((await t.json('GET', `/api/group-permission/${gid}/`, admin.token)).status).toBe(404);
    expect((await t.json('DELETE', `/api/group-permission/${gid}/`, admin.token)).status).toBe(404);
  });

  it('validates permissions, names and group ids, and keeps groups to permission managers', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const supervisor = await t.login('supervisor');
    const bad = await t.json<Body>('POST', '/api/group-permission/', admin.token, { name: 'X', permissions: ['company.destroy'] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: 'validation_error' });
    expect((await t.json('POST', '/api/group-permission/', admin.token, { name: '', permissions: [] })).status).toBe(400);
    expect((await t.json('POST', '/api/group-permission/', admin.token, { name: 'Ops', permissions: 'company.view' })).status).toBe(400);
    expect((await t.json('POST', '/api/group-permission/', admin.token, { name: 'Ops' })).status).toBe(201);
    expect((await t.json('POST', '/api/group-permission/', admin.token, { name: 'Ops' })).status).toBe(409);

    const unknown = await t.json<Body>('PUT', `/api/employee/${supervisor.id}/groups/`, admin.token, { groups: [4242] });
    expect(unknown.status).toBe(400);
    expect(String(unknown.body.message)).toContain('4242');
    expect((await t.json('PUT', '/api/employee/99999/groups/', admin.token, { groups: [] })).status).toBe(404);

    expect((await t.json('GET', '/api/group-permission/', supervisor.token)).status).toBe(403);
    expect(
      (await t.json('POST', '/api/group-permission/', supervisor.token, { name: 'Mine', permissions: ['permission.manage'] })).status,
    ).toBe(403);
    expect((await t.json('PUT', `/api/employee/${supervisor.id}/groups/`, supervisor.token, { groups: [] })).status).toBe(403);
    expect((await t.json('GET', '/api/group-permission/', null)).status).toBe(401);

    const co = await t.login('company');
    const other = await t.company('Other');
    const otherUser = await t.login('company', { companyId: other });
    // permission.view acts outside one company: a company login cannot be given it (issue 15 item 8).
    const g = await t.json<{ id: number }>('POST', '/api/group-permission/', admin.token, {
      name: 'Viewers',
      permissions: ['permission.view'],
    });
    expect((await t.json('PUT', `/api/employee/${co.id}/groups/`, admin.token, { groups: [g.body.id] })).status).toBe(400);
    const m = await t.json<{ id: number }>('POST', '/api/group-permission/', admin.token, {
      name: 'People',
      permissions: ['employee.manage'],
    });
    expect((await t.json('PUT', `/api/employee/${co.id}/groups/`, admin.token, { groups: [m.body.id] })).status).toBe(200);
    // A group widens what a company may do, never whose records it sees.
    expect((await t.json('GET', `/api/employee/${otherUser.id}/`, co.token)).status).toBe(404);
    expect((await t.json('PATCH', `/api/employee/${otherUser.id}/`, co.token, { name: 'x' })).status).toBe(404);
    expect((await t.json('GET', `/api/employee/${co.id}/`, co.token)).status).toBe(200);
  });
});
