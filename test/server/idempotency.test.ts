import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { device, idempotencyKey, packageEvent, storedFile } from '../../server/db/schema/index';
import { pruneAnswers } from '../../server/http/idempotency';
import { makeApp, type TestApp } from '../helpers/app';

const DAY = 24 * 3600_000;
const headers = (key: string, seq?: number, dev = 'phone-1') => ({
  'idempotency-key': key,
  'x-device-id': dev,
  ...(seq != null ? { 'x-device-seq': String(seq) } : {}),
});

async function driverWithParcel(t: TestApp, hawb = 'ID1') {
  const admin = await t.login('admin');
  const driver = await t.login('driver');
  const pkg = await t.json<{ id: number }>('POST', '/api/package/', admin.token, { hawb });
  await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: [pkg.body.id] });
  return { admin, driver, packageId: pkg.body.id };
}

const events = (t: TestApp, packageId: number, action?: string) =>
  t.db
    .select()
    .from(packageEvent)
    .where(and(eq(packageEvent.package_id, packageId), action ? eq(packageEvent.action, action) : undefined))
    .all();

/** A multipart body with a fixed boundary, so two sends are byte-for-byte the same request. */
function fixedMultipart(fields: Record<string, string>, file: Uint8Array): { body: Uint8Array; type: string } {
  const boundary = 'courier-test-boundary';
  const parts: Uint8Array[] = [];
  const enc = new TextEncoder();
  for (const [k, v] of Object.entries(fields))
    parts.push(enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`),
    file,
    enc.encode(`\r\n--${boundary}--\r\n`),
  );
  const body = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    body.set(p, at);
    at += p.byteLength;
  }
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

// Smallest valid PNG (1x1): the upload checks content, not names.
const PNG = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
);

describe('Idempotency-Key', () => {
  it('replays the stored answer for the same key and body, applying the action once', async () => {
    const t = await makeApp();
    const { driver, packageId } = await driverWithParcel(t);
    const body = { barcode: 'ID1', occurred_at: '2026-01-05T07:00:00.000Z' };
    const first = await t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, body, headers('key-replay-1', 1));
    expect(first.status).toBe(200);
    expect(first.res.headers.get('idempotent-replayed')).toBeNull();
    const again = await t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, body, headers('key-replay-1', 1));
    expect(again.status).toBe(200);
    expect(again.res.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await events(t, packageId, 'inbound_scan')).toHaveLength(1);
    expect(await events(t, packageId, 'scan_repeat')).toHaveLength(0);
  });

  it('answers 422 when a key is reused for another body, path or user', async () => {
    const t = await makeApp();
    const { driver } = await driverWithParcel(t);
    await t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, { barcode: 'ID1' }, headers('key-mismatch'));
    const other = await t.json<{ code: string }>(
      'POST',
      '/api/scan-package-api/inbound-scan/',
      driver.token,
      { barcode: 'ID2' },
      headers('key-mismatch'),
    );
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_mismatch');
    const someoneElse = await t.login('driver');
    const stolen = await t.json(
      'POST',
      '/api/scan-package-api/inbound-scan/',
      someoneElse.token,
      { barcode: 'ID1' },
      headers('key-mismatch'),
    );
    expect(stolen.status).toBe(422);
    const badKey = await t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, { barcode: 'ID1' }, headers('short'));
    expect(badKey.status).toBe(400);
    const badSeq = await t.json(
      'POST',
      '/api/scan-package-api/inbound-scan/',
      driver.token,
      { barcode: 'ID1' },
      { 'idempotency-key': 'key-bad-seq-1', 'x-device-id': 'p', 'x-device-seq': '-3' },
    );
    expect(badSeq.status).toBe(400);
  });

  it('records business rejections as processed: replayed, with their trace written once', async () => {
    const t = await makeApp();
    const { driver } = await driverWithParcel(t);
    const other = await driverWithParcel(t, 'ID9');
    const unknown = await t.json(
      'POST',
      '/api/scan-package-api/inbound-scan/',
      driver.token,
      { barcode: 'NOPE' },
      headers('key-rej-404', 1),
    );
    expect(unknown.status).toBe(404);
    const unknownAgain = await t.json(
      'POST',
      '/api/scan-package-api/inbound-scan/',
      driver.token,
      { barcode: 'NOPE' },
      headers('key-rej-404', 1),
    );
    expect(unknownAgain.status).toBe(404);
    expect(unknownAgain.res.headers.get('idempotent-replayed')).toBe('true');

    const before = (await events(t, other.packageId)).length;
    for (let i = 0; i < 2; i++) {
      const res = await t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, { barcode: 'ID9' }, headers('key-rej-409', 2));
      expect(res.status).toBe(409);
    }
    // The refused scan leaves one trace on the parcel, not one per retry.
    expect((await events(t, other.packageId)).length).toBe(before + 1);

    const invalid = await t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, { barcode: '' }, headers('key-rej-400', 3));
    expect(invalid.status).toBe(400);
    const invalidAgain = await t.json(
      'POST',
      '/api/scan-package-api/inbound-scan/',
      driver.token,
      { barcode: '' },
      headers('key-rej-400', 3),
    );
    expect(invalidAgain.res.headers.get('idempotent-replayed')).toBe('true');
    // A refused upload (checked before the transaction) is an answer too.
    const { body: text, type } = fixedMultipart({ kind: 'photo' }, new TextEncoder().encode('not an image at all'));
    for (let i = 0; i < 2; i++) {
      const res = await t.app.request('/api/file/', {
        method: 'POST',
        body: new Blob([text.slice()]),
        headers: { ...headers('key-rej-415'), 'content-type': type, authorization: `Bearer ${driver.token}` },
      });
      expect(res.status).toBe(415);
      expect(res.headers.get('idempotent-replayed')).toBe(i === 0 ? null : 'true');
    }
    const stored = (await t.db.select().from(idempotencyKey).all()).map((r) => [r.key, r.status]);
    expect(stored).toEqual(
      expect.arrayContaining([
        ['key-rej-404', 404],
        ['key-rej-409', 409],
        ['key-rej-400', 400],
        ['key-rej-415', 415],
      ]),
    );
    // A refused token is not an answer: nothing stored, the device retries after logging in.
    const unauth = await t.json(
      'POST',
      '/api/scan-package-api/inbound-scan/',
      'not-a-valid-token-at-all',
      { barcode: 'ID1' },
      headers('key-rej-401', 4),
    );
    expect(unauth.status).toBe(401);
    expect(await t.db.select().from(idempotencyKey).where(eq(idempotencyKey.key, 'key-rej-401')).get()).toBeUndefined();
  });

  it('applies concurrent twins with the same key once and gives them one answer', async () => {
    const t = await makeApp();
    const { driver, packageId } = await driverWithParcel(t);
    const body = { barcode: 'ID1' };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, body, headers('key-twins', 1))),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    for (const a of answers) expect(a.body).toEqual(answers[0].body);
    expect(answers.filter((a) => a.res.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
    expect(await events(t, packageId, 'inbound_scan')).toHaveLength(1);
    expect(await events(t, packageId, 'scan_repeat')).toHaveLength(0);

    // Uploads await between their check and their transaction: twins race into it, one row results.
    const { body: form, type } = fixedMultipart({ kind: 'photo' }, PNG);
    const uploads = await Promise.all(
      Array.from({ length: 3 }, async () => {
        const res = await t.app.request('/api/file/', {
          method: 'POST',
          body: new Blob([form.slice()]),
          headers: { ...headers('key-upload-twins'), 'content-type': type, authorization: `Bearer ${driver.token}` },
        });
        return { status: res.status, body: (await res.json()) as { id: number } };
      }),
    );
    expect(
      uploads.map((u) => u.status),
      JSON.stringify(uploads[0].body),
    ).toEqual([201, 201, 201]);
    expect(new Set(uploads.map((u) => u.body.id)).size).toBe(1);
    expect(await t.db.select().from(storedFile).all()).toHaveLength(1);
  });

  it("keeps each device's highest seq forever and drops keys after the retention", async () => {
    const t = await makeApp();
    const { driver } = await driverWithParcel(t);
    await t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, { barcode: 'ID1' }, headers('key-seq-5', 5, 'phone-seq'));
    await t.json('POST', '/api/scan-package-api/inbound-scan/', driver.token, { barcode: 'NOPE' }, headers('key-seq-3', 3, 'phone-seq'));
    const row = () => t.db.select().from(device).where(eq(device.device_id, 'phone-seq')).get();
    expect(await row()).toMatchObject({ user_id: driver.id, last_seq: 5 });
    expect(await pruneAnswers(t.db, t.clock.now() - 30 * DAY)).toBe(0);
    t.clock.advance(31 * DAY);
    expect(await pruneAnswers(t.db, t.clock.now() - t.app.deps.config.idempotencyRetentionMs)).toBe(2);
    expect((await row())?.last_seq).toBe(5);
  });
});
