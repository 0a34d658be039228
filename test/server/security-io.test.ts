import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sweepOrphanFiles } from '../../server/services/files/sweep';
import { makeApp, type TestApp } from '../helpers/app';

// 1x1 PNG.
const PNG = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64'),
);
/** A "PDF" carrying script: a browser must download it, never render it as this site. */
const pdf = (n = 0, pad = 0) => new TextEncoder().encode(`%PDF-1.4\n<script>alert(${n})</script>\n${'x'.repeat(pad)}\n%%EOF\n`);

/** Every stored file on disk (the `.tmp` of a write in progress included). */
const onDisk = (t: TestApp) =>
  readdirSync(t.filesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(join(t.filesDir, d.name)));

async function upload(t: TestApp, token: string, bytes: Uint8Array, kind: string, clientId?: string) {
  const form = new FormData();
  form.append('file', new File([new Uint8Array(bytes)], 'f.bin'));
  form.append('kind', kind);
  if (clientId) form.append('client_id', clientId);
  return t.json<{ id: number; code: string }>('POST', '/api/file/', token, form);
}

describe('user files: served safely, bounded, and never left behind', () => {
  it('documents are downloaded as attachments, images shown inline; never sniffed', async () => {
    const t = await makeApp();
    const co = await t.login('company');
    const doc = await upload(t, co.token, pdf(), 'document');
    const img = await upload(t, co.token, PNG, 'photo');
    expect([doc.status, img.status]).toEqual([201, 201]);
    const d = await t.call('GET', `/api/file/${doc.body.id}/`, co.token);
    expect(d.headers.get('content-type')).toBe('application/pdf');
    expect(d.headers.get('content-disposition')).toBe(`attachment; filename="file-${doc.body.id}.pdf"`);
    expect(d.headers.get('x-content-type-options')).toBe('nosniff');
    expect(d.headers.get('content-security-policy')).toContain("script-src 'self'");
    const i = await t.call('GET', `/api/file/${img.body.id}/`, co.token);
    expect(i.headers.get('content-disposition')).toBe('inline');
    expect(i.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('a refused upload leaves no bytes: conflicting client id, replay of the same file, over the rate', async () => {
    const t = await makeApp();
    const driver = await t.login('driver');
    expect((await upload(t, driver.token, PNG, 'photo', 'photo-0001')).status).toBe(201);
    expect(onDisk(t)).toHaveLength(1);
    // The same client id with other bytes is refused; the bytes written for it go.
    expect((await upload(t, driver.token, pdf(1), 'document', 'photo-0001')).status).toBe(409);
    // The same photo again (a retry without its Idempotency-Key) answers the stored one; no second copy stays.
    expect((await upload(t, driver.token, PNG, 'photo', 'photo-0001')).status).toBe(201);
    // Refused before anything is written: wrong type.
    expect((await upload(t, driver.token, new TextEncoder().encode('<html>'), 'photo')).status).toBe(415);
    expect(onDisk(t)).toHaveLength(1);
  });

  it('per company: bytes per minute (429) and a total quota (413), counted over all its logins', async () => {
    const t = await makeApp({ config: { uploadBytesPerMinute: 250_000, uploadQuotaBytes: 500_000 } });
    const companyId = await t.company('Hoarder');
    const a = await t.login('company', { companyId });
    const b = await t.login('company', { companyId });
    const other = await t.login('company');
    const big = (n: number) => pdf(n, 100_000);
    expect((await upload(t, a.token, big(1), 'document')).status).toBe(201);
    expect((await upload(t, b.token, big(2), 'document')).status).toBe(201);
    const fast = await upload(t, a.token, big(3), 'document');
    expect([fast.status, fast.body.code]).toEqual([429, 'rate_limited']);
    // Another company is not slowed down by this one.
    expect((await upload(t, other.token, big(4), 'document')).status).toBe(201);
    t.clock.advance(61_000);
    expect((await upload(t, a.token, big(5), 'document')).status).toBe(201);
    expect((await upload(t, b.token, big(6), 'document')).status).toBe(201);
    t.clock.advance(61_000);
    const full = await upload(t, a.token, big(7), 'document');
    expect([full.status, full.body.code]).toEqual([413, 'payload_too_large']);
    expect(onDisk(t)).toHaveLength(5);
  });

  it('the sweep removes bytes no record names once the grace period passed, and nothing else', async () => {
    const t = await makeApp({ config: { orphanFileGraceMs: 3600_000 } });
    const driver = await t.login('driver');
    expect((await upload(t, driver.token, PNG, 'photo')).status).toBe(201);
    // Bytes a crash left between the write and the COMMIT.
    const orphan = await t.app.deps.files.put(pdf(9));
    expect(onDisk(t)).toHaveLength(2);
    expect(await sweepOrphanFiles(t.app.deps)).toBe(0);
    t.clock.set(Date.now() + 2 * 3600_000);
    expect(await sweepOrphanFiles(t.app.deps)).toBe(1);
    expect(await t.app.deps.files.has(orphan)).toBe(false);
    expect(onDisk(t)).toHaveLength(1);
  });
});

describe("scans of another driver's parcel", () => {
  it('answer "not yours" without the parcel\'s id or status', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const d1 = await t.login('driver');
    const d2 = await t.login('driver');
    const made = await t.json<{ id: number }>('POST', '/api/package/', admin.token, { hawb: 'SECRET-1', customer_name: 'Private Person' });
    await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: d1.id, packages: [made.body.id] });
    for (const path of ['/api/scan-package-api/inbound-scan/', '/api/scan-package-api/scan-deliver/']) {
      const res = await t.json<{ message: string; details: Record<string, unknown> }>('POST', path, d2.token, { barcode: 'SECRET-1' });
      expect([path, res.status]).toEqual([path, 409]);
      expect(res.body.details).toEqual({ hawb: 'SECRET-1', reason: 'not_yours' });
      const text = JSON.stringify(res.body);
      expect(text).not.toContain('assigned"');
      expect(text).not.toContain(`"package":${made.body.id}`);
      expect(text).not.toContain('Private Person');
    }
  });
});
