import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeMatches, type DoorInfo } from '../../shared/door';
import { messageDispatcherFor } from '../../server/services/messages/setup';
import { httpSmsProvider, smtpTransport } from '../../server/services/messages/transports';
import { WRONG_CODE_LIMIT } from '../../server/services/door/check';
import { packageDoor, refusedDelivery } from '../../server/db/schema/index';
import { makeApp } from '../helpers/app';
import { startSmsStandIn, startSmtp } from '../helpers/messaging';

const png = (n: number) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, n & 255, (n >> 8) & 255]);
type ErrorJson = { code: string; message: string; errors: { path: string; message: string }[] };
type SyncJson = { upserts: { packages: { id: number; hawb: string; door?: DoorInfo }[] } };

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let sms: Awaited<ReturnType<typeof startSmsStandIn>>;
beforeAll(async () => {
  smtp = await startSmtp();
  sms = await startSmsStandIn();
});
afterAll(async () => {
  await smtp.close();
  await sms.close();
});

async function world() {
  const t = await makeApp({ config: { publicUrl: 'https://track.example.com' } });
  const admin = await t.login('admin');
  const shipper = await t.login('company');
  const driver = await t.login('driver');
  const dispatcher = messageDispatcherFor(
    t.app.deps,
    {
      email: smtpTransport(smtp.url),
      sms: httpSmsProvider({ url: sms.url, accountSid: sms.sid, authToken: sms.authToken, from: '+61400000000' }),
      fromAddress: 'notices@courier.example',
    },
    { baseDelayMs: 60_000 },
  );
  const parcel = async (hawb: string, extra: Record<string, unknown> = {}) => {
    const res = await t.json<{ id: number }>('POST', '/api/package/', shipper.token, {
      hawb,
      customer_name: 'Robin',
      customer_phone: `+61 400 000 10${hawb.slice(-1)}`,
      recipient_email: `robin.${hawb.toLowerCase()}@example.net`,
      ...extra,
    });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const assign = async (id: number) =>
    expect((await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: [id] })).status).toBe(
      200,
    );
  const load = async (hawb: string) =>
    expect((await t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, { barcode: hawb })).status).toBe(200);
  const feed = async () => (await t.json<SyncJson>('GET', '/api/sync/changes/?cursor=0', driver.token)).body.upserts.packages;
  const deliver = (id: number, body: Record<string, unknown>) =>
    t.json<ErrorJson & { proof: { checked: Record<string, unknown> } }>(
      'POST',
      `/api/package-delivered/${id}/deliver/`,
      driver.token,
      body,
    );
  const token = async (id: number) => (await t.json<{ token: string }>('GET', `/api/package/${id}/tracking-link/`, admin.token)).body.token;
  return { t, admin, shipper, driver, dispatcher, parcel, assign, load, feed, deliver, token };
}

