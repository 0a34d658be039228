import { describe, expect, it } from 'vitest';
import { webhookDelivery } from '../../server/db/schema/index';
import { makeApp } from '../helpers/app';
import { companyWithKey } from './webhooks-helpers';

describe('package.created reaches the webhook queue from every creation path, once', () => {
  it('single create and bulk upload each queue one package.created per parcel', async () => {
    const t = await makeApp();
    const co = await companyWithKey(t, 'Hooked Ltd');
    const ep = await t.json('POST', '/api/webhook-endpoint/', co.login.token, {
      url: 'https://hooks.example.com/in',
      events: ['package.created'],
    });
    expect(ep.status).toBe(201);

    const one = await t.json<{ id: number }>('POST', '/api/package/', co.login.token, { hawb: 'HOOK-1' });
    expect(one.status).toBe(201);
    const form = new FormData();
    form.append('file', new File(['hawb,customer_name\nHOOK-2,Ann\nHOOK-3,Bob\n'], 'p.csv', { type: 'text/csv' }));
    const upload = await t.call('POST', '/api/package/bulk-upload/', co.login.token, form);
    expect(upload.status).toBe(200);

    const rows = await t.db.select().from(webhookDelivery).all();
    expect(rows.map((r) => r.event)).toEqual(['package.created', 'package.created', 'package.created']);
    expect(new Set(rows.map((r) => r.package_id)).size).toBe(3);
    expect(rows.every((r) => r.company_id === co.id)).toBe(true);
  });
});
