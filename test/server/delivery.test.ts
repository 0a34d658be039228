import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveryAttempt, packageEvent } from '../../server/db/schema/index';
import { formOf, makeApp } from '../helpers/app';

const png = (n: number) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, n & 255, (n >> 8) & 255]);
type Json = Record<string, unknown> & { package?: Record<string, unknown>; details?: Record<string, unknown> };
type ProofJson = Record<string, { id: number } | null | unknown>;

async function world() {
  const t = await makeApp();
  const admin = await t.login('admin');
  const supervisor = await t.login('supervisor');
  const d1 = await t.login('driver');
  const d2 = await t.login('driver');
  const shipper = await t.login('company');
  const otherShipper = await t.login('company');
  const reason = (await t.json<{ id: number }>('POST', '/api/failed-delivery-status/', admin.token, { name: 'Closed' })).body.id;
  const parcel = async (hawb: string) => {
    const res = await t.json<{ id: number }>('POST', '/api/package/', shipper.token, { hawb });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const loaded = async (hawb: string, driver = d1) => {
    const id = await parcel(hawb);
    expect((await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: [id] })).status).toBe(
      200,
    );
    expect((await t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, { barcode: hawb })).status).toBe(200);
    return id;
  };

  const upload = (token: string, n: number) => t.upload(token, png(n));
  return { t, admin, supervisor, d1, d2, shipper, otherShipper, reason, parcel, loaded, form: formOf, upload };
}

describe('proof of delivery (web photo upload)', () => {
  it('creates, lists, retrieves, updates and deletes proof slots, one by one and all at once', async () => {
    const w = await world();
    const { t } = w;
    const id = await w.loaded('P-1');
    const files: number[] = [];
    for (let i = 0; i < 6; i++) files.push(await w.upload(w.d1.token, i));
    const created = await t.json<ProofJson>('POST', '/api/photo-upload/', w.d1.token, {
      package: id,
      photo_one: files[0],
      photo_two: files[1],
      photo_three: files[2],
      photo_four: files[3],
      photo_five: files[4],
      signature: files[5],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      package: id,
      hawb: 'P-1',
      delivered: false,
      photo_one: { id: files[0] },
      signature: { id: files[5] },
    });

    const list = await t.json<{ count: number; results: { package: number }[] }>('GET', '/api/photo-upload/', w.shipper.token);
    expect(list.body.results.map((r) => r.package)).toEqual([id]);
    expect((await t.json<{ count: number }>('GET', '/api/photo-upload/', w.otherShipper.token)).body.count).toBe(0);
    expect((await t.json('GET', `/api/photo-upload/${id}/`, w.otherShipper.token)).status).toBe(404);
    expect((await t.json('GET', `/api/photo-upload/${id}/`, w.shipper.token)).body).toMatchObject({ photo_three: { id: files[2] } });
    expect((await t.json('PATCH', `/api/photo-upload/${id}/`, w.shipper.token, { photo_one: null })).status).toBe(403);

    for (const [i, slot] of ['photo-one', 'photo-two', 'photo-three', 'photo-four', 'photo-five', 'signature'].entries()) {
      const res = await t.json<ProofJson>('DELETE', `/api/photo-upload/${id}/${slot}/`, w.d1.token);
      expect(res.status).toBe(200);
      expect(res.body[slot.replace('-', '_')]).toBeNull();
      if (i < 5) expect(res.body.signature).not.toBeNull();
    }
    const updated = await t.json<ProofJson>('PATCH', `/api/photo-upload/${id}/`, w.d1.token, { photo_two: files[1], signature: files[5] });
    expect(updated.body).toMatchObject({ photo_one: null, photo_two: { id: files[1] }, signature: { id: files[5] } });
    expect((await t.json('PATCH', `/api/photo-upload/${id}/`, w.d1.token, { photo_one: 'never-uploaded' })).status).toBe(409);
    expect((await t.json('PATCH', `/api/photo-upload/${id}/`, w.d1.token, { photo_one: 'bad id!' })).status).toBe(400);

    // Delivered: the driver may no longer replace or remove evidence; staff may.
    expect((await t.json('POST', `/api/package-delivered/${id}/deliver/`, w.d1.token, { recipient_name: 'Kim' })).status).toBe(200);
    const refused = await t.json<Json>('DELETE', `/api/photo-upload/${id}/photo-two/`, w.d1.token);
    expect(refused.status).toBe(409);
    expect((await t.json('PATCH', `/api/photo-upload/${id}/`, w.d1.token, { photo_three: files[2] })).status).toBe(200);
    const cleared = await t.json<ProofJson>('DELETE', `/api/photo-upload/${id}/`, w.admin.token);
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ photo_two: null, photo_three: null, signature: null, recipient_name: 'Kim' });
    expect(
      (await t.db.select().from(packageEvent).where(eq(packageEvent.package_id, id)).all()).filter((e) => e.action === 'proof_update')
        .length,
    ).toBeGreaterThan(8);
    expect((await t.json('DELETE', `/api/photo-upload/${id}/`, w.d2.token)).status).toBe(404);
  });
});

