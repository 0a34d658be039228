import { describe, expect, it } from 'vitest';
import { makeApp } from '../helpers/app';
import { create, seedChain } from './geo-helpers';

interface ErrorBody {
  success: boolean;
  code: string;
  message: string;
  errors: { path: string; message: string }[];
}

describe('geography hierarchy', () => {
  it('refuses unknown parents with 400 naming the field', async () => {
    const t = await makeApp();
    const { token } = await t.login('admin');
    const cases: [string, Record<string, unknown>, string][] = [
      ['state', { name: 'S', country: 999 }, 'country'],
      ['city', { name: 'C', state: 999 }, 'state'],
      ['suburb', { name: 'B', state: 999 }, 'state'],
      ['suburb', { name: 'B', city: 999 }, 'state'],
      ['area', { name: 'A', suburb: 999 }, 'suburb'],
      ['street', { name: 'S', area: 999 }, 'area'],
      ['pincode', { code: '2000', suburb: 999 }, 'suburb'],
      ['zone', { name: 'Z', warehouse: 999 }, 'warehouse'],
    ];
    for (const [path, body, field] of cases) {
      const res = await t.json<ErrorBody>('POST', `/api/${path}/`, token, body);
      expect(res.status, path).toBe(400);
      expect(res.body.code).toBe('validation_error');
      expect(
        res.body.errors.map((e) => e.path),
        path,
      ).toContain(field);
    }
    const noParent = await t.json<ErrorBody>('POST', '/api/suburb/', token, { name: 'Nowhere' });
    expect(noParent.status).toBe(400);
    expect(noParent.body.errors[0].path).toBe('state');
  });

  it("keeps a suburb's city inside its state, and takes the state from the city when only the city is given", async () => {
    const t = await makeApp();
    const { token } = await t.login('admin');
    const c = await seedChain(t, token);
    const vic = await create(t, token, 'state', { name: 'Victoria', code: 'VIC', country: c.country });
    const melbourne = await create(t, token, 'city', { name: 'Melbourne', state: vic });

    const wrong = await t.json<ErrorBody>('POST', '/api/suburb/', token, { name: 'Carlton', state: c.state, city: melbourne });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0]).toMatchObject({ path: 'city' });
    const carlton = await t.json<{ id: number; state: number }>('POST', '/api/suburb/', token, { name: 'Carlton', city: melbourne });
    expect(carlton.status).toBe(201);
    expect(carlton.body.state).toBe(vic);
    const move = await t.json<ErrorBody>('PATCH', `/api/suburb/${carlton.body.id}/`, token, { state: c.state });
    expect(move.status).toBe(400);
    expect(move.body.errors[0].path).toBe('city');
    // Moving the suburb to a city elsewhere moves its state along.
    const moved = await t.json<{ state: number }>('PATCH', `/api/suburb/${carlton.body.id}/`, token, { city: c.city });
    expect(moved.body.state).toBe(c.state);

    // Moving a city to another state carries its suburbs.
    await t.json('PATCH', `/api/city/${c.city}/`, token, { state: vic });
    const bondi = await t.json<{ state: number }>('GET', `/api/suburb/${c.suburb}/`, token);
    expect(bondi.body.state).toBe(vic);
  });

  it('refuses new references to archived parents but keeps the ones that exist', async () => {
    const t = await makeApp();
    const { token } = await t.login('admin');
    const c = await seedChain(t, token);
    await t.json('POST', '/api/suburb/archive-suburb/', token, { deleted: [c.suburb] });
    const newArea = await t.json<ErrorBody>('POST', '/api/area/', token, { name: 'Late', suburb: c.suburb });
    expect(newArea.status).toBe(400);
    expect(newArea.body.errors[0]).toMatchObject({ path: 'suburb', message: expect.stringContaining('archived') });
    expect((await t.json('PATCH', `/api/area/${c.area}/`, token, { name: 'Bondi North' })).status).toBe(200);
    expect((await t.json('PATCH', `/api/pincode/${c.pincode}/`, token, { code: '2027' })).status).toBe(200);
  });

  it('refuses duplicates among siblings with 409, ignoring case', async () => {
    const t = await makeApp();
    const { token } = await t.login('admin');
    const c = await seedChain(t, token);
    const dupes: [string, Record<string, unknown>][] = [
      ['country', { name: 'australia', currency: 'AUD' }],
      ['country', { name: 'Oz', iso2: 'au', currency: 'AUD' }],
      ['state', { name: 'NEW SOUTH WALES', country: c.country }],
      ['city', { name: 'sydney', state: c.state }],
      ['zone', { name: 'east' }],
      ['suburb', { name: 'bondi', state: c.state, postcode: '2026' }],
      ['area', { name: 'Bondi beach', suburb: c.suburb }],
      ['street', { name: 'campbell pde', area: c.area }],
      ['pincode', { code: '2026', suburb: c.suburb }],
    ];
    for (const [path, body] of dupes) {
      const res = await t.json<ErrorBody>('POST', `/api/${path}/`, token, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(409);
      expect(res.body.code).toBe('conflict');
    }
    const other = await create(t, token, 'state', { name: 'Queensland', country: c.country });
    await create(t, token, 'city', { name: 'Sydney', state: other });
    // Renaming into a sibling's name is a duplicate too; keeping one's own name is not.
    const melb = await create(t, token, 'city', { name: 'Newcastle', state: c.state });
    expect((await t.json('PATCH', `/api/city/${melb}/`, token, { name: 'Sydney' })).status).toBe(409);
    expect((await t.json('PATCH', `/api/city/${melb}/`, token, { name: 'Newcastle' })).status).toBe(200);
  });

  it('validates the currency as an ISO 4217 code', async () => {
    const t = await makeApp();
    const { token } = await t.login('admin');
    const nz = await t.json<{ currency: string; iso2: string }>('POST', '/api/country/', token, {
      name: 'New Zealand',
      iso2: 'nz',
      currency: 'nzd',
    });
    expect(nz.status).toBe(201);
    expect(nz.body).toMatchObject({ currency: 'NZD', iso2: 'NZ' });
    for (const currency of ['XYZ', 'NZ', 'DOLLAR', 12, '']) {
      const res = await t.json<ErrorBody>('POST', '/api/country/', token, { name: `Bad ${String(currency)}`, currency });
      expect(res.status, String(currency)).toBe(400);
      expect(res.body.errors[0].path).toBe('currency');
    }
    expect((await t.json('POST', '/api/country/', token, { name: 'No currency' })).status).toBe(400);
  });

  it('refuses deleting a warehouse a zone points at', async () => {
    const t = await makeApp();
    const { token } = await t.login('admin');
    const wh = await create(t, token, 'warehouse', { street_address: '1 Dock Rd', suburb: 'Botany', state: 'NSW', postcode: '2019' });
    const zone = await t.json<{ warehouse: number; warehouse_name: string }>('POST', '/api/zone/', token, { name: 'Port', warehouse: wh });
    expect(zone.body.warehouse).toBe(wh);
    expect((await t.json('DELETE', `/api/warehouse/${wh}/`, token)).status).toBe(409);
  });
});

