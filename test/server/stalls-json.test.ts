import { describe, expect, it } from 'vitest';
import { JSON_DEFAULT, JSON_SMALL } from '../../server/http/jsonLimits';
import { makeApp } from '../helpers/app';
import { whilePolling } from '../helpers/loopDelay';

/**
 * Security issue 30, JSON bodies: 1-5 MB of deeply nested or many-keyed JSON sent anonymously to
 * `auth/login/` cost 0.6-1.3 s of the request thread each. Now every route reads at most its
 * limit (8 KiB for public routes), applied while the body arrives (server/http/bodyReader.ts), and
 * depth and key count are checked on the bytes before any parsing; refusals are the one error shape.
 */
const MB = 1024 * 1024;
const nested = (bytes: number) => {
  const n = Math.floor(bytes / 8);
  return `${'{"a":['.repeat(n)}1${']}'.repeat(n)}`;
};
const manyKeys = (bytes: number) => {
  const parts: string[] = [];
  for (let i = 0, size = 2; size < bytes; i++) {
    const p = `"k${i}":${i}`;
    parts.push(p);
    size += p.length + 1;
  }
  return `{"email":"a@b.c","password":"x",${parts.join(',')}}`;
};

describe('JSON bodies are bounded before they are parsed (security issue 30)', () => {
  it('1 MB nested or many-keyed bodies to auth/login, while another user polls: refused 413 and nobody waits', async () => {
    const t = await makeApp();
    const other = await t.login('supervisor');
    const poll = async () => expect((await t.call('GET', '/api/profile/', other.token)).status).toBe(200);
    // Just under the 1 MiB every JSON body could be before, so the old code parsed them. Sent without
    // Content-Length, as a chunked body arrives: the old code read each whole before the route's 8 KiB
    // limit was looked at. The requests are built before polling starts: this process is both client
    // and server, and turning a 1 MB string into a request body costs the client time the monitor
    // would charge to the server.
    const bodies = [nested, manyKeys, nested, manyKeys, nested, manyKeys].map((make) => new TextEncoder().encode(make(0.95 * MB)));
    const requests = bodies.map(
      (body) =>
        new Request('http://courier.test/api/auth/login/', { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
    );
    expect(requests.every((r) => !r.headers.has('content-length'))).toBe(true);
    // The hot path first: a first request through a fresh app also compiles its code.
    await t.json('POST', '/api/auth/login/', null, bodies[0]);
    await poll();
    const { result, maxMs, p99Ms, busyMs } = await whilePolling(async () => {
      const out = [];
      for (const req of requests) {
        const res = await t.app.fetch(req);
        out.push({ status: res.status, body: (await res.json()) as unknown });
      }
      return out;
    }, poll);
    console.log(
      `0.95 MB JSON x6 to auth/login: event-loop delay max ${maxMs.toFixed(0)} ms, p99 ${p99Ms.toFixed(0)} ms, loop held ${busyMs} ms at most`,
    );
    // Each is refused at the first chunk past 8 KiB, unparsed: near nothing. Read whole first (the
    // old code) the six held the loop 140-210 ms on a quiet machine.
    expect(busyMs).toBeLessThanOrEqual(50);
    for (const r of result) expect(r).toMatchObject({ status: 413, body: { success: false, code: 'payload_too_large' } });
  }, 120_000);

  it('within the size limit, too deep or too many keys is 400 before parsing; the login itself still works', async () => {
    const t = await makeApp();
    const deep = await t.json('POST', '/api/auth/login/', null, `{"email":${'['.repeat(10)}1${']'.repeat(10)},"password":"x"}`);
    expect(deep.status).toBe(400);
    expect(deep.body).toMatchObject({
      success: false,
      code: 'validation_error',
      message: expect.stringContaining(`${JSON_SMALL.depth} deep`),
    });
    const keys = await t.json('POST', '/api/auth/login/', null, manyKeys(4 * 1024));
    expect(keys.status).toBe(400);
    expect(keys.body).toMatchObject({
      success: false,
      code: 'validation_error',
      message: expect.stringContaining(`${JSON_SMALL.keys} keys`),
    });
    // Brackets and colons inside strings are text, not structure.
    const text = await t.json('POST', '/api/auth/login/', null, { email: 'nobody@example.com', password: '[[[[[[{{{{{:::::::'.repeat(2) });
    expect(text.status).toBe(401);
    const user = await t.login('driver');
    expect(user.token).toBeTruthy();
  });

  it('a signed-in route reads up to its larger limit, and no further; the limits are in the OpenAPI document', async () => {
    const t = await makeApp();
    const admin = await t.login('admin');
    const over = await t.json('POST', '/api/package/', admin.token, `{"hawb":"X","pad":"${'x'.repeat(JSON_DEFAULT.bytes)}"}`);
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ success: false, code: 'payload_too_large' });
    const deep = await t.json(
      'POST',
      '/api/package/',
      admin.token,
      `{"hawb":"X","pad":${'['.repeat(JSON_DEFAULT.depth + 1)}${']'.repeat(JSON_DEFAULT.depth + 1)}}`,
    );
    expect(deep.status).toBe(400);
    const doc = await t.json<{ paths: Record<string, Record<string, { requestBody?: { description?: string } }>> }>(
      'GET',
      '/api/openapi.json',
    );
    expect(doc.body.paths['/auth/login/'].post.requestBody?.description).toContain('at most 8 KiB');
    expect(doc.body.paths['/package/'].post.requestBody?.description).toContain('at most 256 KiB');
  });
});
