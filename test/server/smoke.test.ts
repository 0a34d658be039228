import { describe, expect, it } from 'vitest';
import { makeApp } from '../helpers/app';

describe('foundation smoke', () => {
  it('logs in, creates a warehouse, archives and restores it with the spec 4.6 envelope', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const created = await t.json<{ id: number }>('POST', '/api/warehouse/', admin.token, {
      street_address: '1 Dock Rd',
      suburb: 'Botany',
      state: 'NSW',
      postcode: '2019',
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const archived = await t.json('POST', '/api/warehouse/archive-warehouse/', admin.token, { deleted: [id] });
    expect(archived.status).toBe(200);
    const list = await t.json<{ count: number }>('GET', '/api/warehouse/', admin.token);
    expect(list.body.count).toBe(0);
    const restored = await t.json('POST', '/api/warehouse/restore-warehouse/', admin.token, { deleted: [id] });
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual({
      count: 1,
      next: null,
      previous: null,
      results: {
        success: true,
        data: [{ id, street_address: '1 Dock Rd', additional_details: '', suburb: 'Botany', state: 'NSW', postcode: '2019' }],
      },
    });
  });

  it('answers 401 without a token and the error shape for bad JSON', async () => {
    const t = await makeApp();
    const res = await t.json('GET', '/api/warehouse/', null);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, code: 'not_authenticated' });
    const admin = await t.login('admin');
    const bad = await t.json('POST', '/api/warehouse/', admin.token, '{"street_address":');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: 'validation_error' });
  });

  it('serves the OpenAPI document', async () => {
    const t = await makeApp();
    const res = await t.json<{ paths: Record<string, unknown> }>('GET', '/api/openapi.json', null);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toContain('/warehouse/{id}/');
  });
});

describe('generic list filters', () => {
  it('filters by declared fields and refuses bad filter values', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    for (const state of ['NSW', 'VIC', 'NSW']) {
      await t.json('POST', '/api/warehouse/', admin.token, { street_address: `1 ${state} Rd`, suburb: 'X', state, postcode: '2000' });
    }
    const nsw = await t.json<{ count: number }>('GET', '/api/warehouse/?state=NSW', admin.token);
    expect(nsw.body.count).toBe(2);
    const both = await t.json<{ count: number }>('GET', '/api/warehouse/?state=NSW,VIC', admin.token);
    expect(both.body.count).toBe(3);
    const active = await t.json<{ count: number }>('GET', '/api/warehouse/?is_active=false', admin.token);
    expect(active.body.count).toBe(0);
    expect((await t.json('GET', '/api/warehouse/?is_active=maybe', admin.token)).status).toBe(400);
  });
});

describe('partial update', () => {
  it('leaves fields the PATCH did not send alone, even ones with create defaults', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const w = await t.json<{ id: number }>('POST', '/api/warehouse/', admin.token, {
      street_address: '1 A Rd',
      suburb: 'X',
      state: 'NSW',
      postcode: '2000',
      is_active: false,
      additional_details: 'Dock 4',
    });
    const res = await t.json<{ is_active: boolean; additional_details: string; suburb: string }>(
      'PATCH',
      `/api/warehouse/${w.body.id}/`,
      admin.token,
      { suburb: 'Y' },
    );
    expect(res.body).toMatchObject({ is_active: false, additional_details: 'Dock 4', suburb: 'Y' });
  });
});
