/**
 * A light first load: the PWA's files go out precompressed (brotli or gzip, as the client accepts)
 * with `Vary: Accept-Encoding`; hashed assets are cached for good, index.html and the service worker
 * are revalidated every time; JSON answers above 1 KiB are compressed on the fly, below it they are not.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chooseEncoding } from '../../server/http/compress';
import { makeApp } from '../helpers/app';

function builtPwa(): { dir: string; js: string } {
  const dir = mkdtempSync(join(tmpdir(), 'courier-static-'));
  mkdirSync(join(dir, 'assets'));
  const js = `export const day = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ stop: i, street: 'George Street' })))};`;
  const files: Record<string, string> = {
    'index.html': `<!doctype html><html><head><title>Courier</title></head><body><div id="app"></div>${'<!-- pad -->'.repeat(60)}</body></html>`,
    'sw.js': `self.addEventListener('install', () => {});${' '.repeat(800)}`,
    'assets/index-C3luPffc.js': js,
  };
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, name), text);
    writeFileSync(join(dir, `${name}.br`), brotliCompressSync(Buffer.from(text)));
    writeFileSync(join(dir, `${name}.gz`), gzipSync(Buffer.from(text)));
  }
  writeFileSync(join(dir, 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  return { dir, js };
}

describe('compression and caching', () => {
  it('serves the PWA precompressed with Vary, hashed assets immutable, index.html and sw.js never stale', async () => {
    const { dir, js } = builtPwa();
    const t = await makeApp({ config: { staticDir: dir } });
    const asset = await t.call('GET', '/assets/index-C3luPffc.js', undefined, undefined, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-encoding')).toBe('br');
    expect(asset.headers.get('vary')).toMatch(/Accept-Encoding/i);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    const br = Buffer.from(await asset.arrayBuffer());
    expect(br.length).toBeLessThan(js.length / 3);
    expect(brotliDecompressSync(br).toString()).toBe(js);

    const gz = await t.call('GET', '/assets/index-C3luPffc.js', undefined, undefined, { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(js);
    const plain = await t.call('GET', '/assets/index-C3luPffc.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toMatch(/Accept-Encoding/i);
    expect(await plain.text()).toBe(js);

    for (const path of ['/', '/index.html', '/sw.js', '/packages/12']) {
      const res = await t.call('GET', path, undefined, undefined, { 'accept-encoding': 'br' });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
      expect(res.headers.get('content-encoding'), path).toBe('br');
      expect(res.headers.get('vary'), path).toMatch(/Accept-Encoding/i);
    }
    // Images are not recompressed.
    const icon = await t.call('GET', '/icon-192.png', undefined, undefined, { 'accept-encoding': 'br' });
    expect(icon.headers.get('content-encoding')).toBeNull();
    expect(icon.headers.get('cache-control')).toBe('no-cache');
    // A path outside the build is not served, however it is written.
    const sneaky = await t.call('GET', '/assets/..%2f..%2fetc%2fpasswd');
    const got = await sneaky.text();
    expect(got).toContain('<title>Courier</title>');
    expect(got).not.toContain('root:');
  });

  it('compresses JSON answers above 1 KiB (brotli, else gzip), leaves small ones and unaccepting clients alone', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const co = await t.company();
    for (let i = 0; i < 12; i++) {
      expect(
        (
          await t.json('POST', '/api/package/', admin.token, {
            hawb: `CMP-${i}`,
            company: co,
            customer_name: `Receiver ${i}`,
            customer_address: `${i} George Street, Sydney NSW 2000`,
          })
        ).status,
      ).toBe(201);
    }
    const plain = await t.call('GET', '/api/package/?page_size=50', admin.token);
    const text = await plain.text();
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toMatch(/Accept-Encoding/i);
    expect(text.length).toBeGreaterThan(4096);

    const br = await t.call('GET', '/api/package/?page_size=50', admin.token, undefined, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/Accept-Encoding/i);
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(Number(br.headers.get('content-length'))).toBe(brBytes.length);
    expect(brBytes.length).toBeLessThan(text.length / 4);
    expect(JSON.parse(brotliDecompressSync(brBytes).toString())).toEqual(JSON.parse(text));

    const gz = await t.call('GET', '/api/package/?page_size=50', admin.token, undefined, { 'accept-encoding': 'gzip;q=1, br;q=0' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString())).toEqual(JSON.parse(text));

    // Small answers (an error, one record) go as they are.
    const small = await t.call('GET', '/api/package/999999/', admin.token, undefined, { 'accept-encoding': 'br' });
    expect(small.status).toBe(404);
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(((await small.json()) as { code: string }).code).toBe('not_found');
    // A mutation's answer is compressed too, and still sent once its batch committed (the row is there).
    const created = await t.call(
      'POST',
      '/api/package/',
      admin.token,
      { hawb: 'CMP-BIG', company: co, customer_name: 'R', description_of_goods: 'x'.repeat(900) },
      { 'accept-encoding': 'br' },
    );
    expect(created.status).toBe(201);
    expect(created.headers.get('content-encoding')).toBe('br');
    const body = JSON.parse(brotliDecompressSync(Buffer.from(await created.arrayBuffer())).toString()) as { id: number };
    expect((await t.json('GET', `/api/package/${body.id}/`, admin.token)).status).toBe(200);
  });

  it('reads Accept-Encoding as the RFC says', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding('*;q=0')).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
  });
});
