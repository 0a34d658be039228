import { describe, expect, it } from 'vitest';
import { makeApp } from '../helpers/app';

/**
 * A courier's first morning on a brand-new database: many drivers scan and deliver at the same moment
 * while the tables they write are still empty. On PostgreSQL every unit is SERIALIZABLE, and a
 * sequential scan of a table takes a predicate lock on all of it, so on tiny tables unrelated units can
 * look like they conflict (the scale bench saw 503s that way at 50 connections). Retries must absorb
 * them: every request is answered 200.
 */
describe('concurrent first deliveries on a fresh database', () => {
  it('thirty drivers scan and deliver at once: every request succeeds, each applied once', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const shipper = await t.login('company');
    const drivers = [];
    for (let i = 0; i < 30; i++) drivers.push(await t.login('driver'));
    const parcels: { id: number; hawb: string }[] = [];
    for (let i = 0; i < drivers.length; i++) {
      const hawb = `FRESH${String(i).padStart(4, '0')}`;
      const res = await t.json<{ id: number }>('POST', '/api/package/', shipper.token, { hawb });
      expect(res.status).toBe(201);
      parcels.push({ id: res.body.id, hawb });
      expect((await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: drivers[i]!.id, packages: [res.body.id] })).status).toBe(200);
    }
    const scans = await Promise.all(drivers.map((d, i) => t.json('POST', '/api/scan-package-api/inbound-scan/', d.token, { barcode: parcels[i]!.hawb })));
    expect(scans.map((r) => r.status)).toEqual(drivers.map(() => 200));
    const delivered = await Promise.all(drivers.map((d, i) => t.json('POST', `/api/package-delivered/${parcels[i]!.id}/deliver/`, d.token, { recipient_name: `Kim ${i}` })));
    expect(delivered.map((r) => r.status)).toEqual(drivers.map(() => 200));
    for (const p of parcels) {
      const got = await t.json<{ status: string }>('GET', `/api/package/${p.id}/`, admin.token);
      expect(got.body.status).toBe('delivered');
    }
    await t.db.$engine.close();
  }, 120_000);
});
