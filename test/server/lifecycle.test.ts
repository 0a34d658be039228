import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  country,
  deliveryAttempt,
  packageEvent,
  packagePhoto,
  pkg,
  scanException,
  state,
  suburb,
  zone,
} from '../../server/db/schema/index';
import { makeApp, type TestApp } from '../helpers/app';

// A PNG header is all the content sniffing needs; a distinct tail gives each file its own hash.
const png = (n: number) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, n & 255, (n >> 8) & 255]);
const jpeg = (n: number) => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, n & 255]);

type Json = Record<string, unknown> & { package?: Record<string, unknown> };

/** A courier with a depot team, two drivers, a shipper, one zone with one suburb and a failure reason. */
async function world() {
  const t = await makeApp();
  const admin = await t.login('admin');
  const depot = await t.login('depot_manager');
  const supervisor = await t.login('supervisor');
  const d1 = await t.login('driver', { name: 'Dana Driver' });
  const d2 = await t.login('driver', { name: 'Eli Driver' });
  const shipper = await t.login('company');
  const now = t.clock.now();
  const countryId = (await t.db.insert(country).values({ name: 'Australia', created_at: now, updated_at: now }).returning().get()).id;
  const stateId = (
    await t.db.insert(state).values({ name: 'NSW', country_id: countryId, created_at: now, updated_at: now }).returning().get()
  ).id;
  const zoneId = (await t.db.insert(zone).values({ name: 'East', created_at: now, updated_at: now }).returning().get()).id;
  const suburbId = (
    await t.db
      .insert(suburb)
      .values({ name: 'Bondi', state_id: stateId, zone_id: zoneId, postcode: '2026', created_at: now, updated_at: now })
      .returning()
      .get()
  ).id;
  const reason = await t.json<{ id: number }>('POST', '/api/failed-delivery-status/', admin.token, { name: 'Nobody home' });
  expect(reason.status).toBe(201);

  const parcel = async (hawb: string, extra: Record<string, unknown> = {}) => {
    const res = await t.json<{ id: number }>('POST', '/api/package/', shipper.token, {
      hawb,
      customer_name: 'Rita Recipient',
      customer_phone: '0400 000 000',
      postcode: 2026,
      ...extra,
    });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const assign = async (driver: number, ids: number[]) => {
    const res = await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver, packages: ids });
    expect(res.status).toBe(200);
  };
  const upload = (token: string, bytes: Uint8Array, clientId: string, kind = 'photo') =>
    t.upload(token, bytes, { client_id: clientId, kind });
  const status = (id: number) => t.db.select().from(pkg).where(eq(pkg.id, id)).get();
  return { t, admin, depot, supervisor, d1, d2, shipper, zoneId, suburbId, reasonId: reason.body.id, parcel, assign, upload, status };
}

const post = (t: TestApp, path: string, token: string, body: unknown, headers?: Record<string, string>) =>
  t.json<Json>('POST', path, token, body, headers);

