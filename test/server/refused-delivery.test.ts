/**
 * A delivery the server refuses (the office cancelled the parcel while the driver was offline, or it
 * was already delivered) still happened at the door: its proof stays on the server with the refused
 * attempt, the parcel is flagged for a supervisor, and a replay of the same action changes nothing.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pkg } from '../../server/db/schema/index';
import { makeApp } from '../helpers/app';

const png = (n: number) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, n & 255, (n >> 8) & 255]);
const jpeg = (n: number) => new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, n & 255]);
type Json = Record<string, unknown>;
interface Refused {
  id: number;
  code: string;
  status: string;
  recipient_name: string | null;
  driver: number;
  files: { slot: string; id: number; url: string }[];
}

async function world() {
  const t = await makeApp();
  const admin = await t.login('admin');
  const supervisor = await t.login('supervisor');
  const d1 = await t.login('driver', { name: 'Dana Driver' });
  const d2 = await t.login('driver', { name: 'Eli Driver' });
  const shipper = await t.login('company');
  const parcel = async (hawb: string, driver: number) => {
    const res = await t.json<{ id: number }>('POST', '/api/package/', shipper.token, {
      hawb,
      customer_name: 'Rita Recipient',
      postcode: 2026,
    });
    expect(res.status).toBe(201);
    expect((await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver, packages: [res.body.id] })).status).toBe(200);
    return res.body.id;
  };
  const upload = (token: string, bytes: Uint8Array, clientId: string, kind = 'photo') =>
    t.upload(token, bytes, { client_id: clientId, kind });
  const row = (id: number) => t.db.select().from(pkg).where(eq(pkg.id, id)).get();
  const count = async (query: SQL) => Number((await t.db.values<[number]>(query))[0]![0]);
  return { t, admin, supervisor, d1, d2, shipper, parcel, upload, row, count };
}

describe('refused deliveries keep their proof and reach a supervisor', () => {
  it('a parcel cancelled by the office while the driver was offline: refused, proof kept with the refusal, flagged', async () => {
    const w = await world();
    const { t } = w;
    const id = await w.parcel('REF-1', w.d1.id);
    // The driver's phone has the parcel; the office cancels it; the driver, offline, delivers with proof.
    const cancel = await t.json('POST', `/api/package/${id}/cancel/`, w.admin.token, { note: 'Shipper called it off' });
    expect(cancel.status).toBe(200);
    const photo = await w.upload(w.d1.token, jpeg(1), 'photo-client-0001');
    const sig = await w.upload(w.d1.token, png(2), 'sig-client-00001', 'signature');
    const key = { 'idempotency-key': 'refused-delivery-key-1', 'x-device-id': 'phone-1', 'x-device-seq': '7' };
    const body = {
      photos: ['photo-client-0001'],
      signature: 'sig-client-00001',
      recipient_name: 'Rita',
      occurred_at: '2026-01-05T08:10:00Z',
    };
    const refused = await t.json<Json>('POST', `/api/package-delivered/${id}/deliver/`, w.d1.token, body, key);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'invalid_transition', details: { status: 'cancelled', reason: 'final' } });

    // Still cancelled, but flagged for a supervisor with a reason that says what happened.
    expect(await w.row(id)).toMatchObject({ status: 'cancelled', flagged: true });
    expect((await w.row(id))?.flag_reason).toMatch(/Dana Driver refused \(the office had cancelled it\); 2 proof files kept/);
    const flagged = await t.json<{ count: number; results: { id: number }[] }>(
      'GET',
      '/api/package-delivered/flagged/',
      w.supervisor.token,
    );
    expect(flagged.body.results.map((p) => p.id)).toContain(id);

    // The proof is attached to the refused attempt, readable by the supervisor.
    const list = await t.json<{ results: Refused[] }>('GET', `/api/package-delivered/${id}/refused/`, w.supervisor.token);
    expect(list.status).toBe(200);
    expect(list.body.results).toHaveLength(1);
    expect(list.body.results[0]).toMatchObject({
      code: 'invalid_transition',
      status: 'cancelled',
      recipient_name: 'Rita',
      driver: w.d1.id,
    });
    expect(list.body.results[0]!.files.map((f) => [f.slot, f.id])).toEqual([
      ['photo_one', photo],
      ['signature', sig],
    ]);
    const file = await t.call('GET', list.body.results[0]!.files[0]!.url, w.supervisor.token);
    expect(file.status).toBe(200);
    expect(await w.count(sql`select count(*) n from package_event where package_id = ${id} and action = 'deliver_rejected'`)).toBe(1);

    // The phone retrying the same action (lost answer) gets the same refusal and records nothing twice.
    const replay = await t.json<Json>('POST', `/api/package-delivered/${id}/deliver/`, w.d1.token, body, key);
    expect(replay.status).toBe(409);
    expect(replay.res.headers.get('idempotent-replayed')).toBe('true');
    expect(await w.count(sql`select count(*) n from refused_delivery where package_id = ${id}`)).toBe(1);

    // Drivers and companies do not read the refusal list; the supervisor clears the flag once looked at.
    expect((await t.json('GET', `/api/package-delivered/${id}/refused/`, w.d1.token)).status).toBe(403);
    expect((await t.json('GET', `/api/package-delivered/${id}/refused/`, w.shipper.token)).status).toBe(403);
    expect(
      (await t.json('POST', `/api/package-delivered/${id}/resolve-flag/`, w.supervisor.token, { note: 'parcel back at depot' })).status,
    ).toBe(200);
    expect((await w.row(id))?.flagged).toBe(false);
  });

  it('a parcel already delivered (from the driver’s other phone): the late delivery is refused and flagged too', async () => {
    const w = await world();
    const { t } = w;
    const id = await w.parcel('REF-2', w.d1.id);
    expect((await t.json('POST', '/api/scan-package-api/inbound-scan/', w.d1.token, { barcode: 'REF-2' })).status).toBe(200);
    // d1 delivers online; d1's second phone (offline all along) delivers again later with a photo.
    expect((await t.json('POST', `/api/package-delivered/${id}/deliver/`, w.d1.token, { note: 'porch' })).status).toBe(200);
    await w.upload(w.d1.token, jpeg(3), 'late-photo-0001');
    const late = await t.json<Json>('POST', `/api/package-delivered/${id}/deliver/`, w.d1.token, { photos: ['late-photo-0001'] });
    expect(late.status).toBe(409);
    expect(await w.row(id)).toMatchObject({ status: 'delivered', flagged: true });
    const list = await t.json<{ results: Refused[] }>('GET', `/api/package-delivered/${id}/refused/`, w.supervisor.token);
    expect(list.body.results[0]).toMatchObject({ status: 'delivered', files: [{ slot: 'photo_one' }] });
    // The accepted delivery's proof is untouched by the refused one.
    const proof = await t.json<{ photo_one: unknown }>('GET', `/api/package-delivered/${id}/`, w.supervisor.token);
    expect(proof.body.photo_one).toBeNull();
  });

  it('a delivery naming a file not uploaded yet is not a refusal: nothing is kept or flagged, the device uploads and repeats', async () => {
    const w = await world();
    const { t } = w;
    const id = await w.parcel('REF-3', w.d1.id);
    const missing = await t.json<Json>('POST', `/api/package-delivered/${id}/deliver/`, w.d1.token, { photos: ['not-uploaded-001'] });
    expect(missing.status).toBe(409);
    expect((await w.row(id))?.flagged).toBe(false);
    expect(await w.count(sql`select count(*) n from refused_delivery`)).toBe(0);
  });
});
