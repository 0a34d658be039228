import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { formOf, makeApp } from '../helpers/app';
import { closeServed, served } from '../helpers/served';

afterEach(closeServed);

const json = { 'content-type': 'application/json' };
// 1x1 PNG.
const PNG = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64'),
);

describe('every request gets an HTTP answer, even when its body is never read', () => {
  it('refusals before the body keep the connection: logout with 300 KB, an expired token with an upload, a 413, an unknown route', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const auth = { authorization: `Bearer ${admin.token}` };
    const expired = { authorization: 'Bearer expired-token-of-a-phone-0000' };
    const { send, connections } = await served(t);
    const photo = Buffer.alloc(5 * 1024 * 1024, 0xff);
    const run = async (label: string, call: () => ReturnType<typeof send>, status: number) => {
      const res = await call();
      expect([label, res.status]).toEqual([label, status]);
      // The answer is the API's error shape, not an empty reset.
      if (status >= 400) expect(JSON.parse(res.text)).toMatchObject({ success: false });
      return res;
    };
    await run('logout, no token, 300 KB', () => send('POST', '/api/auth/logout/', json, Buffer.alloc(300 * 1024, 0x20)), 401);
    await run('profile', () => send('GET', '/api/profile/', auth), 200);
    await run(
      'photo, expired session',
      () => send('POST', '/api/file/', { ...expired, 'content-type': 'multipart/form-data; boundary=x' }, photo),
      401,
    );
    await run('profile', () => send('GET', '/api/profile/', auth), 200);
    await run('JSON over its limit', () => send('POST', '/api/package/', { ...auth, ...json }, Buffer.alloc(3 * 1024 * 1024, 0x20)), 413);
    await run('unknown route with a body', () => send('POST', '/api/no-such-thing/', json, Buffer.alloc(200 * 1024, 0x20)), 404);
    await run('profile', () => send('GET', '/api/profile/', auth), 200);
    // All of it over one connection.
    expect(connections()).toBe(1);
  });

  it('a body larger than any limit is answered 413 with Connection: close, and the client can go on', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const auth = { authorization: `Bearer ${admin.token}` };
    const { send, connections } = await served(t);
    const huge = await send(
      'POST',
      '/api/file/',
      { ...auth, 'content-type': 'multipart/form-data; boundary=x' },
      Buffer.alloc(24 * 1024 * 1024, 0x61),
    );
    expect([huge.status, huge.connection]).toEqual([413, 'close']);
    expect(JSON.parse(huge.text)).toMatchObject({ code: 'payload_too_large' });
    expect((await send('GET', '/api/profile/', auth)).status).toBe(200);
    expect(connections()).toBe(2);
  });

  it('chunked bodies (no Content-Length) meet the route own limit while they arrive: 413 at once, the client goes on', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const auth = { authorization: `Bearer ${admin.token}` };
    const { send, connections } = await served(t);
    // 64 KiB pieces, 2 MiB in all: over auth/login's 8 KiB at the first piece, and over the 1 MiB
    // every JSON body could be read to before.
    const piece = Buffer.alloc(64 * 1024, 0x20);
    const chunked = () => Readable.from(Array.from({ length: 32 }, () => piece));
    const refused = await send('POST', '/api/auth/login/', json, chunked());
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.text)).toMatchObject({ success: false, code: 'payload_too_large' });
    expect(JSON.parse(refused.text).message).toContain('8 KiB');
    expect((await send('GET', '/api/profile/', auth)).status).toBe(200);
    // Within the limits, a chunked body is read as any other: a JSON login, and a multipart upload.
    const login = await send(
      'POST',
      '/api/auth/web-login/',
      json,
      Readable.from([Buffer.from(`{"email":"${admin.email}",`), Buffer.from('"password":"wrong"}')]),
    );
    expect(login.status).toBe(401);
    const form = new Response(formOf({ kind: 'photo', file: PNG }));
    const bytes = Buffer.from(await form.arrayBuffer());
    const upload = await send(
      'POST',
      '/api/file/',
      { ...auth, 'content-type': form.headers.get('content-type')! },
      Readable.from([bytes.subarray(0, 100), bytes.subarray(100)]),
    );
    expect(upload.status, upload.text).toBe(201);
    expect(connections()).toBe(1);
  });
});