describe('package delivered (mobile)', () => {
  it('uploads and removes slot photos, lists, retrieves and corrects deliveries', async () => {
    const w = await world();
    const { t } = w;
    const id = await w.loaded('M-1');
    const up = await t.json<ProofJson>(
      'POST',
      `/api/package-delivered/${id}/photo/`,
      w.d1.token,
      w.form({ file: png(1), slot: 'photo_one', client_id: 'm1-photo-0001' }),
    );
    expect(up.status).toBe(201);
    expect(up.body.photo_one).toMatchObject({ mime: 'image/png' });
    const sig = await t.json<ProofJson>(
      'POST',
      `/api/package-delivered/${id}/photo/`,
      w.d1.token,
      w.form({ file: png(2), slot: 'signature' }),
    );
    expect(sig.body.signature).not.toBeNull();
    const notImage = await t.json(
      'POST',
      `/api/package-delivered/${id}/photo/`,
      w.d1.token,
      w.form({ file: new TextEncoder().encode('hello'), slot: 'photo_two' }),
    );
    expect(notImage.status).toBe(415);
    expect(
      (await t.json('POST', `/api/package-delivered/${id}/photo/`, w.d1.token, w.form({ file: png(3), slot: 'photo_six' }))).status,
    ).toBe(400);
    expect(
      (await t.json('POST', `/api/package-delivered/${id}/photo/`, w.d2.token, w.form({ file: png(3), slot: 'photo_two' }))).status,
    ).toBe(404);
    const removed = await t.json<ProofJson>('DELETE', `/api/package-delivered/${id}/photo/signature/`, w.d1.token);
    expect(removed.body.signature).toBeNull();
    expect((await t.json('DELETE', `/api/package-delivered/${id}/photo/photo-nine/`, w.d1.token)).status).toBe(400);

    // The photos uploaded into slots stay when the delivery names none.
    const done = await t.json<Json>('POST', `/api/package-delivered/${id}/deliver/`, w.d1.token, { recipient_name: 'Kim' });
    expect(done.body.proof).toMatchObject({ photo_one: { mime: 'image/png' }, recipient_name: 'Kim' });

    const mine = await t.json<{ count: number; results: { package: number }[] }>('GET', '/api/package-delivered/', w.d1.token);
    expect(mine.body.results.map((r) => r.package)).toEqual([id]);
    expect((await t.json<{ count: number }>('GET', '/api/package-delivered/', w.d2.token)).body.count).toBe(0);
    expect(
      (await t.json<{ count: number }>('GET', '/api/package-delivered/?date_from=2026-01-05&date_to=2026-01-05', w.shipper.token)).body
        .count,
    ).toBe(1);
    expect((await t.json<{ count: number }>('GET', '/api/package-delivered/', w.otherShipper.token)).body.count).toBe(0);
    expect((await t.json('GET', `/api/package-delivered/${id}/`, w.shipper.token)).body).toMatchObject({
      recipient_name: 'Kim',
      delivered: true,
    });
    expect((await t.json('GET', `/api/package-delivered/${id}/`, w.otherShipper.token)).status).toBe(404);

    const fixed = await t.json('PATCH', `/api/package-delivered/${id}/`, w.d1.token, { recipient_name: 'Kim Lee', note: 'handed over' });
    expect(fixed.body).toMatchObject({ recipient_name: 'Kim Lee', note: 'handed over' });
    expect((await t.json('PATCH', `/api/package-delivered/${id}/`, w.d2.token, { note: 'x' })).status).toBe(404);
    expect((await t.json('PATCH', `/api/package-delivered/${id}/`, w.shipper.token, { note: 'x' })).status).toBe(403);
    const open = await w.loaded('M-2');
    expect((await t.json('PATCH', `/api/package-delivered/${open}/`, w.d1.token, { note: 'x' })).status).toBe(409);
  });

  it('fails with a reason and a photo uploaded before or after; admins force outcomes', async () => {
    const w = await world();
    const { t } = w;
    const id = await w.loaded('F-1');
    const early = await t.json<{ id: number }>(
      'POST',
      `/api/package-delivered/${id}/fail-photo/`,
      w.d1.token,
      w.form({ file: png(7), client_id: 'fail-photo-0001' }),
    );
    expect(early.status).toBe(201);
    expect(early.body).toMatchObject({ attached_to_attempt: null, client_id: 'fail-photo-0001' });
    const failed = await t.json<Json>('POST', `/api/package-delivered/${id}/fail/`, w.d1.token, {
      failed_delivery_status: w.reason,
      note: 'shop shut',
      photo: 'fail-photo-0001',
    });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ attempts: 1, must_return: false });
    expect((await t.json('POST', `/api/package-delivered/${id}/fail/`, w.d1.token, { failed_delivery_status: 999 })).status).toBe(400);
    expect((await t.json('POST', `/api/package-delivered/${id}/fail/`, w.d1.token, { note: 'no reason' })).status).toBe(400);
    const twice = await t.json<Json>('POST', `/api/package-delivered/${id}/fail/`, w.d1.token, { failed_delivery_status: w.reason });
    expect(twice.status).toBe(409);
    expect(twice.body.details).toMatchObject({ status: 'failed' });

    const id2 = await w.loaded('F-2');
    await t.json('POST', `/api/package-delivered/${id2}/fail/`, w.d1.token, { failed_delivery_status: w.reason });
    const late = await t.json<Json>('POST', `/api/package-delivered/${id2}/fail-photo/`, w.d1.token, w.form({ file: png(8) }));
    expect(late.body).toMatchObject({ attached_to_attempt: 1 });

    const attempts = await t.json<{ count: number; results: { hawb: string; photo: unknown; reason: string }[] }>(
      'GET',
      '/api/delivery-attempt/',
      w.d1.token,
    );
    expect(attempts.body.count).toBe(2);
    expect(attempts.body.results.every((a) => a.photo !== null && a.reason === 'Closed')).toBe(true);
    expect((await t.json<{ count: number }>('GET', `/api/delivery-attempt/?package=${id}`, w.shipper.token)).body.count).toBe(1);
    expect((await t.json<{ count: number }>('GET', '/api/delivery-attempt/', w.otherShipper.token)).body.count).toBe(0);

    // Staff record an attempt a driver phoned in.
    const id3 = await w.loaded('F-3');
    const phoned = await t.json<Json>('POST', '/api/delivery-attempt/', w.supervisor.token, {
      package: id3,
      failed_delivery_status: w.reason,
      note: 'driver called',
    });
    expect(phoned.status).toBe(201);
    expect(phoned.body).toMatchObject({ attempts: 1, package: { status: 'failed' } });
    expect(await t.db.select().from(deliveryAttempt).where(eq(deliveryAttempt.package_id, id3)).get()).toMatchObject({
      driver_id: w.d1.id,
      recorded_by: w.supervisor.id,
    });
    expect(
      (await t.json('POST', '/api/delivery-attempt/', w.shipper.token, { package: id3, failed_delivery_status: w.reason })).status,
    ).toBe(403);

    // Admin force actions: from an open state, never over a final one.
    const fresh = await w.parcel('F-4');
    const forced = await t.json<Json>('POST', `/api/package-delivered/${fresh}/force-deliver/`, w.admin.token, {
      note: 'confirmed by phone',
    });
    expect(forced.status).toBe(200);
    expect(forced.body).toMatchObject({ package: { status: 'delivered' }, proof: { forced: true, note: 'confirmed by phone' } });
    const overFinal = await t.json<Json>('POST', `/api/package-delivered/${fresh}/force-fail/`, w.admin.token, { note: 'oops' });
    expect(overFinal.status).toBe(409);
    expect(overFinal.body.details).toMatchObject({ status: 'delivered' });
    const ff = await t.json<Json>('POST', `/api/package-delivered/${id2}/force-fail/`, w.admin.token, { note: 'customer refused' });
    expect(ff.status).toBe(409);
    const id5 = await w.loaded('F-5');
    const forcedFail = await t.json<Json>('POST', `/api/package-delivered/${id5}/force-fail/`, w.admin.token, {
      note: 'van broke down',
      failed_delivery_status: w.reason,
    });
    expect(forcedFail.body).toMatchObject({ attempts: 1, package: { status: 'failed' } });
    expect((await t.json('POST', `/api/package-delivered/${id5}/force-deliver/`, w.supervisor.token, { note: 'x' })).status).toBe(403);
    expect((await t.json('POST', `/api/package-delivered/${id5}/force-deliver/`, w.admin.token, {})).status).toBe(400);
  });
});
