import { describe, expect, it } from 'vitest';
import { makeApp } from '../helpers/app';

/** Issue 18's small slips that live on the server. */
describe('office slips', () => {
  it('unknown package list filters answer 400; the documented ones keep working', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    expect((await t.json('POST', '/api/package/', admin.token, { hawb: 'SLIP-1' })).status).toBe(201);
    expect((await t.json('POST', '/api/package/', admin.token, { hawb: 'SLIP-2' })).status).toBe(201);
    const bad = await t.json<{ code: string; errors: { path: string }[] }>('GET', '/api/package/?hawb=SLIP-1', admin.token);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_error');
    const ok = await t.json<{ count: number }>(
      'GET',
      '/api/package/?search=SLIP-1&status=created&page=1&page_size=10&ordering=-created_at',
      admin.token,
    );
    expect(ok.status).toBe(200);
    expect(ok.body.count).toBe(1);
    expect((await t.json('GET', '/api/package/csv-download/?hawb=x', admin.token)).status).toBe(400);
  });

  it('a depot scan of a parcel already assigned to a driver says it stays assigned, not "Received"', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const depot = await t.login('depot_manager');
    const driver = await t.login('driver');
    const id = (await t.json<{ id: number }>('POST', '/api/package/', admin.token, { hawb: 'SLIP-3' })).body.id;
    expect((await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: [id] })).status).toBe(
      200,
    );
    const scan = await t.json<{ message: string; package: { status: string; landed: boolean } }>(
      'POST',
      '/api/scan-package-api/scan-assign-zone/',
      depot.token,
      { barcode: 'SLIP-3' },
    );
    expect(scan.status).toBe(200);
    expect(scan.body.package).toMatchObject({ status: 'assigned', landed: true });
    expect(scan.body.message).toMatch(/^At the depot, still assigned to its driver: SLIP-3/);
    expect(scan.body.message).not.toMatch(/^Received/);
  });
});