describe('proof at the door (issue 34)', () => {
  it('signature + age 18 + one-time code: the code reaches the recipient, the phone gets only its hash, the server checks all', async () => {
    const w = await world();
    const rules = await w.t.json('PUT', '/api/company-proof-rules/', w.shipper.token, { signature: true, min_age: 18, code: true });
    expect(rules.status).toBe(200);
    expect((await w.t.json('PUT', '/api/company-proof-rules/', w.driver.token, { signature: true })).status).toBe(403);
    expect((await w.t.json('PUT', '/api/company-proof-rules/', w.shipper.token, { min_age: 300 })).body).toMatchObject({
      code: 'validation_error',
    });

    const id = await w.parcel('DOOR-1');
    // The label says what the door needs (pdftotext, as poppler reads it).
    const pdf = await w.t.call('GET', `/api/package/labels/?ids=${id}`, w.admin.token);
    expect(pdf.status).toBe(200);
    const file = join(mkdtempSync(join(tmpdir(), 'door-label-')), 'label.pdf');
    writeFileSync(file, new Uint8Array(await pdf.arrayBuffer()));
    expect((await promisify(execFile)('pdftotext', [file, '-'])).stdout.replace(/\s+/g, ' ')).toContain(
      'AT THE DOOR: Signature · Age 18+ (ID) · One-time code',
    );
    await w.assign(id);
    await w.load('DOOR-1');
    expect(await w.dispatcher.runOnce()).toBe(2);
    const mail = smtp.mails.find((m) => m.to.includes('robin.door-1@example.net'))!;
    const code = /Your delivery code: (\d{6})/.exec(mail.text)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const text = sms.accepted().find((r) => r.form.get('To') === '+61400000101')!;
    expect(text.form.get('Body')).toContain(`Delivery code: ${code!}`);

    const [copy] = await w.feed();
    expect(copy!.door!.requirements).toMatchObject({ signature: true, min_age: 18, code: true, photos: 0 });
    expect(JSON.stringify(copy)).not.toContain(`"${code!}"`);
    expect(await codeMatches(code!, copy!.door!.code!)).toBe(true);

    const sig = await w.t.upload(w.driver.token, png(1));
    const none = await w.deliver(id, {});
    expect(none.status).toBe(422);
    expect(none.body.code).toBe('validation_error');
    expect(none.body.errors.map((e) => e.path)).toEqual(['signature', 'age', 'code']);
    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await w.deliver(id, { signature: sig, age: { dob: '1990-05-01' }, code: wrongCode });
    expect(wrong.status).toBe(422);
    expect(wrong.body.message).toBe('The one-time code is wrong');
    // 18 tomorrow in Sydney: under age today.
    const young = await w.deliver(id, { signature: sig, age: { dob: '2008-11-29' }, code, occurred_at: '2026-11-28T02:00:00Z' });
    expect(young.status).toBe(422);
    expect(young.body.errors).toEqual([{ path: 'age.dob', message: 'The recipient is 17: under 18, do not hand it over' }]);

    const ok = await w.deliver(id, { signature: sig, age: { dob: '1990-05-01' }, code, occurred_at: '2026-11-28T02:00:00Z' });
    expect(ok.status).toBe(200);
    expect(ok.body.proof.checked).toMatchObject({
      outcome: 'handed',
      signature: true,
      code: true,
      age: { years: 36, min: 18, id_type: null },
    });
    // A replay without the code changes nothing.
    const replay = await w.deliver(id, { signature: sig });
    expect(replay.status).toBe(409);
    const view = await w.t.json<{ door: { checked: { code: boolean } } }>('GET', `/api/public/track/${await w.token(id)}/`);
    expect(view.body.door.checked.code).toBe(true);
    // The refused attempts are on record for a supervisor, the parcel flagged.
    expect((await w.t.db.select().from(refusedDelivery).where(eq(refusedDelivery.package_id, id)).all()).map((r) => r.message)).toEqual([
      expect.stringContaining('lacks required proof'),
      'The one-time code is wrong',
      'The recipient is 17: under 18, do not hand it over',
      'Parcel DOOR-1 is delivered (final); it cannot become delivered',
    ]);
  }, 90_000);

  it('stops guessing: after the limit of wrong codes only the office can deliver it', async () => {
    const w = await world();
    const id = await w.parcel('DOOR-2', { proof_requirements: { code: true } });
    await w.assign(id);
    await w.load('DOOR-2');
    const real = (await w.t.db.select().from(packageDoor).where(eq(packageDoor.package_id, id)).get())!.code!;
    const guesses = Array.from({ length: 1000 }, (_, i) => String(100000 + i))
      .filter((g) => g !== real)
      .slice(0, WRONG_CODE_LIMIT);
    for (const g of guesses) expect((await w.deliver(id, { code: g })).body.message).toBe('The one-time code is wrong');
    // Even the right code now: the guessing stops here.
    const blocked = await w.deliver(id, { code: real });
    expect(blocked.status).toBe(409);
    expect(blocked.body.message).toMatch(/Too many wrong codes/);
  });

  it("a parcel raises its company's default on create and update; the scan at the door reads its own label", async () => {
    const w = await world();
    await w.t.json('PUT', '/api/company-proof-rules/', w.shipper.token, { photos: 1 });
    const id = await w.parcel('DOOR-3', { proof_requirements: { scan: true, photos: 0 } });
    expect(
      (await w.t.json('PATCH', `/api/package/${id}/`, w.shipper.token, { proof_requirements: { scan: true, recipient_name: true } }))
        .status,
    ).toBe(200);
    await w.assign(id);
    const [copy] = await w.feed();
    expect(copy!.door!.requirements).toMatchObject({ photos: 1, scan: true, recipient_name: true, code: false });
    const photo = await w.t.upload(w.driver.token, png(3));
    expect((await w.deliver(id, { photos: [photo], recipient_name: 'Kim', door_scan: 'DOOR-9' })).body.errors).toEqual([
      { path: 'door_scan', message: "The barcode scanned (DOOR-9) is not this parcel's" },
    ]);
    const ok = await w.deliver(id, { photos: [photo], recipient_name: 'Kim', door_scan: 'DOOR-3' });
    expect(ok.status).toBe(200);
    expect(ok.body.proof.checked).toMatchObject({ door_scan: true, photos: 1, recipient_name: true });
  });

  it("the recipient's choice reaches the phone, a late one is marked late, and leaving the parcel needs it and a photo", async () => {
    const w = await world();
    const early = await w.parcel('DOOR-4');
    const late = await w.parcel('DOOR-5');
    const none = await w.parcel('DOOR-6');
    const earlyToken = await w.token(early);
    const chose = await w.t.json<{ message: string }>('POST', `/api/public/track/${earlyToken}/choice/`, null, {
      kind: 'safe_place',
      note: 'the back door',
    });
    expect(chose.status).toBe(200);
    expect(chose.body.message).toBe('Leave in a safe place: the back door: the driver will see it');
    for (const id of [early, late, none]) await w.assign(id);
    await w.load('DOOR-5');
    const lateToken = await w.token(late);
    const lateAnswer = await w.t.json<{ message: string }>('POST', `/api/public/track/${lateToken}/choice/`, null, {
      kind: 'neighbour',
      neighbour: 'Sam at no. 12',
    });
    expect(lateAnswer.body.message).toMatch(/already on its way/);
    expect((await w.t.json('POST', `/api/public/track/${lateToken}/choice/`, null, { kind: 'safe_place', note: '' })).body).toMatchObject({
      code: 'validation_error',
    });

    const copies = new Map((await w.feed()).map((p) => [p.id, p]));
    expect(copies.get(early)!.door!.choice).toMatchObject({ kind: 'safe_place', note: 'the back door', late: false });
    expect(copies.get(late)!.door!.choice).toMatchObject({ kind: 'neighbour', neighbour: 'Sam at no. 12', late: true });
    expect(copies.get(none)!.door).toBeUndefined();
    const view = await w.t.json<{ door: { choice: { late: boolean } } }>('GET', `/api/public/track/${lateToken}/`);
    expect(view.body.door.choice.late).toBe(true);

    const photo = await w.t.upload(w.driver.token, png(4));
    expect((await w.deliver(none, { outcome: 'safe_place', photos: [photo] })).body.errors.map((e) => e.path)).toEqual(['outcome']);
    expect((await w.deliver(early, { outcome: 'safe_place' })).body.errors.map((e) => e.path)).toEqual(['photos']);
    expect((await w.deliver(early, { outcome: 'neighbour', photos: [photo], recipient_name: 'X' })).body.errors.map((e) => e.path)).toEqual(
      ['outcome'],
    );
    const left = await w.deliver(early, { outcome: 'safe_place', photos: [photo] });
    expect(left.status).toBe(200);
    expect(left.body.proof.checked).toMatchObject({ outcome: 'safe_place', choice: { note: 'the back door' } });
    const photo2 = await w.t.upload(w.driver.token, png(5));
    expect((await w.deliver(late, { outcome: 'neighbour', photos: [photo2], recipient_name: 'Sam' })).status).toBe(200);
    // Once delivered, the choice can no longer change.
    expect((await w.t.json('POST', `/api/public/track/${earlyToken}/choice/`, null, { kind: 'collect_at_depot' })).status).toBe(409);
  });
});
