import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { authToken, storedFile, user } from '../../server/db/schema/index';
import { makeApp, PASSWORD, type TestApp } from '../helpers/app';

type Body = Record<string, unknown>;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5, 6, 7, 8]);
const PDF = new TextEncoder().encode('%PDF-1.4 tiny test document');

function upload(bytes: Uint8Array, name = 'scan.png'): FormData {
  const form = new FormData();
  form.append('file', new File([bytes as Uint8Array<ArrayBuffer>], name));
  return form;
}

const companyOf = async (t: TestApp, userId: number) =>
  (await t.db.select().from(user).where(eq(user.id, userId)).get())?.company_id as number;

describe('employee: archive, status change, delete', () => {
  it('archiving revokes the tokens for good; restore brings the account back without them', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const driver = await t.login('driver');
    expect((await t.json('GET', '/api/profile/', driver.token)).status).toBe(200);

    const archived = await t.json<{ count: number }>('POST', '/api/employee/archive-employee/', admin.token, { deleted: [driver.id] });
    expect(archived.status).toBe(200);
    expect((await t.json('GET', '/api/profile/', driver.token)).status).toBe(401);
    const list = await t.json<{ results: Body[] }>('GET', '/api/employee/archive-employee-list/', admin.token);
    expect(list.body.results.map((e) => e.id)).toEqual([driver.id]);
    expect(list.body.results[0]?.archived_at).toBe(new Date(t.clock.now()).toISOString());

    const restored = await t.json<{ count: number; results: { data: Body[] } }>('PATCH', '/api/employee/restore-employee/', admin.token, {
      deleted: [driver.id],
    });
    expect(restored.body.count).toBe(1);
    expect((await t.json('GET', '/api/profile/', driver.token)).status).toBe(401);
    expect((await t.json('POST', '/api/auth/login/', null, { email: driver.email, password: PASSWORD })).status).toBe(200);

    expect((await t.json('POST', '/api/employee/archive-employee/', admin.token, { deleted: [admin.id] })).status).toBe(400);
    const supervisor = await t.login('supervisor');
    expect((await t.json('POST', '/api/employee/archive-employee/', supervisor.token, { deleted: [driver.id] })).status).toBe(403);
  });

  it('status change disables an account and its sessions; admins cannot disable a super admin', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const driver = await t.login('driver');
    const off = await t.json<Body>('POST', `/api/employee/${driver.id}/status-change/`, admin.token, { is_active: false });
    expect(off.status).toBe(200);
    expect(off.body.is_active).toBe(false);
    expect((await t.json('GET', '/api/profile/', driver.token)).status).toBe(401);
    expect((await t.json('POST', '/api/auth/login/', null, { email: driver.email, password: PASSWORD })).status).toBe(403);
    await t.json('POST', `/api/employee/${driver.id}/status-change/`, admin.token, { is_active: true });
    expect((await t.json('POST', '/api/auth/login/', null, { email: driver.email, password: PASSWORD })).status).toBe(200);

    const boss = await t.login('super_admin');
    expect((await t.json('POST', `/api/employee/${boss.id}/status-change/`, admin.token, { is_active: false })).status).toBe(403);
    expect((await t.json('POST', `/api/employee/${admin.id}/status-change/`, admin.token, { is_active: false })).status).toBe(400);
    expect((await t.json('POST', `/api/employee/${driver.id}/status-change/`, admin.token, { is_active: 'no' })).status).toBe(400);
  });

  it('deletes an unreferenced employee with its sessions; refuses one still referenced', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const temp = await t.login('driver');
    const gone = await t.json('DELETE', `/api/employee/${temp.id}/`, admin.token);
    expect(gone.status).toBe(200);
    expect(await t.db.select().from(authToken).where(eq(authToken.user_id, temp.id)).all()).toEqual([]);
    expect((await t.json('GET', `/api/employee/${temp.id}/`, admin.token)).status).toBe(404);

    const driver = await t.login('driver');
    await t.json('POST', '/api/driver-support/', driver.token, { subject: 'Van', message: 'Flat tyre' });
    const refused = await t.json<Body>('DELETE', `/api/employee/${driver.id}/`, admin.token);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'conflict', details: { referenced_by: ['1 support_ticket'] } });
    // The refusal rolled back: the driver's session still works.
    expect((await t.json('GET', '/api/profile/', driver.token)).status).toBe(200);

    expect((await t.json('DELETE', `/api/employee/${admin.id}/`, admin.token)).status).toBe(400);
    const co = await t.login('company');
    expect((await t.json('DELETE', `/api/employee/${driver.id}/`, co.token)).status).toBe(403);
  });
});