describe('package lifecycle over HTTP', () => {
  it('created -> received (zone) -> assigned -> loaded -> delivered with five photos and a signature', async () => {
    const w = await world();
    const { t } = w;
    const id = await w.parcel('HAWB-1', { suburb: w.suburbId });
    expect((await w.status(id))?.status).toBe('created');

    const landed = await post(t, '/api/scan-package-api/scan-assign-zone/', w.depot.token, { barcode: 'HAWB-1' });
    expect(landed.status).toBe(200);
    expect(landed.body).toMatchObject({
      zone: { id: w.zoneId, name: 'East' },
      already_scanned: false,
      package: { status: 'received', landed: true, zone: w.zoneId },
    });
    expect((await post(t, '/api/scan-package-api/scan-assign-zone/', w.depot.token, { barcode: 'HAWB-1' })).body.already_scanned).toBe(
      true,
    );

    await w.assign(w.d1.id, [id]);
    const loaded = await post(t, '/api/scan-package-api/inbound-scan/', w.d1.token, {
      barcode: 'HAWB-1',
      occurred_at: '2026-01-05T08:30:00+10:00',
    });
    expect(loaded.status).toBe(200);
    expect(loaded.body.package).toMatchObject({ status: 'out_for_delivery', is_scanned: true });

    const photos: number[] = [];
    for (let i = 1; i <= 5; i++) photos.push(await w.upload(w.d1.token, i % 2 ? png(i) : jpeg(i), `photo-000${i}`));
    await w.upload(w.d1.token, png(99), 'signature-0001', 'signature');
    const done = await post(t, `/api/package-delivered/${id}/deliver/`, w.d1.token, {
      recipient_name: 'Rita',
      note: 'Front door',
      photos: [photos[0], 'photo-0002', 'photo-0003', photos[3], 'photo-0005'],
      signature: 'signature-0001',
      occurred_at: '2026-01-05T07:55:00Z',
      latitude: -33.89,
      longitude: 151.27,
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      flagged: false,
      package: { status: 'delivered' },
      proof: { recipient_name: 'Rita', delivered: true, driver: { id: w.d1.id, name: 'Dana Driver' } },
    });
    const proof = done.body.proof as Record<string, { id: number } | null>;
    expect(['photo_one', 'photo_two', 'photo_three', 'photo_four', 'photo_five', 'signature'].every((s) => proof[s] != null)).toBe(true);
    expect(proof.photo_one?.id).toBe(photos[0]);
    const row = await w.status(id);
    expect(row?.delivered_at).toBe(Date.parse('2026-01-05T07:55:00Z'));

    // Every change is an event with who, device time, received time, position, from and to.
    const events = await t.db.select().from(packageEvent).where(eq(packageEvent.package_id, id)).all();
    const delivered = events.find((e) => e.to_status === 'delivered');
    expect(delivered).toMatchObject({
      from_status: 'out_for_delivery',
      actor_id: w.d1.id,
      occurred_at: Date.parse('2026-01-05T07:55:00Z'),
      received_at: t.clock.now(),
      latitude: -33.89,
    });
    expect(events.map((e) => e.to_status).filter(Boolean)).toEqual(['created', 'received', 'assigned', 'out_for_delivery', 'delivered']);

    // The recipient's tracking page shows states only.
    const track = await t.json<{ events: { status: string }[] }>('GET', '/api/track/HAWB-1/', null);
    expect(track.status).toBe(200);
    expect(track.body.events.map((e) => e.status)).toEqual(['created', 'received', 'assigned', 'out_for_delivery', 'delivered']);
    expect(JSON.stringify(track.body)).not.toMatch(/Rita|0400|Dana|photo/);
  });

  it('failed twice, then delivered on the third attempt', async () => {
    const w = await world();
    const { t } = w;
    const id = await w.parcel('HAWB-2');
    await w.assign(w.d1.id, [id]);
    for (let attempt = 1; attempt <= 2; attempt++) {
      expect((await post(t, '/api/scan-package-api/inbound-scan/', w.d1.token, { barcode: 'HAWB-2' })).status).toBe(200);
      const failed = await post(t, `/api/package-delivered/${id}/fail/`, w.d1.token, {
        failed_delivery_status: w.reasonId,
        note: `try ${attempt}`,
      });
      expect(failed.status).toBe(200);
      expect(failed.body).toMatchObject({ attempts: attempt, max_attempts: 3, must_return: false, package: { status: 'failed' } });
    }
    // A failed parcel delivered straight away is a reattempt at the door.
    const done = await post(t, `/api/package-delivered/${id}/deliver/`, w.d1.token, { recipient_name: 'Neighbour' });
    expect(done.status).toBe(200);
    expect(await w.status(id)).toMatchObject({ status: 'delivered', attempts: 2 });
    const pkgAnswer = await t.json<{ package_failed_delivery_status: { name: string }[] }>('GET', `/api/package/${id}/`, w.admin.token);
    expect(pkgAnswer.body.package_failed_delivery_status.map((f) => f.name)).toEqual(['Nobody home', 'Nobody home']);
  });

  it('failed three times must be returned, then is returned to the sender', async () => {
    const w = await world();
    const { t } = w;
    const id = await w.parcel('HAWB-3');
    await w.assign(w.d1.id, [id]);
    let last: Json = {};
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await post(t, '/api/scan-package-api/inbound-scan/', w.d1.token, { barcode: 'HAWB-3' })).status).toBe(200);
      last = (await post(t, `/api/package-delivered/${id}/fail/`, w.d1.token, { failed_delivery_status: w.reasonId })).body;
    }
    expect(last).toMatchObject({ attempts: 3, must_return: true });

    const again = await post(t, '/api/scan-package-api/inbound-scan/', w.d1.token, { barcode: 'HAWB-3' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'invalid_transition', details: { status: 'failed', reason: 'must_return', attempts: 3 } });
    expect(again.body.message).toContain('HAWB-3');
    const redeliver = await post(t, `/api/package-delivered/${id}/deliver/`, w.d1.token, {});
    expect(redeliver.status).toBe(409);
    const reassign = await t.json('POST', '/api/assign-package/assign-driver/', w.admin.token, { driver: w.d2.id, packages: [id] });
    expect(reassign.status).toBe(409);
    // Issue 18: the attempt limit binds forced actions too, and the driver's remaining list no longer offers it.
    const forced = await post(t, `/api/package-delivered/${id}/force-deliver/`, w.admin.token, { note: 'customer phoned' });
    expect(forced.status).toBe(409);
    expect(forced.body).toMatchObject({ code: 'invalid_transition', details: { reason: 'must_return' } });
    const remaining = await t.json<{ pending_packages: { id: number }[] }>(
      'GET',
      `/api/scan-package-api/${w.d1.id}/remaining-packages-list/`,
      w.d1.token,
    );
    expect(remaining.status).toBe(200);
    expect(remaining.body.pending_packages.map((p) => p.id)).not.toContain(id);

    const returned = await post(t, '/api/return-parcel/scan/', w.d1.token, { barcode: 'HAWB-3' });
    expect(returned.status).toBe(200);
    expect(returned.body.package).toMatchObject({ status: 'returned', assigned_to_id: null });
    const info = await t.json('GET', '/api/return-parcel/info/', w.depot.token);
    expect(info.body).toMatchObject({ returned: 1, returned_to_sender: 0 });

    const rts = await post(t, '/api/return-parcel/depot-manager/', w.depot.token, { barcode: 'HAWB-3', outcome: 'returned_to_sender' });
    expect(rts.status).toBe(200);
    expect((await w.status(id))?.status).toBe('returned_to_sender');
    // Final: nothing moves it any more.
    const late = await post(t, '/api/return-parcel/depot-manager/', w.depot.token, {
      barcode: 'HAWB-3',
      outcome: 'redeliver',
      driver: w.d2.id,
    });
    expect(late.status).toBe(409);
    expect(late.body.details).toMatchObject({ status: 'returned_to_sender', reason: 'final' });
    expect(await t.db.select().from(deliveryAttempt).where(eq(deliveryAttempt.package_id, id)).all()).toHaveLength(3);
  });

  it('return to sender of a failed parcel still with its driver records that, not a depot receipt (issue 36)', async () => {
    const w = await world();
    const { t } = w;
    const id = await w.parcel('HAWB-RTS');
    await w.assign(w.d1.id, [id]);
    await post(t, '/api/scan-package-api/inbound-scan/', w.d1.token, { barcode: 'HAWB-RTS' });
    await post(t, `/api/package-delivered/${id}/fail/`, w.d1.token, { failed_delivery_status: w.reasonId });
    const before = await t.db.select().from(packageEvent).where(eq(packageEvent.package_id, id)).all();
    const rts = await post(t, '/api/return-parcel/depot-manager/', w.depot.token, {
      barcode: 'HAWB-RTS',
      outcome: 'returned_to_sender',
      note: 'shipper asked for it back',
    });
    expect(rts.status).toBe(200);
    expect(await w.status(id)).toMatchObject({ status: 'returned_to_sender', assigned_to_id: null, is_scanned: false });
    const added = (await t.db.select().from(packageEvent).where(eq(packageEvent.package_id, id)).all()).slice(before.length);
    expect(added.map((e) => [e.action, e.from_status, e.to_status])).toEqual([['return_to_sender', 'failed', 'returned_to_sender']]);
    expect(added[0].note).toBe('shipper asked for it back');
  });

  it('a returned parcel can be redelivered with a fresh count of attempts', async () => {
    const w = await world();
    const { t } = w;
    const id = await w.parcel('HAWB-4');
    await w.assign(w.d1.id, [id]);
    await post(t, '/api/scan-package-api/inbound-scan/', w.d1.token, { barcode: 'HAWB-4' });
    await post(t, `/api/package-delivered/${id}/fail/`, w.d1.token, { failed_delivery_status: w.reasonId });
    const res = await post(t, '/api/return-parcel/depot-manager/', w.depot.token, {
      barcode: 'HAWB-4',
      outcome: 'redeliver',
      driver: w.d2.id,
    });
    expect(res.status).toBe(200);
    expect(await w.status(id)).toMatchObject({ status: 'assigned', assigned_to_id: w.d2.id, attempts: 0 });
    expect((await post(t, '/api/scan-package-api/inbound-scan/', w.d2.token, { barcode: 'HAWB-4' })).status).toBe(200);
    expect((await post(t, `/api/package-delivered/${id}/deliver/`, w.d2.token, {})).status).toBe(200);
  });

  it('cancelled before it leaves on a van; not after', async () => {
    const w = await world();
    const { t } = w;
    const a = await w.parcel('HAWB-5');
    const b = await w.parcel('HAWB-6');
    await w.assign(w.d1.id, [a, b]);
    const cancel = await post(t, `/api/package/${a}/cancel/`, w.shipper.token, { note: 'customer changed mind' });
    expect(cancel.status).toBe(200);
    expect(cancel.body).toMatchObject({ status: 'cancelled', assigned_to_id: null });
    // Cancelled is final: the driver can no longer load or deliver it.
    const load = await post(t, '/api/scan-package-api/inbound-scan/', w.d1.token, { barcode: 'HAWB-5' });
    expect(load.status).toBe(409);

    await post(t, '/api/scan-package-api/inbound-scan/', w.d1.token, { barcode: 'HAWB-6' });
    const tooLate = await post(t, `/api/package/${b}/cancel/`, w.admin.token, {});
    expect(tooLate.status).toBe(409);
    expect(tooLate.body).toMatchObject({ code: 'invalid_transition', details: { status: 'out_for_delivery' } });
    // Refusals stay on the record.
    expect(
      (await t.db.select().from(packageEvent).where(eq(packageEvent.package_id, b)).all()).some((e) => e.action === 'cancel_rejected'),
    ).toBe(true);

    const other = await t.login('company');
    expect((await post(t, `/api/package/${b}/cancel/`, other.token, {})).status).toBe(404);
    expect((await post(t, `/api/package/${b}/cancel/`, w.d1.token, {})).status).toBe(403);
  });

  it("refuses unknown codes, other drivers' parcels and late conflicting actions, and records each", async () => {
    const w = await world();
    const { t } = w;
    const id = await w.parcel('HAWB-7');
    await w.assign(w.d1.id, [id]);

    const unknown = await post(t, '/api/scan-package-api/inbound-scan/', w.d1.token, { barcode: 'NOPE-1' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, code: 'not_found' });
    expect(unknown.body.message).toContain('NOPE-1');
    expect(await t.db.select().from(scanException).all()).toMatchObject([
      { code: 'NOPE-1', action: 'inbound', actor_id: w.d1.id, resolved: false },
    ]);

    const foreign = await post(t, '/api/scan-package-api/inbound-scan/', w.d2.token, { barcode: 'HAWB-7' });
    expect(foreign.status).toBe(409);
    expect(foreign.body.message).toMatch(/HAWB-7 is not assigned to you/);
    // Not yours, and nothing more: no id, no status of another driver's parcel.
    expect(foreign.body.details).toEqual({ hawb: 'HAWB-7', reason: 'not_yours' });

    await post(t, '/api/scan-package-api/inbound-scan/', w.d1.token, { barcode: 'HAWB-7' });
    expect((await post(t, `/api/package-delivered/${id}/deliver/`, w.d1.token, {})).status).toBe(200);
    // Final state wins: a later failure (say, replayed from another phone) changes nothing.
    const late = await post(
      t,
      `/api/package-delivered/${id}/fail/`,
      w.d1.token,
      { failed_delivery_status: w.reasonId },
      { 'Idempotency-Key': 'late-fail-0001' },
    );
    expect(late.status).toBe(409);
    expect(late.body.details).toMatchObject({ status: 'delivered', reason: 'final' });
    expect((await w.status(id))?.status).toBe('delivered');
    const actions = (await t.db.select().from(packageEvent).where(eq(packageEvent.package_id, id)).all()).map((e) => e.action);
    expect(actions).toContain('scan_rejected');
    expect(actions).toContain('fail_rejected');
    // The refusal is the stored answer of its key: replaying it repeats it.
    const replay = await post(
      t,
      `/api/package-delivered/${id}/fail/`,
      w.d1.token,
      { failed_delivery_status: w.reasonId },
      { 'Idempotency-Key': 'late-fail-0001' },
    );
    expect(replay.status).toBe(409);
    expect(replay.res.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('accepts an offline delivery of a parcel reassigned meanwhile and flags it for a supervisor', async () => {
    const w = await world();
    const { t } = w;
    const id = await w.parcel('HAWB-8');
    await w.assign(w.d1.id, [id]);
    await post(t, '/api/scan-package-api/inbound-scan/', w.d1.token, { barcode: 'HAWB-8' });
    await w.assign(w.d2.id, [id]);
    t.clock.advance(3600_000);

    const done = await post(t, `/api/package-delivered/${id}/deliver/`, w.d1.token, {
      recipient_name: 'Rita',
      occurred_at: '2026-01-05T08:10:00Z',
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ flagged: true, package: { status: 'delivered', assigned_to_id: w.d1.id } });
    expect(await w.status(id)).toMatchObject({ flagged: true, delivered_at: Date.parse('2026-01-05T08:10:00Z') });
    expect((await w.status(id))?.flag_reason).toMatch(/Dana Driver.*reassigned to Eli Driver/);

    const flagged = await t.json<{ count: number; results: { id: number }[] }>(
      'GET',
      '/api/package-delivered/flagged/',
      w.supervisor.token,
    );
    expect(flagged.body.count).toBe(1);
    expect(flagged.body.results[0]?.id).toBe(id);
    expect((await t.json('GET', '/api/package-delivered/flagged/', w.d1.token)).status).toBe(403);
    const resolved = await post(t, `/api/package-delivered/${id}/resolve-flag/`, w.supervisor.token, { note: 'checked with Dana' });
    expect(resolved.status).toBe(200);
    expect((await t.json<{ count: number }>('GET', '/api/package-delivered/flagged/', w.supervisor.token)).body.count).toBe(0);

    // The new driver's later delivery loses: the parcel is already delivered (final wins, with the state).
    const second = await post(t, `/api/package-delivered/${id}/deliver/`, w.d2.token, {});
    expect(second.status).toBe(409);
    expect(second.body.details).toMatchObject({ status: 'delivered', reason: 'final' });
    // A driver who never had a parcel cannot deliver it by id at all.
    const d3 = await t.login('driver');
    const other = await w.parcel('HAWB-9');
    await w.assign(w.d2.id, [other]);
    expect((await post(t, `/api/package-delivered/${other}/deliver/`, d3.token, {})).status).toBe(404);
  });

  it('refuses a delivery naming a file the server lacks (409, not kept against the key), then takes it after the upload', async () => {
    const w = await world();
    const { t } = w;
    const id = await w.parcel('HAWB-10');
    await w.assign(w.d1.id, [id]);
    await post(t, '/api/scan-package-api/inbound-scan/', w.d1.token, { barcode: 'HAWB-10' });
    const body = { recipient_name: 'Rita', photos: ['offline-photo-1'], signature: 'offline-sig-1' };
    const headers = { 'Idempotency-Key': 'deliver-hawb10-0001', 'X-Device-Id': 'phone-1', 'X-Device-Seq': '7' };

    const first = await post(t, `/api/package-delivered/${id}/deliver/`, w.d1.token, body, headers);
    expect(first.status).toBe(409);
    expect(first.body.details).toMatchObject({ missing_files: ['offline-photo-1', 'offline-sig-1'] });
    expect((await w.status(id))?.status).toBe('out_for_delivery');

    await w.upload(w.d1.token, png(1), 'offline-photo-1');
    const still = await post(t, `/api/package-delivered/${id}/deliver/`, w.d1.token, body, headers);
    expect(still.status).toBe(409);
    expect(still.body.details).toMatchObject({ missing_files: ['offline-sig-1'] });

    await w.upload(w.d1.token, png(2), 'offline-sig-1', 'signature');
    const ok = await post(t, `/api/package-delivered/${id}/deliver/`, w.d1.token, body, headers);
    expect(ok.status).toBe(200);
    expect(ok.body.proof).toMatchObject({ photo_one: { mime: 'image/png' }, signature: { mime: 'image/png' }, photo_two: null });
    const replay = await post(t, `/api/package-delivered/${id}/deliver/`, w.d1.token, body, headers);
    expect(replay.status).toBe(200);
    expect(replay.res.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await t.db.select().from(packagePhoto).where(eq(packagePhoto.package_id, id)).all()).toHaveLength(2);

    // Another driver's upload cannot be named as proof.
    const id2 = await w.parcel('HAWB-11');
    await w.assign(w.d1.id, [id2]);
    const foreignFile = await w.upload(w.d2.token, png(3), 'd2-photo-0001');
    const bad = await post(t, `/api/package-delivered/${id2}/deliver/`, w.d1.token, { photos: [foreignFile] });
    expect(bad.status).toBe(400);
    expect((await w.status(id2))?.status).toBe('assigned');
  });
});
