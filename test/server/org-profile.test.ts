import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { storedFile, user } from '../../server/db/schema/index';
import { DEFAULT_PACKAGE_COLUMNS } from '../../shared/schemas/org';
import { makeApp, PASSWORD } from '../helpers/app';

type Body = Record<string, unknown>;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9, 9, 9]);
const image = (bytes: Uint8Array) => {
  const form = new FormData();
  form.append('file', new File([bytes as Uint8Array<ArrayBuffer>], 'me.png'));
  return form;
};

describe('profile', () => {
  it('reads and updates name and phone, never the role', async () => {
    const t = await makeApp();
    const co = await t.login('company', { name: 'Shipper Sam' });
    const me = await t.json<Body>('GET', '/api/profile/', co.token);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      id: co.id,
      name: 'Shipper Sam',
      role: 'company',
      profile_image: null,
      settings: {},
      package_columns: DEFAULT_PACKAGE_COLUMNS,
    });
    expect(me.body.company_name).toMatch(/^Company /);
    expect(me.body.permissions).toContain('package.manage');

    const updated = await t.json<Body>('PATCH', '/api/profile/', co.token, { name: 'Sam S', phone: '+61 400 000 000' });
    expect(updated.body).toMatchObject({ name: 'Sam S', phone: '+61 400 000 000' });
    expect((await t.json('PATCH', '/api/profile/', co.token, { role: 'admin' })).status).toBe(400);
    expect((await t.json('PATCH', '/api/profile/', co.token, { email: 'x@example.com' })).status).toBe(400);
    expect((await t.json('PATCH', '/api/profile/', co.token, { phone: 'call me' })).status).toBe(400);
    expect((await t.json('PATCH', '/api/profile/', co.token, { name: '' })).status).toBe(400);
    expect((await t.db.select().from(user).where(eq(user.id, co.id)).get())?.role).toBe('company');
    expect((await t.json('GET', '/api/profile/', null)).status).toBe(401);

    const driver = await t.login('driver');
    const d = await t.json<Body>('PUT', '/api/profile/', driver.token, { phone: '0400 111 222' });
    expect(d.body).toMatchObject({ id: driver.id, phone: '0400 111 222', role: 'driver' });
  });

  it('merges, removes and replaces settings within limits', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const first = await t.json<Body>('PATCH', '/api/profile/settings/', admin.token, {
      theme: 'dark',
      page_size: 100,
      map: { zoom: 12, lazy: true },
    });
    expect(first.body).toEqual({ settings: { theme: 'dark', page_size: 100, map: { zoom: 12, lazy: true } } });
    const merged = await t.json<Body>('PATCH', '/api/profile/settings/', admin.token, { theme: null, langs: ['en', 'fr'] });
    expect(merged.body).toEqual({ settings: { page_size: 100, map: { zoom: 12, lazy: true }, langs: ['en', 'fr'] } });
    const replaced = await t.json<Body>('PUT', '/api/profile/settings/', admin.token, { sound: false });
    expect(replaced.body).toEqual({ settings: { sound: false } });
    expect((await t.json<{ settings: Body }>('GET', '/api/profile/', admin.token)).body.settings).toEqual({ sound: false });

    expect((await t.json('PATCH', '/api/profile/settings/', admin.token, { 'bad key!': 1 })).status).toBe(400);
    expect((await t.json('PATCH', '/api/profile/settings/', admin.token, { deep: { a: { b: 1 } } })).status).toBe(400);
    expect((await t.json('PATCH', '/api/profile/settings/', admin.token, { long: 'x'.repeat(1001) })).status).toBe(400);
    expect((await t.json('PATCH', '/api/profile/settings/', admin.token, ['a'])).status).toBe(400);
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, 'y'.repeat(900)]));
    const big = await t.json<Body>('PATCH', '/api/profile/settings/', admin.token, many);
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ success: false, code: 'payload_too_large' });
    expect((await t.json<{ settings: Body }>('GET', '/api/profile/', admin.token)).body.settings).toEqual({ sound: false });
  });

  it('stores package columns as Package keys in order, and resets them', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const set = await t.json<Body>('PATCH', '/api/profile/package-columns/', admin.token, { columns: ['status', 'hawb', 'assigned_to'] });
    expect(set.body).toEqual({ package_columns: ['status', 'hawb', 'assigned_to'] });
    expect((await t.json<Body>('GET', '/api/profile/', admin.token)).body.package_columns).toEqual(['status', 'hawb', 'assigned_to']);
    const unknown = await t.json<Body>('PATCH', '/api/profile/package-columns/', admin.token, { columns: ['hawb', 'password_hash'] });
    expect(unknown.status).toBe(400);
    expect((await t.json('PATCH', '/api/profile/package-columns/', admin.token, { columns: ['hawb', 'hawb'] })).status).toBe(400);
    expect((await t.json('PATCH', '/api/profile/package-columns/', admin.token, { columns: [] })).status).toBe(400);
    const reset = await t.json<Body>('PUT', '/api/profile/package-columns/', admin.token, { columns: null });
    expect(reset.body).toEqual({ package_columns: DEFAULT_PACKAGE_COLUMNS });
  });

  it('uploads, serves and deletes the profile image (web and driver app)', async () => {
    const t = await makeApp();
    const driver = await t.login('driver');
    const admin = await t.login('admin');
    const other = await t.login('driver');
    const up = await t.json<Body>('POST', '/api/profile/image/', driver.token, image(PNG));
    expect(up.status).toBe(200);
    expect(up.body.profile_image).toBe('/api/profile/image/');
    const mine = await t.call('GET', '/api/profile/image/', driver.token);
    expect(new Uint8Array(await mine.arrayBuffer())).toEqual(PNG);
    expect((await t.call('GET', `/api/employee/${driver.id}/profile-image/`, admin.token)).status).toBe(200);
    expect((await t.call('GET', `/api/employee/${driver.id}/profile-image/`, other.token)).status).toBe(404);
    const emp = await t.json<Body>('GET', `/api/employee/${driver.id}/`, admin.token);
    expect(emp.body.profile_image).toBe(`/api/employee/${driver.id}/profile-image/`);

    const fileId = (await t.db.select().from(user).where(eq(user.id, driver.id)).get())?.profile_image_file_id as number;
    const key = (await t.db.select().from(storedFile).where(eq(storedFile.id, fileId)).get())?.key as string;
    expect(await t.app.deps.files.has(key)).toBe(true);
    expect((await t.json('POST', '/api/profile/image/', driver.token, image(new TextEncoder().encode('%PDF-1.4 no')))).status).toBe(415);

    const del = await t.json<Body>('DELETE', '/api/profile/image/', driver.token);
    expect(del.status).toBe(200);
    expect(del.body.profile_image).toBeNull();
    expect(await t.app.deps.files.has(key)).toBe(false);
    expect((await t.json('GET', '/api/profile/image/', driver.token)).status).toBe(404);
    expect((await t.json('DELETE', '/api/profile/image/', driver.token)).status).toBe(404);
  });

  it('changes the password: wrong current password refused, other sessions signed out', async () => {
    const t = await makeApp();
    const co = await t.login('company');
    const second = await t.json<{ token: string }>('POST', '/api/auth/web-login/', null, { email: co.email, password: PASSWORD });
    const wrong = await t.json<Body>('POST', '/api/profile/change-password/', co.token, {
      old_password: 'nope-nope',
      new_password: 'brand-new-pass',
    });
    expect(wrong.status).toBe(400);
    expect(
      (await t.json('POST', '/api/profile/change-password/', co.token, { old_password: PASSWORD, new_password: 'short' })).status,
    ).toBe(400);
    const ok = await t.json<Body>('POST', '/api/profile/change-password/', co.token, {
      old_password: PASSWORD,
      new_password: 'brand-new-pass',
    });
    expect(ok.status).toBe(200);
    expect((await t.json('GET', '/api/profile/', co.token)).status).toBe(200);
    expect((await t.json('GET', '/api/profile/', second.body.token)).status).toBe(401);
    expect((await t.json('POST', '/api/auth/web-login/', null, { email: co.email, password: 'brand-new-pass' })).status).toBe(200);
  });
});