describe('employee: identity documents', () => {
  it('staff upload, the employee and staff read, a company never; delete removes the file', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const co = await t.login('company');
    const driver = await t.login('driver', { companyId: await companyOf(t, co.id) });
    const other = await t.login('driver');
    const supervisor = await t.login('supervisor');

    const up = await t.json<Body>('POST', `/api/employee/${driver.id}/document/driving-license/`, admin.token, upload(PNG));
    expect(up.status).toBe(200);
    expect(up.body.documents).toEqual({
      driving_license: `/api/employee/${driver.id}/document/driving-license/`,
      police_check: null,
      passport: null,
      visa: null,
    });

    for (const who of [driver, admin, supervisor]) {
      const res = await t.call('GET', `/api/employee/${driver.id}/document/driving-license/`, who.token);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
    }
    expect((await t.json('GET', `/api/employee/${driver.id}/document/driving-license/`, co.token)).status).toBe(404);
    expect((await t.json('GET', `/api/employee/${driver.id}/document/driving-license/`, other.token)).status).toBe(404);
    expect((await t.json('GET', `/api/employee/${driver.id}/document/passport/`, admin.token)).status).toBe(404);
    expect((await t.json('GET', `/api/employee/${driver.id}/document/tax-return/`, admin.token)).status).toBe(400);

    // The driver sends their own passport as a PDF; a supervisor may read but not write.
    expect((await t.json('PUT', `/api/employee/${driver.id}/document/passport/`, driver.token, upload(PDF, 'p.pdf'))).status).toBe(200);
    expect((await t.json('POST', `/api/employee/${driver.id}/document/visa/`, supervisor.token, upload(PNG))).status).toBe(403);
    expect((await t.json('POST', `/api/employee/${driver.id}/document/visa/`, other.token, upload(PNG))).status).toBe(404);
    expect(
      (await t.json('POST', `/api/employee/${driver.id}/document/visa/`, admin.token, upload(new TextEncoder().encode('hello')))).status,
    ).toBe(415);
    expect((await t.json('POST', `/api/employee/${driver.id}/document/visa/`, admin.token, { file: 'x' })).status).toBe(415);

    // Replacing a document removes the old stored file.
    const before = (await t.db.select().from(user).where(eq(user.id, driver.id)).get())?.driving_license_file_id as number;
    await t.json('POST', `/api/employee/${driver.id}/document/driving-license/`, admin.token, upload(PDF, 'l.pdf'));
    expect(await t.db.select().from(storedFile).where(eq(storedFile.id, before)).get()).toBeUndefined();

    const del = await t.json<Body>('DELETE', `/api/employee/${driver.id}/document/driving-license/`, admin.token);
    expect(del.status).toBe(200);
    expect((del.body.documents as Body).driving_license).toBeNull();
    expect((await t.json('DELETE', `/api/employee/${driver.id}/document/driving-license/`, admin.token)).status).toBe(404);
    expect((await t.json('DELETE', `/api/employee/${driver.id}/document/passport/`, supervisor.token)).status).toBe(403);
    expect((await t.json('DELETE', `/api/employee/${driver.id}/document/passport/`, driver.token)).status).toBe(200);
    for (const kind of ['police-check', 'visa']) {
      expect((await t.json('DELETE', `/api/employee/${driver.id}/document/${kind}/`, admin.token)).status).toBe(404);
    }
  });
});

describe('employee: driver lists', () => {
  it('company drivers, exclude drivers and the driver list stay inside the caller scope', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const a = await t.login('company');
    const b = await t.login('company');
    const aCo = await companyOf(t, a.id);
    const bCo = await companyOf(t, b.id);
    const a1 = await t.login('driver', { companyId: aCo, name: 'Alice' });
    const a2 = await t.login('driver', { companyId: aCo, name: 'Aaron' });
    const b1 = await t.login('driver', { companyId: bCo, name: 'Bob' });
    const own = await t.login('driver', { name: 'Courier Own' });
    await t.json('POST', `/api/employee/${a2.id}/status-change/`, admin.token, { is_active: false });

    const ids = (r: { body: { results: Body[] } }) => r.body.results.map((e) => e.id);
    const aDrivers = await t.json<{ results: Body[] }>('GET', '/api/employee/company-driver/', a.token);
    expect(ids(aDrivers)).toEqual([a1.id]);
    expect((await t.json('GET', `/api/employee/company-driver/?company=${bCo}`, a.token)).status).toBe(404);
    expect(ids(await t.json<{ results: Body[] }>('GET', `/api/employee/company-driver/?company=${bCo}`, admin.token))).toEqual([b1.id]);
    expect((await t.json('GET', '/api/employee/company-driver/', admin.token)).status).toBe(400);
    expect((await t.json('GET', '/api/employee/company-driver/?company=abc', admin.token)).status).toBe(400);

    const all = await t.json<{ results: Body[]; count: number }>('GET', '/api/employee/driver-list/', admin.token);
    expect(ids(all)).toEqual([a1.id, b1.id, own.id]);
    expect(ids(await t.json<{ results: Body[] }>('GET', '/api/employee/driver-list/?search=bob', admin.token))).toEqual([b1.id]);
    expect(ids(await t.json<{ results: Body[] }>('GET', '/api/employee/driver-list/', b.token))).toEqual([b1.id]);

    const excl = await t.json<{ results: Body[] }>('GET', `/api/employee/exclude-drivers/?exclude=${a1.id},${own.id}`, admin.token);
    expect(ids(excl)).toEqual([b1.id]);
    expect((await t.json('GET', '/api/employee/exclude-drivers/?exclude=1;drop', admin.token)).status).toBe(400);

    const driver = await t.login('driver');
    expect((await t.json('GET', '/api/employee/driver-list/', driver.token)).status).toBe(403);
    // Company A cannot see or change company B's drivers through the plain CRUD either.
    expect((await t.json('GET', `/api/employee/${b1.id}/`, a.token)).status).toBe(404);
    expect((await t.json('PATCH', `/api/employee/${b1.id}/`, a.token, { name: 'X' })).status).toBe(403);
  });
});