describe('geography access and input', () => {
  it('lets a driver read but not write (403), and nobody in without a token (401)', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const c = await seedChain(t, admin.token);
    const driver = await t.login('driver');
    const company = await t.login('company');
    for (const token of [driver.token, company.token]) {
      expect((await t.json('GET', '/api/suburb/', token)).status).toBe(200);
      expect((await t.json('GET', `/api/zone/by-suburb/?suburb=${c.suburb}`, token)).status).toBe(200);
      const writes: [string, string, unknown][] = [
        ['POST', '/api/country/', { name: 'X', currency: 'USD' }],
        ['PATCH', `/api/suburb/${c.suburb}/`, { name: 'X' }],
        ['DELETE', `/api/street/${c.street}/`, undefined],
        ['POST', '/api/zone/archive-zone/', { deleted: [c.zone] }],
        ['POST', '/api/pincode/restore-pincode/', { deleted: [c.pincode] }],
        ['POST', '/api/suburb/assign-zone/', { zone: c.zone, suburbs: [c.suburb] }],
      ];
      for (const [method, path, body] of writes) {
        const res = await t.json<ErrorBody>(method, path, token, body);
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.code).toBe('forbidden');
      }
    }
    expect((await t.json('GET', '/api/country/', null)).status).toBe(401);
    expect((await t.json('GET', '/api/country/get-currency/', null)).status).toBe(401);
    const upload = new FormData();
    upload.set('file', new File(['code,suburb\n2000,Bondi\n'], 'p.csv'));
    expect((await t.call('POST', '/api/pincode/bulk-upload/', driver.token, upload)).status).toBe(403);
  });

  it('answers bad input with the one error shape, never a 500', async () => {
    const t = await makeApp();
    const { token } = await t.login('admin');
    const c = await seedChain(t, token);
    const bad: [string, string, unknown, number][] = [
      ['POST', '/api/state/', { name: '', country: c.country }, 400],
      ['POST', '/api/state/', { name: 'S', country: 'one' }, 400],
      ['POST', '/api/suburb/', { name: 'B', state: c.state, latitude: 123 }, 400],
      ['POST', '/api/pincode/', { code: '20;00', suburb: c.suburb }, 400],
      ['POST', '/api/pincode/', { code: 'x'.repeat(40), suburb: c.suburb }, 400],
      ['POST', '/api/area/', '{"name":', 400],
      ['GET', '/api/suburb/?ordering=password', undefined, 400],
      ['GET', '/api/suburb/?zone=abc', undefined, 400],
      ['GET', '/api/suburb/?page_size=100000', undefined, 400],
      ['GET', '/api/suburb/abc/', undefined, 404],
      ['GET', '/api/suburb/99999/', undefined, 404],
      ['PATCH', '/api/city/99999/', { name: 'X' }, 404],
      ['POST', '/api/city/archive-city/', { deleted: [] }, 400],
      ['POST', '/api/city/archive-city/', { deleted: [c.city, 5555] }, 400],
    ];
    for (const [method, path, body, status] of bad) {
      const res = await t.json<ErrorBody>(method, path, token, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
      expect(res.body.success).toBe(false);
      expect(typeof res.body.message).toBe('string');
    }
    const city = await t.json<{ deleted_at?: unknown }>('GET', '/api/city/archive-city-list/', token);
    expect(city.body).toMatchObject({ count: 0 });
  });
});
