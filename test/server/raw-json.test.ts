import { describe, expect, it } from 'vitest';
import { RawJson, rawArray, rawObject } from '../../server/http/rawJson';
import { makeApp } from '../helpers/app';

/** A row as SQLite's json_object makes it: already JSON text. */
const row = (value: unknown) => new RawJson(JSON.stringify(value));

describe('RawJson', () => {
  it('splices pieces into exactly the text JSON.stringify makes', () => {
    const items = [
      { id: 1, name: 'Zoë 🚚', nested: { a: [1, 2] } },
      { id: 2, name: null },
    ];
    const answer = rawObject({
      success: true,
      skipped: undefined,
      count: 2,
      results: rawArray(items.map(row)),
      empty: rawArray([]),
      none: rawObject({}),
    });
    expect(answer.text).toBe(JSON.stringify({ success: true, count: 2, results: items, empty: [], none: {} }));
    expect(JSON.parse(answer.text)).toEqual({ success: true, count: 2, results: items, empty: [], none: {} });
  });

  it('answers a small text as one string and a large one as its UTF-8 bytes, never joining the pieces', () => {
    const small = rawArray([row({ a: 1 }), row({ b: 'ü' })]);
    expect(small.body()).toBe('[{"a":1},{"b":"ü"}]');

    // 200 rows of ~1.3 KB with two-byte and astral characters: well over V8's 128 KiB string threshold.
    const items = Array.from({ length: 200 }, (_, i) => ({ id: i, name: `Émile ${i} 🚚`, note: 'x'.repeat(1300) }));
    const large = rawObject({ success: true, pending_packages: rawArray(items.map(row)) });
    const body = large.body();
    expect(body).toBeInstanceOf(Uint8Array);
    const expected = Buffer.from(JSON.stringify({ success: true, pending_packages: items }));
    expect(Buffer.from(body as Uint8Array).equals(expected)).toBe(true);
  });
});

describe('a large list over HTTP', () => {
  it("a driver's remaining list of 120 parcels arrives whole: bytes, length and characters as sent", async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const driver = await t.login('driver');
    const ids: number[] = [];
    for (let i = 0; i < 120; i++) {
      const res = await t.json<{ id: number }>('POST', '/api/package/', admin.token, {
        hawb: `RJ${String(i).padStart(4, '0')}`,
        customer_name: `Zoë Ångström ${i} 🚚`,
        customer_address: `${i} Long Road, ${'Suburb '.repeat(20)}`,
      });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    expect((await t.json('POST', '/api/assign-package/assign-driver/', admin.token, { driver: driver.id, packages: ids })).status).toBe(
      200,
    );

    const res = await t.call('GET', `/api/scan-package-api/${driver.id}/remaining-packages-list/`, driver.token);
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.byteLength).toBeGreaterThan(128 * 1024);
    const length = res.headers.get('content-length');
    if (length !== null) expect(Number(length)).toBe(bytes.byteLength);
    const body = JSON.parse(bytes.toString('utf8')) as { pending_packages: { hawb: string; customer_name: string }[] };
    expect(body.pending_packages).toHaveLength(120);
    expect(body.pending_packages[7]).toMatchObject({ hawb: 'RJ0007', customer_name: 'Zoë Ångström 7 🚚' });
    expect(res.headers.get('x-request-id')).toBeTruthy();

    // Compressed as any other answer when the client asks.
    const gz = await t.call('GET', `/api/scan-package-api/${driver.id}/remaining-packages-list/`, driver.token, undefined, {
      'accept-encoding': 'gzip',
    });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
  });
});
