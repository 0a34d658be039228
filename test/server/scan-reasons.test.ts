/**
 * Refusals carry a machine-readable reason in the error's `details` (issue 35), so a phone can say
 * what happened and what to do: unknown code, misread (part of a label), not yours, reassigned
 * (it was yours), cancelled/final. And the supervisor's flagged list says why each was flagged.
 * The real app on SQLite, and on PostgreSQL under scripts/with-postgres.sh.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pkg } from '../../server/db/schema/index';
import { makeApp } from '../helpers/app';

interface Refusal {
  code: string;
  message: string;
  details?: { reason?: string; status?: string };
}

async function world() {
  const t = await makeApp();
  const admin = await t.login('admin');
  const depot = await t.login('depot_manager');
  const d1 = await t.login('driver');
  const d2 = await t.login('driver');
  const shipper = await t.login('company');
  const parcel = async (hawb: string, driverId?: number) => {
    const res = await t.json<{ id: number }>('POST', '/api/package/', shipper.token, { hawb });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    if (driverId)
      expect(
        (await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driverId, packages: [res.body.id] })).status,
      ).toBe(200);
    return res.body.id;
  };
  const load = (token: string, barcode: string) => t.json<Refusal>('POST', '/api/scan-package-api/inbound-scan/', token, { barcode });
  return { t, admin, depot, d1, d2, parcel, load };
}

describe('refusal reasons', () => {
  it("an unknown code is unknown_code; part of one of the driver's labels is misread; neither changes anything", async () => {
    const w = await world();
    await w.parcel('MO1001089', w.d1.id);
    const unknown = await w.load(w.d1.token, 'ZZ999999');
    expect(unknown.status).toBe(404);
    expect(unknown.body.details?.reason).toBe('unknown_code');
    // Cut short at the front, the middle or the end: the driver's own label, found inside.
    for (const part of ['MO100108', 'O1001089', '00108']) {
      const r = await w.load(w.d1.token, part);
      expect(r.status, part).toBe(404);
      expect(r.body.details?.reason, part).toBe('misread');
      expect(r.body.message).toContain('scan it again');
    }
    // Another driver's label is not searched for a driver: nothing of it leaks.
    await w.parcel('XY7770001', w.d2.id);
    expect((await w.load(w.d1.token, 'XY777')).body.details?.reason).toBe('unknown_code');
    // Depot staff: a code at the front of any label is misread.
    const depot = await w.t.json<Refusal>('POST', '/api/scan-package-api/scan-assign-zone/', w.depot.token, { barcode: 'XY777' });
    expect(depot.status).toBe(404);
    expect(depot.body.details?.reason).toBe('misread');
    const rows = await w.t.db.select().from(pkg);
    expect(rows.every((r) => r.status === 'assigned')).toBe(true);
  });

  it('not yours when it never was; reassigned when the office gave it away; cancelled when it was cancelled', async () => {
    const w = await world();
    const never = await w.parcel('NEVER-1', w.d2.id);
    expect(never).toBeGreaterThan(0);
    const r1 = await w.load(w.d1.token, 'NEVER-1');
    expect(r1.status).toBe(409);
    expect(r1.body.details?.reason).toBe('not_yours');

    const moved = await w.parcel('MOVED-1', w.d1.id);
    expect(
      (await w.t.json('POST', '/api/assign-package/assign-driver/', w.admin.token, { driver: w.d2.id, packages: [moved] })).status,
    ).toBe(200);
    const r2 = await w.load(w.d1.token, 'MOVED-1');
    expect(r2.status).toBe(409);
    expect(r2.body.details?.reason).toBe('reassigned');
    expect(r2.body.message).toContain('another driver');

    const gone = await w.parcel('CANCEL-1', w.d1.id);
    const c = await w.t.json('POST', `/api/package/${gone}/cancel/`, w.admin.token, { reason: 'sender asked' });
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    const r3 = await w.load(w.d1.token, 'CANCEL-1');
    expect(r3.status).toBe(409);
    // Cancelled, never "given to another driver", whether the cancel kept the driver or not.
    expect(r3.body.details?.status).toBe('cancelled');
    expect(r3.body.details?.reason).not.toBe('reassigned');
    expect(r3.body.details?.reason).not.toBe('not_yours');
  });

  it('the flagged list says why each parcel was flagged', async () => {
    const w = await world();
    const id = await w.parcel('FLAG-1', w.d1.id);
    await w.t.db
      .update(pkg)
      .set({ flagged: true, flag_reason: 'Delivered by Dan (offline) after it was reassigned to Eve' })
      .where(eq(pkg.id, id));
    const list = await w.t.json<{ results: { id: number; hawb: string; flag_reason: string | null }[] }>(
      'GET',
      '/api/package-delivered/flagged/',
      w.admin.token,
    );
    expect(list.status).toBe(200);
    expect(list.body.results).toEqual([
      expect.objectContaining({ id, hawb: 'FLAG-1', flag_reason: 'Delivered by Dan (offline) after it was reassigned to Eve' }),
    ]);
  });
});
